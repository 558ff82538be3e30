#!/usr/bin/env python3
"""The layers of server/, from the one table that states them (server/layers.json): the folders
of server/, the core's folders, the LSP door's layers. tests/invariants.py enforces them; this
prints them as the tables of docs/architecture.md, between the markers
<!-- layers:NAME --> and <!-- /layers:NAME -->.

usage: layers.py --write-docs ROOT   rewrite the tables in ROOT/docs/architecture.md
       layers.py --check-docs ROOT   exit 1 when they differ from the table (docs_in_sync)"""
import json
import os
import re
import sys


def load(root):
    with open(os.path.join(root, "server", "layers.json"), encoding="utf-8") as f:
        return json.load(f)


def code(names):
    return ", ".join("`%s`" % n for n in names) if names else "nothing of `server/`"


def markdown(table):
    """Each table as Markdown, by its name."""
    out = {}
    rows = ["| folder | what it is | may include | entry header |", "|---|---|---|---|"]
    for layer in table["server"]:
        entry = layer["entry"]
        entry = ", ".join("`%s`" % e.strip() for e in entry.split(",")) if entry.endswith(
            ".h") else entry
        rows.append("| `server/%s/` | %s | %s | %s |" % (
            layer["folder"], layer["what"], code(["%s/" % m for m in layer["may_include"]]),
            entry))
    out["server"] = "\n".join(rows)
    rows = ["| layer | folder | what it is | may include | entry header |", "|---|---|---|---|---|"]
    for i, layer in enumerate(table["core"]):
        rows.append("| %d | `%s/` | %s | %s | `%s/%s` |" % (
            i, layer["folder"], layer["what"],
            code(["%s/" % m for m in layer["may_include"]]) if layer["may_include"]
            else "ISO C only", layer["folder"], layer["entry"]))
    out["core"] = "\n".join(rows)
    rows = ["| layer | modules | what |", "|---|---|---|"]
    for i, layer in enumerate(table["lsp"]):
        rows.append("| %d | %s | %s |" % (i, code(layer["modules"]), layer["what"]))
    out["lsp"] = "\n".join(rows)
    rows = []
    for i, layer in enumerate(table["core"]):
        rows.append("%s%s/" % ("" if i == 0 else " < ", layer["folder"]))
    out["core-order"] = "```\n" + "".join(rows) + "\n```"
    return out


def rewrite(text, tables):
    for name, body in tables.items():
        pattern = re.compile(r"(<!-- layers:%s -->\n)(?:.*?\n)?(<!-- /layers:%s -->)"
                             % (re.escape(name), re.escape(name)), re.S)
        if not pattern.search(text):
            raise SystemExit("docs/architecture.md has no <!-- layers:%s --> ... "
                             "<!-- /layers:%s --> markers" % (name, name))
        text = pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)
    return text


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("--write-docs", "--check-docs"):
        raise SystemExit(__doc__)
    root = sys.argv[2]
    path = os.path.join(root, "docs", "architecture.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    fresh = rewrite(text, markdown(load(root)))
    if sys.argv[1] == "--write-docs":
        with open(path, "w", encoding="utf-8") as f:
            f.write(fresh)
    elif fresh != text:
        print("docs/architecture.md's layer tables differ from server/layers.json: run "
              "'python3 tests/layers.py --write-docs .'")
        sys.exit(1)


if __name__ == "__main__":
    main()
