#!/usr/bin/env python3
"""Writes benchmark inputs: a bulk file of N source objects built from docs/examples (one big
JSON document), or a directory of N single-source files. usage:
  gen_sources.py bulk OUT.json N      gen_sources.py dir OUTDIR N"""
import json, os, sys

root = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "examples")
examples = [json.load(open(os.path.join(root, f))) for f in sorted(os.listdir(root))
            if f.endswith(".source.json") and not f.startswith("bad-")]

mode, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if mode == "bulk":
    items = []
    for i in range(n):
        e = dict(examples[i % len(examples)])
        e["name"] = "%s-%d" % (e.get("name", "source"), i)
        items.append(e)
    with open(out, "w") as f:
        json.dump(items, f, indent=2)
else:
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        e = dict(examples[i % len(examples)])
        e["name"] = "%s-%d" % (e.get("name", "source"), i)
        with open(os.path.join(out, "s%05d.source.json" % i), "w") as f:
            json.dump(e, f, indent=2)
