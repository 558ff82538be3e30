#!/usr/bin/env python3
"""pre_commit_hooks: runs each hook of .pre-commit-hooks.yaml the way pre-commit runs a
`language: system` hook — its `entry` split like a shell would, the hook's `files` pattern
choosing among the staged files, those appended as arguments — against the real binary, and
checks the exit status (pre-commit fails the commit on a non-zero one). The `language: node`
hooks run the same way (pre-commit puts the npm package's `srcls` first on PATH: tests/npm
installs them through pre-commit itself), on Node of the system, and the package.json they
install depends on the srcls package of meson.build's version.

usage: pre_commit_hooks.py SOURCE_ROOT SRCLS_BINARY"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def hooks(text):
    """The hooks of the (flat, one-level) YAML list: [{key: value}]."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(- )?\s*([a-z_]+):\s*(.*)$", line)
        if not m or line.lstrip().startswith("#"):
            continue
        if m.group(1):
            out.append({})
        value = m.group(3).strip()
        if value[:1] in "'\"":
            value = value[1:-1]
        out[-1][m.group(2)] = value
    return out


def main():
    root, binary = sys.argv[1], os.path.abspath(sys.argv[2])
    listed = hooks(open(os.path.join(root, ".pre-commit-hooks.yaml"), encoding="utf-8").read())
    failures = []
    if [h.get("id") for h in listed] != ["srcls", "srcls-fix", "srcls-node", "srcls-fix-node"]:
        failures.append("hooks: %s" % listed)
    version = re.search(r"^\s*version\s*:\s*'([^']+)'",
                        open(os.path.join(root, "meson.build"), encoding="utf-8").read(), re.M)
    package = json.load(open(os.path.join(root, "package.json"), encoding="utf-8"))
    if package.get("dependencies") != {"srcls": version.group(1)}:
        failures.append("package.json: dependencies %s, not srcls %s" % (
            package.get("dependencies"), version.group(1)))
    examples = os.path.join(root, "docs", "examples")
    for hook in listed:
        node = hook["id"].endswith("-node")
        if hook.get("language") != ("node" if node else "system"):
            failures.append("%s: language is %s" % (hook["id"], hook.get("language")))
            continue
        if node and hook.get("language_version") != "system":
            failures.append("%s: language_version is not system (nodeenv would download a Node)"
                            % hook["id"])
        work = tempfile.mkdtemp(prefix="srcls-pre-commit-")
        try:
            for name in ("01-search-service.source.json", "bad-object-storage.source.json",
                         "job-completed.job.json"):
                shutil.copy(os.path.join(examples, name), work)
            with open(os.path.join(work, "package.json"), "w") as f:
                f.write("{\"name\": \"not ours\"}")
            staged = sorted(os.listdir(work))
            chosen = [f for f in staged if re.search(hook["files"], f)]
            if "package.json" in chosen or len(chosen) != 3:
                failures.append("%s: files %r chose %s" % (hook["id"], hook["files"], chosen))
            argv = shlex.split(hook["entry"])
            argv[0] = binary if argv[0] == "srcls" else argv[0]
            bad = subprocess.run(argv + chosen, cwd=work, capture_output=True, text=True)
            if bad.returncode != 1:
                failures.append("%s: exit %d on a bad file, not 1: %s" % (
                    hook["id"], bad.returncode, bad.stderr))
            good = [f for f in chosen if not f.startswith("bad-")]
            clean = subprocess.run(argv + good, cwd=work, capture_output=True, text=True)
            if clean.returncode != 0:
                failures.append("%s: exit %d on clean files" % (hook["id"], clean.returncode))
        finally:
            shutil.rmtree(work)
    for f in failures:
        print("FAIL: " + f)
    print("%d hooks run as pre-commit runs them" % len(listed))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
