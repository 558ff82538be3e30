#!/usr/bin/env python3
"""Deterministic benchmark corpus (issue 12). Same seed, same bytes.

  gen_corpus.py OUTDIR [--files 10000] [--seed 12] [--bulk 0.5,5,50] [--mistakes 0.10]
                      [--clean 22]

writes
  OUTDIR/files/NNNNN-<kind>.source.json   one source object per file, all 25 kinds in turn
  OUTDIR/bulk-<S>mb.json                  a top-level array of sources, about S MB each
  OUTDIR/clean-<S>mb.json                 --clean S: a bulk file of about S MB with no mistake
                                          (nothing to report: the throughput benchmark's input;
                                          with --files 0 --bulk "" only these are written)
  OUTDIR/mistakes.tsv                     file (or bulk index) → the mistake put in it

Each source starts from the kind's example in docs/examples (NN-*.source.json), gets a fresh
name, varied string values and a few optional fields (with their defaults) from schema/, so
files are 0.2–1 KB like the examples. About 10% carry one realistic mistake: a misspelled config
key (two letters swapped or one dropped), a plaintext secret, a wrong type (a boolean or a
number written as a string of words), or a value outside an enum."""
import argparse
import json
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schema_model import ROOT, field_types, load_kinds  # noqa: E402

WORDS = ("alpha bravo delta echo sales ops finance raw curated gold silver lake mart "
         "events orders users billing audit metrics logs prod staging eu us west east").split()


def load_examples():
    ex = os.path.join(ROOT, "docs", "examples")
    kinds = load_kinds()
    out = []
    for stem, kind in kinds:
        f = os.path.join(ex, stem + ".source.json")
        out.append((stem, kind, json.load(open(f, encoding="utf-8"))))
    return out


def simple_optional(fd):
    """An optional field whose default can be added without changing any diagnostic."""
    return ("default" in fd and fd.get("required") in (None, False) and "applicable" not in fd
            and not fd.get("secret") and not fd.get("sensitive") and "enum" not in fd
            and field_types(fd)[0] in ("boolean", "integer", "string"))


def vary(rng, stem, kind, example, i, clean=False):
    """clean: leave a secret placeholder ("$...$") whole (the mistake-free files): with a
    suffix it reads as a plaintext credential."""
    doc = json.loads(json.dumps(example))
    doc["name"] = "%s-%s-%05d" % (rng.choice(WORDS), rng.choice(WORDS), i)
    config = doc.setdefault("config", {})
    fields = kind["fields"]
    for key, value in list(config.items()):
        fd = fields.get(key, {})
        if (isinstance(value, str) and not value.startswith("data:") and "enum" not in fd
                and not fd.get("format") and not fd.get("secret") and key not in ("port",)
                and len(value) > 3 and rng.random() < 0.5
                and not (clean and value.startswith("$") and value.endswith("$"))):
            config[key] = value + "-" + rng.choice(WORDS)
    extra = [k for k, fd in fields.items() if k not in config and simple_optional(fd)]
    for key in rng.sample(extra, min(len(extra), rng.randint(0, 4))):
        config[key] = fields[key]["default"]
    return doc


def misspell(rng, key):
    if len(key) < 4:
        return key + "x"
    j = rng.randrange(1, len(key) - 1)
    if rng.random() < 0.5 and key[j] != key[j + 1]:
        return key[:j] + key[j + 1] + key[j] + key[j + 2:]
    return key[:j] + key[j + 1:]


def add_mistake(rng, kind, doc):
    """Puts one mistake into doc; returns its description."""
    config, fields = doc["config"], kind["fields"]
    choices = ["misspelled-key"]
    secrets = [k for k, fd in fields.items() if fd.get("secret")]
    if secrets:
        choices.append("plaintext-secret")
    typed = [k for k in config if field_types(fields.get(k, {}))[0] in ("boolean", "integer")
             and len(field_types(fields.get(k, {}))) == 1]
    if typed:
        choices.append("wrong-type")
    enums = [k for k in config if "enum" in fields.get(k, {})]
    if enums:
        choices.append("bad-enum")
    what = rng.choice(choices)
    if what == "misspelled-key":
        keys = [k for k in config if k in fields]
        key = rng.choice(keys)
        bad = misspell(rng, key)
        config = {(bad if k == key else k): v for k, v in config.items()}
        doc["config"] = config
        return "%s\t%s -> %s" % (what, key, bad)
    if what == "plaintext-secret":
        key = rng.choice(secrets)
        config[key] = rng.choice(["hunter2", "P@ssw0rd!", "changeme", "s3cr3t-" + rng.choice(WORDS)])
        return "%s\t%s" % (what, key)
    if what == "wrong-type":
        key = rng.choice(typed)
        config[key] = rng.choice(["yes", "on", "eighty", "true-ish"])
        return "%s\t%s" % (what, key)
    key = rng.choice(enums)
    good = fields[key]["enum"][0]["value"]
    config[key] = (good.lower() if isinstance(good, str) else "OTHER") + "_X"
    return "%s\t%s" % (what, key)


def generate(out, files, seed, bulk_sizes, rate):
    rng = random.Random(seed)
    examples = load_examples()
    os.makedirs(os.path.join(out, "files"), exist_ok=True)
    log = open(os.path.join(out, "mistakes.tsv"), "w", encoding="utf-8")
    bad = 0
    for i in range(files):
        stem, kind, example = examples[i % len(examples)]
        doc = vary(rng, stem, kind, example, i)
        name = "%05d-%s.source.json" % (i, stem.split("-", 1)[1])
        if rng.random() < rate:
            log.write("files/%s\t%s\n" % (name, add_mistake(rng, kind, doc)))
            bad += 1
        with open(os.path.join(out, "files", name), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    for mb in bulk_sizes:
        write_bulk(rng, examples, os.path.join(out, "bulk-%smb.json" % ("%g" % mb).replace(".", "_")),
                   mb, rate, log)
    log.close()
    return bad


def write_clean(out, seed, clean_sizes):
    """Bulk files with no mistake, from their own RNG (the other outputs keep their bytes)."""
    examples = load_examples()
    for mb in clean_sizes:
        rng = random.Random("clean-%d-%g" % (seed, mb))
        write_bulk(rng, examples, os.path.join(out, "clean-%smb.json" % ("%g" % mb).replace(".", "_")),
                   mb, 0.0, None)


def write_bulk(rng, examples, path, mb, rate, log):
    target = int(mb * 1e6)
    label = os.path.basename(path)
    with open(path, "w", encoding="utf-8") as f:
        f.write("[\n")
        size, j = 2, 0
        while size < target:
            stem, kind, example = examples[j % len(examples)]
            doc = vary(rng, stem, kind, example, j, clean=log is None)
            if rate and rng.random() < rate:
                log.write("%s[%d]\t%s\n" % (label, j, add_mistake(rng, kind, doc)))
            text = ("" if j == 0 else ",\n") + json.dumps(doc, indent=2)
            f.write(text)
            size += len(text.encode())
            j += 1
        f.write("\n]\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--bulk", default="0.5,5,50")
    ap.add_argument("--mistakes", type=float, default=0.10)
    ap.add_argument("--clean", default="", help="sizes in MB of bulk files with no mistake")
    a = ap.parse_args()
    sizes = [float(s) for s in a.bulk.split(",") if s]
    clean = [float(s) for s in a.clean.split(",") if s]
    os.makedirs(a.out, exist_ok=True)
    if a.files or sizes or not clean:  # --files 0 --bulk "" --clean S: the clean files alone
        bad = generate(a.out, a.files, a.seed, sizes, a.mistakes)
        print("%s: %d files (%d with a mistake), bulk %s MB" % (a.out, a.files, bad, a.bulk))
    write_clean(a.out, a.seed, clean)
    if clean:
        print("%s: clean bulk %s MB" % (a.out, a.clean))


if __name__ == "__main__":
    main()
