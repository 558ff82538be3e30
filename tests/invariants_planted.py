#!/usr/bin/env python3
"""invariants.py catches a broken layer: in a temp copy of the tree it passes, then, with
includes that break the layers of server/layers.json planted in the copy, it fails and names each:

- a new core file in base/ (the lowest layer) that includes check/'s entry header;
- a json/ file that includes schema/'s private schema_internal.h;
- a domain/ file that includes a header of assist/ by its plain name;
- a CLI door file that includes the LSP door (server/cli/ may include only the core);
- the LSP door's framing (layer 0) including its server (the top layer);
- a call from the LSP door's transport up into the document store, and one from json/ up into
  schema/ (a call through a header that declares a function defined above it: a circle the
  include check cannot see);
- a core file that calls strdup (the core is ISO C only);
- a test that includes a core header that is not an entry header.

usage: invariants_planted.py SOURCE_ROOT SRCLS_BINARY"""
import os
import shutil
import subprocess
import sys
import tempfile

root, binary = sys.argv[1], sys.argv[2]
copy = tempfile.mkdtemp(prefix="srcls-planted-")
try:
    for part in ("server", "schema", os.path.join("tests", "rules"),
                 os.path.join("docs", "examples")):
        shutil.copytree(os.path.join(root, part), os.path.join(copy, part))
    for name in ("invariants.py", "layers.py", "test_vector.c"):
        shutil.copy(os.path.join(root, "tests", name), os.path.join(copy, "tests", name))
    invariants = os.path.join(copy, "tests", "invariants.py")

    def run():
        p = subprocess.run([sys.executable, invariants, copy, binary], capture_output=True,
                           text=True, timeout=300)
        return p.returncode, p.stdout + p.stderr

    status, output = run()
    if status != 0:
        sys.exit("invariants.py fails on the unplanted copy, so the plants below prove "
                 "nothing:\n" + output)

    def plant(path, line):
        path = os.path.join(copy, path)
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        with open(path, "w", encoding="utf-8") as f:
            f.write(line + "\n" + text)

    plants = [  # (file, the line planted, what the failure must say)
        ("server/core/base/planted.c", '#include "check/check.h"',
         "server/core/base/planted.c:1 includes check/check.h: base/ may include only ISO C"),
        ("server/core/json/json_doc.c", '#include "schema/schema_internal.h"',
         "server/core/json/json_doc.c:1 includes schema/schema_internal.h: of another folder "
         "only its entry header"),
        ("server/core/domain/settings.c", '#include "fix.h"',
         "server/core/domain/settings.c:1 includes fix.h, which is not a header of its own "
         "folder domain/"),
        ("server/cli/report.c", '#include "lsp_server.h"',
         "server/cli/report.c:1 includes lsp_server.h, of server/lsp/: server/cli/ may include "
         "only core/"),
        ("server/lsp/lsp_framing.c", '#include "lsp_server.h"',
         "lsp_framing.c includes lsp_server.h: a lower or equal layer must not depend on a "
         "higher one"),
        ("server/lsp/lsp_transport.c",
         "static void planted(void) { lsp_documents_publish_pending(0); }",
         "server/lsp/lsp_transport.c:1 calls lsp_documents_publish_pending, of lsp_documents: a "
         "call into a higher or equal layer of the LSP door"),
        ("server/core/json/json_write.c", "static void planted(void) { schema_registry_free(0); }",
         "server/core/json/json_write.c:1 calls schema_registry_free, of schema: json/ may call "
         "only base/"),
        ("server/core/assist/hover.c", "static char *planted(const char *s) { return strdup(s); }",
         "server/core/assist/hover.c:1 calls strdup, a POSIX function: the core is ISO C only"),
        ("tests/test_vector.c", '#include "base/vector.h"',
         "tests/test_vector.c:1 includes base/vector.h: outside the core, only its entry "
         "headers"),
    ]
    for path, line, _ in plants:
        plant(path, line)
    status, output = run()
    missing = [what for _, _, what in plants if what not in output]
    if status != 1 or missing:
        sys.exit("invariants.py exited %d on the planted copy; not said: %s\n%s"
                 % (status, missing, output))
    print("invariants.py passes on a copy of the tree and fails on it with %d includes and "
          "calls that break a layer planted, naming each" % len(plants))
finally:
    shutil.rmtree(copy)
