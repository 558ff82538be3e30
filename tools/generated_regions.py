#!/usr/bin/env python3
"""generated_regions: the parts of hand-written files that srcls generates from its code table.

A region is the lines between one holding "BEGIN srcls --generate-docs WHAT" and the next
holding "END srcls --generate-docs WHAT" (in a comment of the file's language); its text is
exactly what `SRCLS --generate-docs WHAT` prints. Today: the code list (man-codes) and the
OPTIONS (man-options) of docs/man/srcls.1, the case of the option values and the option words of
editors/shell/srcls.bash (completion), and the synopsis of docs/cli.md (cli-synopsis): the code
table of server/core/domain/codes.c, the option table of server/cli/options.c and the format
table of server/cli/report.c.

usage: generated_regions.py SRCLS SOURCE_ROOT           rewrite the regions
       generated_regions.py --check SRCLS SOURCE_ROOT   exit 1, naming each stale file
(tests/shell_docs.py runs the check through stale_files.)"""
import os
import re
import subprocess
import sys

FILES = ["docs/man/srcls.1", "editors/shell/srcls.bash", "docs/cli.md"]
BEGIN = re.compile(r"BEGIN srcls --generate-docs ([a-z-]+)")


def regenerate(binary, text):
    """`text` with each region's lines replaced by what the binary generates for it."""
    lines, out, what = text.splitlines(keepends=True), [], None
    for line in lines:
        if what is None:
            out.append(line)
            m = BEGIN.search(line)
            if m:
                what = m.group(1)
                out.append(subprocess.run([binary, "--generate-docs", what], check=True,
                                          capture_output=True, text=True).stdout)
        elif "END srcls --generate-docs " + what in line:
            out.append(line)
            what = None
    if what is not None:
        raise SystemExit("a region %s has no END line" % what)
    return "".join(out)


def stale_files(binary, root, rewrite=False):
    """What is wrong with the regions of FILES: a file without one, or one out of date (which
    `rewrite` rewrites instead)."""
    stale = []
    for name in FILES:
        path = os.path.join(root, name)
        text = open(path, encoding="utf-8").read()
        if "BEGIN srcls --generate-docs" not in text:
            stale.append("%s has no generated region" % name)
            continue
        fresh = regenerate(binary, text)
        if fresh != text and rewrite:
            open(path, "w", encoding="utf-8").write(fresh)
        elif fresh != text:
            stale.append("%s: its generated code list is out of date: run 'python3 "
                         "tools/generated_regions.py %s .'" % (name, binary))
    return stale


def main():
    check = sys.argv[1] == "--check"
    binary, root = sys.argv[1 + check:3 + check]
    stale = stale_files(binary, root, rewrite=not check)
    for what in stale:
        print(what)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
