#!/usr/bin/env python3
"""tests/lsp/lsp_equivalence.py CGLINT REPO - the server reports what the
command line reports: every Python fixture file is opened in one `cglint
server` whose workspace is the repository, and its diagnostics (rule, line,
column) must be the findings of `cglint -f json FILE` run in the repository.
The server analyses each buffer focused (only the capture files that reached
it when the project was opened, trees from its cache): this is what keeps
that shortcut honest."""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from lsp_latency import Server  # noqa: E402

cglint, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
files = sorted(glob.glob("tests/fixtures/py/**/*.py", root_dir=repo, recursive=True))
s = Server(cglint, repo)
s.request("initialize", {"processId": None, "rootUri": "file://" + repo,
                         "capabilities": {"general": {"positionEncodings": ["utf-32"]}}})
s.notify("initialized", {})
bad = total = 0
for f in files:
    p = os.path.join(repo, f)
    s.notify("textDocument/didOpen", {"textDocument": {"uri": "file://" + p, "languageId": "python", "version": 1,
                                                       "text": open(p, encoding="utf-8").read()}})
    got = sorted((x["code"], x["range"]["start"]["line"] + 1, x["range"]["start"]["character"] + 1)
                 for x in s.diagnostics("file://" + p))
    out = subprocess.run([cglint, "-f", "json", f], cwd=repo, capture_output=True, text=True).stdout
    want = sorted((x["rule"], x["line"], x["column"]) for x in json.loads(out)["findings"])
    total += len(want)
    if got != want:
        bad += 1
        print("DIFFERENT %s\n  server: %s\n  cglint: %s" % (f, got, want))
    s.notify("textDocument/didClose", {"textDocument": {"uri": "file://" + p}})
    s.diagnostics("file://" + p)
s.request("shutdown", None)
s.notify("exit", None)
print("%d files, %d findings; %d differ" % (len(files), total, bad))
sys.exit(1 if bad or not total else 0)
