#!/usr/bin/env python3
"""What one keystroke costs the core, by where it lands: the instructions analysis_update
executes (valgrind's callgrind, counting only inside it) for a character typed into and deleted
from a source's "name" (run.py keystroke's edit), near the start and near the end of a bulk file
of n sources and of 10n. An edit costs what it touches, not what the file holds, nor what
follows it: near the end and near the start, 10n sources cost at most LIMIT times n (a pass over
every source, or over everything after the edit, gives one near 10), and on the 10n file an
edit near the start at most SAME times one near the end. As the server runs it
(`defer_moves`: the move of what follows an edit left pending). Counts, not seconds: a busy
machine cannot move them.

usage: edit_cost.py BENCH_EDIT_BINARY"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

LIMIT = 3.0
SAME = 1.5
N = 300
EDITS = 5  # typed and deleted: 2 * EDITS analysis_update calls

binary = os.path.abspath(sys.argv[1])
if shutil.which("valgrind") is None:
    print("SKIP: valgrind is not installed (the instructions are counted by callgrind)")
    sys.exit(77)
with open(binary, "rb") as built:
    if b"__asan_init" in built.read():
        # valgrind cannot run a binary built with AddressSanitizer (the CI's sanitizer step)
        print("SKIP: %s is built with AddressSanitizer, which valgrind cannot run" % binary)
        sys.exit(77)
work = tempfile.mkdtemp(prefix="srcls-edit-cost-")


def bulk(n):
    """n sources alike, each with an unknown key and a wrong type (diagnostics to move): an edit
    anywhere checks again what one near the end does."""
    sources = [{"name": "src-%d" % i, "type": "NETWORK_ATTACHED_STORAGE",
                "config": {"path": 42, "pathh%d" % i: "x"}} for i in range(n)]
    path = os.path.join(work, "bulk-%d.json" % n)
    with open(path, "w") as f:
        json.dump(sources, f, indent=2)
    return path


def instructions(path, place):
    out = os.path.join(work, "cg.%s" % place)
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                           "--toggle-collect=analysis_update", binary, path, str(EDITS),
                           str(place), "name"], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("bench_edit failed on %s:\n%s%s" % (path, proc.stdout, proc.stderr))
    if "0 whole analyses" not in proc.stdout:
        sys.exit("an edit fell back to a whole analysis:\n" + proc.stdout)
    with open(out) as f:
        totals = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
    return int(totals.group(1))


failures = []
small, large = bulk(N), bulk(10 * N)
counts = {}
for place, label in ((99, "an edit near the end"), (0, "an edit near the start")):
    a, b = instructions(small, place), instructions(large, place)
    counts[place] = b
    ratio = b / a
    print("%s: %d sources %d instructions, %d sources %d: %.2fx" % (label, N, a, 10 * N, b, ratio))
    if ratio > LIMIT:
        failures.append("%s: %.2fx from %d to %d sources (limit %.1fx)"
                        % (label, ratio, N, 10 * N, LIMIT))
same = counts[0] / counts[99]
print("on %d sources, an edit near the start against one near the end: %.2fx" % (10 * N, same))
if same > SAME:
    failures.append("an edit near the start costs %.2fx one near the end (limit %.1fx)"
                    % (same, SAME))
shutil.rmtree(work, ignore_errors=True)
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print("PASS")
