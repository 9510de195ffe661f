#!/usr/bin/env python3
"""tests/lsp/lsp_kept_index.py CGLINT - the server keeps the index of each
module a buffer's analysis loaded and borrows it in the next analysis when
the module's bytes and its place in the project did not change (py_keep.c).
A kept index must give the diagnostics a fresh run gives, so here the
modules under an open buffer change while the buffer stays, and after each
change the buffer's diagnostics (rule, range, message) must be those of
`cglint -f json pkg/model.py` on the same files, and the ones listed:

  disk     pkg/util.py (loaded through model.py's imports, not open) is
           rewritten on disk (didChangeWatchedFiles) between versions that
           make its classes nn.Modules or not (model.py's kept classes
           resolve their bases again: CG201 and float's CG101 come and go),
           reassign self.scale in a method (CG304 through the base class)
           or on another object (CG304 through the project's attribute
           counts, which a borrowed index adds again), or store another
           attribute in a file of the same length (only the bytes differ),
           and back
  buffer   the same versions as an open, edited buffer of util.py
  own      model.py itself edited (its index is built again) and restored
  place    pkg/__init__.py deleted: the same bytes of model.py now make the
           module `model`, not `pkg.model`, and its relative import means
           `util`: an index kept under the old name is not borrowed
  saves    all of it twice over, so that indexes are borrowed again and again
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_session import CGLINT, Client, check, uri, FAILS  # noqa: E402

MODEL = '''import torch
from .util import Base, Plain


class Model(Base):
    def forward(self, x):
        return x * self.scale


class Wrapped(Plain):
    pass


def step(x):
    w = Wrapped()
    y = w(x)
    if y:
        pass
    a = float(y)
    b = y.tolist()
    return y
'''

TRAIN = '''import torch
from .model import Model, step


def main():
    m = Model().cuda()
    x = torch.zeros(4, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = m(x)
        z = step(x)
    g.replay()
'''

BASE_SETTER = '''class Base(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def set_scale(self, s):
        self.scale = s
'''
BASE_FIXED = '''class Base(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0
'''
CONFIGURE = '''

def configure(model):
    model.scale = 3.0
'''


def util(base, plain_module, configure=False):
    plain = "class Plain(torch.nn.Module):\n    pass\n" if plain_module else "class Plain:\n    pass\n"
    return "import torch\n\n\n" + base + (CONFIGURE if configure else "") + "\n\n" + plain


# util.py versions and model.py's rules with each (line numbers: MODEL's)
TENSOR = [("CG201", 17), ("CG101", 19), ("CG101", 20)]   # w(x) is a tensor: Plain is an nn.Module
UNKNOWN = [("CG101", 20)]                                 # w(x) unknown: only tolist() still says so
VERSIONS = [
    ("setter, modules", util(BASE_SETTER, True), [("CG304", 7)] + TENSOR),
    # the same length as the one before: only the bytes tell the two apart
    ("setter of another attribute", util(BASE_SETTER.replace("self.scale = s", "self.other = s"), True), TENSOR),
    ("no setter, plain", util(BASE_FIXED, False), UNKNOWN),
    ("another object's store", util(BASE_FIXED, True, configure=True), [("CG304", 7)] + TENSOR),
    ("no setter, modules", util(BASE_FIXED, True), TENSOR),
    ("setter, plain", util(BASE_SETTER, False), [("CG304", 7)] + UNKNOWN),
]


def fresh(root, rel):
    out = subprocess.run([CGLINT, "-f", "json", rel], cwd=root, capture_output=True, text=True)
    return sorted((f["rule"], f["line"], f["column"], f["end_line"], f["end_column"], f["message"])
                  for f in json.loads(out.stdout)["findings"])


def served(diags):
    return sorted((d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1,
                   d["range"]["end"]["line"] + 1, d["range"]["end"]["character"] + 1, d["message"]) for d in diags)


def main():
    tmp = tempfile.mkdtemp(prefix="cglint-kept-")
    root = os.path.join(tmp, "proj")
    pkg = os.path.join(root, "pkg")
    os.makedirs(pkg)
    open(os.path.join(root, "pyproject.toml"), "w").write("[project]\nname = 'p'\n")
    init = os.path.join(pkg, "__init__.py")
    open(init, "w").write("")
    model, utilpy = os.path.join(pkg, "model.py"), os.path.join(pkg, "util.py")
    open(model, "w").write(MODEL)
    open(os.path.join(pkg, "train.py"), "w").write(TRAIN)
    open(utilpy, "w").write(VERSIONS[0][1])

    c = Client(root)
    c.request("initialize", {"processId": None, "rootUri": uri(root),
                             "capabilities": {"general": {"positionEncodings": ["utf-32"]}}})
    c.notify("initialized", {})
    version = {"model": 1, "util": 1}

    def compare(what, want_rules):
        got = served(c.diagnostics(uri(model), what))
        want = fresh(root, "pkg/model.py")
        check(got == want, "%s: the server's diagnostics are a fresh run's\n  server: %s\n  cglint: %s" % (what, got, want))
        check(sorted((r, l) for r, l, *_ in want) == sorted(want_rules),
              "%s: the fresh run reports %s (got %s)" % (what, sorted(want_rules), [(r, l) for r, l, *_ in want]))

    def disk_changed(path, kind=2):
        c.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(path), "type": kind}]})

    def touch_model(text=MODEL):
        # a buffer's analysis runs when it changes: the full text again
        version["model"] += 1
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri(model), "version": version["model"]},
                                            "contentChanges": [{"text": text}]})

    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(model), "languageId": "python", "version": 1,
                                                       "text": MODEL}})
    compare("opened", VERSIONS[0][2])

    for rnd in (1, 2):
        # ---- disk: util.py is not open; it changes on disk
        for name, text, rules in VERSIONS[1:] + VERSIONS[:1]:
            open(utilpy, "w").write(text)
            disk_changed(utilpy)
            compare("round %d, disk: %s" % (rnd, name), rules)
        # ---- buffer: util.py open and edited; model.py analysed again after each edit
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(utilpy), "languageId": "python",
                                                           "version": version["util"], "text": VERSIONS[0][1]}})
        c.diagnostics(uri(utilpy), "util.py opened")
        for name, text, rules in VERSIONS[1:] + VERSIONS[:1]:
            version["util"] += 1
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri(utilpy), "version": version["util"]},
                                                "contentChanges": [{"text": text}]})
            c.diagnostics(uri(utilpy), "util.py changed")
            open(utilpy, "w").write(text)   # what the fresh run reads (the server reads the buffer)
            touch_model()
            compare("round %d, buffer: %s" % (rnd, name), rules)
        c.notify("textDocument/didClose", {"textDocument": {"uri": uri(utilpy)}})
        c.diagnostics(uri(utilpy), "util.py closed")
        # ---- own: model.py's buffer edited (float(y) gone), its disk too for the fresh run
        edited = MODEL.replace("    a = float(y)\n", "    a = 1.0\n")
        open(model, "w").write(edited)
        touch_model(edited)
        compare("round %d, own edit" % rnd, [r for r in VERSIONS[0][2] if r != ("CG101", 19)])
        open(model, "w").write(MODEL)
        touch_model()
        compare("round %d, own edit undone" % rnd, VERSIONS[0][2])
        # ---- place: no pkg/__init__.py, then back
        os.remove(init)
        disk_changed(init, 3)
        compare("round %d, no __init__.py" % rnd, VERSIONS[0][2])
        open(init, "w").write("")
        disk_changed(init, 1)
        compare("round %d, __init__.py back" % rnd, VERSIONS[0][2])

    c.request("shutdown", None)
    c.notify("exit", None)
    c.p.wait(timeout=30)
    shutil.rmtree(tmp, ignore_errors=True)
    if FAILS:
        print("lsp kept-index: %d checks failed" % len(FAILS))
        sys.exit(1)
    print("lsp kept-index: all checks passed")


if __name__ == "__main__":
    main()
