#!/usr/bin/env python3
"""shell_docs: the options srcls takes (the option table of server/cli/options.c, from which
main.c builds getopt's), the ones `srcls --help` lists, the man page (docs/man/srcls.1),
docs/cli.md and the bash completion (editors/shell/srcls.bash) are the same set, each way; their
option, code and format lists are what srcls generates from its tables
(tools/generated_regions.py), so this holds by construction and guards against hand edits
outside the generated regions; and the completion completes.

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
    options_c = open(os.path.join(root, "server", "cli", "options.c"), encoding="utf-8").read()
    taken = set("--" + o for o in re.findall(r'\.name = "([a-z][a-z-]*)"', options_c))
    if not taken:
        failures.append("server/cli/options.c: no row of the option table found")
    cli_md = open(os.path.join(root, "docs", "cli.md"), encoding="utf-8").read()
    lists = {
        "srcls --help": set(options),
        "the man page": set(o.replace("\\-", "-") for o in re.findall(
            r"(?<![\w-])(\\-\\-[a-z](?:[a-z]|\\-)*)", man)),
        "docs/cli.md": set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", cli_md)),
        "the bash completion": set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", completion)),
    }
    for where, named in sorted(lists.items()):
        for option in sorted(taken - named):
            failures.append("%s lacks %s" % (where, option))
        # a document may name what is not an option of srcls (git's, npm's): only the
        # completion and --help must not offer one srcls refuses
        if where in ("srcls --help", "the bash completion"):
            for option in sorted(named - taken):
                failures.append("%s names %s, which srcls does not take" % (where, option))
    # what --generate-docs prints (its table in server/cli/command.c, as the completion offers
    # it) is named in --help, the man page and docs/cli.md, whose texts say it by hand
    generated = subprocess.run([binary, "--generate-docs", "completion"], capture_output=True,
                               text=True).stdout
    whats = re.search(r'--generate-docs\) COMPREPLY=\(\$\(compgen -W "([^"]*)"', generated)
    if not whats:
        failures.append("--generate-docs completion offers no WHAT after --generate-docs")
    def prose(text):  # without the lines that mark the generated regions
        return "\n".join(line for line in text.split("\n")
                         if "srcls --generate-docs " not in line.replace("\\-", "-"))
    for what in whats.group(1).split() if whats else []:
        for where, text in (("srcls --help", help_text),
                            ("the man page", prose(man).replace("\\-", "-")),
                            ("docs/cli.md", prose(cli_md))):
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(what), text):
                failures.append("%s does not name --generate-docs %s" % (where, what))
    if shutil.which("bash"):
        for words, expected in ((["srcls", "--fail"], "--fail-on"),
                                (["srcls", "--check", "--format", "sa"], "sarif"),
                                (["srcls", "--select", "unknown-f"], "unknown-field"),
                                (["srcls", "--select", "secu"], "security"),
                                (["srcls", "--explain", "risky-c"], "risky-change"),
                                (["srcls", "--explain", "secu"], "security"),
                                (["srcls", "--generate-docs", "man-"], "man-codes man-options"),
                                (["srcls", "--color", "a"], "auto always"),
                                (["srcls", "--jobs", "''"], ""),
                                (["srcls", "--stdi"], "--stdio --stdin-filename"),
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
    print("%d options checked in --help, the man page, docs/cli.md and the completion, and the "
          "code lists%s" % (len(taken), "" if shutil.which("groff") else " (groff absent: not rendered)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
