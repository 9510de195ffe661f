#!/usr/bin/env python3
"""tests/lsp/lsp_cu_equivalence.py CGLINT REPO - the server's C/C++ buffers
report what the command line reports.  Every C/C++ fixture file is opened in
one `cglint server` whose workspace is the repository (a first parse, which
keeps the translation unit and its precompiled preamble), then changed (a
blank line appended at the end: libclang reparses the kept unit), and both
times its diagnostics (rule, line, column) must be the findings of
`cglint -f json FILE` run in the repository.  This keeps the kept units and
the precompiled headers kept across analyses honest."""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from lsp_latency import Server  # noqa: E402

cglint, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
files = sorted(f for ext in ("cu", "cpp", "cc", "c")
               for f in glob.glob("tests/fixtures/cu*/**/*." + ext, root_dir=repo, recursive=True))
if not files:
    sys.exit("no C/C++ fixtures under %s/tests/fixtures" % repo)
s = Server(cglint, repo)
s.request("initialize", {"processId": None, "rootUri": "file://" + repo,
                         "capabilities": {"general": {"positionEncodings": ["utf-32"]}}})
s.notify("initialized", {})
bad = total = 0


def got_of(diags):
    return sorted((x["code"], x["range"]["start"]["line"] + 1, x["range"]["start"]["character"] + 1) for x in diags)


for f in files:
    p = os.path.join(repo, f)
    uri = "file://" + p
    text = open(p, encoding="utf-8", errors="surrogateescape").read()
    out = subprocess.run([cglint, "--no-cache", "-f", "json", f], cwd=repo, capture_output=True, text=True).stdout
    want = sorted((x["rule"], x["line"], x["column"]) for x in json.loads(out)["findings"])
    total += len(want)
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda-cpp", "version": 1,
                                                       "text": text}})
    opened = got_of(s.diagnostics(uri))
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"text": text + "\n"}]})
    changed = got_of(s.diagnostics(uri))
    for what, got in (("opened", opened), ("reparsed", changed)):
        if got != want:
            bad += 1
            print("DIFFERENT %s (%s)\n  server: %s\n  cglint: %s" % (f, what, got, want))
    s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    s.diagnostics(uri)
s.request("shutdown", None)
s.notify("exit", None)
s.p.wait()
print("%d C/C++ files, %d findings: %s" % (len(files), total, "%d different" % bad if bad else "the same, opened and reparsed"))
sys.exit(1 if bad else 0)
