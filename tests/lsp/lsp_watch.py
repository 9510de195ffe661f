#!/usr/bin/env python3
"""tests/lsp/lsp_watch.py CGLINT - workspace/didChangeWatchedFiles: files
changed on disk outside the editor (a checkout, another tool) are the
project context of the open buffers (issue 15).

  register   a client that registers dynamically is asked, at initialized,
             for the sources and configuration files; one that cannot is
             not asked
  changed    a closed file loses its capture on disk: the open buffer's
             diagnostic (reached through that capture) goes
  created    a new file with a capture joins the project: it comes back
  deleted    that file is removed: it goes again
  excluded   a new file the walk skips (a virtualenv) does not join
  config     pyproject.toml starts ignoring the rule: the project's
             configuration is read again
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_session as L  # noqa: E402
from lsp_session import Client, check, uri  # noqa: E402

CHANGED, CREATED, DELETED = 2, 1, 3


def codes(c, u, what):
    return [x["code"] for x in c.diagnostics(u, what)]


def main():
    tmp = tempfile.mkdtemp(prefix="cglint-watch-")
    root = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(root, "pkg"))
    pyproject = os.path.join(root, "pyproject.toml")
    open(pyproject, "w").write("[project]\nname = 'p'\n")
    open(os.path.join(root, "pkg", "__init__.py"), "w").write("")
    model = os.path.join(root, "pkg", "model.py")
    train = os.path.join(root, "train.py")
    open(model, "w").write(L.MODEL)
    open(train, "w").write(L.TRAIN)

    # ---- a client that cannot register dynamically is not asked
    c0 = Client(root)
    c0.request("initialize", {"processId": None, "rootUri": uri(root), "capabilities": {}})
    c0.notify("initialized", {})
    c0.notify("textDocument/didOpen", {"textDocument": {"uri": uri(model), "languageId": "python", "version": 1,
                                                        "text": L.MODEL}})
    seen = []
    c0.wait(lambda m: seen.append(m) or m.get("method") == "textDocument/publishDiagnostics", "c0 diagnostics")
    check(not [m for m in seen if m.get("method") == "client/registerCapability"],
          "no dynamic registration: the server does not ask for watchers")
    c0.request("shutdown", None)
    c0.notify("exit", None)
    c0.p.wait(timeout=30)

    c = Client(root)
    c.request("initialize", {"processId": None, "rootUri": uri(root), "capabilities":
                             {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}})
    c.notify("initialized", {})
    reg = c.wait(lambda m: m.get("method") == "client/registerCapability", "client/registerCapability")
    if reg:
        r = reg["params"]["registrations"]
        check(len(r) == 1 and r[0]["method"] == "workspace/didChangeWatchedFiles", "registers didChangeWatchedFiles (%s)" % r)
        globs = [w["globPattern"] for w in r[0]["registerOptions"]["watchers"]]
        check(any(g.startswith("**/*.{py,") and ",cu," in g for g in globs) and any("pyproject.toml" in g for g in globs),
              "watchers: the sources and the configuration files (%s)" % globs)
        c.send({"id": reg["id"], "result": None})
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(model), "languageId": "python", "version": 1,
                                                       "text": L.MODEL}})
    check(codes(c, uri(model), "model.py opened") == ["CG101"], "model.py: CG101 through train.py's capture")

    def changed(*events):
        c.notify("workspace/didChangeWatchedFiles",
                 {"changes": [{"uri": uri(p), "type": t} for p, t in events]})

    # ---- changed on disk (train.py is not open)
    open(train, "w").write(L.TRAIN_NO_CAPTURE)
    changed((train, CHANGED))
    check(codes(c, uri(model), "model.py after train.py changed on disk") == [],
          "train.py lost its capture on disk: model.py's CG101 goes")

    # ---- created
    train2 = os.path.join(root, "train2.py")
    open(train2, "w").write(L.TRAIN)
    changed((train2, CREATED))
    check(codes(c, uri(model), "model.py after train2.py was created") == ["CG101"],
          "a new file with a capture joins the project: CG101 again")

    # ---- deleted
    os.unlink(train2)
    changed((train2, DELETED))
    check(codes(c, uri(model), "model.py after train2.py was deleted") == [],
          "the deleted file leaves the project: CG101 goes")

    # ---- a new file the walk skips does not join (a virtualenv's)
    venv = os.path.join(root, ".venv", "lib")
    os.makedirs(venv)
    open(os.path.join(root, ".venv", "pyvenv.cfg"), "w").write("home = /usr/bin\n")
    open(os.path.join(venv, "t.py"), "w").write(L.TRAIN)
    changed((os.path.join(venv, "t.py"), CREATED))
    check(codes(c, uri(model), "model.py after a virtualenv file was created") == [],
          "a file in a virtualenv does not join the project")

    # ---- a checkout: several files at once, the capture is back
    open(train, "w").write(L.TRAIN)
    changed((train, CHANGED), (os.path.join(root, "pkg", "__init__.py"), CHANGED))
    check(codes(c, uri(model), "model.py after a checkout") == ["CG101"], "a checkout brings the capture back")

    # ---- the configuration changes: read again
    open(pyproject, "w").write("[project]\nname = 'p'\n\n[tool.cglint]\nignore = [\"CG101\"]\n")
    changed((pyproject, CHANGED))
    check(codes(c, uri(model), "model.py after pyproject.toml changed") == [],
          "pyproject.toml now ignores CG101: the configuration is read again")

    c.request("shutdown", None)
    c.notify("exit", None)
    check(c.p.wait(timeout=30) == 0, "exit after shutdown: status 0")
    if L.FAILS:
        print("%d check(s) failed" % len(L.FAILS))
        return 1
    print("lsp watch: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
