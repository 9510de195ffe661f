#!/usr/bin/env python3
"""run.py - cglint over real code: the Python sources (and the few C/C++
headers) of a Debian PyTorch package, unpacked by scripts/fetch-real-trees.

  run.py --cglint CGLINT --repo REPO --cache CACHE PACKAGE

Runs, from the package's dist-packages directory (as pre-commit runs from a
repository's root; fetch-real-trees puts a pyproject.toml there to mark it):
  1. each top-level directory of the package, as directories;
  2. every Python file named on the command line, in batches of 50 (as
     pre-commit passes them: each batch reads its project for context);
  3. each file that mentions a capture API (cuda.graph, CUDAGraph,
     make_graphed_callables, reduce-overhead) alone;
  4. the C/C++ files, named together in shim mode with --cuda-parse-all
     (each named file reads the whole tree as context, so one invocation);
  5. a made-up driver, _cglint_realtree_driver.py, whose capture calls every
     top-level function and class of every module and every method of the
     classes, with the package's directories: the analysis follows calls
     into the whole package, not only from its few capture sites.

Every invocation must: finish within --timeout seconds; not die of a signal
nor print a sanitizer report; exit 0, 1 or 2, as its report says (2: some
input could not be analysed, 1: findings, 0: none); write only
"cglint: error|warning|note: ..." lines on stderr, at most one error per
file, each error also in the report; write a JSON report that the schema of
docs/json-schema.md accepts, whose summary counts what it lists, with
findings only in the files it was asked about.  Exit 0, 1 (what failed is
listed), or 77 when the trees could not be fetched."""
import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import time

CAPTURE_RE = re.compile(rb"cuda\.graph|CUDAGraph|make_graphed_callables|reduce-overhead")
C_EXTS = (".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".cu", ".cuh")
SANITIZER_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: \w+Sanitizer")
STDERR_RE = re.compile(r"^cglint: (error|warning|note): ")
ERROR_RE = re.compile(r"^cglint: error: (.*?)(?::(\d+):(\d+))?: (.*)$")


def write_driver(root, py, path):
    """A capture calling everything the package defines at the top of its
    modules (5. above).  Returns the number of calls."""
    imports, body = [], []
    for i, rel in enumerate(py):
        mod = rel[:-3].replace(os.sep, ".")
        if mod.endswith(".__init__"):
            mod = mod[:-len(".__init__")]
        if not all(part.isidentifier() for part in mod.split(".")):
            continue
        try:
            with open(os.path.join(root, rel), "rb") as f:
                tree = ast.parse(f.read())
        except (SyntaxError, ValueError):
            continue
        alias = "_m%d" % i
        imports.append("import %s as %s" % (mod, alias))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body.append("    %s.%s(x)" % (alias, node.name))
            elif isinstance(node, ast.ClassDef):
                body.append("    _o = %s.%s(x)" % (alias, node.name))
                body.append("    _o(x)")
                for b in node.body:
                    if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) and not b.name.startswith("__"):
                        body.append("    _o.%s(x)" % b.name)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(["import torch"] + imports + [
            "", "x = torch.ones(4, device='cuda')", "g = torch.cuda.CUDAGraph()",
            "with torch.cuda.graph(g):", "    pass"] + body) + "\n")
    return len(body)


def load_schema(repo):
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        return None
    text = open(os.path.join(repo, "docs", "json-schema.md"), encoding="utf-8").read()
    section = text.split("\n## JSON Schema\n", 1)
    if len(section) != 2:
        return None
    blocks = re.findall(r"^```json\n(.*?)^```", section[1], re.S | re.M)
    return json.loads(blocks[0]) if blocks else None


class Runner:
    def __init__(self, cglint, cwd, timeout, schema, tmp):
        self.cglint, self.cwd, self.timeout, self.schema, self.tmp = cglint, cwd, timeout, schema, tmp
        self.failures = []
        self.runs = 0
        self.counts = {0: 0, 1: 0, 2: 0}
        self.findings = 0
        self.errors = 0
        self.slowest = (0.0, "")

    def fail(self, label, why, se=""):
        tail = "\n".join(se.splitlines()[-25:])
        self.failures.append("%s: %s%s" % (label, why, ("\n      " + tail.replace("\n", "\n      ")) if tail else ""))

    def run(self, label, args, targets):
        """One invocation; `targets` are the paths it was asked about."""
        self.runs += 1
        out = os.path.join(self.tmp, "report-%d.json" % self.runs)
        env = dict(os.environ)
        # a sanitizer's exit is its own status, never taken for "findings"
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            env[k] = (env.get(k, "") + ":exitcode=86").lstrip(":")
        env["NO_COLOR"] = "1"
        # the cache is in the build tree, which the repository's .gitignore
        # covers: the package is not the repository's, so that is not its
        cmd = [self.cglint, "-f", "json", "-o", out, "-j", "2", "--no-respect-gitignore"] + args + targets
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=self.cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.fail(label, "no answer within %d s (a hang?)" % self.timeout)
            return
        dt = time.monotonic() - t0
        if dt > self.slowest[0]:
            self.slowest = (dt, label)
        se = p.stderr.decode("utf-8", "replace")
        rc = p.returncode
        if rc < 0:
            return self.fail(label, "killed by signal %d" % -rc, se)
        if SANITIZER_RE.search(se) or rc == 86:
            return self.fail(label, "sanitizer report (exit %d)" % rc, se)
        if rc not in (0, 1, 2):
            return self.fail(label, "exit status %d" % rc, se)
        self.counts[rc] += 1
        if p.stdout:
            return self.fail(label, "wrote to stdout with -o", p.stdout.decode("utf-8", "replace")[:2000])
        err_paths = []
        for line in se.splitlines():
            if not STDERR_RE.match(line):
                return self.fail(label, "stray stderr line: %r" % line, se)
            m = ERROR_RE.match(line)
            if m:
                err_paths.append(m.group(1))
        dup = sorted({x for x in err_paths if err_paths.count(x) > 1})
        if dup:
            return self.fail(label, "more than one error line for %s" % ", ".join(dup), se)
        if (rc == 2) != bool(err_paths):
            return self.fail(label, "exit %d with %d error lines" % (rc, len(err_paths)), se)
        try:
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            return self.fail(label, "no well-formed JSON report: %s" % e, se)
        if self.schema is not None:
            import jsonschema
            try:
                jsonschema.validate(doc, self.schema)
            except jsonschema.ValidationError as e:
                return self.fail(label, "the report breaks docs/json-schema.md: %s" % e.message, se)
        finds, errs = doc.get("findings"), doc.get("errors")
        if not isinstance(finds, list) or not isinstance(errs, list):
            return self.fail(label, "the report has no findings/errors lists", se)
        s = doc.get("summary", {})
        hard = [e for e in errs if e.get("level") == "error"]
        if s.get("findings") != len(finds) or s.get("errors") != len(hard):
            return self.fail(label, "summary %r does not count %d findings, %d errors" % (s, len(finds), len(hard)))
        want = 2 if hard else 1 if finds else 0
        if rc != want:
            return self.fail(label, "exit %d, but the report says %d (%d findings, %d errors)" %
                             (rc, want, len(finds), len(hard)), se)
        if sorted(e.get("path") or "" for e in hard) != sorted(err_paths):
            return self.fail(label, "errors in the report %r are not the error lines %r" %
                             ([e.get("path") for e in hard], err_paths), se)
        named = set(os.path.normpath(t) for t in targets)
        for f in finds:
            path = os.path.normpath(f.get("path") or "")
            if not os.path.isfile(os.path.join(self.cwd, path)):
                return self.fail(label, "a finding in %r, which is not a file" % path)
            if not (path in named or any(path.startswith(t.rstrip("/") + "/") for t in named if t != ".")
                    or "." in named):
                return self.fail(label, "a finding in %r, which was not asked about" % path)
            if not (isinstance(f.get("line"), int) and f["line"] >= 1):
                return self.fail(label, "a finding without a line: %r" % f)
        self.findings += len(finds)
        self.errors += len(hard)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cglint", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per invocation")
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("package")
    a = ap.parse_args()
    skipped = os.path.join(a.cache, "SKIPPED")
    if os.path.exists(skipped):
        print(open(skipped).read().strip())
        return 77
    root = os.path.join(a.cache, a.package, "usr", "lib", "python3", "dist-packages")
    if not os.path.isdir(root):
        print("skipped: %s is not unpacked in %s (scripts/fetch-real-trees)" % (a.package, a.cache))
        return 77
    schema = load_schema(a.repo)
    if schema is None:
        print("note: python3-jsonschema is not installed: reports are checked without the schema")
    tops = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and not d.endswith("-info"))
    py, cc, capture = [], [], []
    for dp, dn, fn in os.walk(root):
        dn.sort()
        for f in sorted(fn):
            rel = os.path.relpath(os.path.join(dp, f), root)
            if f.endswith(".py"):
                py.append(rel)
                with open(os.path.join(root, rel), "rb") as fh:
                    if CAPTURE_RE.search(fh.read()):
                        capture.append(rel)
            elif f.endswith(C_EXTS):
                cc.append(rel)
    cglint = os.path.abspath(a.cglint)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cglint-realtree.") as tmp:
        r = Runner(cglint, root, a.timeout, schema, tmp)
        for d in tops:
            r.run("directory %s/" % d, [], [d])
        for i in range(0, len(py), a.batch):
            chunk = py[i:i + a.batch]
            r.run("batch %d-%d of %d files" % (i + 1, i + len(chunk), len(py)), [], chunk)
        for f in capture:
            r.run("capture file %s" % f, [], [f])
        for i in range(0, len(cc), 200):
            chunk = cc[i:i + 200]
            r.run("C/C++ files %d-%d of %d (shim, --cuda-parse-all)" % (i + 1, i + len(chunk), len(cc)),
                  ["--cuda-mode", "shim", "--cuda-parse-all"], chunk)
        driver = os.path.join(root, "_cglint_realtree_driver.py")
        try:
            ncalls = write_driver(root, py, driver)
            r.run("driver: a capture calling %d functions, classes and methods, with %s" %
                  (ncalls, " ".join(t + "/" for t in tops)), [], [os.path.basename(driver)] + tops)
        finally:
            os.unlink(driver)
    dt = time.monotonic() - t0
    print("%s: %d directories, %d Python files (%d mention a capture API), %d C/C++ files" %
          (a.package, len(tops), len(py), len(capture), len(cc)))
    print("%d invocations in %.1f s (slowest %.1f s: %s); exits: 0 x%d, 1 x%d, 2 x%d; %d findings, %d errors" %
          (r.runs, dt, r.slowest[0], r.slowest[1], r.counts[0], r.counts[1], r.counts[2], r.findings, r.errors))
    if r.failures:
        print("FAILED, %d invocation%s:" % (len(r.failures), "" if len(r.failures) == 1 else "s"))
        for f in r.failures:
            print("  - " + f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
