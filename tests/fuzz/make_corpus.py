#!/usr/bin/env python3
"""make_corpus: seed corpora and dictionaries for the fuzz targets, built into OUT (a build
directory: they are generated, never committed).

usage: make_corpus.py OUT

OUT/TARGET/ gets the seeds of each target:
  fuzz_parse, fuzz_analysis  docs/examples/*.json, every document of tests/rules/*.cases.json
                             (pretty and compact), JSONTestSuite's test_parsing files when
                             ../shared/testdata/JSONTestSuite is there (skipped silently if not)
  fuzz_lsp                   examples as documents (modes 2 and 3), framed sessions (mode 0,
                             with and without the built-in initialize), raw streams (mode 1)
  fuzz_framing               those streams with chunk-size headers, and broken frames
  fuzz_update                the examples and every 20th case document, each with edits: typing,
                             its syntax broken and mended, a member typed in without its ','
  fuzz_kind_file             every kind and group file of schema/ and of docs/examples/team-kinds
                             (alone, and after another one and a NUL byte)
  fuzz_project               the srcls.json files of docs/ and tests/ (alone), and monorepos:
                             a root, a base and a shared file extended in chains, lists and
                             cycles (files split at NUL bytes, the one analysed last)
OUT/json.dict is tests/fuzz/json.dict plus every field name, alias, type identifier and enum
value of schema/; OUT/lsp.dict is tests/fuzz/lsp.dict plus the same names.
"""
import hashlib
import itertools
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# JSONTestSuite: under $SRCLS_TESTDATA (as the unit tests look for it), else beside the clone.
TESTDATA = os.path.join(os.environ.get("SRCLS_TESTDATA") or
                        os.path.join(os.path.dirname(ROOT), "shared", "testdata"),
                        "JSONTestSuite", "test_parsing")

# fuzz_lsp's first byte (see fuzz_lsp.c).
MODE_FRAMED, MODE_RAW, MODE_DOCUMENT = 0, 1, 2
FLAG_UTF8, FLAG_ONE_BY_ONE, FLAG_NO_PRELUDE, FLAG_RICH_CLIENT = 0x04, 0x08, 0x10, 0x20
URI = "file:///fuzz/doc.source.json"


def write_seed(directory, data):
    """Stores `data` under its hash, as libFuzzer names corpus files (duplicates collapse)."""
    os.makedirs(directory, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def examples():
    folder = os.path.join(ROOT, "docs", "examples")
    return [read(os.path.join(folder, n)) for n in sorted(os.listdir(folder)) if n.endswith(".json")]


def case_documents():
    folder = os.path.join(ROOT, "tests", "rules")
    docs = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".cases.json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for case in json.load(f):
                docs.append(case["document"])
    return docs


def json_test_suite():
    if not os.path.isdir(TESTDATA):
        return []
    return [read(os.path.join(TESTDATA, n)) for n in sorted(os.listdir(TESTDATA))]


# ---- LSP sessions ----

def body(obj):
    return json.dumps(obj, separators=(",", ":")).encode("utf-8")


def frame(data):
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


def request(id_, method, params):
    return body({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})


def notification(method, params):
    return body({"jsonrpc": "2.0", "method": method, "params": params})


def text_document():
    return {"textDocument": {"uri": URI}}


def at(line, character):
    return dict(text_document(), position={"line": line, "character": character})


def initialize(encoding="utf-16"):
    return [
        request(0, "initialize", {"processId": None, "capabilities": {
            "general": {"positionEncodings": [encoding]},
            "textDocument": {"completion": {"completionItem": {"snippetSupport": True}}}},
            "initializationOptions": {"srcls": {"rules": {"unknown-field": "error"}}},
            "trace": "messages"}),
        notification("initialized", {}),
    ]


def document_session(text):
    """Every feature on one document, then edits, then a proper end."""
    rng = {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}
    return [
        notification("textDocument/didOpen", {"textDocument": {
            "uri": URI, "languageId": "json", "version": 1, "text": text}}),
        request(1, "textDocument/diagnostic", text_document()),
        request(2, "textDocument/completion", at(3, 6)),
        request(3, "textDocument/hover", at(2, 5)),
        request(4, "textDocument/codeAction", dict(text_document(), range=rng,
                                                    context={"diagnostics": []})),
        request(5, "textDocument/codeAction", dict(text_document(), range=rng, context={
            "diagnostics": [], "only": ["source.fixAll"]})),
        request(6, "textDocument/formatting", dict(text_document(), options={
            "tabSize": 2, "insertSpaces": True})),
        request(7, "textDocument/documentSymbol", text_document()),
        notification("textDocument/didChange", {
            "textDocument": {"uri": URI, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 1, "character": 2},
                                          "end": {"line": 1, "character": 4}}, "text": "\"x"}]}),
        request(8, "textDocument/completion", at(1, 3)),
        notification("$/cancelRequest", {"id": 9}),
        request(9, "textDocument/hover", at(1, 1)),
        notification("workspace/didChangeConfiguration", {"settings": {"srcls": {
            "rules": {"kind-inferred": "off"}, "types": {"MY_ID": "CLOUDA_OBJECT_STORAGE"}}}}),
        notification("textDocument/didChange", {
            "textDocument": {"uri": URI, "version": 3}, "contentChanges": [{"text": "{\"ty"}]}),
        request(10, "textDocument/completion", at(0, 4)),
        notification("textDocument/didClose", text_document()),
        request(11, "shutdown", None),
        notification("exit", None),
    ]


def hostile_session():
    """Lifecycle and protocol mistakes, for a server without the built-in initialize."""
    return [
        request(1, "textDocument/hover", at(0, 0)),
        b"{not json",
        b"[1,2]",
        body({"jsonrpc": "2.0", "id": 5, "result": None}),
        request("init", "initialize", {"capabilities": {}, "trace": "verbose"}),
        request(2, "initialize", {}),
        notification("$/setTrace", {"value": "verbose"}),
        request(3, "no/such/method", {}),
        request(4, "textDocument/completion", {"textDocument": {"uri": 7}}),
        request(5, "textDocument/completion", "params"),
        notification("textDocument/didOpen", {"textDocument": {"uri": URI, "text": "[\n"}}),
        request(6, "textDocument/codeAction", dict(text_document(), range={
            "start": {"line": 4294967295, "character": 0}, "end": {"line": 0, "character": -1}})),
        request(7, "shutdown", None),
        request(8, "textDocument/hover", at(0, 0)),
        notification("exit", None),
    ]


def lsp_seeds(docs):
    seeds = []
    for i, doc in enumerate(docs):
        flags = FLAG_UTF8 if i % 2 else 0
        seeds.append(bytes([MODE_DOCUMENT | flags | (FLAG_ONE_BY_ONE if i % 3 == 0 else 0)]) + doc)
        seeds.append(doc)  # mode 3 when it starts with '{' or '['
    streams = []
    for i, doc in enumerate(docs[:6]):
        text = doc.decode("utf-8", "replace")
        parts = document_session(text)
        flags = (FLAG_UTF8 if i % 2 else 0) | (FLAG_ONE_BY_ONE if i % 3 == 1 else 0)
        seeds.append(bytes([MODE_FRAMED | flags]) + b"\0".join(parts))
        seeds.append(bytes([MODE_FRAMED | FLAG_NO_PRELUDE | flags]) +
                     b"\0".join(initialize("utf-8" if i % 2 else "utf-16") + parts))
        stream = b"".join(frame(p) for p in parts)
        seeds.append(bytes([MODE_RAW | flags]) + stream)
        streams.append(b"".join(frame(p) for p in initialize() + parts))
    hostile = hostile_session()
    seeds.append(bytes([MODE_FRAMED | FLAG_NO_PRELUDE]) + b"\0".join(hostile))
    seeds.append(bytes([MODE_FRAMED | FLAG_NO_PRELUDE | FLAG_ONE_BY_ONE]) + b"\0".join(hostile))
    broken = broken_streams()
    for s in broken:
        seeds.append(bytes([MODE_RAW]) + s)
    streams.append(b"".join(frame(p) for p in hostile))
    return seeds, streams + broken


def broken_streams():
    good = frame(notification("initialized", {}))
    return [
        b"Content-Length: 5\r\n\r\nhello" + good,
        b"content-length:2\r\nContent-Type: x\r\n\r\n{}" + good,
        b"Content-Length: abc\r\n\r\n{}" + good,
        b"Content-Length: 99999999999999\r\n\r\n" + good,
        b"X-Nothing: 1\r\n\r\n" + good,
        b"garbage before" + good + b"garbage after",
        b"Content-Length: 3\r\n\r\n{}}" + b"Content-Length: 2\r\n" + b"A" * 9000 + b"\r\n\r\n{}",
        b"Content-Length: 0\r\n\r\n" + good,
        b"Content-Length 12\r\n\r\n" + good,
    ]


def framing_seeds(streams):
    seeds = []
    for i, s in enumerate(streams):
        for limit, sizes in ((0, [7]), (1, [1, 0, 200]), (2, [64, 3]), (3, [255, 13, 1, 40])):
            seeds.append(bytes([limit + 4 * (i % 2), len(sizes) - 1] + sizes) + s)
    return seeds


# ---- dictionaries ----

def schema_names():
    """Field names, aliases, type identifiers and enum values of every schema file."""
    names = set()

    def walk(node):
        if isinstance(node, dict):
            for key in ("fields", "override"):
                if isinstance(node.get(key), dict):
                    names.update(node[key].keys())
            for key in ("aliases", "types", "omit", "only"):
                if isinstance(node.get(key), list):
                    names.update(v for v in node[key] if isinstance(v, str))
            if isinstance(node.get("enum"), list):
                for e in node["enum"]:
                    value = e.get("value") if isinstance(e, dict) else e
                    if isinstance(value, str):
                        names.add(value)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    folder = os.path.join(ROOT, "schema")
    for dirpath, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".json"):
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    walk(json.load(f))
    return sorted(names)


def dict_entry(text):
    """A libFuzzer dictionary line: the name as a JSON string token, quotes included."""
    out = []
    for byte in ('"' + text + '"').encode("utf-8"):
        c = chr(byte)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= byte < 0x7f:
            out.append(c)
        else:
            out.append("\\x%02X" % byte)
    return '"' + "".join(out) + '"'


def write_dict(path, base, names):
    with open(path, "w", encoding="utf-8") as f:
        f.write(read(base).decode("utf-8"))
        f.write("\n# generated from schema/ by make_corpus.py\n")
        for name in names:
            f.write(dict_entry(name) + "\n")


def update_edit(where, removed, inserted):
    """One edit of a fuzz_update input: 0xFF, two bytes of position, one of length removed, the
    bytes inserted."""
    return bytes([0xFF, where & 0xFF, (where >> 8) & 0xFF, removed]) + inserted


def typing_seed(doc):
    """Typing in a value, deleting a byte, a quote, a line break."""
    seed = bytearray(doc)
    for where, removed, inserted in (
            (doc.find(b'": "') + 5, 0, b"x"), (doc.find(b'": "') + 5, 1, b""),
            (len(doc) // 2, 0, b'"'), (len(doc) // 2, 1, b""), (len(doc) // 3, 0, b"\n  ")):
        seed += update_edit(max(0, where), removed, inserted)
    return bytes(seed)


def break_and_mend_seeds(doc):
    """Per punctuation mark (the one nearest the middle): deleted, a quote typed in its place
    and deleted, the mark typed again: the syntax breaks, breaks otherwise, and mends."""
    out = []
    for mark in b',:"{}[]':
        places = [i for i, c in enumerate(doc) if c == mark]
        if not places:
            continue
        at = min(places, key=lambda i: abs(i - len(doc) // 2))
        out.append(doc + update_edit(at, 1, b"") + update_edit(at, 0, b'"') +
                   update_edit(at, 1, b"") + update_edit(at, 0, bytes([mark])))
    return out


def new_member_seeds(doc):
    """A member typed piece by piece at the end of an object whose last value is a string (the
    first and the last such object), its ',' typed last (as when one forgets it): the key stands
    alone after a string value for a while, then gets its value, with or without the ':'."""
    ends = [i for i in range(len(doc)) if doc.startswith(b'"\n', i) and
            doc[i + 1:].lstrip().startswith(b"}")]
    out = []
    for end, (between, value) in itertools.product(
            sorted(set(ends[:1] + ends[-1:])),
            ((b": ", b'"x"'), (b" ", b'"'), (b"", b"5432"), (b": ", b"{}"))):
        at = end + 1
        pieces = (b'\n    "', b"port", b'"', between, value)
        seed = bytearray(doc)
        for piece in pieces:
            if piece:
                seed += update_edit(at, 0, piece)
            at += len(piece)
        seed += update_edit(end + 1, 0, b",")
        out.append(bytes(seed))
    return out


def update_seeds(docs):
    """fuzz_update: each document with typing, with its syntax broken and mended, and with a
    member typed in without its ',' (the edits that make the analysis take the whole road, and
    come back to the short one)."""
    out = []
    for doc in docs:
        out.append(typing_seed(doc))
        out += break_and_mend_seeds(doc)
        out += new_member_seeds(doc)
    return out


def kind_files():
    out = []
    for folder in (os.path.join(ROOT, "schema", "kinds"), os.path.join(ROOT, "schema", "groups"),
                   os.path.join(ROOT, "docs", "examples", "team-kinds", "kinds")):
        out += [read(os.path.join(folder, n)) for n in sorted(os.listdir(folder))
                if n.endswith(".json")]
    return out


def srcls_jsons():
    """Every srcls.json of docs/ and tests/faults (the settings people write)."""
    out = []
    for top in (os.path.join(ROOT, "docs"), os.path.join(ROOT, "tests", "faults")):
        for folder, _, names in sorted(os.walk(top)):
            out += [read(os.path.join(folder, n)) for n in sorted(names)
                    if n in ("srcls.json", "base.json")]
    return out


def project_seeds():
    """srcls.json alone, and extending the other files of fuzz_project's file system."""
    root = b'{"rules": {"security": "error"}, "exclude": ["legacy/**", "*.draft.json"], ' \
           b'"ignore": [{"files": "app/x.json", "codes": ["unknown-field"], "reason": "r"}], ' \
           b'"placeholders": ["${NAME}"], "baseline": "bl.json", "schemas": ["kinds"]}'
    base = b'{"extends": "../shared/srcls.json", "rules": {"unknown-field": "off"}, ' \
           b'"include": ["conf/*.conf"]}'
    shared = b'{"types": {"MY": "CLOUDA_OBJECT_STORAGE"}, "placeholders": ["{{ NAME }}"]}'
    out = list(srcls_jsons())
    for own in (b'{"extends": "../srcls.json"}',
                b'{"extends": ["../srcls.json", "base.json"], "rules": {"security": "hint"}}',
                b'{"extends": "./base.json", "exclude": ["gen/*"]}',
                b'{"extends": ["/r/shared/srcls.json", "../app/../srcls.json"]}',
                b'{"extends": "srcls.json"}',
                b'{"extends": ["", 3, "../nope.json"]}'):
        out.append(own)
        out.append(root + b"\0" + base + b"\0" + shared + b"\0" + own)
    cycle = b'{"extends": "app/base.json"}'
    out.append(cycle + b"\0" + b'{"extends": "../srcls.json"}' + b"\0" + shared + b"\0" +
               b'{"extends": "base.json"}')
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    docs = examples()
    cases = case_documents()
    jts = json_test_suite()
    pretty = [json.dumps(d, indent=2, ensure_ascii=False).encode("utf-8") + b"\n" for d in cases]
    compact = [json.dumps(d, separators=(",", ":")).encode("utf-8") for d in cases[::7]]
    for target in ("fuzz_parse", "fuzz_analysis"):
        for seed in docs + pretty + compact + jts:
            write_seed(os.path.join(out, target), seed)
    lsp, streams = lsp_seeds(docs + pretty[::40])
    for seed in lsp:
        write_seed(os.path.join(out, "fuzz_lsp"), seed)
    for seed in framing_seeds(streams):
        write_seed(os.path.join(out, "fuzz_framing"), seed)
    for seed in update_seeds(docs + pretty[::20]):
        write_seed(os.path.join(out, "fuzz_update"), seed)
    kinds = kind_files()
    for i, seed in enumerate(kinds):
        write_seed(os.path.join(out, "fuzz_kind_file"), seed)
        write_seed(os.path.join(out, "fuzz_kind_file"), kinds[i - 1] + b"\0" + seed)
    for seed in project_seeds():
        write_seed(os.path.join(out, "fuzz_project"), seed)
    names = schema_names()
    write_dict(os.path.join(out, "json.dict"), os.path.join(HERE, "json.dict"), names)
    write_dict(os.path.join(out, "lsp.dict"), os.path.join(HERE, "lsp.dict"), names)
    for target in ("fuzz_parse", "fuzz_analysis", "fuzz_lsp", "fuzz_framing", "fuzz_update",
                   "fuzz_kind_file", "fuzz_project"):
        count = len(os.listdir(os.path.join(out, target)))
        print("%s: %d seeds" % (target, count))
    print("dictionaries: %d schema names (json.dict, lsp.dict)" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
