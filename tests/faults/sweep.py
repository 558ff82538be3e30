#!/usr/bin/env python3
"""Every allocation of a srcls run made to fail, one run per allocation (tests/faults/README.md).

    sweep.py SHIM [--every K] [--jobs J] [--cwd DIR] [--show M] -- SRCLS ARGS...

A clean run first (the shim counts A allocations and L live blocks at exit); then, for N = 1, 1+K,
1+2K ... A, the same run with the N-th allocation failing. A run holds when it gives the clean
run's stdout, stderr and exit status (it recovered), or says "out of memory" on stderr and exits
with status 2, with nothing on stderr that is not a "srcls:" line. It leaks when more blocks are
live at its exit than at the clean run's. Prints the figures; exits 0 when every run held and
none leaked, 1 otherwise."""
import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TIMEOUT = 20


def run(shim, command, cwd, fail_at, scratch):
    report = os.path.join(scratch, "report-%d" % fail_at)
    env = dict(os.environ, LD_PRELOAD=shim, SRCLS_FAULT_AT=str(fail_at),
               SRCLS_FAULT_REPORT=report)
    try:
        done = subprocess.run(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=TIMEOUT)
        status, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        status, out, err = "timeout", expired.stdout or b"", expired.stderr or b""
    counts = {}
    try:
        with open(report) as f:
            words = f.read().split()
        counts = {words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)}
        os.unlink(report)
    except (OSError, ValueError, IndexError):
        pass
    return {"n": fail_at, "status": status, "out": out, "err": err, "counts": counts}


def judge(clean, r):
    """'same', 'oom', or what went wrong."""
    if r["status"] == "timeout":
        return "hang"
    if isinstance(r["status"], int) and r["status"] < 0:
        return "signal %d" % -r["status"]
    for stream in (r["out"], r["err"]):
        try:
            stream.decode("utf-8")
        except UnicodeDecodeError:
            return "bytes that are not UTF-8"
    if (r["out"], r["err"], r["status"]) == (clean["out"], clean["err"], clean["status"]):
        return "same"
    err = r["err"].decode()
    if r["status"] == 2 and "out of memory" in err:
        strays = [line for line in err.splitlines() if not line.startswith("srcls")]
        return "oom" if not strays else "stray stderr: %r" % strays[0]
    if "out of memory" in err:
        return "out of memory but exit status %s" % r["status"]
    return "different output, exit status %s" % r["status"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("shim")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cwd", default=None)
    parser.add_argument("--show", type=int, default=3)
    parser.add_argument("--name", default="")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    shim = os.path.abspath(args.shim)
    if os.sep in args.command[0]:  # the binary as named from here, run from --cwd
        args.command[0] = os.path.abspath(args.command[0])
    with open(args.command[0], "rb") as binary:
        if b"__asan_init" in binary.read():
            print("SKIP: %s is built with AddressSanitizer, which owns malloc: the shim cannot "
                  "fail its allocations (run the faults suite on the plain build)" % args.command[0])
            return 77
    with tempfile.TemporaryDirectory(prefix="srcls-faults-") as scratch:
        clean = run(shim, args.command, args.cwd, 0, scratch)
        if not clean["counts"]:
            print("the shim reported nothing: is %s preloadable?" % shim, file=sys.stderr)
            return 2
        total = clean["counts"]["allocations"]
        points = range(1, total + 1, args.every)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda n: run(shim, args.command, args.cwd, n, scratch),
                                    points))
    verdicts = {}
    leaks = []
    for r in results:
        verdict = judge(clean, r)
        verdicts.setdefault(verdict, []).append(r)
        live = r["counts"].get("live")
        if verdict in ("same", "oom") and live is not None and live > clean["counts"]["live"]:
            leaks.append(r)
    held = len(verdicts.get("same", [])) + len(verdicts.get("oom", []))
    print("%s%d allocations in a clean run; runs injected %d, held %d (same output %d, "
          "out of memory %d), not held %d, leaked %d"
          % (args.name + ": " if args.name else "", total, len(results), held,
             len(verdicts.get("same", [])), len(verdicts.get("oom", [])),
             len(results) - held, len(leaks)))
    for verdict, rs in sorted(verdicts.items()):
        if verdict in ("same", "oom"):
            continue
        print("  %d runs: %s (N = %s)" % (len(rs), verdict,
                                         " ".join(str(r["n"]) for r in rs[:20])))
        for r in rs[: args.show]:
            print("    N=%d stderr: %s" % (r["n"], r["err"].decode("utf-8", "replace")[:300]))
    if leaks:
        print("  leaked (live blocks at exit above the clean run's %d): N = %s"
              % (clean["counts"]["live"], " ".join(str(r["n"]) for r in leaks[:30])))
    return 0 if held == len(results) and not leaks else 1


if __name__ == "__main__":
    sys.exit(main())
