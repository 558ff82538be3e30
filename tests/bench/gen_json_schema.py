#!/usr/bin/env python3
"""A JSON Schema (draft-07) of the source kinds, built from schema/, for the peers of the
benchmarks (ajv-cli in `run.py check`, vscode-json-language-server in `run.py keystroke`).
srcls has no --export-json-schema yet; this is good enough for a fair timing, not a
replacement for the engine. usage: gen_json_schema.py OUT.json

What it keeps: the top-level fields, `type` as an enum of every identifier, and per kind (an
if/then on `type`) the config's properties with their types, enums, minimum/maximum, the
unconditionally required fields, additionalProperties false, and array items / nested objects.
What it leaves out: conditional requirement (required-when), applicability (not-applicable),
formats (port, URL, …), secret encoding (data: URLs), the kinds' assertions, kind inference
when `type` is missing, nearest-name suggestions, and the job document."""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schema_model import ROOT, load_kinds  # noqa: E402

TYPES = {"string": "string", "boolean": "boolean", "integer": "integer", "number": "number",
         "array": "array", "object": "object", "null": "null"}


def field_schema(fd):
    s = {}
    t = fd.get("type")
    if t is not None:
        ts = [TYPES[x] for x in (t if isinstance(t, list) else [t])]
        s["type"] = ts[0] if len(ts) == 1 else ts
    if "enum" in fd:
        s["enum"] = [e["value"] for e in fd["enum"]]
    for k in ("minimum", "maximum"):
        if k in fd:
            s[k] = fd[k]
    if fd.get("description"):
        s["description"] = fd["description"]
    if "items" in fd:
        s["items"] = field_schema(fd["items"])
    if "fields" in fd:
        s.update(object_schema(fd["fields"], not fd.get("additionalFields", False)))
    return s


def object_schema(fields, closed=True):
    s = {"type": "object", "properties": {k: field_schema(v) for k, v in fields.items()}}
    req = [k for k, v in fields.items() if v.get("required") is True]
    if req:
        s["required"] = req
    if closed:
        s["additionalProperties"] = False
    return s


def build():
    kinds = load_kinds()
    top = json.load(open(os.path.join(ROOT, "schema", "source.json"), encoding="utf-8"))
    all_types = [t for _, k in kinds for t in k["types"]]
    source = {"type": "object",
              "properties": {k: field_schema(v) for k, v in top["fields"].items()},
              "allOf": []}
    source["properties"]["type"]["enum"] = all_types
    for stem, k in kinds:
        cond = ({"const": k["types"][0]} if len(k["types"]) == 1 else {"enum": k["types"]})
        source["allOf"].append({
            "if": {"properties": {"type": cond}, "required": ["type"]},
            "then": {"properties": {"config": object_schema(k["fields"])}}})
    return {"$schema": "http://json-schema.org/draft-07/schema#",
            "$id": "https://srcls.invalid/bench/sources.schema.json",
            "title": "Source objects (generated from schema/ by tests/bench/gen_json_schema.py)",
            "definitions": {"source": source},
            "anyOf": [{"$ref": "#/definitions/source"},
                      {"type": "array", "items": {"$ref": "#/definitions/source"}}]}


if __name__ == "__main__":
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        json.dump(build(), f, indent=1)
        f.write("\n")
