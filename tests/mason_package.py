#!/usr/bin/env python3
"""mason_package: editors/mason/package.yaml (srcls's package definition for Mason) against
mason-registry's JSON Schema (tests/mason/schemas, draft 2020-12, references resolved from the
files by their $id), and what Mason needs of it: `source.id` the purl of the srcls npm package at
meson.build's version, `bin` srcls from that package. Three broken copies of the definition must
be rejected, so that a validator that accepts everything cannot pass.

usage: mason_package.py SOURCE_ROOT          (exit 77, meson's SKIP, without python3-yaml or
                                              python3-jsonschema)"""
import copy
import json
import os
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:
    print("SKIP: %s (Debian: apt-get install python3-yaml python3-jsonschema)" % e)
    sys.exit(77)


def validator(schemas_dir):
    store = {}
    for folder, _, names in os.walk(schemas_dir):
        for name in names:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                schema = json.load(f)
            store[schema["$id"]] = schema
    root = store["https://json.schemastore.org/mason-registry.json"]
    checker = jsonschema.FormatChecker()
    try:  # jsonschema 4.18 and later
        from referencing import Registry, Resource
    except ImportError:  # Debian bookworm's 4.10: RefResolver, never fetching a reference
        def offline(uri):
            raise LookupError("%s is not in tests/mason/schemas (no network)" % uri)
        resolver = jsonschema.RefResolver.from_schema(
            root, store=store, handlers={"http": offline, "https": offline})
        return jsonschema.Draft202012Validator(root, resolver=resolver, format_checker=checker)
    registry = Registry().with_resources(
        (uri, Resource.from_contents(schema)) for uri, schema in store.items())
    return jsonschema.Draft202012Validator(root, registry=registry, format_checker=checker)


def main():
    root = sys.argv[1]
    check = validator(os.path.join(root, "tests", "mason", "schemas"))
    with open(os.path.join(root, "editors", "mason", "package.yaml"), encoding="utf-8") as f:
        package = yaml.safe_load(f)
    with open(os.path.join(root, "meson.build"), encoding="utf-8") as f:
        version = re.search(r"^\s*version\s*:\s*'([^']+)'", f.read(), re.M).group(1)
    failures = ["package.yaml: %s at /%s" % (e.message, "/".join(map(str, e.absolute_path)))
                for e in check.iter_errors(package)]
    if package.get("name") != "srcls":
        failures.append("name: %r" % package.get("name"))
    if package.get("source", {}).get("id") != "pkg:npm/srcls@" + version:
        failures.append("source.id %r is not pkg:npm/srcls@%s (meson.build's version)"
                        % (package.get("source", {}).get("id"), version))
    if package.get("bin") != {"srcls": "npm:srcls"}:
        failures.append("bin: %r, not srcls from the npm package" % package.get("bin"))

    def broken(what, change):
        bad = copy.deepcopy(package)
        change(bad)
        if check.is_valid(bad):
            failures.append("the schema accepts a definition with %s" % what)

    broken("an unknown category", lambda p: p.update(categories=["Linters"]))
    broken("a source id that is no purl", lambda p: p["source"].update(id="npm:srcls@" + version))
    broken("an unknown key", lambda p: p.update(binaries=p["bin"]))

    for f in failures:
        print("FAIL: " + f)
    print("editors/mason/package.yaml: %s against mason-registry's schema (%d broken copies "
          "rejected)" % ("invalid" if failures else "valid", 3))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
