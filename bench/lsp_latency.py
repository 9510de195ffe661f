#!/usr/bin/env python3
"""bench/lsp_latency.py - what an editor waits for from `cglint server`.

    bench/lsp_latency.py [--cglint build/cglint] [--edits 50] ROOT FILE

Starts the server on the project ROOT (a Megatron-LM checkout, say), opens
FILE and times, on the client's clock:

  initialize      the request until its reply (the project walked and read)
  warm-up         `initialized` until the server answers the next request
                  (the whole tree's captures parsed into the tree cache)
  first open      didOpen until publishDiagnostics (cold: the first analysis)
  edit            didChange until publishDiagnostics, for each of --edits
                  edits (an incremental change that appends a comment to a
                  line of FILE, and one that takes it away, in turn): the
                  latency a keystroke sees.  Median, p95 and max.

Each edit is sent only after the previous one's diagnostics arrived, so
every edit is one analysis (the server coalesces a burst into one).  The
machine's load is printed with the numbers: on a shared machine they move.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def cpu(pid):
    """user + system CPU seconds of a process so far"""
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self, cglint, root):
        self.p = subprocess.Popen([cglint, "server"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next = 1

    def send(self, msg):
        body = json.dumps(dict(msg, jsonrpc="2.0")).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        n = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the server ended")
            line = line.strip()
            if not line:
                break
            k, _, v = line.decode().partition(":")
            if k.lower() == "content-length":
                n = int(v)
        return json.loads(self.p.stdout.read(n))

    def request(self, method, params):
        i = self.next
        self.next += 1
        self.send({"id": i, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == i and "method" not in m:
                return m

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def diagnostics(self, uri):
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return m["params"]["diagnostics"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cglint", default="build/cglint")
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("root")
    ap.add_argument("file")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    path = os.path.abspath(os.path.join(a.root, a.file) if not os.path.isabs(a.file) else a.file)
    uri = "file://" + path
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    s = Server(os.path.abspath(a.cglint), root)

    t = time.perf_counter()
    s.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + root, "capabilities": {}})
    t_init = time.perf_counter() - t
    t = time.perf_counter()
    s.notify("initialized", {})
    s.request("textDocument/hover", {"textDocument": {"uri": "file:///nonexistent.py"},
                                     "position": {"line": 0, "character": 0}})
    t_warm = time.perf_counter() - t
    t = time.perf_counter()
    lang = "python" if path.endswith((".py", ".pyi")) else "cuda-cpp"
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}})
    d = s.diagnostics(uri)
    t_open = time.perf_counter() - t

    # the edits: a comment appended to a line in the middle of the file, then removed
    # (`  # edit` for Python, `  // edt` for C/C++: both 8 characters)
    comment = "  # edit" if path.endswith((".py", ".pyi")) else "  // edt"
    line = len(lines) // 2
    end = len(lines[line].encode("utf-16-le")) // 2
    lat, cpus = [], []
    for k in range(a.edits):
        if k % 2 == 0:
            change = {"range": {"start": {"line": line, "character": end}, "end": {"line": line, "character": end}},
                      "text": comment}
        else:
            change = {"range": {"start": {"line": line, "character": end}, "end": {"line": line, "character": end + 8}},
                      "text": ""}
        c0 = cpu(s.p.pid)
        t = time.perf_counter()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 2}, "contentChanges": [change]})
        d2 = s.diagnostics(uri)
        lat.append(time.perf_counter() - t)
        cpus.append(cpu(s.p.pid) - c0)
    s.request("shutdown", None)
    s.notify("exit", None)
    s.p.wait()
    lat.sort()
    cpus.sort()
    ms = lambda x: "%.1f ms" % (x * 1000)
    print("file: %s (%d lines), project: %s" % (a.file, len(lines), root))
    print("load average: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    print("initialize (walk and read the project): %s" % ms(t_init))
    print("warm-up (parse what the captures reach): %s" % ms(t_warm))
    print("first open -> diagnostics (%d): %s" % (len(d), ms(t_open)))
    p95 = lat[min(len(lat) - 1, int(round(0.95 * (len(lat) - 1))))]
    print("didChange -> diagnostics (%d), %d edits: median %s, p95 %s, min %s, max %s" %
          (len(d2), len(lat), ms(statistics.median(lat)), ms(p95), ms(lat[0]), ms(lat[-1])))
    print("  the server's CPU time (user + system, all threads) per edit: mean %s, median %s, p95 %s "
          "(counted in clock ticks of %s)" %
          (ms(sum(cpus) / len(cpus)), ms(statistics.median(cpus)),
           ms(cpus[min(len(cpus) - 1, int(round(0.95 * (len(cpus) - 1))))]), ms(1 / os.sysconf("SC_CLK_TCK"))))


if __name__ == "__main__":
    main()
