#!/usr/bin/env python3
"""Keystroke latency: opens a large source document in `srcls --stdio`, then types N characters
one by one (incremental didChange, one notification each, waiting for diagnostics in between)
and reports how long each keystroke took to reach the publishDiagnostics of its version.
usage: keystroke.py SRCLS_BINARY DOCUMENT.json [N]   (set SRCLS_DEBOUNCE_MS to change debounce)
The comparison with vscode-json-language-server (push, pull, completion, hover, memory) is
`run.py keystroke` and `run.py memory`; docs/performance.md has the figures."""
import json, os, statistics, subprocess, sys, time

binary, path = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 50
text = open(path, encoding="utf-8").read()
p = subprocess.Popen([binary, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def send(obj):
    body = json.dumps(obj).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()

def recv():
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        c = p.stdout.read(1)
        if not c:
            raise SystemExit("server closed the connection")
        header += c
    length = int([l for l in header.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
    return json.loads(p.stdout.read(length))

def wait_diagnostics(version):
    while True:
        m = recv()
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version:
            return m

send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
recv()
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
uri = "file:///bench.source.json"
start = time.perf_counter()
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
wait_diagnostics(1)
open_ms = (time.perf_counter() - start) * 1000
# Type into the first "name" value: line and character of the position after its opening quote.
line = next(i for i, l in enumerate(text.split("\n")) if '"name": "' in l)
col = text.split("\n")[line].index('"name": "') + len('"name": "')
times = []
for k in range(n):
    version = k + 2
    t0 = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": version},
                     "contentChanges": [{"range": {"start": {"line": line, "character": col + k},
                                                   "end": {"line": line, "character": col + k}},
                                         "text": "x"}]}})
    wait_diagnostics(version)
    times.append((time.perf_counter() - t0) * 1000)
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
recv()
send({"jsonrpc": "2.0", "method": "exit"})
p.wait(timeout=10)
if os.environ.get("KEYSTROKE_LOG"):  # each keystroke: its number, column and ms
    with open(os.environ["KEYSTROKE_LOG"], "w") as log:
        for k, ms in enumerate(times):
            log.write("%d %d %.2f\n" % (k, col + k, ms))
size = len(text.encode()) / 1e6
print("%s: %.1f MB, open %.0f ms; %d keystrokes to diagnostics: median %.1f ms, worst %.1f ms "
      "(debounce %s ms)" % (os.path.basename(path), size, open_ms, n, statistics.median(times),
                             max(times), os.environ.get("SRCLS_DEBOUNCE_MS", "75")))
