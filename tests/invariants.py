#!/usr/bin/env python3
"""The invariants of docs/architecture.md, checked over the sources and the binary:

1. the core's layers (server/layers.json, "core"): a file of server/core/FOLDER/ includes the
   headers of its own folder by name, of the folders below it only their entry header
   ("json/json.h"), and ISO C headers; no *_internal.h from another folder, no file outside the
   folders, no circle between folders; the doors and the tests include only entry headers;
2. no C code names a kind or a field: no string literal in server/core/ C files (outside the
   envelope module, which names the document's own keys once) is a field name, alias, type
   identifier or enum value of schema/;
3. no message quotes a value: every string value of every rule-case document and example is
   replaced by a unique marker, and no diagnostic message holds a marker, except the one an
   invalid-enum (or unknown-kind) message quotes back at the value's own place;
4. every kind file is listed in schema/meson.build (a forgotten line fails here, not later);
5. the folders of server/ depend one way (server/layers.json, "server": platform/wasi and core
   below the doors, main above them; no circle), and in server/lsp/ a module includes only
   modules of lower layers ("lsp"), no feature another;
6. files and functions stay small enough to hold in one's head: no file in server/ over 600
   lines, no function over 80 (from the first line of its signature, however it wraps, to its
   closing brace);
7. every array grows through vector_grow: no realloc in server/ outside core/vector.c;
   (1b. the core calls no POSIX function: strdup and its kind;)
8. calls go where the includes may: a function of the core is called only from its own folder
   or a folder above it, and a function of the LSP door only from its own module or a module
   of a higher layer (the include check cannot see a call through a header of a lower layer
   that declares a function defined above it, the way a circle hides).

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


# ---- 1. the core's layers -------------------------------------------------------------------

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layers  # noqa: E402  (tests/layers.py: the one table, server/layers.json)

table = layers.load(root)
ISO_C = {"assert.h", "ctype.h", "errno.h", "float.h", "inttypes.h", "limits.h", "math.h",
         "stdalign.h", "stdarg.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
         "string.h"}
# and the compiler's SIMD intrinsics, behind their target's macro with a portable path beside
# (not a system interface: the parser's string scan, SSE2 on x86-64)
ISO_C |= {"emmintrin.h"}
INCLUDE = re.compile(r'\s*#\s*include\s*([<"])([^>"]+)[>"]')
core = os.path.join(root, "server", "core")
CORE = table["core"]
order = [layer["folder"] for layer in CORE]
may = {layer["folder"]: set(layer["may_include"]) for layer in CORE}
entry_of = {"%s/%s" % (layer["folder"], layer["entry"]): layer["folder"] for layer in CORE}
for i, layer in enumerate(CORE):
    for lower in layer["may_include"]:
        if lower not in order or order.index(lower) >= i:
            fail("server/layers.json: core layer %s/ may include %s/, which is not below it (%s)"
                 % (layer["folder"], lower, " < ".join(order)))
    if not os.path.isfile(os.path.join(core, layer["folder"], layer["entry"])):
        fail("server/layers.json: the entry header %s/%s is missing"
             % (layer["folder"], layer["entry"]))


def cycles(edges):
    """The strongly connected components of more than one node of {node: set(nodes)}."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


checked = 0
folder_edges = {}
for path in sorted(glob.glob(os.path.join(core, "**", "*"), recursive=True)):
    if os.path.isdir(path):
        continue
    folder = os.path.relpath(os.path.dirname(path), core)
    if folder not in may:
        fail("%s: a core file outside the folders of server/layers.json (%s)"
             % (path, ", ".join(order)))
        continue
    if not path.endswith((".c", ".h")):
        continue
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        m = INCLUDE.match(line)
        if not m:
            continue
        checked += 1
        kind, name = m.groups()
        where = "%s:%d" % (os.path.relpath(path, root), number)
        if kind == "<":
            if name not in ISO_C:
                fail("%s includes <%s>: the core uses ISO C only (no files, terminals, libuv)"
                     % (where, name))
        elif "/" not in name:
            if not os.path.isfile(os.path.join(core, folder, name)):
                fail("%s includes %s, which is not a header of its own folder %s/ (a lower "
                     "folder's header is included by its entry header, \"json/json.h\")"
                     % (where, name, folder))
        elif name not in entry_of:
            fail("%s includes %s: of another folder only its entry header (%s); *_internal.h "
                 "only from its own folder" % (where, name, ", ".join(sorted(entry_of))))
        elif entry_of[name] == folder:
            fail("%s includes its own folder's entry header %s: within a folder, headers by name"
                 % (where, name))
        else:
            folder_edges.setdefault(folder, set()).add(entry_of[name])
            if entry_of[name] not in may[folder]:
                fail("%s includes %s: %s/ may include only %s (%s); %s/ is above it"
                     % (where, name, folder,
                        ", ".join(sorted("%s/" % m for m in may[folder])) or "ISO C",
                        " < ".join(order), entry_of[name]))
for component in cycles(folder_edges):
    fail("the core's folders %s include each other" % ", ".join(component))
# the doors, the tests and the tools reach the core through entry headers only
outside = (glob.glob(os.path.join(root, "server", "**", "*.[ch]"), recursive=True) +
           glob.glob(os.path.join(root, "tests", "**", "*.[ch]"), recursive=True) +
           glob.glob(os.path.join(root, "tests", "**", "*.cpp"), recursive=True) +
           glob.glob(os.path.join(root, "tools", "*.c")))
for path in sorted(outside):
    if path.startswith(core + os.sep) or "node_modules" in path:
        continue
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        m = INCLUDE.match(line)
        if (m and "/" in m.group(2) and m.group(2).split("/")[0] in may
                and m.group(2) not in entry_of):
            fail("%s:%d includes %s: outside the core, only its entry headers (%s)"
                 % (os.path.relpath(path, root), number, m.group(2),
                    ", ".join(sorted(entry_of))))
print("1. core layers: %d #include lines in %d folders (%s), each only its own headers, lower "
      "layers' entry headers and ISO C; no circle between folders"
      % (checked, len(order), " < ".join(order)))

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
for path in sorted(glob.glob(os.path.join(core, "*", "*.c"))):
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

# ---- 5. the folders of server/ and the LSP door's layers -----------------------------------

SERVER = table["server"]
server_dir = os.path.join(root, "server")
server_order = [f["folder"] for f in SERVER]
server_may = {f["folder"]: set(f["may_include"]) for f in SERVER}
for i, f in enumerate(SERVER):
    for lower in f["may_include"]:
        if lower not in server_order or server_order.index(lower) >= i:
            fail("server/layers.json: %s/ may include %s/, which is not below it"
                 % (f["folder"], lower))


def server_folder(path):
    relative = os.path.relpath(path, server_dir)
    found = [f for f in server_order if relative.startswith(f + os.sep)]
    return max(found, key=len) if found else None


# The include path of the builds: the core and the doors' folders, and the WASI stand-in (the
# WASI build's <uv.h>; the native builds' is libuv's own, outside server/).
search = [os.path.join(server_dir, d) for d in ("core", "lsp", "cli", "platform/wasi")]
server_edges = {}
edges = 0
for path in sorted(glob.glob(os.path.join(server_dir, "**", "*.[ch]"), recursive=True)):
    folder = server_folder(path)
    if folder is None:
        fail("%s: a file of server/ outside the folders of server/layers.json" % path)
        continue
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        m = INCLUDE.match(line)
        if not m:
            continue
        kind, name = m.groups()
        places = ([os.path.dirname(path)] if kind == '"' else []) + search
        target = next((os.path.join(d, name) for d in places
                       if os.path.isfile(os.path.join(d, name))), None)
        used = server_folder(target) if target else None
        if used is None or used == folder:
            continue
        edges += 1
        server_edges.setdefault(folder, set()).add(used)
        if used not in server_may[folder]:
            fail("%s:%d includes %s, of server/%s/: server/%s/ may include only %s"
                 % (os.path.relpath(path, root), number, name, used, folder,
                    ", ".join("%s/" % m for m in sorted(server_may[folder])) or "itself"))
for component in cycles(server_edges):
    fail("the folders %s of server/ include each other" % ", ".join(component))

LAYERS = [layer["modules"] for layer in table["lsp"]]
layer_of = {m: i for i, layer in enumerate(LAYERS) for m in layer}
lsp_dir = os.path.join(root, "server", "lsp")
lsp_edges = 0
for path in sorted(glob.glob(os.path.join(lsp_dir, "*.[ch]"))):
    module = os.path.splitext(os.path.basename(path))[0]
    if module not in layer_of:
        fail("%s: a module of the LSP door that no layer of server/layers.json names; add it "
             "to \"lsp\" where it belongs" % path)
        continue
    for line in open(path, encoding="utf-8"):
        m = re.match(r'\s*#\s*include\s*"(lsp_[a-z_]+)\.h"', line)
        if not m or m.group(1) == module:
            continue
        lsp_edges += 1
        used = m.group(1)
        if used not in layer_of:
            fail("%s includes %s.h, which no layer names" % (path, used))
        elif layer_of[used] >= layer_of[module]:
            fail("%s includes %s.h: a lower or equal layer must not depend on a higher one or a "
                 "sibling (%s)" % (path, used, " < ".join("/".join(l) for l in LAYERS)))
print("5. server/: %d includes between its folders (%s), each downwards, no circle; %d inside "
      "the LSP door checked against its layers" % (edges, ", ".join(server_order), lsp_edges))

# ---- 6. small files and functions ------------------------------------------------------------

MAX_FILE, MAX_FUNCTION = 600, 80


def function_spans(lines):
    """(first line, last line) of each function definition of the C `lines` (0-based): its body
    opens with a '{' alone in column 0 (the project's clang-format style, BreakBeforeBraces:
    Linux) and ends at the next '}' in column 0; it starts where its signature does, however the
    signature wraps — the lines above the '{' back to a blank line, a preprocessor line, the end
    of a comment or of another declaration (so a K&R/GNU "static int" above the name counts)."""
    spans = []
    start = None
    for i, line in enumerate(lines):
        if line == "{":
            start = i
            while start > 0:
                above = lines[start - 1].rstrip()
                if (above == "" or above.startswith(("#", "//")) or
                        above.endswith((";", "}", "{", "*/"))):
                    break
                start -= 1
        elif line == "}" and start is not None:
            spans.append((start, i))
            start = None
    return spans


# the rule itself measures a planted function whose signature wraps, and one in K&R/GNU style
planted = ("/* c */\nstatic int\nlong_name(int a,\n          int b)\n{\n" + "    a++;\n" * 3 +
           "}\n\nint f(void);\nint g(void)\n{\n}\n").split("\n")
if function_spans(planted) != [(1, 8), (11, 13)]:
    fail("6. the function-length rule mismeasures a planted wrapped signature: %s"
         % function_spans(planted))
sources = sorted(glob.glob(os.path.join(root, "server", "**", "*.[ch]"), recursive=True))
functions = wrapped = 0
for path in sources:
    lines = open(path, encoding="utf-8").read().split("\n")
    if len(lines) - 1 > MAX_FILE:
        fail("%s has %d lines (at most %d)" % (path, len(lines) - 1, MAX_FILE))
    for start, end in function_spans(lines):
        functions += 1
        wrapped += lines[start + 1] != "{"
        if end - start + 1 > MAX_FUNCTION:
            fail("%s:%d: a function of %d lines (at most %d): %s"
                 % (path, start + 1, end - start + 1, MAX_FUNCTION, lines[start][:60]))
print("6. sizes: %d files, %d functions (%d with a signature over several lines); limits %d "
      "lines a file, %d a function" % (len(sources), functions, wrapped, MAX_FILE, MAX_FUNCTION))

# ---- 7. one growth policy --------------------------------------------------------------------

# vector.h: every growable array grows through vector_grow (doubling, overflow-checked), so no
# other file calls realloc. No exception is allowed today; one would be listed here with its
# reason. By file name, wherever in server/ the layers put it.
REALLOC_ALLOWED = {"vector.c"}


def code_only(text):
    """C `text` with its comments, string and character literals blanked (lines kept)."""
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                  r"'(?:\\.|[^'\\\n])*'",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def realloc_calls(text):
    """The line numbers of realloc calls in C `text`, its comments and string literals aside."""
    code = code_only(text)
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

# ---- 1b. the core calls ISO C only ------------------------------------------------------------

# The project defines _POSIX_C_SOURCE for the doors, so <string.h> declares POSIX's string
# functions in the core too; these are the ones a C programmer reaches for without thinking.
POSIX_ONLY = re.compile(r"(?<![\w.>])(strdup|strndup|strnlen|strcasecmp|strncasecmp|strtok_r|"
                        r"stpcpy|memccpy|fnmatch|realpath|getline|localtime_r|gmtime_r|timegm)"
                        r"\s*\(")
posix_checked = 0
for path in sorted(glob.glob(os.path.join(core, "*", "*.[ch]"))):
    posix_checked += 1
    code = code_only(open(path, encoding="utf-8").read())
    for m in POSIX_ONLY.finditer(code):
        fail("%s:%d calls %s, a POSIX function: the core is ISO C only (vector_copy_string "
             "for strdup)" % (os.path.relpath(path, root), code.count("\n", 0, m.start()) + 1,
                              m.group(1)))
print("1b. the core: %d files call no POSIX function" % posix_checked)

# ---- 8. calls go where the includes may ------------------------------------------------------


def defined_functions(code):
    """The names of the functions `code` (code_only's) defines with external linkage."""
    lines = code.split("\n")
    names = []
    for start, _ in function_spans(lines):
        brace = lines.index("{", start)
        signature = " ".join(lines[start:brace])
        m = re.search(r"(\w+)\s*\(", signature)
        if m and not re.match(r"\s*(static|inline)\b", signature):
            names.append(m.group(1))
    return names


def called(code):
    """(name, line) of each call in `code`: an identifier followed by '(' that is not its own
    definition's (a definition's name starts its signature's line or follows its type)."""
    return [(m.group(1), code.count("\n", 0, m.start()) + 1)
            for m in re.finditer(r"\b([a-z_][a-z0-9_]*)\s*\(", code)]


def check_calls(files, place_of, may_call, describe):
    """Each call in `files` to a function another place defines must be one `may_call` allows:
    place_of(path) is a file's place (a core folder, an LSP module), may_call(caller, callee)."""
    codes = {path: code_only(open(path, encoding="utf-8").read())
             for path in files if path.endswith(".c")}  # a header declares; its callers call
    owner = {}
    for path, code in codes.items():
        for name in defined_functions(code):
            owner.setdefault(name, place_of(path))  # of alternatives (meson picks one), the first
    count = 0
    for path, code in codes.items():
        here = place_of(path)
        mine = set(defined_functions(code))
        for name, line in called(code):
            there = owner.get(name)
            if there is None or there == here or name in mine:
                continue
            count += 1
            if not may_call(here, there):
                fail("%s:%d calls %s, of %s: %s" % (os.path.relpath(path, root), line, name,
                                                     there, describe(here, there)))
    return count


core_files = sorted(glob.glob(os.path.join(root, "server", "core", "*", "*.[ch]")))
core_calls = check_calls(
    core_files, lambda path: os.path.basename(os.path.dirname(path)),
    lambda here, there: there in may.get(here, set()),
    lambda here, there: "%s/ may call only %s" % (
        here, ", ".join("%s/" % m for m in sorted(may.get(here, ()))) or "itself"))
lsp_files = [path for path in sorted(glob.glob(os.path.join(lsp_dir, "*.[ch]")))
             if os.path.splitext(os.path.basename(path))[0] in layer_of]
lsp_calls = check_calls(
    lsp_files, lambda path: os.path.splitext(os.path.basename(path))[0],
    lambda here, there: layer_of[there] < layer_of[here],
    lambda here, there: "a call into a higher or equal layer of the LSP door (%s is layer %d, "
                        "%s layer %d)" % (here, layer_of[here], there, layer_of[there]))
print("8. calls: %d between the core's folders, %d between the LSP door's modules, each to a "
      "lower layer" % (core_calls, lsp_calls))

print("invariants: %s" % ("all hold" if not failures else "%d broken" % len(failures)))
sys.exit(1 if failures else 0)
