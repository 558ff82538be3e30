#!/usr/bin/env python3
"""Issue 12's benchmarks, one command each; srcls and its peers alternate in the same run and
every table gives the ratio peer / srcls (above 1: srcls is faster or smaller).

  run.py check        --check of the 10,000-file corpus vs read_files (open+read only) and ajv-cli
  run.py review       --check --base HEAD~1 vs --check on the corpus in a git repository whose
                      last commit changed 10 of the 10,000 files, 6 of them moved with git mv
                      (3 of those edited) (issues 20 and 28: within 1.5x)
  run.py throughput   parse and parse+check MB/s (bench_parse) vs simdjson DOM parse, on the bulk
                      files and a clean one (--clean 22: no finding; issue 30's row)
  run.py keystroke    edit → publishDiagnostics, edit → pulled diagnostics, completion and hover
                      after an edit and at rest; srcls vs vscode-json-language-server
  run.py memory       peak RSS (VmHWM) of each server with the 50 MB document open
  run.py baseline     --check --baseline FILE of the 10,000-file corpus vs plain --check (and
                      --write-baseline), srcls against itself
  run.py workspace    the first workspace/diagnostic over the 10,000-file corpus (a fresh server,
                      the corpus as its workspace folder) vs --check of the same corpus,
                      alternated in the same run; srcls against itself (issue 30: within 1.2x);
                      then, during such a pull, how long an edit's diagnostics take

Options: --build DIR (a meson build with -Dtests=true; default $SRCLS_BUILD or /tmp/bench/br),
--corpus DIR (default /tmp/srcls-corpus; made by gen_corpus.py when missing), --rounds N,
--sizes 0.5,5,50, --clean 22 (throughput: the clean bulk file's size in MB, 0 for none),
--edits N (see keystroke), --quick (fewer rounds and edits),
--srcls-only (keystroke without the peer, while working on srcls).
Peers: `npm ci` in tests/bench/peers (ajv-cli, vscode-langservers-extracted, pinned);
simdjson: `apt-get install libsimdjson-dev` (bench_simdjson.cpp is built here with g++)."""
import argparse
import json
import os
import re
import resource
import select
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "peers", "node_modules")
AJV = os.path.join(PEERS, ".bin", "ajv")
JSONLS = os.path.join(PEERS, "vscode-langservers-extracted", "lib", "json-language-server",
                      "node", "jsonServerMain.js")


def need(path, hint):
    if not os.path.exists(path):
        sys.exit("missing %s: %s" % (path, hint))


def corpus(args):
    c = args.corpus
    if not os.path.exists(os.path.join(c, "mistakes.tsv")):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), c], check=True)
    schema = os.path.join(c, "sources.schema.json")
    if not os.path.exists(schema):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_json_schema.py"), schema], check=True)
    return c, schema


def bulk(c, mb):
    return os.path.join(c, "bulk-%smb.json" % ("%g" % mb).replace(".", "_"))


def clean_bulk(c, mb):
    """The bulk file of about mb MB with no mistake (gen_corpus.py --clean), made when missing;
    srcls --check must report nothing on it."""
    path = os.path.join(c, "clean-%smb.json" % ("%g" % mb).replace(".", "_"))
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), c, "--files", "0",
                        "--bulk", "", "--clean", "%g" % mb], check=True)
    return path


def table(title, header, rows):
    print("\n" + title)
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    sys.stdout.flush()


def timed(cmd, **kw):
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    return time.perf_counter() - t, p


# ---------------------------------------------------------------- 1. check

def bench_check(args):
    c, schema = corpus(args)
    files = os.path.join(c, "files")
    srcls = os.path.join(args.build, "server", "srcls")
    reader = os.path.join(args.build, "tests", "bench", "read_files")
    need(AJV, "npm ci --prefix tests/bench/peers")
    need(reader, "build with -Dtests=true")
    runs = {
        "read_files (open+read only)": [reader, files],
        "srcls --check": [srcls, "--check", files],
        "ajv-cli 5.0.0 validate": [AJV, "validate", "-s", schema, "-d", files + "/*.json",
                                   "--all-errors", "--errors=line", "--allow-union-types"],
    }
    found = {}
    for name, cmd in runs.items():  # warm the page cache and count what each one reports
        _, p = timed(cmd)
        out = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
        if name.startswith("srcls"):
            found[name] = len({l.split(":")[0] for l in out.splitlines() if ": " in l and "[" in l})
        elif name.startswith("ajv"):
            found[name] = sum(1 for l in out.splitlines() if l.endswith(" invalid"))
        else:
            found[name] = "-"
    times = {k: [] for k in runs}
    names = list(runs)
    for r in range(args.rounds):
        for name in names[r % 3:] + names[:r % 3]:  # rotate the order every round
            t, _ = timed(runs[name])
            times[name].append(t)
    mistakes = sum(1 for l in open(os.path.join(c, "mistakes.tsv")) if l.startswith("files/"))
    base = statistics.median(times["srcls --check"])
    rows = []
    for name in names:
        m = statistics.median(times[name])
        rows.append((name, "%.0f" % (m * 1e3), "%.0f" % (min(times[name]) * 1e3),
                     "%.2f" % (m / base), found[name]))
    n = len(os.listdir(files))
    size = sum(os.path.getsize(os.path.join(files, f)) for f in os.listdir(files))
    table("Benchmark 1: %d files, %.1f MB, %d with a planted mistake; %d rounds, order rotated"
          % (n, size / 1e6, mistakes, args.rounds),
          ["command", "median ms", "best ms", "time / srcls", "files reported"], rows)
    jobs_against_one(runs["srcls --check"], reader, files, n, max(10, args.rounds))
    syscalls_per_file(runs, n)


def jobs_against_one(srcls, reader, files, n, rounds):
    """The default --jobs against --jobs 1 in the same run, alternated (which goes first swaps
    every round): the ratio of each round's pair, its median and spread, the system time of
    each and the CPU time (os.wait4's rusage: what the threads cost whatever the load), and the
    files per second (of one core: --jobs 1's row). Beside it, in the same rounds, two floors of
    what the cores allow at that moment (on a shared virtual machine it moves: a host that puts
    both virtual CPUs on one physical core shows in them as in srcls's ratio): srcls's own work
    split with no sharing at all, N processes `--check --jobs 1 --shard I/N` at once (N = the
    CPUs online; timed until the last ends), and read_files --threads N against --threads 1
    (listing and reading only)."""
    cpus = os.cpu_count() or 1
    one = srcls[:2] + ["--jobs", "1"] + srcls[2:]
    cmds = {"one": [one], "default": [srcls],
            "shards": [one[:-1] + ["--shard", "%d/%d" % (i + 1, cpus), one[-1]]
                       for i in range(cpus)],
            "read one": [[reader, "--threads", "1", files]],
            "read all": [[reader, "--threads", str(cpus), files]]}
    wall = {k: [] for k in cmds}
    system = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    ratios, shard_floors, floors = [], [], []
    for r in range(rounds):
        pair = {}
        order = list(cmds) if r % 2 == 0 else list(reversed(list(cmds)))
        for name in order:
            t = time.perf_counter()
            procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                     for c in cmds[name]]
            usages = [os.wait4(p.pid, 0)[2] for p in procs]
            pair[name] = time.perf_counter() - t
            wall[name].append(pair[name])
            system[name].append(sum(u.ru_stime for u in usages))
            cpu[name].append(sum(u.ru_utime + u.ru_stime for u in usages))
        ratios.append(pair["default"] / pair["one"])
        shard_floors.append(pair["shards"] / pair["one"])
        floors.append(pair["read all"] / pair["read one"])
    ratios.sort()
    shard_floors.sort()
    floors.sort()
    rows = []
    for name, label in (("one", "srcls --check --jobs 1"), ("default", "srcls --check"),
                        ("shards", "%d × srcls --check --jobs 1 --shard I/%d, at once"
                         % (cpus, cpus)),
                        ("read one", "read_files --threads 1"),
                        ("read all", "read_files --threads %d" % cpus)):
        m = statistics.median(wall[name])
        rows.append((label, "%.0f" % (m * 1e3), "%.0f-%.0f" % (min(wall[name]) * 1e3,
                                                              max(wall[name]) * 1e3),
                     "%.0f" % (statistics.median(system[name]) * 1e3),
                     "%.0f" % (statistics.median(cpu[name]) * 1e3), "%.0f" % (n / m)))
    table("Default --jobs (%d CPUs online) against --jobs 1: %d rounds, alternated; default / "
          "--jobs 1 per round: median %.2f, spread %.2f-%.2f; the floors, the shards at once / "
          "--jobs 1: median %.2f, spread %.2f-%.2f; read_files --threads %d / --threads 1: "
          "median %.2f, spread %.2f-%.2f (load %s)"
          % (cpus, rounds, statistics.median(ratios), ratios[0], ratios[-1],
             statistics.median(shard_floors), shard_floors[0], shard_floors[-1], cpus,
             statistics.median(floors), floors[0], floors[-1],
             " ".join("%.2f" % x for x in os.getloadavg())),
          ["command", "median ms", "spread ms", "system ms (median)", "CPU ms (user+system)",
           "files/s"], rows)


def syscalls_per_file(runs, n):
    """System calls per file of read_files and srcls (--jobs 1 and default), by strace -f -c;
    futex (threads waiting on each other) counted apart."""
    if subprocess.run(["sh", "-c", "command -v strace"], stdout=subprocess.DEVNULL).returncode:
        print("\n(strace is not installed: no system-call counts)")
        return
    rows = []
    reader, srcls = runs["read_files (open+read only)"], runs["srcls --check"]
    for name, cmd in (("read_files (open+read only)", reader),
                      ("srcls --check --jobs 1", srcls[:2] + ["--jobs", "1"] + srcls[2:]),
                      ("srcls --check", srcls)):
        out = "/tmp/srcls-bench.strace"
        subprocess.run(["strace", "-f", "-c", "-o", out] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        calls = {}
        for line in open(out):
            f = line.split()
            if len(f) >= 5 and re.match(r"^[0-9.]+$", f[0]) and f[-1] != "total":
                calls[f[-1]] = int(f[3])
        os.unlink(out)
        other = sum(v for k, v in calls.items() if k != "futex")
        rows.append((name, "%.2f" % (other / n), "%.2f" % (calls.get("futex", 0) / n)))
    floor = float(rows[0][1])
    rows = [r + ("%.2f" % (float(r[1]) / floor),) for r in rows]
    table("System calls per file (strace -f -c), %d files" % n,
          ["command", "per file (futex apart)", "futex per file", "/ read_files"], rows)


# ---------------------------------------------------------------- 6. baseline

def bench_baseline(args):
    """--baseline must cost little: the same walk and checks, plus one entry (a pointer walk and
    a hash) and a binary search per finding. Baselines of the corpus's findings: the whole run's
    (every finding matched, nothing reported) and half of it (the other half reported)."""
    c, _ = corpus(args)
    files = os.path.join(c, "files")
    srcls = os.path.join(args.build, "server", "srcls")
    whole = os.path.join(c, "baseline.json")
    half = os.path.join(c, "baseline-half.json")
    p = subprocess.run([srcls, "--check", "--write-baseline", whole, files],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("--write-baseline failed: %s" % p.stderr.decode(errors="replace"))
    entries = json.load(open(whole))["findings"]
    with open(half, "w") as f:
        json.dump({"version": 1, "findings": entries[::2]}, f, indent=2)
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    runs = {
        "srcls --check": [srcls, "--check"] + jobs + [files],
        "--baseline (every finding)": [srcls, "--check", "--baseline", whole] + jobs + [files],
        "--baseline (half of them)": [srcls, "--check", "--baseline", half] + jobs + [files],
        "--write-baseline": [srcls, "--check", "--write-baseline", whole + ".again"] + jobs + [files],
    }
    reported = {}
    for name, cmd in runs.items():  # warm, and count the findings each reports
        _, p = timed(cmd)
        reported[name] = sum(1 for l in p.stdout.decode(errors="replace").splitlines()
                             if l.endswith("]") and ": " in l)
    if open(whole, "rb").read() != open(whole + ".again", "rb").read():
        sys.exit("--write-baseline twice gave different bytes")
    times = {k: [] for k in runs}
    cpu = {k: [] for k in runs}  # user + system time of the child: less swayed by a busy machine
    names = list(runs)
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t, _ = timed(runs[name])
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[name].append(t)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    base = statistics.median(times["srcls --check"])
    cpu_base = statistics.median(cpu["srcls --check"])
    rows = [(name, "%.0f" % (statistics.median(times[name]) * 1e3),
             "%.0f" % (min(times[name]) * 1e3), "%.2f" % (statistics.median(times[name]) / base),
             "%.0f" % (statistics.median(cpu[name]) * 1e3),
             "%.2f" % (statistics.median(cpu[name]) / cpu_base), reported[name]) for name in names]
    table("Benchmark 6: --baseline, %d files, %d entries in the baseline; %s; %d rounds, order "
          "rotated" % (len(os.listdir(files)), len(entries),
                       "--jobs %d" % args.jobs if args.jobs else "default --jobs", args.rounds),
          ["command", "median ms", "best ms", "time / --check", "median CPU ms", "CPU / --check",
           "findings reported"], rows)
# ---------------------------------------------------------------- 1b. review (--base)

def git(repo, *args):
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
                    "-c", "init.defaultBranch=main", *args], cwd=repo, check=True,
                   stdout=subprocess.DEVNULL)


def review_repo(c, changed):
    """A git repository holding the corpus's files (committed), then a commit that changes
    `changed` of them: 40% renamed in place (the source's "name": a new blob, one risky-change),
    30% moved with `git mv` (no finding: git's rename detection pairs them), 30% moved with
    `git mv` and their source renamed (one risky-change each, on the new path)."""
    repo = os.path.join(os.path.dirname(os.path.abspath(c)), "srcls-review-repo")
    files = os.path.join(c, "files")
    names = sorted(os.listdir(files))
    marker = os.path.join(repo, ".bench-moves-%d" % len(names))
    if os.path.exists(marker):
        return repo, names
    subprocess.run(["rm", "-rf", repo], check=True)
    os.makedirs(repo)
    subprocess.run(["cp", "-r", files, os.path.join(repo, "files")], check=True)
    git(repo, "init", "-q")
    git(repo, "add", "files")
    git(repo, "commit", "-q", "-m", "the corpus")
    step = len(names) // changed
    chosen = names[::step][:changed]
    moved, edited = chosen[:changed * 3 // 10], chosen[changed * 3 // 10:changed * 6 // 10]
    os.makedirs(os.path.join(repo, "files", "moved"))
    for name in chosen:
        path = os.path.join(repo, "files", name)
        if name in moved or name in edited:
            new = os.path.join("files", "moved", name)
            git(repo, "mv", os.path.join("files", name), new)
            path = os.path.join(repo, new)
            if name in moved:
                continue
        doc = json.load(open(path))
        doc["name"] += "-renamed"  # a change --base reports: one risky-change a file
        with open(path, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    git(repo, "commit", "-q", "-a", "-m", "%d files changed, %d of them moved" % (
        changed, len(moved) + len(edited)))
    open(marker, "w").close()
    return repo, names


def bench_review(args):
    c, _ = corpus(args)
    changed = 10
    repo, names = review_repo(c, changed)
    srcls = os.path.join(args.build, "server", "srcls")
    runs = {
        "srcls --check": [srcls, "--check", "files"],
        "srcls --check --base HEAD~1": [srcls, "--check", "--base", "HEAD~1", "files"],
    }
    found = {}
    for name, cmd in runs.items():  # warm the page cache and git's, and count what is reported
        _, p = timed(cmd, cwd=repo)
        if p.returncode not in (0, 1):
            sys.exit("%s: exit %d: %s" % (name, p.returncode, p.stderr.decode(errors="replace")))
        out = p.stdout.decode(errors="replace")
        found[name] = sum(1 for l in out.splitlines() if l.endswith("[risky-change]"))
    times = {k: [] for k in runs}
    order = list(runs)
    for r in range(args.rounds):
        for name in order[r % 2:] + order[:r % 2]:  # alternate which goes first
            t, _ = timed(runs[name], cwd=repo)
            times[name].append(t)
    base = statistics.median(times["srcls --check"])
    rows = [(name, "%.0f" % (statistics.median(times[name]) * 1e3),
             "%.0f" % (min(times[name]) * 1e3), "%.2f" % (statistics.median(times[name]) / base),
             found[name]) for name in order]
    table("Benchmark 1b: %d files in a git repository, %d changed by HEAD~1..HEAD (6 of them "
          "moved, 3 of those edited); %d rounds, order alternated" % (len(names), changed,
                                                                     args.rounds),
          ["command", "median ms", "best ms", "time / --check", "risky-change reported"], rows)


# ---------------------------------------------------------------- 3. throughput

def whole_process_mbps(cmd, size, runs):
    """MB/s of `cmd` as a process (file read and exit included): the median of `runs` runs."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return size / statistics.median(times) / 1e6


def bench_throughput(args):
    c, _ = corpus(args)
    bp = os.path.join(args.build, "tests", "bench", "bench_parse")
    sj = os.path.join(args.build, "bench_simdjson")
    srcls = os.path.join(args.build, "server", "srcls")
    need(bp, "build with -Dtests=true")
    if not os.path.exists(sj) or os.path.getmtime(sj) < os.path.getmtime(os.path.join(HERE, "bench_simdjson.cpp")):
        subprocess.run(["g++", "-O3", "-std=c++17", "-o", sj, os.path.join(HERE, "bench_simdjson.cpp"),
                        "-lsimdjson"], check=True)
    rows, process_rows = [], []
    inputs = [("%g MB" % mb, bulk(c, mb), mb) for mb in args.sizes]
    if args.clean:  # issue 30's row: a bulk file with nothing to report
        inputs.append(("clean %g MB" % args.clean, clean_bulk(c, args.clean), args.clean))
        p = subprocess.run([srcls, "--check", inputs[-1][1]], stdout=subprocess.PIPE)
        if p.returncode != 0 or b" 0 errors, 0 warnings, 0 information, 0 hints" not in p.stdout:
            sys.exit("srcls --check reports findings on %s: it is not clean" % inputs[-1][1])
    for label, f, mb in inputs:
        size = os.path.getsize(f)
        inner = "20" if mb < 10 else "5"
        cmds = {"parse": [bp, f, inner], "parse+check": [bp, "--check", f, inner], "simdjson": [sj, f, inner]}
        res = {k: [] for k in cmds}
        res["srcls --check"] = []
        names = list(cmds) + ["srcls --check"]
        for r in range(args.rounds):
            for name in names[r % 4:] + names[:r % 4]:
                if name == "srcls --check":
                    # the whole process: read, parse, check, report (exit status 1 on findings)
                    res[name].append(whole_process_mbps([srcls, "--check", "--jobs", "1", f], size,
                                                        int(inner) // 5 or 1))
                    continue
                out = subprocess.run(cmds[name], stdout=subprocess.PIPE, check=True).stdout.decode()
                res[name].append(float(re.search(r"([\d.]+) MB/s", out).group(1)))
        med = {k: statistics.median(v) for k, v in res.items()}
        rows.append((label, "%.0f" % med["parse"], "%.0f" % med["parse+check"],
                     "%.0f" % med["simdjson"], "%.1f" % (med["simdjson"] / med["parse"]),
                     "%.1f" % (med["simdjson"] / med["parse+check"])))
        process_rows.append((label, "%.0f" % med["srcls --check"], "%.0f" % med["simdjson"],
                             "1/%.1f" % (med["simdjson"] / med["srcls --check"])))
    table("Benchmark 3: MB/s, median of %d rounds (each the median of 20 runs, 5 from 10 MB)" % args.rounds,
          ["bulk file", "srcls parse", "srcls parse+check", "simdjson DOM parse",
           "simdjson / parse", "simdjson / parse+check"], rows)
    table("Benchmark 3b: the whole process `srcls --check --jobs 1 FILE` (read, parse, check, "
          "report) against simdjson's in-process DOM parse of the same file, same rounds",
          ["bulk file", "srcls --check MB/s", "simdjson DOM parse MB/s", "srcls / simdjson"],
          process_rows)


# ---------------------------------------------------------------- LSP client

class Server:
    def __init__(self, name, cmd, pull, schema_path, env=None, timeout=300, root=None):
        self.name, self.timeout = name, timeout
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=dict(os.environ, **(env or {})))
        # received_at: when the bytes of the last message recv returned were all in (before the
        # client parsed them: a 2 MB answer takes Python 20 ms to parse, none of it the server's)
        self.buffer, self.next_id, self.pending, self.received_at = bytearray(), 1, [], None
        caps = {"textDocument": {"synchronization": {"dynamicRegistration": False},
                                 "completion": {"completionItem": {"snippetSupport": True}},
                                 "hover": {"contentFormat": ["markdown", "plaintext"]}},
                "workspace": {"configuration": False}}
        if pull:
            caps["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
        self.init = self.request("initialize", {"processId": os.getpid(),
                                                "rootUri": "file://" + root if root else None,
                                                "capabilities": caps,
                                                "initializationOptions": {"provideFormatter": False}})
        self.notify("initialized", {})
        if schema_path:  # like for like: the kinds' JSON Schema on every *.json
            self.notify("workspace/didChangeConfiguration", {"settings": {"json": {
                "validate": {"enable": True},
                "schemas": [{"fileMatch": ["*.json"], "url": "file://" + schema_path}]}}})

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def _fill(self, deadline):
        left = deadline - time.perf_counter()
        ready, _, _ = select.select([self.p.stdout], [], [], max(0, left))
        if not ready:
            raise TimeoutError("%s did not answer in time" % self.name)
        chunk = os.read(self.p.stdout.fileno(), 1 << 22)
        if not chunk:
            raise SystemExit("%s closed the connection" % self.name)
        self.buffer += chunk

    def recv(self, timeout=None):
        deadline = time.perf_counter() + (timeout or self.timeout)
        while True:
            i = self.buffer.find(b"\r\n\r\n")
            if i >= 0:
                header = self.buffer[:i]
                size = int(re.search(rb"(?i)content-length:\s*(\d+)", header).group(1))
                if len(self.buffer) >= i + 4 + size:
                    self.received_at = time.perf_counter()
                    body = bytes(self.buffer[i + 4:i + 4 + size])
                    del self.buffer[:i + 4 + size]
                    m = json.loads(body)
                    if "method" in m and "id" in m:  # a request from the server: answer null
                        self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
                        continue
                    return m
            self._fill(deadline)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.recv()
            if m.get("id") == rid:
                return m.get("result", m.get("error"))
            if m.get("method") == "textDocument/publishDiagnostics":
                self.pending.append(m)  # a push that came while waiting: wait_push sees it

    def wait_push(self, uri, version):
        """The next publishDiagnostics for uri (of this version, when the server sends one)."""
        while True:
            m = self.pending.pop(0) if self.pending else self.recv()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                v = m["params"].get("version")
                if v is None or v == version:
                    return m["params"]["diagnostics"]

    def drain(self, quiet=0.2):
        self.pending = []
        while True:
            try:
                self.recv(timeout=quiet)
            except TimeoutError:
                return

    def hwm_kb(self):
        status = open("/proc/%d/status" % self.p.pid).read()
        return (int(re.search(r"VmHWM:\s+(\d+)", status).group(1)),
                int(re.search(r"VmRSS:\s+(\d+)", status).group(1)))

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.p.stdin.close()
            self.p.wait(timeout=30)
        except Exception:
            self.p.kill()
            self.p.wait()


def servers(args, schema):
    srcls = os.path.join(args.build, "server", "srcls")
    if args.srcls_only:
        return [("srcls", lambda pull: Server("srcls", [srcls, "--stdio"], pull, None))]
    need(JSONLS, "npm ci --prefix tests/bench/peers")
    return [("srcls", lambda pull: Server("srcls", [srcls, "--stdio"], pull, None)),
            ("vscode-json-ls", lambda pull: Server("vscode-json-ls", ["node", JSONLS, "--stdio"],
                                                    pull, schema))]


class Doc:
    def __init__(self, path):
        self.text = open(path, encoding="utf-8").read()
        self.uri = "file://" + os.path.abspath(path)
        lines = self.text.split("\n")
        self.name_line = next(i for i, l in enumerate(lines) if '"name": "' in l)
        self.name_col = lines[self.name_line].index('"name": "') + len('"name": "')
        cfg = next(i for i, l in enumerate(lines) if '"config": {' in l)
        self.key_line = cfg + 1  # the first key of the first config: "  |"key"
        self.key_col = lines[self.key_line].index('"') + 1
        self.version = 1
        self.typed = 0

    def open(self, s):
        self.version, self.typed = 1, 0
        s.notify("textDocument/didOpen", {"textDocument": {"uri": self.uri, "languageId": "json",
                                                           "version": 1, "text": self.text}})

    def edit(self, s):
        """Types one character into the first name value (alternately adds and removes)."""
        self.version += 1
        col = self.name_col
        if self.typed == 0:
            change = {"range": {"start": {"line": self.name_line, "character": col},
                                "end": {"line": self.name_line, "character": col}}, "text": "x"}
            self.typed = 1
        else:
            change = {"range": {"start": {"line": self.name_line, "character": col},
                                "end": {"line": self.name_line, "character": col + 1}}, "text": ""}
            self.typed = 0
        s.notify("textDocument/didChange", {"textDocument": {"uri": self.uri, "version": self.version},
                                            "contentChanges": [change]})

    def at_key(self, extra=0):
        return {"textDocument": {"uri": self.uri},
                "position": {"line": self.key_line, "character": self.key_col + extra}}


def ms(t0):
    return (time.perf_counter() - t0) * 1e3


def summary(xs):
    if not xs:
        return "n/a"
    return "%.1f / %.1f" % (statistics.median(xs), max(xs))


def session(make, doc, edits, at_rest, pull):
    """One server, one document: open, then the phases. Returns {measure: [ms]} and facts."""
    res = {}
    s = make(pull)
    try:
        t0 = time.perf_counter()
        doc.open(s)
        if pull:
            s.request("textDocument/diagnostic", {"textDocument": {"uri": doc.uri}})
            res["open → diagnostics"] = [ms(t0)]
            pulled = []
            for _ in range(edits):
                doc.edit(s)
                t0 = time.perf_counter()
                r = s.request("textDocument/diagnostic", {"textDocument": {"uri": doc.uri}})
                pulled.append(ms(t0))
            res["edit → pulled"] = pulled
            res["_count"] = len(r.get("items", [])) if isinstance(r, dict) else None
        else:
            d = s.wait_push(doc.uri, 1)
            res["open → diagnostics"] = [ms(t0)]
            res["_count"] = len(d)
            pushed = []
            for _ in range(edits):
                t0 = time.perf_counter()
                doc.edit(s)
                s.wait_push(doc.uri, doc.version)
                pushed.append(ms(t0))
            res["edit → push"] = pushed
            comp_e, hov_e, comp_r, hov_r = [], [], [], []
            for _ in range(at_rest):
                doc.edit(s)
                t0 = time.perf_counter()
                s.request("textDocument/completion", doc.at_key())
                comp_e.append(ms(t0))
                doc.edit(s)
                t0 = time.perf_counter()
                s.request("textDocument/hover", doc.at_key(2))
                hov_e.append(ms(t0))
            s.wait_push(doc.uri, doc.version)
            s.drain()
            for _ in range(at_rest):
                t0 = time.perf_counter()
                s.request("textDocument/completion", doc.at_key())
                comp_r.append(ms(t0))
                t0 = time.perf_counter()
                s.request("textDocument/hover", doc.at_key(2))
                hov_r.append(ms(t0))
            res["completion after edit"] = comp_e
            res["hover after edit"] = hov_e
            res["completion at rest"] = comp_r
            res["hover at rest"] = hov_r
            res["_hwm"] = s.hwm_kb()
    finally:
        s.close()
    return res


def plan(args, mb):
    if args.edits:
        return args.edits, max(5, args.edits // 4)
    if args.quick:
        return (20, 10) if mb < 10 else (5, 3)
    return (200, 50) if mb < 1 else (100, 30) if mb < 10 else (15, 5)


def bench_keystroke(args):
    c, schema = corpus(args)
    measures = ["open → diagnostics", "edit → push", "edit → pulled", "completion after edit",
                "hover after edit", "completion at rest", "hover at rest"]
    for mb in args.sizes:
        doc = Doc(bulk(c, mb))
        edits, at_rest = plan(args, mb)
        results = {}
        for name, make in servers(args, schema):  # srcls, then the peer, on the same edits
            push = session(make, doc, edits, at_rest, pull=False)
            pull = session(make, doc, edits, 0, pull=True)
            results[name] = dict(push, **{k: v for k, v in pull.items() if not k.startswith("_")})
            results[name]["_pulled_count"] = pull.get("_count")
        rows = []
        for m in measures:
            a, b = results["srcls"].get(m, []), results.get("vscode-json-ls", {}).get(m, [])
            ratio = "%.1f" % (statistics.median(b) / statistics.median(a)) if a and b else "n/a"
            rows.append((m, len(a), summary(a), summary(b), ratio))
        rows.append(("diagnostics (push / pull)", "",
                     "%s / %s" % (results["srcls"]["_count"], results["srcls"]["_pulled_count"]),
                     "%s / %s" % (results.get("vscode-json-ls", {}).get("_count"),
                                  results.get("vscode-json-ls", {}).get("_pulled_count")), ""))
        table("Benchmark 2: %s (%.1f MB): ms, median / worst; srcls debounce %s ms, "
              "vscode-json-ls fixed 500 ms validation delay" % (
                  os.path.basename(doc.uri), len(doc.text) / 1e6,
                  os.environ.get("SRCLS_DEBOUNCE_MS", "75")),
              ["measure", "n", "srcls", "vscode-json-ls", "peer / srcls"], rows)


# ---------------------------------------------------------------- 4. memory

def bench_memory(args):
    c, schema = corpus(args)
    rows = []
    for mb in args.sizes:
        doc = Doc(bulk(c, mb))
        got = {}
        for name, make in servers(args, schema):
            s = make(False)
            try:
                doc.open(s)
                s.wait_push(doc.uri, 1)
                for _ in range(3):
                    doc.edit(s)
                    s.wait_push(doc.uri, doc.version)
                s.request("textDocument/completion", doc.at_key())
                s.request("textDocument/hover", doc.at_key(2))
                got[name] = s.hwm_kb()
            finally:
                s.close()
        a, b = got["srcls"], got.get("vscode-json-ls", (float("nan"), float("nan")))
        rows.append(("%g MB" % mb, "%.0f / %.0f" % (a[0] / 1024, a[1] / 1024),
                     "%.0f / %.0f" % (b[0] / 1024, b[1] / 1024), "%.1f" % (b[0] / a[0]),
                     "%.1f" % (a[0] * 1024 / (mb * 1e6))))
    table("Benchmark 4: peak RSS (VmHWM) / RSS at the end, MiB, after open + 3 edits + completion + hover",
          ["document", "srcls", "vscode-json-ls", "peer peak / srcls peak", "srcls peak bytes per doc byte"], rows)


# ---------------------------------------------------------------- 5. workspace

def bench_workspace(args):
    c, _ = corpus(args)
    files = os.path.join(c, "files")
    srcls = os.path.join(args.build, "server", "srcls")

    def pull():  # initialize (not timed), then the first workspace/diagnostic (timed)
        s = Server("srcls", [srcls, "--stdio"], True, None, root=files)
        t = time.perf_counter()
        report = s.request("workspace/diagnostic", {"previousResultIds": []})
        t = s.received_at - t  # the answer's last byte in, as --check's process end
        s.close()
        return t, {(os.path.basename(r["uri"]), d["code"], d["range"]["start"]["line"],
                    d["range"]["start"]["character"]) for r in report["items"] for d in r.get("items", [])}

    def check():
        t, p = timed([srcls, "--check", files, "--format", "json"])
        return t, {(os.path.basename(f["path"]), d["code"], d["range"]["start"]["line"],
                    d["range"]["start"]["character"]) for f in json.loads(p.stdout)["files"]
                   for d in f.get("diagnostics", [])}

    runs = {"srcls --check": check, "first workspace/diagnostic": pull}
    found = {name: run()[1] for name, run in runs.items()}  # warm the page cache
    times = {k: [] for k in runs}
    names = list(runs)
    for r in range(args.rounds):
        for name in names[r % 2:] + names[:r % 2]:  # alternate the order every round
            times[name].append(runs[name]()[0])
    base = statistics.median(times["srcls --check"])
    rows = [(name, "%.0f" % (statistics.median(times[name]) * 1e3), "%.0f" % (min(times[name]) * 1e3),
             "%.2f" % (statistics.median(times[name]) / base), len({f[0] for f in found[name]}),
             len(found[name])) for name in names]
    table("Benchmark 5: %d files; %d rounds, order alternated; load %s"
          % (len(os.listdir(files)), args.rounds, open("/proc/loadavg").read().split()[0]),
          ["command", "median ms", "best ms", "time / --check", "files with findings",
           "findings (file, code, start)"], rows)
    only = found["srcls --check"] ^ found["first workspace/diagnostic"]
    print("findings in one answer only: %d%s" % (len(only), "".join("\n  " + str(f) for f in sorted(only)[:10])))
    bench_workspace_edit(srcls, files, args.rounds)


def bench_workspace_edit(srcls, files, rounds):
    """During a pull of the corpus with a partialResultToken: once its first $/progress is in, a
    didChange of an open document and textDocument/diagnostic of it; the time to that answer,
    and how long the pull went on after the question (the loop answered while it ran when the
    first is the smaller)."""
    uri, text = "file:///tmp/srcls-bench-open.source.json", '{"type": "s3", "name": "x"}'
    edits, rest = [], []
    for _ in range(rounds):
        s = Server("srcls", [srcls, "--stdio"], True, None, root=files)
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json",
                                                            "version": 1, "text": text}})
        s.send({"jsonrpc": "2.0", "id": "pull", "method": "workspace/diagnostic",
                "params": {"previousResultIds": [], "partialResultToken": "bench"}})
        asked = answered = None
        while True:
            m = s.recv()
            if m.get("method") == "$/progress" and asked is None:
                s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                    "contentChanges": [{"text": text.replace("x", "y")}]})
                s.send({"jsonrpc": "2.0", "id": "edit", "method": "textDocument/diagnostic",
                        "params": {"textDocument": {"uri": uri}}})
                asked = time.perf_counter()
            elif m.get("id") == "edit" and "method" not in m:
                answered = time.perf_counter()
            elif m.get("id") == "pull" and "method" not in m:
                done = time.perf_counter()
                break
        while answered is None:
            if s.recv().get("id") == "edit":
                answered = time.perf_counter()
        edits.append(answered - asked)
        rest.append(done - asked)
        s.close()
    table("An edit during the first pull: %d rounds; load %s"
          % (rounds, open("/proc/loadavg").read().split()[0]),
          ["after the first $/progress", "median ms", "worst ms"],
          [("didChange + textDocument/diagnostic answered", "%.1f" % (statistics.median(edits) * 1e3),
            "%.1f" % (max(edits) * 1e3)),
           ("the pull answered", "%.0f" % (statistics.median(rest) * 1e3), "%.0f" % (max(rest) * 1e3))])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["check", "review", "throughput", "keystroke", "memory", "baseline",
                                        "workspace"])
    ap.add_argument("--jobs", type=int, default=0, help="baseline: srcls's --jobs (default: its own)")
    ap.add_argument("--build", default=os.environ.get("SRCLS_BUILD", "/tmp/bench/br"))
    ap.add_argument("--corpus", default="/tmp/srcls-corpus")
    ap.add_argument("--rounds", type=int, default=0)
    ap.add_argument("--sizes", default="")
    ap.add_argument("--edits", type=int, default=0)
    ap.add_argument("--clean", type=float, default=22,
                    help="throughput: the size in MB of the clean bulk file's row (0: none)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--srcls-only", action="store_true",
                    help="keystroke, memory: run srcls alone (a quick look while working; no ratios)")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.rounds = args.rounds or (3 if args.quick else 7 if args.what in ("check", "review", "baseline", "workspace") else 5)
    default_sizes = "50" if args.what == "memory" else "0.5,5,50"
    args.sizes = [float(x) for x in (args.sizes or default_sizes).split(",")]
    print("srcls %s; %d cores (%s), %s; shared machine" % (
        args.build, os.cpu_count(),
        next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
        next((l.split(":", 1)[1].strip() for l in open("/proc/meminfo") if l.startswith("MemTotal")), "?")))
    {"check": bench_check, "review": bench_review, "throughput": bench_throughput, "keystroke": bench_keystroke,
     "memory": bench_memory, "baseline": bench_baseline, "workspace": bench_workspace}[args.what](args)


if __name__ == "__main__":
    main()
