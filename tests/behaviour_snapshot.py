#!/usr/bin/env python3
"""What a srcls binary does, written into one directory, so that a restructuring can be shown
to change no behaviour: run it with the binary before and the binary after, then `diff -r` the
two directories (it must be empty).

Recorded (stdout, stderr and exit status of each run; files written):
- `--check` over every example (docs/examples/, with its team-kinds project) and every rule case
  (tests/rules/, one file a case) in every --format (text, json, sarif, github, gitlab: the binary's list), with
  code frames (--show-source, --color always), --statistics, --diff, and --fix on a copy (the
  fixed files are recorded);
- the gate, in a git repository built in the work directory (a commit tagged `base`, then a
  change: a posture setting turned off, a bulk source renamed and one removed, a file moved with
  `git mv` and edited, one deleted, srcls.json weakened, the baseline grown): `--check --base
  base` in every format (and standard input, a missing REF), the srcls.json's `"baseline"`,
  `--baseline` with entries no finding takes (array indexes `01` and `+1`, a name no element has,
  a file that is gone), `--write-baseline` (the files written), `--env` (dotenv files, an unset
  variable, a malformed file), `"ignore"` entries (one unused, reported when the run covers its
  srcls.json);
- --explain of every code of docs/rules.md, --list-kinds (text and json), --export-json-schema
  (every file written), --help, --version;
- a long LSP session (tests/lsp_session.py's client): the server's output bytes, as it wrote
  them, for every example opened, hovered, completed, fixed, outlined, folded, selected,
  formatted, hinted, edited several times (diagnostics awaited after each edit) and closed;
  a second session the same way over the gate's files (its srcls.json and baseline file too).
  Completion offers the current time for a timestamp field: a time of today or yesterday (UTC)
  in the session's output is masked, in the same number of bytes (Content-Length holds).

Both runs must use the same work directory (outputs name paths relative to it): the default,
/tmp/srcls-behaviour-work, is emptied first.

usage: behaviour_snapshot.py SRCLS_BINARY OUT_DIR [WORK_DIR]"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_session  # noqa: E402

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.abspath(sys.argv[1])
out = os.path.abspath(sys.argv[2])
work = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else "/tmp/srcls-behaviour-work")
for d in (out, work):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
ENV = dict(os.environ, NO_COLOR="", LC_ALL="C")
ENV.pop("NO_COLOR")
ENV.pop("FORCE_COLOR", None)


def run(name, args, stdin=None, cwd=None):
    """srcls ARGS in the work directory (or cwd); stdout, stderr and status into OUT/name.*"""
    p = subprocess.run([binary] + args, cwd=cwd or work, env=ENV, input=stdin,
                       capture_output=True, timeout=600)
    for suffix, data in (("out", p.stdout), ("err", p.stderr), ("rc", b"%d\n" % p.returncode)):
        with open(os.path.join(out, "%s.%s" % (name, suffix)), "wb") as f:
            f.write(data)


def copy_tree(src, dst):
    """Every file of src into OUT/dst (the files a run wrote)."""
    for path in sorted(glob.glob(os.path.join(src, "**", "*"), recursive=True)):
        if os.path.isfile(path):
            target = os.path.join(out, dst, os.path.relpath(path, src))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(path, target)


# ---- the inputs: examples and one file per rule case ---------------------------------------
shutil.copytree(os.path.join(root, "docs", "examples"), os.path.join(work, "examples"))
os.makedirs(os.path.join(work, "rules"))
cases = 0
for path in sorted(glob.glob(os.path.join(root, "tests", "rules", "*.cases.json"))):
    stem = os.path.basename(path)[:-len(".cases.json")]
    for i, case in enumerate(json.load(open(path, encoding="utf-8"))):
        if "document" not in case:
            continue
        with open(os.path.join(work, "rules", "%s-%04d.json" % (stem, i)), "w") as f:
            json.dump(case["document"], f, indent=2)
        cases += 1
inputs = {"examples": ["examples"], "rules": ["rules"]}

# ---- the CLI ----------------------------------------------------------------------------
common = ["--jobs", "2", "--no-respect-gitignore"]
# every format of --check, as the binary names them (server/cli/report.c's table)
formats = subprocess.run([binary, "--generate-docs", "formats"], capture_output=True, text=True,
                         check=True).stdout.split()
for label, paths in inputs.items():
    for fmt in formats:
        run("check-%s-%s" % (label, fmt),
            ["--check", "--format", fmt, "--no-show-source"] + common + paths)
    run("check-%s-frames" % label,
        ["--check", "--show-source", "--color", "always"] + common + paths)
    run("check-%s-statistics" % label, ["--check", "--statistics"] + common + paths)
    run("check-%s-diff" % label, ["--check", "--diff"] + common + paths)
    run("check-%s-fail-on-hint-select-security" % label,
        ["--check", "--fail-on", "hint", "--select", "security", "--no-show-source"] + common
        + paths)
    fixed = "fixed-" + label
    shutil.copytree(os.path.join(work, paths[0]), os.path.join(work, fixed))
    run("check-%s-fix" % label, ["--check", "--fix", "--no-show-source"] + common + [fixed])
    copy_tree(os.path.join(work, fixed), "files-" + fixed)
    shutil.rmtree(os.path.join(work, fixed))
for example in sorted(glob.glob(os.path.join(work, "examples", "*.json"))):
    name = os.path.basename(example)
    with open(example, "rb") as f:
        text = f.read()
    run("stdin-fix-" + name, ["--check", "--fix", "-", "--stdin-filename", name], stdin=text)
    run("stdin-json-" + name,
        ["--check", "--format", "json", "-", "--stdin-filename", name], stdin=text)

codes = re.findall(r"^## `([a-z-]+)`", open(os.path.join(root, "docs", "rules.md")).read(),
                   flags=re.M)
for code in codes + ["no-such-code"]:
    run("explain-" + code, ["--explain", code])
run("list-kinds-text", ["--list-kinds"])
run("list-kinds-json", ["--list-kinds", "--format", "json"])
run("export-json-schema", ["--export-json-schema", "exported"])
copy_tree(os.path.join(work, "exported"), "files-exported")
run("help", ["--help"])
run("version", ["--version"])
run("usage-error", ["--check", "--format", "nope", "examples"])

# ---- the gate: --base (a git repository built here), --baseline, --env, "ignore" ---------
GATE = os.path.join(work, "gate")
GIT_ENV = dict(ENV, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
               GIT_AUTHOR_NAME="s", GIT_AUTHOR_EMAIL="s@example.com",
               GIT_COMMITTER_NAME="s", GIT_COMMITTER_EMAIL="s@example.com",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")


def git(*args):
    subprocess.run(["git"] + list(args), cwd=GATE, env=GIT_ENV, check=True,
                   capture_output=True)


def put(path, value):
    """value (JSON, or text as written) into GATE/path."""
    path = os.path.join(GATE, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(value if isinstance(value, str)
                else json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def storage(name, **config):
    """A kind 3 source with a few findings of every sort of value the baseline hashes."""
    base = {"accessKey": "AKEXAMPLE3N8VQ1XK5TD", "accessSecret": "$SERVICE_EXISTING_VALUE$",
            "secure": True, "rootPath": "/", "credentialType": "ACCESS_KEY",
            "whitelistedBuckets": ["acme-raw"], "isCachingEnabled": True,
            "maxCacheSpacePct": 150, "defaultCtasFormat": "PARQUETX", "extraField": {"a": 1}}
    base.update(config)
    return {"name": name, "type": "CLOUDA_OBJECT_STORAGE",
            "config": {k: v for k, v in base.items() if v is not None}}


def gate_at_base():
    put("srcls.json", {
        "rules": {"security": "warning", "unknown-field": "error"},
        "placeholders": ["${NAME}"],
        "exclude": ["scratch"],
        "ignore": [
            {"files": "legacy.source.json", "codes": ["unknown-field"], "reason": "old loader"},
            {"pointer": "/lake-eu/config/secure", "codes": ["insecure-transport"],
             "reason": "VPC only"},
            {"pointer": "/**/nothingHere", "reason": "silences nothing"}],
        "baseline": "srcls-baseline.json"})
    put(".gitignore", "ignored/\n")
    put("ignored/x.source.json", storage("ignored"))
    put("legacy.source.json", storage("legacy", oldKnob=1, defaultCtasFormat="PARQUET🙂é",
                                          **{"naïve🙂": "é", "z€": 1}))
    put("sources/lake.source.json", storage("lake"))
    put("sources/bulk.json", [storage("lake-eu", secure=False), storage("lake-us"),
                              storage("lake-ap", maxCacheSpacePct=10),
                              {"type": "CLOUDA_OBJECT_STORAGE",
                               "config": {"rootPath": "/", "defaultCtasFormat": "NOPE"}}])
    put("sources/old.source.json", storage("old", accessSecret="plain-password"))
    put("sources/gone.source.json", storage("gone"))
    put("sources/template.source.json", storage(
        "tpl", accessSecret="${DB_SECRET}", credentialType="${CRED_TYPE}",
        rootPath="/${ENV}/${MISSING}", maxCacheSpacePct="${CACHE_PCT}"))
    put("sources/broken.source.json", '{"name": "broken", "type": "CLOUDA_OBJECT_STORAGE",\n')
    put("staging.env", "# staging\nDB_SECRET=Sup3r:S3cret\nCRED_TYPE=ACCESS_KEYS\n"
        "export ENV = staging # a comment\nCACHE_PCT='80'\n")
    put("prod.env", 'CRED_TYPE="ACCESS_KEY"\nDB_SECRET="data:,a\\tb"\n')
    put("bad.env", "OK=1\nnot a line\n")
    # values a JSON string must escape, and bytes that are not UTF-8 (rendered as they are)
    with open(os.path.join(GATE, "odd.env"), "wb") as f:
        f.write(b'DB_SECRET="l1\\nl2\\t\\"q\\" \\\\ b"\nCRED_TYPE=AC\x08\x0c\x7fX\n'
                b"ENV=\xff\xc3(\nMISSING=\xc3\xa9\xf0\x9f\x99\x82\nCACHE_PCT='\x01\x1f'\n")
    git("init", "-q", "-b", "main")
    run("gate-write-baseline-at-base", ["--check", "--write-baseline", "srcls-baseline.json",
                                         "."], cwd=GATE)
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    git("tag", "base")


def gate_changed():
    """What a change does that the review must see, and a baseline that no longer fits."""
    put("sources/lake.source.json", storage("lake", secure=False, whitelistedBuckets=None,
                                            maxCacheSpacePct=160))
    put("sources/bulk.json", [storage("lake-us2"), storage("lake-eu", secure=False),
                              storage("Lake-EU"),
                              {"type": "CLOUDA_OBJECT_STORAGE",
                               "config": {"rootPath": "/", "defaultCtasFormat": "NOPE"}}])
    git("mv", "sources/old.source.json", "sources/new.source.json")
    put("sources/new.source.json", storage("old", accessSecret="plain-password", secure=False))
    os.remove(os.path.join(GATE, "sources", "gone.source.json"))
    config = json.load(open(os.path.join(GATE, "srcls.json")))
    config["rules"] = {"security": "information", "unknown-field": "off"}
    config["exclude"].append("legacy2")
    config["ignore"].append({"files": "sources/*.json", "codes": ["security"], "reason": "new"})
    put("srcls.json", config)
    baseline = json.load(open(os.path.join(GATE, "srcls-baseline.json")))
    baseline["findings"].append({"file": "sources/lake.source.json", "code": "out-of-range",
                                 "pointer": "/config/maxCacheSpacePct",
                                 "hash": "0000000000000000"})
    put("srcls-baseline.json", baseline)
    # entries a finding never takes: array indexes RFC 6901 refuses (01, +1), a name no element
    # has, a file that is gone, a secret's entry
    odd = json.loads(json.dumps(baseline))
    for pointer in ("/01/config/defaultCtasFormat", "/+1/config/defaultCtasFormat",
                    "/3/config/defaultCtasFormat", "/2/config/defaultCtasFormat"):
        odd["findings"].append({"file": "sources/bulk.json", "code": "invalid-enum",
                                "pointer": pointer, "hash": "1111111111111111"})
    odd["findings"].append({"file": "sources/bulk.json", "code": "out-of-range",
                            "element": "nobody", "pointer": "/config/maxCacheSpacePct",
                            "hash": "2222222222222222"})
    odd["findings"].append({"file": "sources/none.source.json", "code": "unknown-field",
                            "pointer": "/config/extraField", "hash": "3333333333333333"})
    put("odd-baseline.json", odd)


gate_at_base()
with open(os.path.join(GATE, "srcls-baseline.json"), "rb") as f:
    shutil.copyfileobj(f, open(os.path.join(out, "files-gate-baseline-at-base.json"), "wb"))
gate_changed()
for fmt in ("text", "json", "sarif", "github", "gitlab"):
    run("gate-base-" + fmt, ["--check", "--base", "base", "--format", fmt, "."], cwd=GATE)
    run("gate-baseline-" + fmt, ["--check", "--format", fmt, "."], cwd=GATE)
    run("gate-odd-baseline-" + fmt,
        ["--check", "--baseline", "odd-baseline.json", "--format", fmt, "sources"], cwd=GATE)
run("gate-base-frames", ["--check", "--base", "base", "--show-source", "--color", "always",
                         "--statistics", "."], cwd=GATE)
run("gate-base-sources", ["--check", "--base", "base", "sources"], cwd=GATE)
run("gate-base-select", ["--check", "--base", "base", "--select", "risky-change", "."], cwd=GATE)
run("gate-base-missing-ref", ["--check", "--base", "no-such-ref", "."], cwd=GATE)
with open(os.path.join(GATE, "sources", "lake.source.json"), "rb") as f:
    lake = f.read()
run("gate-base-stdin", ["--check", "--base", "base", "--stdin-filename",
                        "sources/lake.source.json", "-"], stdin=lake, cwd=GATE)
run("gate-baseline-statistics", ["--check", "--statistics", "."], cwd=GATE)
run("gate-no-baseline", ["--check", "--no-baseline", "."], cwd=GATE)
run("gate-baseline-select", ["--check", "--select", "invalid-enum", "."], cwd=GATE)
run("gate-write-baseline", ["--check", "--baseline", "odd-baseline.json", "--write-baseline",
                            "rewritten-baseline.json", "."], cwd=GATE)
shutil.copyfile(os.path.join(GATE, "rewritten-baseline.json"),
                os.path.join(out, "files-gate-rewritten-baseline.json"))
run("gate-write-baseline-fresh", ["--check", "--no-baseline", "--write-baseline",
                                  "fresh-baseline.json", "."], cwd=GATE)
shutil.copyfile(os.path.join(GATE, "fresh-baseline.json"),
                os.path.join(out, "files-gate-fresh-baseline.json"))
for fmt in ("text", "json", "sarif"):
    run("gate-env-" + fmt, ["--check", "--env", "staging.env", "--env", "prod.env", "--format",
                            fmt, "--no-baseline", "sources"], cwd=GATE)
run("gate-env-frames", ["--check", "--env", "staging.env", "--show-source", "--color",
                        "always", "--no-baseline", "sources/template.source.json"], cwd=GATE)
run("gate-env-bad", ["--check", "--env", "bad.env", "sources"], cwd=GATE)
for fmt in ("text", "json"):
    run("gate-env-odd-" + fmt, ["--check", "--env", "odd.env", "--format", fmt, "--no-baseline",
                                "sources/template.source.json"], cwd=GATE)
run("gate-env-examples", ["--check", "--env", "staging.env", "examples/team-kinds"])
run("gate-ignore-partial", ["--check", "--no-baseline", "sources/bulk.json"], cwd=GATE)

# ---- the command line itself: every option --help names, alone, with a value, with --check
# and without an argument, and each pair of them (which one a usage error names) -------------
help_text = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
options = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", help_text)) - {"--stdio"})
for option in options + ["-q", "-x", "--no-such-option", "--"]:
    run("option%s" % option, [option], stdin=b"")
    run("option%s-value" % option, [option, "nope"], stdin=b"")
    run("option%s-check" % option, ["--check", "examples", option], stdin=b"")
    run("option%s-check-value" % option, ["--check", option, "nope", "examples"], stdin=b"")
for first in options:
    for second in options:
        if first < second:
            run("options%s%s" % (first, second), [first, "v", second, "v"], stdin=b"")
            run("options%s%s-reversed" % (first, second), [second, "v", first, "v"], stdin=b"")
for value in ("0", "1025", "x", "-1"):
    run("jobs-" + value, ["--check", "--jobs", value, "examples"])
for args in (["--stdio", "--check"], ["--stdio", "x"], ["--stdio", "--list-kinds"],
             ["--list-kinds", "--format", "xml"], ["--explain", ""],
             ["--export-json-schema", ""], ["--generate-docs", "nope"], ["x.json"],
             ["--check"], ["--check", "--select", "a,unknown-field", "examples"],
             ["--check", "--ignore", "security,b", "examples"],
             ["--check", "--fail-on", "off", "examples"], ["--check", "--color", "x", "e"],
             ["--check", "--statistics", "--format", "json", "e"],
             ["--check", "--diff", "--fix", "e"], ["--check", "--unsafe-fixes", "e"],
             ["--check", "--env", "a.env", "--fix", "e"], ["--check=x"], ["--format=json"],
             ["--check", "--format=json", "--output-file=/nonexistent/x", "examples"]):
    run("args" + "".join(a.replace("/", "_") for a in args), args, stdin=b"")

# ---- a long LSP session -------------------------------------------------------------------


class Recorder(lsp_session.Server):
    """The client of tests/lsp_session.py, keeping every byte the server wrote."""
    log = bytearray()

    def _fill(self):
        before = len(self.buffer)
        super()._fill()
        Recorder.log += self.buffer[before:]


def positions(text):
    """Some places of every line: its first character, inside its first word, its end."""
    for number, line in enumerate(text.split("\n")):
        stripped = len(line) - len(line.lstrip())
        for column in sorted({stripped, stripped + 2, len(line)}):
            if column <= len(line):
                yield {"line": number, "character": column}


def session(documents, name):
    """Every document of `documents` through the server; its bytes into OUT/name.*"""
    Recorder.log = bytearray()
    server = Recorder(binary, encodings=("utf-16",))
    server.notify("workspace/didChangeConfiguration", {"settings": {}})
    version = 0
    for path in documents:
        uri = "file://" + path
        text = open(path, encoding="utf-8").read()
        version += 1
        doc = {"uri": uri}
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "json", "version": version, "text": text}})
        diagnostics = server.wait_diagnostics(uri, version)
        lines = text.split("\n")
        whole = {"start": {"line": 0, "character": 0},
                 "end": {"line": len(lines) - 1, "character": len(lines[-1])}}
        server.request("textDocument/documentSymbol", {"textDocument": doc})
        server.request("textDocument/foldingRange", {"textDocument": doc})
        server.request("textDocument/inlayHint", {"textDocument": doc, "range": whole})
        server.request("textDocument/formatting", {
            "textDocument": doc, "options": {"tabSize": 2, "insertSpaces": True}})
        server.request("textDocument/rangeFormatting", {
            "textDocument": doc, "range": {"start": {"line": 1, "character": 0},
                                           "end": {"line": min(4, len(lines) - 1),
                                                   "character": 0}},
            "options": {"tabSize": 4, "insertSpaces": True}})
        server.request("textDocument/codeAction", {
            "textDocument": doc, "range": whole,
            "context": {"diagnostics": diagnostics}})
        for d in diagnostics:
            server.request("textDocument/codeAction", {
                "textDocument": doc, "range": d["range"],
                "context": {"diagnostics": [d], "only": ["quickfix"]}})
        places = list(positions(text))
        server.request("textDocument/selectionRange", {"textDocument": doc,
                                                       "positions": places})
        for place in places:
            server.request("textDocument/hover", {"textDocument": doc, "position": place})
            server.request("textDocument/completion", {"textDocument": doc,
                                                       "position": place})
        server.request("textDocument/diagnostic", {"textDocument": doc}, allow_error=True)
        # edits: a key misspelt, a value emptied, a new line typed half-way, then undone
        edits = [
            ({"start": {"line": 1, "character": 3}, "end": {"line": 1, "character": 4}}, ""),
            ({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
             '  "conf'),
            ({"start": {"line": 1, "character": 7}, "end": {"line": 1, "character": 7}},
             'ig": {"x": 1},\n'),
            ({"start": {"line": len(lines) - 2, "character": 0},
              "end": {"line": len(lines) - 2, "character": 0}}, '  "extra": tru'),
        ]
        for change_range, new_text in edits:
            version += 1
            server.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": change_range, "text": new_text}]})
            after = server.wait_diagnostics(uri, version)
            server.request("textDocument/completion", {
                "textDocument": doc, "position": change_range["start"]})
            server.request("textDocument/codeAction", {
                "textDocument": doc, "range": whole, "context": {"diagnostics": after}})
        version += 1
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]})
        server.wait_diagnostics(uri, version)
        server.request("textDocument/documentSymbol", {"textDocument": doc})
        server.notify("textDocument/didClose", {"textDocument": doc})
        server.wait_diagnostics(uri, None)
    status = server.close()
    Recorder.log += server.buffer
    days = {time.strftime("%Y-%m-%d", time.gmtime(time.time() - d)).encode() for d in (0, 86400)}
    now = re.compile(rb"(\d{4}-\d\d-\d\d)T\d\d:\d\d:\d\d\.\d{3}Z")
    masked = now.sub(lambda m: b"YYYY-MM-DDTHH:MM:SS.mmmZ" if m.group(1) in days else m.group(0),
                     bytes(Recorder.log))
    with open(os.path.join(out, name + ".bytes"), "wb") as f:
        f.write(masked)
    with open(os.path.join(out, name + ".rc"), "w") as f:
        f.write("%d\n" % status)
    return len(documents)


opened = session(sorted(glob.glob(os.path.join(work, "examples", "*.json"))) + sorted(
    glob.glob(os.path.join(work, "examples", "team-kinds", "*.json"))), "lsp-session")
# the gate's files in the editor: its srcls.json ("ignore", "placeholders", "baseline"), the
# baseline's hints, a template, a bulk file
opened += session([os.path.join(GATE, p) for p in (
    "srcls.json", "srcls-baseline.json", "legacy.source.json", "sources/bulk.json",
    "sources/lake.source.json", "sources/new.source.json", "sources/template.source.json")],
    "lsp-session-gate")
print("behaviour snapshot of %s: %d rule cases, %d codes, %d documents in the LSP session; "
      "%d files in %s" % (binary, cases, len(codes), opened,
                          sum(len(f) for _, _, f in os.walk(out)), out))
