#!/usr/bin/env python3
"""tests/lsp/lsp_session.py CGLINT - `cglint server` driven by a scripted
JSON-RPC session over its stdin and stdout, in a scratch project:

  protocol   errors before initialize, a body that is not JSON, a message
             that is not a request, no Content-Length, an unknown method,
             bad params: each its JSON-RPC error, and the server goes on
  context    a helper's hazard is reported through a capture in another
             (closed) file of the project; saving that file with the capture
             gone clears it (the project entry is refreshed on save)
  buffers    unsaved edits (incremental and full) are what is analysed;
             UTF-16 positions past a non-BMP character
  actions    the safe fix as a quickfix WorkspaceEdit; an unsafe one only
             with unsafeFixes
  hover      the rule page under a diagnostic, nothing elsewhere
  parse      a buffer that does not parse: no diagnostics, no crash
  C/C++      an unsaved .cu buffer through libclang
  exit       0 after shutdown, 1 without
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

CGLINT = os.path.abspath(sys.argv[1])
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what, flush=True)
    return cond


class Client:
    def __init__(self, cwd, args=()):
        self.p = subprocess.Popen([CGLINT, "server", *args], cwd=cwd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.q = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        f = self.p.stdout
        while True:
            headers = {}
            while True:
                line = f.readline()
                if not line:
                    self.q.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.decode().partition(":")
                headers[k.strip().lower()] = v.strip()
            body = f.read(int(headers["content-length"]))
            self.q.put(json.loads(body))

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        msg = dict(msg, jsonrpc="2.0")
        body = json.dumps(msg).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"id": i, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == i and "method" not in m, "reply to %s" % method)

    def wait(self, pred, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            try:
                m = self.q.get(timeout=max(0.05, end - time.time()))
            except queue.Empty:
                break
            if m is None:
                check(False, "the server ended while waiting for " + what)
                return None
            if pred(m):
                return m
        check(False, "timed out waiting for " + what)
        return None

    def diagnostics(self, uri, what):
        m = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                      and m["params"]["uri"] == uri, what)
        return m["params"]["diagnostics"] if m else []


def uri(path):
    return "file://" + path


MODEL = '''import torch


def helper(x):
    tag = ("\U0001F600", x.sum().item())
    return tag
'''
MODEL_CLEAN = MODEL.replace("x.sum().item()", "x.sum()")
TRAIN = '''import torch
import torch.utils.checkpoint
from pkg.model import helper


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        with torch.cuda.graph(g):
            helper(x)
    with torch.cuda.graph(g):
        y = torch.utils.checkpoint.checkpoint(torch.sin, x, use_reentrant=False)
'''
TRAIN_NO_CAPTURE = '''import torch
from pkg.model import helper


def step(x):
    return helper(x)
'''
KERNEL = '''#include <cuda_runtime.h>
void f(cudaStream_t s) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaDeviceSynchronize();
    cudaStreamEndCapture(s, &g);
}
'''


def apply_edits(text, edits):
    lines = text.split("\n")

    def off(pos):   # UTF-16 positions, as the server was told
        line = lines[pos["line"]]
        u, i = 0, 0
        while u < pos["character"] and i < len(line):
            u += 2 if ord(line[i]) > 0xFFFF else 1
            i += 1
        return sum(len(l) + 1 for l in lines[:pos["line"]]) + i
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                    reverse=True):
        a, b = off(e["range"]["start"]), off(e["range"]["end"])
        text = text[:a] + e["newText"] + text[b:]
    return text


def main():
    tmp = tempfile.mkdtemp(prefix="cglint-lsp-")
    root = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(root, "pkg"))
    open(os.path.join(root, "pyproject.toml"), "w").write("[project]\nname = 'p'\n")
    open(os.path.join(root, "pkg", "__init__.py"), "w").write("")
    model = os.path.join(root, "pkg", "model.py")
    train = os.path.join(root, "train.py")
    open(model, "w").write(MODEL)
    open(train, "w").write(TRAIN)

    c = Client(root)
    # ---- protocol errors, before and after initialize
    r = c.request("textDocument/hover", {})
    check(r and r.get("error", {}).get("code") == -32002, "a request before initialize: ServerNotInitialized (%s)" % r)
    c.raw(b"Content-Length: 9\r\n\r\n{not json")
    r = c.wait(lambda m: "error" in m, "the parse error")
    check(r and r["error"]["code"] == -32700 and r["id"] is None, "a body that is not JSON: -32700, id null (%s)" % r)
    body = b"[1, 2]"
    c.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    r = c.wait(lambda m: "error" in m, "the invalid request")
    check(r and r["error"]["code"] == -32600, "a batch: -32600 (%s)" % r)
    c.raw(b"Content-Type: x\r\n\r\n")
    r = c.wait(lambda m: "error" in m, "the missing Content-Length")
    check(r and r["error"]["code"] == -32700, "no Content-Length: -32700 (%s)" % r)

    r = c.request("initialize", {"processId": None, "rootUri": uri(root), "capabilities": {}})
    caps = (r or {}).get("result", {}).get("capabilities", {})
    check(caps.get("hoverProvider") is True, "initialize: hoverProvider (%s)" % caps)
    check(caps.get("codeActionProvider", {}).get("codeActionKinds") == ["quickfix"], "initialize: quickfix actions")
    check(caps.get("textDocumentSync", {}).get("change") == 2, "initialize: incremental sync")
    check(caps.get("positionEncoding") == "utf-16", "initialize: UTF-16 positions when the client offers no other")
    c.notify("initialized", {})
    r = c.request("workspace/symbol", {"query": "x"})
    check(r and r.get("error", {}).get("code") == -32601, "an unknown method: -32601 (%s)" % r)
    c.notify("$/unknownNotification", {})
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(model)}})
    check(r and r.get("error", {}).get("code") == -32602, "codeAction on a document not open: -32602 (%s)" % r)

    # ---- the project as context: a capture in train.py (not open) reaches pkg/model.py
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(model), "languageId": "python", "version": 1,
                                                       "text": MODEL}})
    d = c.diagnostics(uri(model), "model.py's diagnostics")
    check([x["code"] for x in d] == ["CG101"], "model.py: CG101 through train.py's capture (%s)" % d)
    if d:
        x = d[0]
        check(x["severity"] == 1 and x["source"] == "cglint", "severity error, source cglint")
        check(x["codeDescription"]["href"].endswith("/rules/CG101.md"), "codeDescription: the rule page")
        # line 5 is `    tag = ("😀", x.sum().item())`: the emoji is two UTF-16 units
        check(x["range"]["start"] == {"line": 4, "character": 17}, "UTF-16 start after a non-BMP character (%s)" % x["range"])
        check(x["range"]["end"] == {"line": 4, "character": 31}, "the range ends after .item() (%s)" % x["range"])
        rel = x.get("relatedInformation", [])
        check(any(ri["location"]["uri"] == uri(train) and ri["location"]["range"]["start"]["line"] == 8 for ri in rel),
              "relatedInformation: the capture in train.py (%s)" % rel)
        check(any("helper" in ri["message"] for ri in rel), "relatedInformation: the call path")
        h = c.request("textDocument/hover", {"textDocument": {"uri": uri(model)}, "position": {"line": 4, "character": 20}})
        val = ((h or {}).get("result") or {}).get("contents", {}).get("value", "")
        check("CG101" in val and "host-scalar-read" in val and "## " in val, "hover: the rule page (%r)" % val[:200])
        h = c.request("textDocument/hover", {"textDocument": {"uri": uri(model)}, "position": {"line": 0, "character": 2}})
        check(h and h.get("result") is None, "hover away from a diagnostic: null (%s)" % h)

    # ---- unsaved edits: incremental, then full
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(model), "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 4, "character": 24}, "end": {"line": 4, "character": 31}}, "text": ""}]})
    d = c.diagnostics(uri(model), "model.py after removing .item()")
    check(d == [], "the unsaved buffer is analysed: .item() removed, no diagnostics (%s)" % d)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(model), "version": 3},
                                        "contentChanges": [{"text": MODEL}]})
    d = c.diagnostics(uri(model), "model.py after a full change")
    check([x["code"] for x in d] == ["CG101"], "a full change brings it back (%s)" % d)

    # ---- code actions: the safe fix, and the unsafe one only when configured
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(train), "languageId": "python", "version": 1,
                                                       "text": TRAIN}})
    d = c.diagnostics(uri(train), "train.py's diagnostics")
    cg601 = [x for x in d if x["code"] == "CG601"]
    cg604 = [x for x in d if x["code"] == "CG604"]
    check(len(cg601) == 1 and len(cg604) == 1, "train.py: CG601 and CG604 (%s)" % d)
    if cg601:
        safe = cg601[0]
        r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(train)}, "range": safe["range"],
                                                  "context": {"diagnostics": [safe]}})
        acts = (r or {}).get("result") or []
        check(len(acts) == 1 and acts[0]["kind"] == "quickfix" and acts[0]["isPreferred"] is True,
              "codeAction: one preferred quickfix (%s)" % acts)
        if acts:
            edits = acts[0]["edit"]["changes"][uri(train)]
            fixed = apply_edits(TRAIN, edits)
            check('torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False)' in fixed,
                  "the WorkspaceEdit passes cache_enabled=False (%r)" % edits)
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri(train), "version": 2},
                                                "contentChanges": [{"text": fixed}]})
            d2 = c.diagnostics(uri(train), "train.py after the fix")
            check(not [x for x in d2 if x["code"] == "CG601"], "the fixed CG601 is gone (%s)" % d2)
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri(train), "version": 3},
                                                "contentChanges": [{"text": TRAIN}]})
            c.diagnostics(uri(train), "train.py restored")
        if cg604:
            var = cg604[0]
            r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(train)}, "range": var["range"],
                                                      "context": {"diagnostics": [var]}})
            unsafe_default = (r or {}).get("result")
            c.notify("workspace/didChangeConfiguration", {"settings": {"cglint": {"unsafeFixes": True}}})
            r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(train)}, "range": var["range"],
                                                      "context": {"diagnostics": [var]}})
            unsafe_on = (r or {}).get("result") or []
            # preserve_rng_state=False can change what recomputation draws: unsafe
            check(unsafe_default == [], "an unsafe fix is not offered by default (%s)" % unsafe_default)
            check(len(unsafe_on) == 1 and unsafe_on[0]["isPreferred"] is False and "[unsafe]" in unsafe_on[0]["title"],
                  "an unsafe fix is offered with unsafeFixes, never preferred (%s)" % unsafe_on)
            c.notify("workspace/didChangeConfiguration", {"settings": {"cglint": {"unsafeFixes": False}}})

    # ---- a buffer that does not parse: no diagnostics, and the server goes on
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(model), "version": 4},
                                        "contentChanges": [{"text": "def helper(x:\n    return x.item(\n"}]})
    d = c.diagnostics(uri(model), "model.py that does not parse")
    check(d == [], "a buffer that does not parse: no diagnostics (%s)" % d)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(model), "version": 5},
                                        "contentChanges": [{"text": MODEL}]})
    d = c.diagnostics(uri(model), "model.py parses again")
    check([x["code"] for x in d] == ["CG101"], "and diagnostics come back when it parses (%s)" % d)

    # ---- a file only the grammar-limit rewrite parses (`, *(`: valid Python that
    # tree-sitter-python 0.23 cannot parse), edited incrementally: its rewritten
    # tree is re-parsed from the cached one and stays whole
    star = os.path.join(root, "star.py")
    STAR = ("import torch\n\n\ndef grads(params, inputs):\n    return None, *inputs, *(None,) * len(params)\n\n\n"
            "def step(x, params):\n    g = torch.cuda.CUDAGraph()\n    with torch.cuda.graph(g):\n"
            "        out = grads(params, (x,))\n        y = x.sum().item()\n")
    open(star, "w").write(STAR)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(star), "languageId": "python", "version": 1,
                                                       "text": STAR}})
    d = c.diagnostics(uri(star), "star.py")
    check([(x["code"], x["range"]["start"]["line"]) for x in d] == [("CG101", 11)], "star.py: CG101 (%s)" % d)
    for k in range(4):   # a comment in, out, in, out: around the starred line and the hazard
        line = 4 if k < 2 else 11
        end = len(STAR.split("\n")[line])
        ch = ({"range": {"start": {"line": line, "character": end}, "end": {"line": line, "character": end}}, "text": "  # x"}
              if k % 2 == 0 else
              {"range": {"start": {"line": line, "character": end}, "end": {"line": line, "character": end + 5}}, "text": ""})
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri(star), "version": k + 2}, "contentChanges": [ch]})
        d = c.diagnostics(uri(star), "star.py edit %d" % k)
        check([(x["code"], x["range"]["start"]["line"]) for x in d] == [("CG101", 11)],
              "star.py after incremental edit %d: still parsed whole, CG101 (%s)" % (k, d))

    # the starred line broken for real (the rewrite of the last parse does not
    # parse either): no diagnostics; then the star gone (the raw text parses)
    broken = STAR.replace("len(params)\n", "len(params) +\n", 1)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(star), "version": 20},
                                        "contentChanges": [{"text": broken}]})
    d = c.diagnostics(uri(star), "star.py broken")
    check(d == [], "star.py with a real syntax error on the starred line: no diagnostics (%s)" % d)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(star), "version": 21},
                                        "contentChanges": [{"text": STAR}]})
    d = c.diagnostics(uri(star), "star.py mended")
    check([(x["code"], x["range"]["start"]["line"]) for x in d] == [("CG101", 11)], "star.py mended: CG101 (%s)" % d)
    unstarred = STAR.replace("*(None,) * len(params)", "(None,) * len(params)")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(star), "version": 22},
                                        "contentChanges": [{"text": unstarred}]})
    d = c.diagnostics(uri(star), "star.py without the star")
    check([(x["code"], x["range"]["start"]["line"]) for x in d] == [("CG101", 11)],
          "star.py without the starred bracket: CG101 (%s)" % d)

    # ---- save: train.py loses its capture and is saved, then closed: model.py's
    # diagnostic goes (the project's entry for train.py is refreshed on save)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(train), "version": 9},
                                        "contentChanges": [{"text": TRAIN_NO_CAPTURE}]})
    open(train, "w").write(TRAIN_NO_CAPTURE)
    c.notify("textDocument/didSave", {"textDocument": {"uri": uri(train)}})
    c.notify("textDocument/didClose", {"textDocument": {"uri": uri(train)}})
    c.diagnostics(uri(train), "train.py closed")
    d = c.diagnostics(uri(model), "model.py after train.py was saved")
    check(d == [], "a saved file's new content is the context (%s)" % d)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(model), "version": 6},
                                        "contentChanges": [{"text": MODEL + "\n"}]})
    d = c.diagnostics(uri(model), "model.py edited after train.py was closed")
    check(d == [], "and it stays the context once train.py is closed (%s)" % d)

    # ---- C/C++: an unsaved .cu buffer (no such file on disk)
    cu = os.path.join(root, "kernel.cu")
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(cu), "languageId": "cuda", "version": 1,
                                                       "text": KERNEL}})
    d = c.diagnostics(uri(cu), "kernel.cu's diagnostics")
    check([x["code"] for x in d] == ["CG104"] and d[0]["range"]["start"] == {"line": 4, "character": 4},
          "an unsaved .cu buffer: CG104 at 5:5 (%s)" % d)

    r = c.request("shutdown", None)
    check(r and "result" in r and r["result"] is None, "shutdown: null")
    r = c.request("textDocument/hover", {})
    check(r and r.get("error", {}).get("code") == -32600, "a request after shutdown: -32600 (%s)" % r)
    c.notify("exit", None)
    check(c.p.wait(timeout=30) == 0, "exit after shutdown: status 0")

    c2 = Client(root)
    c2.request("initialize", {"processId": None, "rootUri": uri(root), "capabilities":
                              {"general": {"positionEncodings": ["utf-8", "utf-16"]}}})
    c2.notify("exit", None)
    check(c2.p.wait(timeout=30) == 1, "exit without shutdown: status 1")
    c3 = Client(root)
    c3.p.stdin.close()
    check(c3.p.wait(timeout=30) == 1, "end of input: status 1")

    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    print("lsp session: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
