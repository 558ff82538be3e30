#!/usr/bin/env python3
"""Linear time in every input shape: for each shape, builds an input of size n and one of size
10n, times srcls on both in this run, and fails when 10n costs more than LIMIT times n.

The CLI is timed by the CPU time of the process (user + system, from wait4), the language
server by the CPU time its event loop spent on the requests (/proc/PID/schedstat): load on the
other core barely moves either.
A ratio over the limit is measured twice more and the smallest kept, so a noisy moment does
not fail the test; a quadratic path gives a ratio near 100 every time.

usage: scaling.py SRCLS_BINARY [SHAPE_SUBSTRING]"""
import gc
import json
import os
import subprocess
import sys
import tempfile
import time

from lsp_session import Server

LIMIT = 15.0
TRIES = 3

# The answers hold up to a million JSON values; the collector's passes over them would make
# this script's own parsing superlinear and blame it on the server.
gc.disable()
binary = os.path.abspath(sys.argv[1])
only = sys.argv[2] if len(sys.argv) > 2 else ""
work = tempfile.mkdtemp(prefix="srcls-scaling-")

# ---- inputs -----------------------------------------------------------------------------------

NAS = "NETWORK_ATTACHED_STORAGE"


def source(i, errors):
    """A small source; with errors, one unknown key, one bad enum-free field type and a
    plaintext secret (so several codes and related ranges are written)."""
    cfg = {"path": "/data/%d" % i}
    if errors and i % 3 == 0:
        cfg["pathh\u00e9%d" % i] = "x"          # unknown-field with a suggestion, non-ASCII key
        cfg["path"] = 42                          # wrong type
    return {"name": "src-\U0001F600-%d" % i, "type": NAS, "config": cfg}


def bulk(n, indent):
    return json.dumps([source(i, True) for i in range(n)], indent=indent,
                      ensure_ascii=False).encode()


def unknown_keys(n, indent):
    cfg = {"path": "/x"}
    for i in range(n):
        cfg["unknown\u00e9Key%d" % i] = "v"
    return json.dumps({"name": "n", "type": NAS, "config": cfg}, indent=indent,
                      ensure_ascii=False).encode()


def nested_within_limit(n):
    """n/100 values nested 300 deep under unknown keys (the parser's limit is 512)."""
    cfg = {"path": "/x"}
    for i in range(max(1, n // 100)):
        cfg["deep%d" % i] = "@"
    text = json.dumps({"name": "n", "type": NAS, "config": cfg}, indent=1)
    return text.replace('"@"', "[" * 300 + "1" + "]" * 300).encode()


def nested_beyond_limit(n):
    return ("[" * n + "]" * n).encode()


def long_string(n):
    return json.dumps({"name": "x" * n, "type": NAS, "config": {"path": "/" + "p" * n}}).encode()


def escapes(n):
    value = "\\u00e9\\n\\\"\\ud83d\\ude00" * (n // 5)
    return ('{"name": "%s", "type": "%s", "config": {"path": "%s"}}' % (value, NAS, value)).encode()


def unterminated_strings(n):
    """One line of n members whose values are broken strings: many syntax errors (capped by the
    parser) and a long recovery."""
    return ("{" + ", ".join('"k%d": "v\\q' % i for i in range(n)) + "}").encode()


# (name, generator, n, formats)
ALL_FORMATS = ["text", "json", "sarif", "github"]
SHAPES = [
    ("one long line, a diagnostic every few bytes (minified bulk)", lambda n: bulk(n, None), 3000,
     ALL_FORMATS),
    ("many lines (pretty bulk)", lambda n: bulk(n, 2), 3000, ALL_FORMATS),
    ("many unknown keys on one line", lambda n: unknown_keys(n, None), 4000, ALL_FORMATS),
    ("many keys, one per line", lambda n: unknown_keys(n, 1), 4000, ["text", "json"]),
    ("deep nesting within the depth limit", nested_within_limit, 30000, ["text"]),
    ("nesting beyond the depth limit", nested_beyond_limit, 1000000, ["text", "json"]),
    ("long strings", long_string, 2000000, ["text"]),
    ("escapes", escapes, 400000, ["text"]),
    ("broken strings on one line", unterminated_strings, 20000, ["text", "json"]),
]


def write_input(name, data):
    path = os.path.join(work, name + ".source.json")
    with open(path, "wb") as f:
        f.write(data)
    return path


# ---- timing ------------------------------------------------------------------------------------

def cli_seconds(path, fmt):
    # stderr into a file, not a pipe: srcls may say more than a pipe holds before it exits
    with tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen([binary, "--check", "--format", fmt, path],
                                stdout=subprocess.DEVNULL, stderr=err_file)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err_file.seek(0)
        err = err_file.read().decode(errors="replace")
    if proc.returncode not in (0, 1):
        raise SystemExit("srcls --check --format %s %s: exit %d\n%s"
                         % (fmt, path, proc.returncode, err[:2000]))
    return usage.ru_utime + usage.ru_stime


def server_clock(server):
    """The server's CPU time in seconds, from the scheduler's nanosecond count of its main
    thread (where the event loop runs); wall time where /proc does not have it."""
    try:
        with open("/proc/%d/schedstat" % server.p.pid) as f:
            return int(f.read().split()[0]) / 1e9
    except OSError:
        return time.perf_counter()


def lsp_seconds(server, data, version):
    """didOpen to publishDiagnostics, then a documentSymbol request, then a hover at the end
    of the text: what converts every position (or the last one) to UTF-16."""
    text = data.decode()
    uri = "file:///scaling/%d.source.json" % version
    t0 = server_clock(server)
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "json", "version": version, "text": text}})
    server.wait_diagnostics(uri, version)
    server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    lines = text.split("\n")
    last = len(lines[-1].encode("utf-16-le")) // 2
    server.request("textDocument/hover", {"textDocument": {"uri": uri},
                                          "position": {"line": len(lines) - 1, "character": last}})
    elapsed = server_clock(server) - t0
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    return elapsed


# ---- the test ----------------------------------------------------------------------------------

def ratio_of(measure_small, measure_large):
    best = None
    for _ in range(TRIES):
        small, large = measure_small(), measure_large()
        ratio = large / max(small, 1e-4)
        if best is None or ratio < best[0]:
            best = (ratio, small, large)
        if ratio <= LIMIT:
            break
    return best


failures = []
rows = 0


def check(label, small, large):
    global rows
    ratio, t_small, t_large = ratio_of(small, large)
    rows += 1
    verdict = "ok" if ratio <= LIMIT else "FAIL"
    print("%-70s n: %7.1f ms  10n: %8.1f ms  ratio %5.1f  %s"
          % (label, t_small * 1000, t_large * 1000, ratio, verdict), flush=True)
    if ratio > LIMIT:
        failures.append(label)


def kind_files_project(n, broken=False):
    """A project whose srcls.json names a directory of n kind files of its own, each with a
    group of its own (so "include" and "extends" look files up by name), and a document of the
    last kind: what --check loads before it checks anything."""
    root = tempfile.mkdtemp(prefix="kinds-", dir=work)
    os.makedirs(os.path.join(root, "kinds"))
    with open(os.path.join(root, "srcls.json"), "w") as f:
        json.dump({"schemas": ["kinds"]}, f)
    for i in range(n):
        with open(os.path.join(root, "kinds", "g%06d.json" % i), "w") as f:
            json.dump({"group": "G%d" % i, "fields": {"g%d" % i: {"type": "string"}}}, f)
        kind = {"title": "Kind %d" % i, "types": ["KIND_%d" % i], "include": ["G%d" % i],
                "fields": {"f%d" % j: {"type": "string", "description": "x"} for j in range(4)}}
        if broken and i % 2 == 0:
            kind["fields"]["f0"]["type"] = "strin"  # every other kind file has a mistake
        if i % 10 == 1:
            kind["extends"] = "k%06d" % (i - 1)
        with open(os.path.join(root, "kinds", "k%06d.json" % i), "w") as f:
            json.dump(kind, f)
    doc = os.path.join(root, "doc.source.json")
    with open(doc, "w") as f:
        json.dump({"name": "d", "type": "KIND_%d" % (n - 1), "config": {"f0": 1}}, f)
    return doc


if not only or only in "many kind files of a project's own":
    small_doc, large_doc = kind_files_project(1000), kind_files_project(10000)
    check("--check --format text: many kind files of a project's own (srcls.json \"schemas\")",
          lambda: cli_seconds(small_doc, "text"), lambda: cli_seconds(large_doc, "text"))
    small_doc, large_doc = kind_files_project(1000, True), kind_files_project(10000, True)
    check("--check --format text: many kind files, half of them with a mistake",
          lambda: cli_seconds(small_doc, "text"), lambda: cli_seconds(large_doc, "text"))

server = Server(binary)
version = 0
for name, gen, n, formats in SHAPES:
    if only and only not in name:
        continue
    small_data, large_data = gen(n), gen(10 * n)
    small = write_input("small", small_data)
    large = write_input("large", large_data)
    for fmt in formats:
        check("--check --format %s: %s" % (fmt, name),
              lambda: cli_seconds(small, fmt), lambda: cli_seconds(large, fmt))
    if formats is ALL_FORMATS:
        def lsp_small():
            global version
            version += 1
            return lsp_seconds(server, small_data, version)

        def lsp_large():
            global version
            version += 1
            return lsp_seconds(server, large_data, version)
        check("server, UTF-16 (open, symbols, hover): %s" % name, lsp_small, lsp_large)
server.close()

print("%d measurements, limit %.0f: %s" % (rows, LIMIT,
                                           "all linear" if not failures else
                                           "%d over the limit" % len(failures)))
sys.exit(1 if failures else 0)
