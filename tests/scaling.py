#!/usr/bin/env python3
"""Linear cost in every input shape: for each shape, builds an input of size n and one of size
10n, counts the instructions srcls executes on both (valgrind's callgrind), less what it
executes on a one-line document (start-up, the schema), and fails when 10n costs more than
LIMIT times n.

Instructions, not seconds: a count does not move when the machine is busy (the same binary on
the same input gives the same count, whatever else runs), so the test cannot fail because
another build shares the machine, and no run is repeated. A quadratic path gives a ratio near
100. Wall-clock figures against peers are the benchmarks' (tests/bench/).

usage: scaling.py SRCLS_BINARY [SHAPE_SUBSTRING]"""
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from lsp_session import SERVER_ENV, Server

LIMIT = 12.0
# Runs under callgrind at a time; each is one process on one core.
JOBS = 2

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


def credential_prefixes(n):
    """One string of n near-miss credential shapes (plaintext-credential scans every string
    value once per prefix of schema/credentials.json): each prefix starts a body that runs on."""
    value = "github_pat_-----BEGIN AKIAxoxb-glpat-" * n
    return json.dumps({"name": "x", "type": NAS, "config": {"path": value}}).encode()


def unterminated_strings(n):
    """One line of n members whose values are broken strings: many syntax errors (capped by the
    parser) and a long recovery."""
    return ("{" + ", ".join('"k%d": "v\\q' % i for i in range(n)) + "}").encode()


def duplicate_names(n):
    """A pretty bulk whose every name is taken twice, the second time in other case: a
    duplicate-name with related information on every other source (one hash-table pass)."""
    return json.dumps([{"name": ("SRC-%d" if i % 2 else "src-%d") % (i // 2), "type": NAS,
                        "config": {"path": "/%d" % i}} for i in range(n)], indent=1).encode()


def keys_alike_at_both_ends(n):
    """One object of n keys that share their first and last eight bytes and differ between
    (the parser's duplicate-key table must spread them: a hash of the ends alone would chain
    them all), and as many keys again that repeat them (n duplicate-key errors, capped)."""
    keys = ['"settings%07dsettings": %d' % (i % n, i) for i in range(2 * n)]
    return ("[{" + ", ".join(keys) + "}]").encode()


# (name, generator, n, formats)
# every format of --check, from the one list of them in C (server/cli/report.c's table)
ALL_FORMATS = subprocess.run([binary, "--generate-docs", "formats"], capture_output=True,
                             text=True, check=True).stdout.split()
SHAPES = [
    ("one long line, a diagnostic every few bytes (minified bulk)", lambda n: bulk(n, None), 1000,
     ALL_FORMATS),
    ("many lines (pretty bulk)", lambda n: bulk(n, 2), 1000, ALL_FORMATS),
    ("every source name taken twice (bulk)", duplicate_names, 1000, ALL_FORMATS),
    # every format on one line of many findings (above) and on many lines; text and json here
    ("many unknown keys on one line", lambda n: unknown_keys(n, None), 1500, ["text", "json"]),
    ("many keys, one per line", lambda n: unknown_keys(n, 1), 1500, ["text", "json"]),
    ("deep nesting within the depth limit", nested_within_limit, 30000, ["text"]),
    ("nesting beyond the depth limit", nested_beyond_limit, 1000000, ["text", "json"]),
    ("long strings", long_string, 400000, ["text"]),
    ("escapes", escapes, 50000, ["text"]),
    ("broken strings on one line", unterminated_strings, 8000, ["text", "json"]),
    ("credential prefixes in one string", credential_prefixes, 20000, ["text"]),
    ("keys alike at both ends in one object", keys_alike_at_both_ends, 5000, ["text"]),
]


def write_input(name, data):
    path = os.path.join(work, name + ".source.json")
    with open(path, "wb") as f:
        f.write(data)
    return path


# ---- counting -----------------------------------------------------------------------------------

def callgrind(argv, run, cwd=None):
    """Instructions executed by the process started as argv under valgrind's callgrind, while
    run(proc) talks to it; run returns when the process has been told to finish."""
    out = tempfile.mktemp(prefix="cg.", dir=work)
    # stderr into a file, not a pipe: srcls may say more than a pipe holds before it exits
    with tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
                                + argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=err_file, env=dict(os.environ, **SERVER_ENV), cwd=cwd)
        run(proc)
        status = proc.wait()
        err_file.seek(0)
        err = err_file.read().decode(errors="replace")
    if status not in (0, 1):
        raise SystemExit("%s: exit %d\n%s" % (" ".join(argv), status, err[-2000:]))
    with open(out) as f:
        totals = [line for line in f if line.startswith("totals:")]
    os.unlink(out)
    return int(totals[0].split()[1])


def cli_instructions(path, fmt, extra=(), cwd=None):
    def run(proc):
        proc.stdin.close()
        while proc.stdout.read(1 << 16):
            pass
    return callgrind([binary, "--check", "--format", fmt, *extra, path], run, cwd)


def lsp_instructions(data):
    """A server session: initialize, didOpen to publishDiagnostics, a documentSymbol request,
    a hover at the end of the text (what converts every position, or the last one, to UTF-16),
    shutdown and exit."""
    text = data.decode()
    uri = "file:///scaling/doc.source.json"
    lines = text.split("\n")
    last = len(lines[-1].encode("utf-16-le")) // 2

    def run(proc):
        server = Server(binary, process=proc)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "json", "version": 1, "text": text}})
        server.wait_diagnostics(uri, 1)
        server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        server.request("textDocument/hover", {
            "textDocument": {"uri": uri},
            "position": {"line": len(lines) - 1, "character": last}})
        server.close()
    return callgrind([binary, "--stdio"], run)


# ---- the test ----------------------------------------------------------------------------------

failures = []
rows = 0
pool = ThreadPoolExecutor(max_workers=max(1, min(JOBS, os.cpu_count() or 1)))
baselines = {}


def baseline(key, measure):
    """What a command costs on a one-line document: start-up, the schema, the output's frame.
    Subtracted from both sizes, so that the ratio is the ratio of the work the input causes."""
    if key not in baselines:
        baselines[key] = pool.submit(measure)
    return baselines[key]


TRIVIAL = json.dumps({"name": "n", "type": NAS, "config": {"path": "/x"}}).encode()
trivial_path = None


def check(label, base, small, large):
    """base, small and large are futures of instruction counts."""
    global rows
    b, s, l = base.result(), small.result(), large.result()
    ratio = (l - b) / max(s - b, 1)
    rows += 1
    verdict = "ok" if ratio <= LIMIT else "FAIL"
    print("%-70s n: %8.1f M  10n: %9.1f M  ratio %5.1f  %s"
          % (label, (s - b) / 1e6, (l - b) / 1e6, ratio, verdict), flush=True)
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


def git(repo, *args):
    subprocess.run(["git", "-c", "user.name=scaling", "-c", "user.email=scaling@example.invalid",
                    "-c", "init.defaultBranch=main", *args], cwd=repo, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def review_repo(files, changed_bulk):
    """A git repository for --base HEAD~1 (callgrind counts srcls, not the git it starts):
    `files` small documents, one of them changed by the last commit; or, with changed_bulk, one
    bulk file of that many sources, every one of them renamed by the last commit (a
    risky-change each, and the bulk's old names all removed: another each). Returns the directory, checked as "."."""
    root = tempfile.mkdtemp(prefix="review-", dir=work)
    def write(name, doc):
        with open(os.path.join(root, name), "w") as f:
            json.dump(doc, f, indent=1)
    if changed_bulk:
        write("bulk.json", [{"name": "s%d" % i, "type": NAS, "config": {"path": "/%d" % i}}
                            for i in range(changed_bulk)])
    for i in range(files):
        write("f%06d.source.json" % i, source(i, False))
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "base")
    if changed_bulk:
        write("bulk.json", [{"name": "t%d" % i, "type": NAS,
                             "config": {"path": "/%d" % i}}
                            for i in range(changed_bulk)])
    if files:
        write("f000000.source.json", source(0, True))
    git(root, "commit", "-q", "-a", "-m", "change")
    return root


if not shutil.which("valgrind"):
    print("SKIP: valgrind is not installed (the instructions are counted by callgrind)")
    sys.exit(77)
trivial_path = write_input("trivial", TRIVIAL)
pending = []
if not only or only in "many kind files of a project's own":
    for broken, label in ((False, "many kind files of a project's own (srcls.json \"schemas\")"),
                          (True, "many kind files, half of them with a mistake")):
        small_doc, large_doc = kind_files_project(500, broken), kind_files_project(5000, broken)
        base_doc = kind_files_project(1, broken)
        pending.append(("--check --format text: " + label,
                        pool.submit(cli_instructions, base_doc, "text"),
                        pool.submit(cli_instructions, small_doc, "text"),
                        pool.submit(cli_instructions, large_doc, "text")))

if (not only or only in "--base") and shutil.which("git"):
    base_args = ("--base", "HEAD~1")
    for label, small_repo, large_repo, trivial_repo in (
            ("--base: 500 / 5,000 files, one changed",
             review_repo(500, 0), review_repo(5000, 0), review_repo(1, 0)),
            ("--base: a changed bulk of 1,000 / 10,000 sources, all renamed",
             review_repo(0, 1000), review_repo(0, 10000), review_repo(0, 1))):
        pending.append(("--check --format text " + label,
                        pool.submit(cli_instructions, ".", "text", base_args, trivial_repo),
                        pool.submit(cli_instructions, ".", "text", base_args, small_repo),
                        pool.submit(cli_instructions, ".", "text", base_args, large_repo)))

for name, gen, n, formats in SHAPES:
    if only and only not in name:
        continue
    small_data, large_data = gen(n), gen(10 * n)
    small = write_input("small-%d" % len(pending), small_data)
    large = write_input("large-%d" % len(pending), large_data)
    for fmt in formats:
        pending.append(("--check --format %s: %s" % (fmt, name),
                        baseline(fmt, lambda fmt=fmt: cli_instructions(trivial_path, fmt)),
                        pool.submit(cli_instructions, small, fmt),
                        pool.submit(cli_instructions, large, fmt)))
    if formats is ALL_FORMATS:
        # The server costs ~4x --check per byte under callgrind: half the size, the same ratio.
        pending.append(("server, UTF-16 (open, symbols, hover): %s" % name,
                        baseline("server", lambda: lsp_instructions(TRIVIAL)),
                        pool.submit(lsp_instructions, gen(n // 2)),
                        pool.submit(lsp_instructions, gen(10 * n // 2))))

for label, base, small, large in pending:
    check(label, base, small, large)
pool.shutdown()

print("%d measurements (instructions counted by callgrind, less a one-line document's), "
      "limit %.0f: %s" % (rows, LIMIT, "all linear" if not failures else
                          "%d over the limit" % len(failures)))
sys.exit(1 if failures else 0)
