#!/usr/bin/env python3
"""System calls per file of `srcls --check` over a directory of documents, counted by strace
(a count a busy machine cannot change): at most 4.5 per file (open, fstat, read, close, and
the walk's share), with --jobs 1 and with the default --jobs, and the same per file for 10n
files as for n (issue 30); and with --jobs 2 at most 0.5 waiting calls per file: futex (the
workers take files in batches: not one wake per file, which cost 3.7 futex calls a file) and
sched_yield (none now: a thread with nothing to do polls with the pause instruction before it
sleeps, and a yield now and then cost one call a file under load). The waiting calls are left out of the 4.5: they are the threads waiting on each other,
not the work. Exits 77 (SKIP) when strace is not installed or cannot trace here, or the binary
is built with AddressSanitizer (its allocator's own system calls would be counted).

Usage: syscalls.py SRCLS"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

LIMIT = 4.5
WAIT_LIMIT = 0.5
WAITING = ("futex", "sched_yield")
DOC = ('{"name": "reldb-%d", "type": "RELATIONAL_DB", "config": {"host": "db.internal", '
       '"port": 5432, "database": "finance", "username": "reader", '
       '"password": "$SERVICE_EXISTING_VALUE$"}}\n')


def count(srcls, directory, jobs):
    """The system calls of one run, by name, from strace -c (every thread: -f)."""
    with tempfile.NamedTemporaryFile("r", suffix=".strace") as out:
        argv = ["strace", "-f", "-c", "-o", out.name, srcls, "--check"] + jobs + [directory]
        p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        text = out.read()
    if p.returncode not in (0, 1) or "total" not in text:
        print("SKIP: strace cannot trace here (%s)" % p.stderr.decode(errors="replace").strip())
        sys.exit(77)
    calls = {}
    for line in text.splitlines():
        fields = line.split()
        # % time, seconds, usecs/call, calls, [errors,] syscall
        if len(fields) >= 5 and re.match(r"^[0-9.]+$", fields[0]) and fields[-1] != "total":
            calls[fields[-1]] = int(fields[3])
    return calls


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    srcls = sys.argv[1]
    with open(srcls, "rb") as binary:
        if b"__asan_init" in binary.read():
            print("SKIP: %s is built with AddressSanitizer, whose allocator makes system calls of "
                  "its own (mmap): the count is of the plain build" % srcls)
            sys.exit(77)
    if shutil.which("strace") is None:
        print("SKIP: strace is not installed (apt-get install strace)")
        sys.exit(77)
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        sizes = (200, 2000)
        for n in sizes:
            d = os.path.join(tmp, "n%d" % n)
            os.mkdir(d)
            for i in range(n):
                with open(os.path.join(d, "r%05d.source.json" % i), "w") as f:
                    f.write(DOC % i)
        for jobs in ([], ["--jobs", "1"]):
            per_file = {}
            for n in sizes:
                calls = count(srcls, os.path.join(tmp, "n%d" % n), jobs)
                # the threads of the default --jobs waiting on each other, not the walk
                total = sum(v for k, v in calls.items() if k not in WAITING)
                per_file[n] = total / n
                top = sorted(calls.items(), key=lambda kv: -kv[1])[:5]
                print("--check %s %d files: %d system calls (waiting left out), %.2f per file; "
                      "most: %s" % (" ".join(jobs) or "(default --jobs)", n, total, per_file[n],
                                    ", ".join("%s %d" % kv for kv in top)))
            large = per_file[sizes[-1]]
            if large > LIMIT:
                failed.append("%s: %.2f system calls per file, more than %.1f"
                              % (" ".join(jobs) or "default --jobs", large, LIMIT))
            # the fixed cost spreads over more files: per file never grows with n
            if per_file[sizes[-1]] > per_file[sizes[0]] * 1.05:
                failed.append("%s: per file %.2f at %d files against %.2f at %d: not linear"
                              % (" ".join(jobs) or "default --jobs", per_file[sizes[-1]],
                                 sizes[-1], per_file[sizes[0]], sizes[0]))
        n = sizes[-1]
        calls = count(srcls, os.path.join(tmp, "n%d" % n), ["--jobs", "2"])
        waiting = sum(calls.get(k, 0) for k in WAITING)
        print("--check --jobs 2 %d files: %d waiting calls (%s), %.2f per file"
              % (n, waiting, ", ".join("%s %d" % (k, calls.get(k, 0)) for k in WAITING),
                 waiting / n))
        if waiting / n > WAIT_LIMIT:
            failed.append("--jobs 2: %.2f waiting calls per file, more than %.1f"
                          % (waiting / n, WAIT_LIMIT))
    for f in failed:
        print("FAIL: " + f)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
