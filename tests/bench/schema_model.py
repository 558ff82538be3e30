"""The kinds of schema/ resolved the way docs/schema-format.md says (extends, then include
groups with only/override, then omit, then the kind's own fields merged key by key), for the
benchmark scripts (gen_corpus.py, gen_json_schema.py). Not the engine's loader: only what the
benchmarks need (types, required, enums, secrets, nested items/fields)."""
import copy
import glob
import json
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def _merge(base, extra):
    out = copy.deepcopy(base)
    for k, v in extra.items():
        out[k] = copy.deepcopy(v)
    return out


def load_kinds(root=ROOT):
    """[(stem, kind dict with resolved 'fields')] in file order."""
    groups = {}
    for f in glob.glob(os.path.join(root, "schema", "groups", "*.json")):
        g = json.load(open(f, encoding="utf-8"))
        groups[g["group"]] = g["fields"]
    raw = {}
    for f in sorted(glob.glob(os.path.join(root, "schema", "kinds", "*.json"))):
        raw[os.path.splitext(os.path.basename(f))[0]] = json.load(open(f, encoding="utf-8"))
    done = {}

    def resolve(stem):
        if stem in done:
            return done[stem]
        k = raw[stem]
        fields = {}
        if k.get("extends"):
            fields.update(copy.deepcopy(resolve(k["extends"])["fields"]))
        for inc in k.get("include", []):
            if isinstance(inc, str):
                inc = {"group": inc}
            g = groups[inc["group"]]
            for name, fd in g.items():
                if "only" in inc and name not in inc["only"]:
                    continue
                fields[name] = _merge(fd, inc.get("override", {}).get(name, {}))
        for name in k.get("omit", []):
            fields.pop(name, None)
        for name, fd in k.get("fields", {}).items():
            fields[name] = _merge(fields[name], fd) if name in fields else copy.deepcopy(fd)
        out = dict(k)
        out["fields"] = fields
        done[stem] = out
        return out

    return [(stem, resolve(stem)) for stem in raw]


def field_types(fd):
    t = fd.get("type", "string")
    return t if isinstance(t, list) else [t]
