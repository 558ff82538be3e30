#!/usr/bin/env python3
"""Every allocation of a srcls run made to fail, one run per allocation (tests/faults/README.md).

    sweep.py SHIM [--every K] [--jobs J] [--cwd DIR | --copy DIR] [--show M] [--lsp FRAMES]
             -- SRCLS ARGS...

A clean run first (the shim counts A allocations and L live blocks at exit); then, for N = 1, 1+K,
1+2K ... A, the same run with the N-th allocation failing. A run holds when it gives the clean
run's stdout, stderr and exit status (it recovered), or says "out of memory" on stderr and exits
with status 2, with nothing on stderr that is not a "srcls:" line. It leaks when more blocks are
live at its exit than at the clean run's. With --lsp, the file FRAMES (lsp_script.py) is the
server's stdin, and a run holds when every request the clean run answered is answered the same,
or with the error -32603 "out of memory", with the same exit status, and notifications differ
only where a window/logMessage says "out of memory"; or the server could not start and said
"out of memory". With --copy, each run (the clean one too) runs in a fresh copy of DIR, which
it may rewrite (--fix); a run holds when it also left the clean run's files, or (out of memory)
each file as it was or as the clean run left it, never half, and no other file. Prints the
figures; exits 0 when every run held and none leaked, 1 otherwise."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TIMEOUT = 20


def tree(root):
    """Every file under `root`: {relative path: bytes}."""
    files = {}
    for here, _, names in os.walk(root):
        for name in names:
            path = os.path.join(here, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, root)] = f.read()
    return files


def run(shim, command, cwd, fail_at, scratch, stdin=None, copy=None):
    if copy is not None:  # a fresh copy of the tree, which the run may rewrite (--fix)
        cwd = os.path.join(scratch, "tree-%d" % fail_at)
        shutil.copytree(copy, cwd, symlinks=True)
    result = run_in(shim, command, cwd, fail_at, scratch, stdin)
    if copy is not None:
        result["tree"] = tree(cwd)
        shutil.rmtree(cwd)
    return result


def run_in(shim, command, cwd, fail_at, scratch, stdin):
    report = os.path.join(scratch, "report-%d" % fail_at)
    env = dict(os.environ, LD_PRELOAD=shim, SRCLS_FAULT_AT=str(fail_at),
               SRCLS_FAULT_REPORT=report, SRCLS_DEBOUNCE_MS="0")
    try:
        given = open(stdin, "rb").read() if stdin else b""  # through a pipe, as an editor
        done = subprocess.run(command, cwd=cwd, env=env, input=given,
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


def judge_tree(before, clean, r):
    """With --copy: what went wrong with the files, or None. A run that gave the clean run's
    output left the clean run's files; one that ran out of memory left each file as it was or as
    the clean run left it, never half, and no file the clean run did not leave."""
    verdict = judge(clean, r)
    if verdict not in ("same", "oom") or "tree" not in r:
        return verdict
    if verdict == "same" and r["tree"] != clean["tree"]:
        return "the clean run's output, other files"
    for path, data in r["tree"].items():
        if data not in (before.get(path), clean["tree"].get(path)):
            return "%s is neither as it was nor as the clean run left it" % path
    return verdict


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


def frames(data):
    """The messages of a stream of Content-Length frames; ValueError when it is not one."""
    out, i = [], 0
    while i < len(data):
        m = re.match(rb"Content-Length: (\d+)\r\n\r\n", data[i:])
        if m is None:
            raise ValueError("not a frame at byte %d" % i)
        start = i + m.end()
        out.append(json.loads(data[start:start + int(m.group(1))]))
        i = start + int(m.group(1))
    return out


def without_result_ids(message):
    """`message` with its resultIds blanked: a server's counter, which an earlier failure (a
    document not opened) leaves at another value; opaque to the client, which only sends it
    back."""
    text = json.dumps(message, sort_keys=True)
    return re.sub(r'"resultId": "[^"]*"', '"resultId": ""', text)


def same_notifications(mine, theirs):
    """Whether the notifications tell the client the same: the same ones but diagnostics in the
    same order, and for each document every diagnostics the clean run published, in order, the
    last one last. A run that reads its input in other pieces (a pipe) handles it in other
    batches, between which a debounce may publish once more: an extra publication, not a lost
    one."""
    def split(notes):
        published = {}
        for m in notes:
            if m.get("method") == "textDocument/publishDiagnostics":
                published.setdefault(m["params"]["uri"], []).append(m["params"])
        return [m for m in notes if m.get("method") != "textDocument/publishDiagnostics"], published
    (others, published), (want_others, want) = split(mine), split(theirs)
    if others != want_others:
        return False
    for uri, wanted in want.items():
        got = iter(published.get(uri, []))
        if not all(any(g == w for g in got) for w in wanted) or published[uri][-1] != wanted[-1]:
            return False
    return True


def judge_lsp(clean, r):
    """'same', 'oom', or what went wrong, for a run of the language server."""
    if r["status"] == "timeout":
        return "hang"
    if isinstance(r["status"], int) and r["status"] < 0:
        return "signal %d" % -r["status"]
    if not r["out"] and r["status"] != 0 and "out of memory" in r["err"].decode("utf-8", "replace"):
        return "oom"  # could not start, and said why
    try:
        mine, theirs = frames(r["out"]), frames(clean["out"])
    except ValueError as e:
        return "output that is not LSP frames: %s" % e
    answers = {m["id"]: m for m in mine if "id" in m and "method" not in m}
    oom = False
    for want in (m for m in theirs if "id" in m and "method" not in m):
        got = answers.pop(want["id"], None)
        if got is None:
            return "request %s unanswered" % want["id"]
        if got == want or without_result_ids(got) == without_result_ids(want):
            continue
        error = got.get("error", {})
        if error.get("code") != -32603 or "out of memory" not in error.get("message", ""):
            return "request %s answered otherwise: %s" % (want["id"], json.dumps(got)[:200])
        oom = True
    if answers:
        return "an answer to no request: %s" % json.dumps(list(answers.values())[0])[:200]
    if r["status"] != clean["status"]:
        return "exit status %s" % r["status"]
    notes = [m for m in mine if "id" not in m]
    logged = any(m.get("method") == "window/logMessage" and
                 "out of memory" in m.get("params", {}).get("message", "") for m in notes)
    if not same_notifications(notes, [m for m in theirs if "id" not in m]) and not logged:
        return "notifications differ, and no window/logMessage says out of memory"
    return "oom" if oom or logged else "same"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("shim")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cwd", default=None)
    parser.add_argument("--show", type=int, default=3)
    parser.add_argument("--name", default="")
    parser.add_argument("--lsp", default=None)
    parser.add_argument("--copy", default=None)
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
        before = tree(args.copy) if args.copy else None
        clean = run(shim, args.command, args.cwd, 0, scratch, args.lsp, args.copy)
        if not clean["counts"]:
            print("the shim reported nothing: is %s preloadable?" % shim, file=sys.stderr)
            return 2
        total = clean["counts"]["allocations"]
        points = range(1, total + 1, args.every)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(
                lambda n: run(shim, args.command, args.cwd, n, scratch, args.lsp, args.copy),
                points))
    verdicts = {}
    leaks = []
    for r in results:
        verdict = (judge_lsp(clean, r) if args.lsp
                   else judge_tree(before, clean, r) if args.copy else judge(clean, r))
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
