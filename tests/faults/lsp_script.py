#!/usr/bin/env python3
"""Writes the scripted editor session of the faults sweep (tests/faults/README.md) to a file of
raw Content-Length frames, fed to `srcls` on stdin so the sweep needs no client per run.

Every method of the server's table: initialize (a workspace folder, settings, file watchers),
initialized (the server registers its watchers; the client's answer), $/setTrace; a loose
document opened, with completion, hover, code actions, symbols, formatting, an edit and
completion right after it, pulled diagnostics; in the workspace folder (PROJECT: a srcls.json with
rules, ignore entries, placeholders and a baseline), a source and its srcls.json opened, every
request on them (range formatting, folding and selection ranges, inlay hints too), an edit with
completion and formatting right after it, a whole-text change, new settings, workspace
diagnostics, a srcls.json changed on disk, a close, an unknown method, shutdown, exit.

Usage: lsp_script.py DOCUMENT PROJECT OUT"""
import json
import os
import sys

document, project, out_path = sys.argv[1:4]
project = os.path.abspath(project)
folder = "file://" + project


class Doc:
    def __init__(self, uri, text):
        self.uri, self.text = uri, text
        self.lines = text.split("\n")

    def at(self, needle, after=1):
        for n, line in enumerate(self.lines):
            if needle in line:
                return {"line": n, "character": line.index(needle) + after}
        raise SystemExit("%s is not in %s" % (needle, self.uri))

    def whole(self):
        return {"start": {"line": 0, "character": 0},
                "end": {"line": len(self.lines), "character": 0}}

    def ref(self, **more):
        return dict({"textDocument": {"uri": self.uri}}, **more)

    def open(self):
        return ("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "json", "version": 1, "text": self.text}})


loose = Doc("file:///faults/doc.source.json", open(document).read())
lake = Doc(folder + "/src/lake.source.json",
           open(os.path.join(project, "src", "lake.source.json")).read())
config = Doc(folder + "/srcls.json", open(os.path.join(project, "srcls.json")).read())
formatting = {"options": {"tabSize": 2, "insertSpaces": True}}
capabilities = {
    "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True},
                  "workspaceEdit": {"documentChanges": True,
                                    "resourceOperations": ["create"]}},
    "textDocument": {"completion": {"completionItem": {"snippetSupport": True}},
                     "hover": {"contentFormat": ["markdown", "plaintext"]},
                     "foldingRange": {"rangeLimit": 100}},
}


def requests_on(doc, key):
    """Every request on one document, at `key` (a member name in it)."""
    pos = doc.at('"%s"' % key)
    return [
        ("textDocument/completion", doc.ref(position=pos)),
        ("textDocument/hover", doc.ref(position=pos)),
        ("textDocument/codeAction", doc.ref(range=doc.whole(), context={"diagnostics": []})),
        ("textDocument/documentSymbol", doc.ref()),
        ("textDocument/formatting", doc.ref(**formatting)),
        ("textDocument/rangeFormatting", doc.ref(range={"start": pos, "end": doc.at('"%s"' % key, 8)},
                                                 **formatting)),
        ("textDocument/foldingRange", doc.ref()),
        ("textDocument/selectionRange", doc.ref(positions=[pos])),
        ("textDocument/inlayHint", doc.ref(range=doc.whole())),
        ("textDocument/diagnostic", doc.ref()),
    ]


def insert(doc, version, key, text, after=1):
    at = doc.at('"%s"' % key, after)
    return ("textDocument/didChange", {"textDocument": {"uri": doc.uri, "version": version},
                                       "contentChanges": [{"range": {"start": at, "end": at},
                                                           "text": text}]})


messages = [
    ("initialize", {"processId": None, "rootUri": folder, "capabilities": capabilities,
                    "workspaceFolders": [{"uri": folder, "name": "project"}],
                    "initializationOptions": {"srcls": {"maxDiagnostics": 50}}}),
    ("initialized", {}),
    (None, {"id": "srcls-1", "result": None}),  # the client's answer to registerCapability
    ("$/setTrace", {"value": "messages"}),
    loose.open(),
    ("textDocument/completion", loose.ref(position=loose.at('"credentialType"'))),
    ("textDocument/hover", loose.ref(position=loose.at('"credentialType"'))),
    ("textDocument/codeAction", loose.ref(range=loose.whole(), context={"diagnostics": []})),
    ("textDocument/documentSymbol", loose.ref()),
    ("textDocument/formatting", loose.ref(**formatting)),
    ("$/setTrace", {"value": "off"}),
    insert(loose, 2, "credentialType", "\"s\": 1, "),
    ("textDocument/completion", loose.ref(position=loose.at('"credentialType"'))),
    ("textDocument/diagnostic", loose.ref()),
    lake.open(),
    config.open(),
] + requests_on(lake, "credentialType") + requests_on(config, "rules") + [
    insert(lake, 2, "rootPath", "\"port\": 1, ", 0),
    ("textDocument/completion", lake.ref(position=lake.at('"rootPath"'))),
    ("textDocument/formatting", lake.ref(**formatting)),
    ("textDocument/didChange", {"textDocument": {"uri": lake.uri, "version": 3},
                                "contentChanges": [{"text": lake.text.replace("lake", "lake2")}]}),
    ("textDocument/hover", lake.ref(position=lake.at('"secure"'))),
    ("textDocument/didSave", lake.ref()),
    ("workspace/didChangeConfiguration",
     {"settings": {"srcls": {"maxDiagnostics": 2, "baselineFindings": "show"}}}),
    ("workspace/diagnostic", {"previousResultIds": []}),
    ("workspace/didChangeWatchedFiles", {"changes": [{"uri": config.uri, "type": 2}]}),
    ("textDocument/diagnostic", lake.ref()),
    ("textDocument/didClose", lake.ref()),
    ("textDocument/hover", lake.ref(position=lake.at('"secure"'))),
    ("srcls/unknown", {}),
    ("shutdown", None),
    ("exit", None),
]
notifications = {"initialized", "$/setTrace", "textDocument/didOpen", "textDocument/didChange",
                 "textDocument/didSave", "textDocument/didClose",
                 "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles", "exit"}
with open(out_path, "wb") as out:
    for n, (method, params) in enumerate(messages, 1):
        if method is None:  # a response of the client's
            message = dict({"jsonrpc": "2.0"}, **params)
        else:
            message = {"jsonrpc": "2.0", "method": method}
            if method not in notifications:
                message["id"] = n
            if params is not None:
                message["params"] = params
        body = json.dumps(message).encode()
        out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
