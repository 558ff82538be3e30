#!/usr/bin/env python3
"""What one keystroke costs the core, by where it lands: the instructions analysis_update
executes (valgrind's callgrind, counting only inside it) for an edit near the end of a bulk file
of n sources and of 10n. An edit costs what it touches, not what the file holds: the ratio must
stay under LIMIT (a pass over every source per keystroke gives one near 10). Counts, not
seconds: a busy machine cannot move them.

The start of the file is measured too and printed: what an edit there costs still grows with
what follows it (the nodes and line starts after it move; docs/performance.md section 2).

usage: edit_cost.py BENCH_EDIT_BINARY"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

LIMIT = 3.0
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
    """n sources, every third with an unknown key and a wrong type (diagnostics to move)."""
    sources = []
    for i in range(n):
        config = {"path": "/data/%d" % i}
        if i % 3 == 0:
            config["pathh%d" % i] = "x"
            config["path"] = 42
        sources.append({"name": "src-%d" % i, "type": "NETWORK_ATTACHED_STORAGE",
                        "config": config})
    path = os.path.join(work, "bulk-%d.json" % n)
    with open(path, "w") as f:
        json.dump(sources, f, indent=2)
    return path


def instructions(path, place):
    out = os.path.join(work, "cg.%s" % place)
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                           "--toggle-collect=analysis_update", binary, path, str(EDITS),
                           str(place)], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("bench_edit failed on %s:\n%s%s" % (path, proc.stdout, proc.stderr))
    if "0 whole analyses" not in proc.stdout:
        sys.exit("an edit fell back to a whole analysis:\n" + proc.stdout)
    with open(out) as f:
        totals = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
    return int(totals.group(1))


failures = []
small, large = bulk(N), bulk(10 * N)
for place, label, bounded in ((99, "an edit near the end", True),
                              (0, "an edit near the start", False)):
    a, b = instructions(small, place), instructions(large, place)
    ratio = b / a
    print("%s: %d sources %d instructions, %d sources %d: %.2fx%s"
          % (label, N, a, 10 * N, b, ratio, "" if bounded else " (not yet bounded)"))
    if bounded and ratio > LIMIT:
        failures.append("%s: %.2fx from %d to %d sources (limit %.1fx)"
                        % (label, ratio, N, 10 * N, LIMIT))
shutil.rmtree(work, ignore_errors=True)
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print("PASS")
