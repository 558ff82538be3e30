#!/usr/bin/env python3
"""What a srcls binary does, written into one directory, so that a restructuring can be shown
to change no behaviour: run it with the binary before and the binary after, then `diff -r` the
two directories (it must be empty).

Recorded (stdout, stderr and exit status of each run; files written):
- `--check` over every example (docs/examples/, with its team-kinds project) and every rule case
  (tests/rules/, one file a case) in every --format (text, json, sarif, github, gitlab: the binary's list), with
  code frames (--show-source, --color always), --statistics, --diff, and --fix on a copy (the
  fixed files are recorded);
- --explain of every code of docs/rules.md, --list-kinds (text and json), --export-json-schema
  (every file written), --help, --version;
- a long LSP session (tests/lsp_session.py's client): the server's output bytes, as it wrote
  them, for every example opened, hovered, completed, fixed, outlined, folded, selected,
  formatted, hinted, edited several times (diagnostics awaited after each edit) and closed.
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


def run(name, args, stdin=None):
    """srcls ARGS in the work directory; stdout, stderr and status into OUT/name.*"""
    p = subprocess.run([binary] + args, cwd=work, env=ENV, input=stdin, capture_output=True,
                       timeout=600)
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


def session():
    folder = os.path.join(work, "examples", "team-kinds")
    server = Recorder(binary, encodings=("utf-16",))
    server.notify("workspace/didChangeConfiguration", {"settings": {}})
    version = 0
    documents = sorted(glob.glob(os.path.join(work, "examples", "*.json"))) + sorted(
        glob.glob(os.path.join(folder, "*.json")))
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
    with open(os.path.join(out, "lsp-session.bytes"), "wb") as f:
        f.write(masked)
    with open(os.path.join(out, "lsp-session.rc"), "w") as f:
        f.write("%d\n" % status)
    return len(documents)


opened = session()
print("behaviour snapshot of %s: %d rule cases, %d codes, %d documents in the LSP session; "
      "%d files in %s" % (binary, cases, len(codes), opened,
                          sum(len(f) for _, _, f in os.walk(out)), out))
