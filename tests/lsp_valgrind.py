#!/usr/bin/env python3
"""A scripted language-server session under valgrind memcheck: every example opened, typed
into, completed, hovered, fixed, outlined, formatted, reconfigured, cancelled, fed broken
messages, closed and shut down, in UTF-16 and UTF-8 sessions. Fails on any invalid read or
write, any use of uninitialised memory, and any leak (definite, indirect or possible); exits
77 (SKIP) when valgrind is not installed.

usage: lsp_valgrind.py SRCLS_BINARY SOURCE_ROOT"""
import glob
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_session import Server  # noqa: E402

binary, root = sys.argv[1], sys.argv[2]
valgrind = shutil.which("valgrind")
if valgrind is None:
    print("valgrind is not installed (Debian: apt-get install valgrind): skipping the "
          "memcheck session")
    sys.exit(77)

log = tempfile.NamedTemporaryFile(prefix="srcls-memcheck-", suffix=".log", delete=False).name
WRAPPER = [valgrind, "--tool=memcheck", "--error-exitcode=99", "--leak-check=full",
           "--show-leak-kinds=definite,indirect,possible",
           "--errors-for-leak-kinds=definite,indirect,possible", "--track-origins=yes",
           "--log-file=" + log]
examples = sorted(glob.glob(os.path.join(root, "docs", "examples", "*.json")))
if not examples:
    raise SystemExit("no examples under %s/docs/examples" % root)
steps = 0


def step(what):
    global steps
    steps += 1
    print("  " + what, flush=True)


def position_of(text, needle, after=0):
    """(line, character) of the first `needle` in text, `after` characters into it (ASCII)."""
    i = text.index(needle) + after
    line = text.count("\n", 0, i)
    return {"line": line, "character": i - (text.rfind("\n", 0, i) + 1)}


def session(encoding):
    s = Server(binary, wrapper=WRAPPER, encodings=(encoding,), timeout=180)
    step("%s: initialize (position encoding %s)" % (encoding, s.result["capabilities"].get(
        "positionEncoding")))
    s.notify("workspace/didChangeConfiguration", {"settings": {"srcls": {
        "rules": {"unknown-field": "error", "kind-inferred": "off"},
        "types": {"MY_STORAGE": "NETWORK_ATTACHED_STORAGE"}}}})
    docs = {}
    for version, path in enumerate(examples, start=1):
        text = open(path, encoding="utf-8").read()
        uri = "file://" + path
        s.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "json", "version": version, "text": text}})
        s.wait_diagnostics(uri, version)
        docs[uri] = (text, version)
    step("%s: opened %d examples, diagnostics for each" % (encoding, len(docs)))

    for uri, (text, version) in docs.items():
        ident = {"uri": uri}
        end = position_of(text, text.rstrip()[-1])
        s.request("textDocument/documentSymbol", {"textDocument": ident})
        s.request("textDocument/formatting", {"textDocument": ident,
                                              "options": {"tabSize": 4, "insertSpaces": True}})
        pulled = s.request("textDocument/diagnostic", {"textDocument": ident})
        s.request("textDocument/codeAction", {
            "textDocument": ident,
            "range": {"start": {"line": 0, "character": 0}, "end": end},
            "context": {"diagnostics": [], "only": ["quickfix", "source.fixAll.srcls"]}})
        if pulled.get("items"):
            first = pulled["items"][0]
            s.request("textDocument/codeAction", {"textDocument": ident, "range": first["range"],
                                                  "context": {"diagnostics": [first]}})
        for needle, after in (('"type"', 1), ('"config"', 3), ('{', 1), (':', 2)):
            if needle in text:
                at = position_of(text, needle, after)
                s.request("textDocument/completion", {"textDocument": ident, "position": at})
                s.request("textDocument/hover", {"textDocument": ident, "position": at})
    step("%s: symbols, formatting, pulled diagnostics, code actions, completion and hover in "
         "every example" % encoding)

    # Typing: an unknown key grows one character at a time, then a full replacement, then an
    # edit that breaks the syntax and one that repairs it.
    uri, (text, version) = next(iter(docs.items()))
    at = position_of(text, "{", 1)
    typed = '"hostnam": "\u00e9\U0001F600", '
    for ch in typed:
        version += 1
        units = len(ch.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(ch.encode())
        s.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": at, "end": at}, "text": ch}]})
        at = {"line": at["line"], "character": at["character"] + units}
    s.wait_diagnostics(uri, version)
    s.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at})
    version += 1
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                        "contentChanges": [{"text": "{\"config\": {\"x\": [1, "}]})
    s.wait_diagnostics(uri, version)
    version += 1
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                        "contentChanges": [{"text": text}]})
    s.wait_diagnostics(uri, version)
    step("%s: typed %d characters one by one (non-BMP among them), broke and repaired the "
         "syntax" % (encoding, len(typed)))

    # Hostile and odd messages, all of which the server answers or ignores and survives.
    s.send({"jsonrpc": "2.0", "id": 9001, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}})
    s.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 9001}})
    s.request("no/suchMethod", {}, allow_error=True)
    s.request("textDocument/hover", [1, 2], allow_error=True)
    s.request("textDocument/hover", {"textDocument": {"uri": "file:///not/open.json"},
                                     "position": {"line": 99, "character": 99}}, allow_error=True)
    s.send_bytes(b"Content-Length: 9\r\n\r\n{not json")
    s.send_bytes(b"X-Nothing: 1\r\n\r\n")
    s.send_bytes(b"Content-Length: 11\r\n\r\n\"just text\"")
    s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    step("%s: cancel, unknown method, bad params, unknown document, broken bodies and frames"
         % encoding)

    for uri in docs:
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    status = s.close()
    step("%s: closed everything, shutdown and exit: status %d" % (encoding, status))
    return status


failed = False
for encoding in ("utf-16", "utf-8"):
    status = session(encoding)
    report = open(log, encoding="utf-8", errors="replace").read()
    summary = [l for l in report.splitlines() if "ERROR SUMMARY" in l or "definitely lost" in l
               or "indirectly lost" in l or "possibly lost" in l or "in use at exit" in l
               or "All heap blocks" in l]
    print("  memcheck: " + ("; ".join(l.split("== ", 1)[-1] for l in summary) or "no leaks"))
    if status != 0:
        failed = True
        print("memcheck failed (exit status %d):\n%s" % (status, report[-8000:]))
os.unlink(log)
print("%d steps under valgrind memcheck: %s" % (steps, "FAILED" if failed else
                                                  "no invalid access, no leak"))
sys.exit(1 if failed else 0)
