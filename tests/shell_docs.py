#!/usr/bin/env python3
"""shell_docs: the man page (docs/man/srcls.1) and the bash completion (editors/shell/srcls.bash)
cover every option `srcls --help` lists, their code lists are what srcls generates from its code
table (tools/generated_regions.py), and the completion completes.

usage: shell_docs.py SOURCE_ROOT SRCLS_BINARY"""
import os
import re
import shutil
import subprocess
import sys


def main():
    root, binary = sys.argv[1], sys.argv[2]
    man = open(os.path.join(root, "docs", "man", "srcls.1"), encoding="utf-8").read()
    completion_path = os.path.join(root, "editors", "shell", "srcls.bash")
    completion = open(completion_path, encoding="utf-8").read()
    help_text = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
    options = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", help_text)))
    failures = []
    sys.path.insert(0, os.path.join(root, "tools"))
    import generated_regions
    failures += generated_regions.stale_files(binary, root)
    for option in options:
        if option.replace("-", "\\-") not in man:
            failures.append("the man page lacks %s" % option)
        if option not in completion:
            failures.append("the bash completion lacks %s" % option)
    if shutil.which("bash"):
        for words, expected in ((["srcls", "--fail"], "--fail-on"),
                                (["srcls", "--check", "--format", "sa"], "sarif"),
                                (["srcls", "--select", "unknown-f"], "unknown-field"),
                                (["srcls", "--select", "secu"], "security"),
                                (["srcls", "--explain", "risky-c"], "risky-change"),
                                # after a comma: what is before it is kept
                                (["srcls", "--select", "json-syntax,unknown-f"],
                                 "json-syntax,unknown-field"),
                                (["srcls", "--ignore", "a,b,secu"], "a,b,security"),
                                (["srcls", "--check", "--format", "gi"], "github gitlab"),
                                # --list-kinds takes text and json only
                                (["srcls", "--list-kinds", "--format", "''"], "text json"),
                                (["srcls", "--format", "''", "--list-kinds"], None)):
            script = 'source "%s"; COMP_WORDS=(%s); COMP_CWORD=%d; _srcls; printf "%%s\\n" ' \
                     '"${COMPREPLY[@]}"' % (completion_path, " ".join(words),
                                           len(words) - (2 if expected is None else 1))
            got = subprocess.run(["bash", "-c", script], capture_output=True, text=True).stdout
            want = "text json" if expected is None else expected
            if sorted(got.split()) != sorted(want.split()) and not (
                    " " not in want and want in got.split()):
                failures.append("completing %s gave %r, not %s" % (words, got, want))
    if shutil.which("groff"):
        render = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z",
                                 os.path.join(root, "docs", "man", "srcls.1")],
                                capture_output=True, text=True)
        if render.returncode != 0 or render.stderr.strip():
            failures.append("groff warns about the man page: %s" % render.stderr)
    for f in failures:
        print("FAIL: " + f)
    print("%d options and the code lists checked in the man page and the completion%s" % (
        len(options), "" if shutil.which("groff") else " (groff absent: not rendered)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
