#!/usr/bin/env python3
"""Writes the scripted editor session of the faults sweep (tests/faults/README.md) to a file of
raw Content-Length frames: open, completion, hover, code actions, symbols, formatting, an edit
and completion right after it, pulled diagnostics, shutdown, exit. Fed to `srcls` on stdin, so
the sweep needs no client per run.  Usage: lsp_script.py DOCUMENT OUT"""
import json
import sys

text = open(sys.argv[1]).read()
uri = "file:///faults/doc.source.json"
lines = text.split("\n")


def at(needle):
    for n, line in enumerate(lines):
        if needle in line:
            return {"line": n, "character": line.index(needle) + 1}
    raise SystemExit("%s is not in the document" % needle)


doc = {"textDocument": {"uri": uri}}
messages = [
    ("initialize", {"processId": None, "rootUri": None, "capabilities": {}}),
    ("initialized", {}),
    ("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                               "text": text}}),
    ("textDocument/completion", dict(doc, position=at('"credentialType"'))),
    ("textDocument/hover", dict(doc, position=at('"credentialType"'))),
    ("textDocument/codeAction", dict(doc, range={"start": {"line": 0, "character": 0},
                                                 "end": {"line": len(lines), "character": 0}},
                                     context={"diagnostics": []})),
    ("textDocument/documentSymbol", doc),
    ("textDocument/formatting", dict(doc, options={"tabSize": 2, "insertSpaces": True})),
    ("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": at('"credentialType"'), "end": at('"credentialType"')},
         "text": "\"s\": 1, "}]}),
    ("textDocument/completion", dict(doc, position=at('"credentialType"'))),
    ("textDocument/diagnostic", doc),
    ("shutdown", None),
    ("exit", None),
]
notifications = {"initialized", "textDocument/didOpen", "textDocument/didChange", "exit"}
with open(sys.argv[2], "wb") as out:
    for n, (method, params) in enumerate(messages, 1):
        message = {"jsonrpc": "2.0", "method": method}
        if method not in notifications:
            message["id"] = n
        if params is not None:
            message["params"] = params
        body = json.dumps(message).encode()
        out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
