#!/usr/bin/env python3
"""The invariants of docs/architecture.md, checked over the sources and the binary:

1. the core includes no door: server/core/ includes only its own headers and ISO C headers;
2. no C code names a kind or a field: no string literal in server/core/*.c (outside the
   envelope module, which names the document's own keys once) is a field name, alias, type
   identifier or enum value of schema/;
3. no message quotes a value: every string value of every rule-case document and example is
   replaced by a unique marker, and no diagnostic message holds a marker, except the one an
   invalid-enum (or unknown-kind) message quotes back at the value's own place;
4. every kind file is listed in schema/meson.build (a forgotten line fails here, not later);
5. the doors' dependencies run one way: in server/lsp/ a module includes only modules of lower
   layers (framing < transport < jsonrpc < position < rendered < documents < internal < features
   < server),
   no feature includes another, and of server/cli/ only main.c includes the LSP door (its
   public header);
6. files and functions stay small enough to hold in one's head: no file in server/ over 600
   lines, no function over 80;
7. every array grows through vector_grow: no realloc in server/ outside core/vector.c.

usage: invariants.py SOURCE_ROOT SRCLS_BINARY"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

root, binary = sys.argv[1], sys.argv[2]
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: " + what)


# ---- 1. the core includes no door ------------------------------------------------------------

ISO_C = {"assert.h", "ctype.h", "errno.h", "float.h", "inttypes.h", "limits.h", "math.h",
         "stdalign.h", "stdarg.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
         "string.h"}
core = os.path.join(root, "server", "core")
core_headers = {os.path.basename(p) for p in glob.glob(os.path.join(core, "*.h"))}
checked = 0
for path in sorted(glob.glob(os.path.join(core, "*.[ch]"))):
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
        if not m:
            continue
        checked += 1
        kind, name = m.groups()
        if kind == '"' and name not in core_headers:
            fail("%s:%d includes %s, which is not a core header" % (path, number, name))
        if kind == "<" and name not in ISO_C:
            fail("%s:%d includes <%s>: the core uses ISO C only (no files, terminals, libuv)"
                 % (path, number, name))
print("1. core includes: %d #include lines, only core headers and ISO C" % checked)

# ---- 2. no kind or field name in core C ------------------------------------------------------

names = set()
vocabulary = set()  # the schema format's own words: its keys, and formats and types by name


def collect(node, in_fields=False):
    """Field names (keys of a `fields` object), aliases, types and enum values."""
    if isinstance(node, dict):
        for key, value in node.items():
            if in_fields:
                names.add(key)
            else:
                vocabulary.add(key)
                if key in ("format", "type") and isinstance(value, str):
                    vocabulary.add(value)
            if key in ("aliases", "types", "enum") and isinstance(value, list):
                for v in value:
                    if isinstance(v, str):
                        names.add(v)
                    elif isinstance(v, dict) and isinstance(v.get("value"), str):
                        names.add(v["value"])
            collect(value, key == "fields" and not in_fields)
    elif isinstance(node, list):
        for v in node:
            collect(v)


def format_words(node):
    """The enum values of the kind-file format's own JSON Schema (a severity, a type name): the
    format's vocabulary, not names of the schema."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "enum" and isinstance(value, list):
                vocabulary.update(v for v in value if isinstance(v, str))
            format_words(value)
    elif isinstance(node, list):
        for v in node:
            format_words(v)


for path in glob.glob(os.path.join(root, "schema", "**", "*.json"), recursive=True):
    collect(json.load(open(path, encoding="utf-8")))
    if os.path.basename(path) == "kind-file.schema.json":
        format_words(json.load(open(path, encoding="utf-8")))
names -= vocabulary
# The document's own envelope (`name`, `type`, `config` of a source; the job's state) is named
# once, in the envelope module; short words that are also ordinary vocabulary are not names.
envelope = {"envelope.c", "envelope.h"}
literal = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
hits = 0
for path in sorted(glob.glob(os.path.join(core, "*.c"))):
    if os.path.basename(path) in envelope:
        continue
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for number, line in enumerate(text.split("\n"), start=1):
        for m in literal.finditer(line):
            if m.group(1) in names and len(m.group(1)) > 3:
                hits += 1
                fail("%s:%d: the string \"%s\" names a field, type or value of schema/"
                     % (path, number, m.group(1)))
print("2. schema names in core C: %d names known, %d found outside %s"
      % (len(names), hits, "/".join(sorted(envelope))))

# ---- 3. no message quotes a value ------------------------------------------------------------

documents = []
for path in sorted(glob.glob(os.path.join(root, "tests", "rules", "*.cases.json"))):
    for case in json.load(open(path, encoding="utf-8")):
        if "document" in case:
            documents.append(("%s: %s" % (os.path.basename(path), case.get("name")),
                              case["document"]))
for path in sorted(glob.glob(os.path.join(root, "docs", "examples", "*.json"))):
    try:
        documents.append((os.path.basename(path), json.load(open(path, encoding="utf-8"))))
    except ValueError:
        pass  # the syntax example: no values to mark


def mark(node, pointer, places):
    """The document with every string value replaced by a marker; `places` maps each marker to
    the pointer of its value. The top-level `type` of a source stays, so the kind holds."""
    if isinstance(node, dict):
        return {k: (v if pointer == "" and k == "type" else
                    mark(v, pointer + "/" + k.replace("~", "~0").replace("/", "~1"), places))
                for k, v in node.items()}
    if isinstance(node, list):
        return [mark(v, "%s/%d" % (pointer, i), places) for i, v in enumerate(node)]
    if isinstance(node, str):
        marker = "QZ%06dQZ" % (len(all_places) + len(places))
        places[marker] = pointer
        return marker
    return node


work = tempfile.mkdtemp(prefix="srcls-invariants-")
paths, all_places = [], {}
for i, (label, document) in enumerate(documents):
    places = {}
    marked = mark(document, "", places)
    path = os.path.join(work, "d%05d.source.json" % i)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(marked, f)
    paths.append((path, label))
    all_places.update(places)
if not documents:
    fail("no rule cases or examples under %s to check messages with" % root)
out = subprocess.run([binary, "--check", "--format", "json"] + [p for p, _ in paths],
                     capture_output=True, text=True)
if out.returncode not in (0, 1):
    fail("srcls --check exited %d: %s" % (out.returncode, out.stderr[:500]))
report = json.loads(out.stdout) if documents else {"files": []}
labels = dict(paths)
messages = quoted = 0
for f in report["files"]:
    for d in f["diagnostics"]:
        messages += 1
        for marker in re.findall(r"QZ\d{6}QZ", d["message"]):
            allowed = (d["code"] in ("invalid-enum", "unknown-kind")
                       and all_places.get(marker) == d["pointer"])
            if allowed:
                quoted += 1
            else:
                fail("%s: %s at %s quotes the value at %s: %s"
                     % (labels[f["path"]], d["code"], d["pointer"], all_places.get(marker),
                        d["message"]))
for p, _ in paths:
    os.unlink(p)
os.rmdir(work)
print("3. values in messages: %d documents, %d messages; %d quote a value, each an invalid "
      "enum value at its own place" % (len(documents), messages, quoted))

# ---- 4. every kind file is built in ----------------------------------------------------------

listed = open(os.path.join(root, "schema", "meson.build"), encoding="utf-8").read()
kinds = sorted(glob.glob(os.path.join(root, "schema", "kinds", "*.json")))
for path in kinds + sorted(glob.glob(os.path.join(root, "schema", "groups", "*.json"))):
    relative = os.path.relpath(path, os.path.join(root, "schema"))
    if "'%s'" % relative not in listed:
        fail("schema/%s is not listed in schema/meson.build, so it is not built in" % relative)
print("4. schema files: %d kinds, each listed in schema/meson.build" % len(kinds))

# ---- 5. the doors' dependencies run one way --------------------------------------------------

FEATURES = ["text_sync", "configuration", "diagnostics", "completion", "hover", "code_action",
            "symbols", "formatting", "navigation", "inlay_hints", "workspace"]
LAYERS = [["framing"], ["transport"], ["jsonrpc"], ["position", "uri"], ["rendered", "projects", "review"],
          ["review_git", "review_wasi"], ["documents"], ["documents_review"],
          ["internal"],
          FEATURES, ["server"]]
layer_of = {"lsp_%s" % m: i for i, layer in enumerate(LAYERS) for m in layer}
lsp_dir = os.path.join(root, "server", "lsp")
edges = 0
for path in sorted(glob.glob(os.path.join(lsp_dir, "*.[ch]"))):
    module = os.path.splitext(os.path.basename(path))[0]
    if module not in layer_of:
        fail("%s: a module of the LSP door that no layer of tests/invariants.py names; add it "
             "to LAYERS where it belongs" % path)
        continue
    for line in open(path, encoding="utf-8"):
        m = re.match(r'\s*#\s*include\s*"(lsp_[a-z_]+)\.h"', line)
        if not m or m.group(1) == module:
            continue
        edges += 1
        used = m.group(1)
        if used not in layer_of:
            fail("%s includes %s.h, which no layer names" % (path, used))
        elif layer_of[used] >= layer_of[module] and not (module == "lsp_server" and used ==
                                                           "lsp_server"):
            fail("%s includes %s.h: a lower or equal layer must not depend on a higher one or a "
                 "sibling (%s)" % (path, used, " < ".join("/".join(l) for l in LAYERS)))
for path in sorted(glob.glob(os.path.join(root, "server", "cli", "*.[ch]"))):
    for line in open(path, encoding="utf-8"):
        m = re.match(r'\s*#\s*include\s*"(lsp_[a-z_]+)\.h"', line)
        if m and (os.path.basename(path) != "main.c" or m.group(1) != "lsp_server"):
            fail("%s includes %s.h: the CLI door knows only lsp_server.h, in main.c"
                 % (path, m.group(1)))
print("5. door layers: %d includes inside the LSP door checked against the layers" % edges)

# ---- 6. small files and functions ------------------------------------------------------------

MAX_FILE, MAX_FUNCTION = 600, 80
sources = sorted(glob.glob(os.path.join(root, "server", "*", "*.[ch]")))
functions = 0
for path in sources:
    lines = open(path, encoding="utf-8").read().split("\n")
    if len(lines) - 1 > MAX_FILE:
        fail("%s has %d lines (at most %d)" % (path, len(lines) - 1, MAX_FILE))
    start = None
    for i, line in enumerate(lines):
        # A definition starts at column 0 and its body's '{' opens the next line (the project's
        # clang-format style); it ends at the next '}' in column 0.
        if re.match(r"^[A-Za-z].*\)$", line) and i + 1 < len(lines) and lines[i + 1] == "{":
            start = i
        elif line == "}" and start is not None:
            functions += 1
            if i - start + 1 > MAX_FUNCTION:
                fail("%s:%d: a function of %d lines (at most %d): %s"
                     % (path, start + 1, i - start + 1, MAX_FUNCTION, lines[start][:60]))
            start = None
print("6. sizes: %d files, %d functions; limits %d lines a file, %d a function"
      % (len(sources), functions, MAX_FILE, MAX_FUNCTION))

# ---- 7. one growth policy --------------------------------------------------------------------

# vector.h: every growable array grows through vector_grow (doubling, overflow-checked), so no
# other file calls realloc. No exception is allowed today; one would be listed here with its
# reason. By file name, wherever in server/ the layers put it.
REALLOC_ALLOWED = {"vector.c"}


def realloc_calls(text):
    """The line numbers of realloc calls in C `text`, its comments and string literals aside."""
    code = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                  r"'(?:\\.|[^'\\\n])*'",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return [code.count("\n", 0, m.start()) + 1 for m in re.finditer(r"\brealloc\s*\(", code)]


# the check itself finds a planted call, and not one in a comment or a string
if realloc_calls('/* realloc(p, n) */ s = "realloc(";\nq = realloc (q, 2 * n);') != [2]:
    fail("7. the realloc check misses a planted call or finds one in a comment or string")
grown = 0
for path in sorted(glob.glob(os.path.join(root, "server", "**", "*.[ch]"), recursive=True)):
    relative = os.path.relpath(path, os.path.join(root, "server"))
    if os.path.basename(path) in REALLOC_ALLOWED:
        continue
    grown += 1
    text = open(path, encoding="utf-8").read()
    for line in realloc_calls(text) if "realloc" in text else []:
        fail("server/%s:%d calls realloc: grow the array with vector_grow (vector.h)"
             % (relative, line))
print("7. growth: %d files of server/ grow their arrays only through vector_grow" % grown)

print("invariants: %s" % ("all hold" if not failures else "%d broken" % len(failures)))
sys.exit(1 if failures else 0)
