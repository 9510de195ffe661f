#!/usr/bin/env python3
"""make_corpus.py - the fuzzers' seed corpus, made from the repository's own
files (nothing of it is committed): one directory per harness, each input
named by its SHA-1 as libFuzzer names them.

  make_corpus.py --repo REPO --cglint CGLINT --out DIR [HARNESS...]

  py         every Python file: fixtures, GPU and runtime programs, examples,
             the runtime observer, the fake torch
  pyproject  files of one project joined with "#--- NAME" lines (fuzz_common.h):
             the multi-file fixture, the examples that import each other, the
             workflow tests' projects, and neighbours in one fixture directory
  cuda       every C/C++/CUDA file: fixtures, GPU programs, the benchmark's,
             the shim headers
  toml       TOML from the docs (```toml blocks), the workflow tests (printf
             into *.toml, `bad` cases) and the unit tests' string literals
  suppress   every fixture that holds a suppression comment, and the docs'
             suppression examples
  baseline   `cglint --write-baseline` of examples/*.py (what the harness
             analyses), and variants of it; baselines of other trees
  compdb     the compile_db fixture, and databases in every form cglint reads
             (arguments, command with quotes, response files, nvcc options)
  findings   the golden JSON and SARIF reports, tests/gpu/findings.json, and
             `cglint -f json` / `-f sarif` of the examples and fixtures
"""
import argparse
import codecs
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SEP = "#--- "


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Corpus:
    def __init__(self, out):
        self.out = out
        self.count = {}

    def add(self, harness, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        if len(data) > 256 * 1024:
            return
        d = os.path.join(self.out, harness)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
        self.count[harness] = self.count.get(harness, 0) + 1


def rglob(repo, *patterns):
    out = []
    for p in patterns:
        out += glob.glob(os.path.join(repo, p), recursive=True)
    return sorted(set(f for f in out if os.path.isfile(f)))


def joined(files, root):
    """A multi-file input: each file after a "#--- NAME" line."""
    parts = []
    for f in files:
        name = os.path.relpath(f, root)
        parts.append(SEP + name + "\n" + read(f).decode("utf-8", "replace"))
    return "".join(p if p.endswith("\n") else p + "\n" for p in parts)


def py_files(repo):
    return rglob(repo, "tests/fixtures/py/**/*.py", "tests/gpu/py/**/*.py", "tests/runtime/**/*.py",
                 "examples/*.py", "runtime/python/**/*.py", "bench/*.py")


def cu_files(repo):
    return rglob(repo, "tests/fixtures/cu/**/*.cu", "tests/fixtures/cu/**/*.cuh", "tests/fixtures/cu/**/*.h",
                 "tests/fixtures/cu/**/*.cpp", "tests/gpu/cu/**/*.cu", "bench/*.cu", "src/cuda/shim/*.h")


def make_py(c, repo):
    for f in py_files(repo):
        c.add("py", read(f))


def make_pyproject(c, repo):
    mf = os.path.join(repo, "tests/fixtures/py/multifile")
    groups = [
        ["app/train.py", "app/model.py", "app/layers/block.py"],
        ["app/eval.py", "app/model.py", "app/layers/norm.py"],
        ["app/layers/__init__.py", "app/layers/ops.py", "app/layers/block.py"],
        ["app/__init__.py", "app/train.py", "app/layers/ops.py"],
    ]
    for g in groups:
        files = [os.path.join(mf, x) for x in g]
        if all(os.path.isfile(x) for x in files):
            c.add("pyproject", joined(files, mf))
    ex = os.path.join(repo, "examples")
    for g in (["serve.py", "encoder.py"], ["train_graphed.py", "model.py"], ["pipelined.py", "model.py"],
              ["runtime_demo.py", "encoder.py", "model.py"]):
        files = [os.path.join(ex, x) for x in g]
        if all(os.path.isfile(x) for x in files):
            c.add("pyproject", joined(files, ex))
    # neighbours: a rule's positive and negative fixture as one project
    for d in sorted(glob.glob(os.path.join(repo, "tests/fixtures/py/*/"))):
        files = sorted(glob.glob(os.path.join(d, "*.py")))[:3]
        if len(files) > 1:
            c.add("pyproject", joined(files, d))
    # the workflow tests' project (tests/workflow/lib.sh heredocs)
    lib = os.path.join(repo, "tests/workflow/lib.sh")
    if os.path.isfile(lib):
        docs = re.findall(r'cat >"\$1/(\S+)" <<\'PY\'\n(.*?)\nPY\n', read(lib).decode(), re.S)
        if docs:
            c.add("pyproject", "".join(SEP + n + "\n" + t + "\n" for n, t in docs))


def make_cuda(c, repo):
    for f in cu_files(repo):
        c.add("cuda", read(f))


def c_literals(s):
    """The bytes of adjacent C string literals in s."""
    out = b""
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', s):
        out += codecs.escape_decode(m.group(1).encode("latin-1"))[0]
    return out


def printf_b(s):
    """What bash's printf '%b' (or printf 'FMT' without arguments) writes."""
    return codecs.escape_decode(s.replace("%%", "%").encode("utf-8"))[0]


def make_toml(c, repo):
    for f in rglob(repo, "README.md", "docs/**/*.md", "rules/*.md", "examples/*.md"):
        for block in re.findall(r"```toml\n(.*?)```", read(f).decode("utf-8", "replace"), re.S):
            c.add("toml", block)
            c.add("toml", "[tool.cglint]\n" + block if "[tool.cglint]" not in block else block)
    for f in rglob(repo, "tests/workflow/*.sh", "tests/cli/*.sh"):
        text = read(f).decode("utf-8", "replace")
        for fmt in re.findall(r"printf '([^']*)' >\S*(?:toml)", text):
            c.add("toml", printf_b(fmt))
        for fmt in re.findall(r"^bad \"[^\"]*\" '([^']*)'", text, re.M):
            c.add("toml", printf_b(fmt))
        for doc in re.findall(r"cat >\S*toml <<'(\w+)'\n(.*?)\n\1\n", text, re.S):
            c.add("toml", doc[1] + "\n")
    unit = os.path.join(repo, "tests/unit/test_config.c")
    if os.path.isfile(unit):
        text = read(unit).decode("utf-8", "replace")
        for call in re.findall(r"\b(?:parse_ok|parse_bad|cfg_ok|cfg_bad)\(\s*((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+)", text):
            c.add("toml", c_literals(call))


def make_suppress(c, repo):
    pat = re.compile(rb"cglint:|noqa|NOLINT")
    for f in py_files(repo) + cu_files(repo):
        data = read(f)
        if pat.search(data):
            c.add("suppress", data)
    for f in rglob(repo, "README.md", "rules/CG001.md", "tests/workflow/suppress.sh"):
        text = read(f).decode("utf-8", "replace")
        for block in re.findall(r"```(?:python|py|cpp|c|cuda)?\n(.*?)```", text, re.S):
            if re.search(r"cglint:|noqa|NOLINT", block):
                c.add("suppress", block)
        for doc in re.findall(r"<<'(\w+)'\n(.*?)\n\1\n", text, re.S):
            if re.search(r"cglint:|noqa|NOLINT", doc[1]):
                c.add("suppress", doc[1] + "\n")


def run_cglint(cglint, args, cwd):
    return subprocess.run([cglint] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=600)


def make_baseline(c, repo, cglint, tmp):
    d = os.path.join(tmp, "baseline")
    os.makedirs(d)
    for f in glob.glob(os.path.join(repo, "examples/*.py")):
        shutil.copy(f, d)
    p = run_cglint(cglint, ["--write-baseline", "baseline.json", "."], d)
    path = os.path.join(d, "baseline.json")
    if p.returncode != 0 or not os.path.isfile(path):
        sys.exit("make_corpus: cglint --write-baseline failed: %s" % p.stderr.decode(errors="replace"))
    raw = read(path)
    c.add("baseline", raw)
    doc = json.loads(raw)
    fs = doc["findings"]
    # some entries gone (the rest hidden), occurrences and paths changed,
    # an entry with nothing but the required keys, an empty list
    c.add("baseline", json.dumps(dict(doc, findings=fs[::2]), indent=2))
    c.add("baseline", json.dumps(dict(doc, findings=[dict(e, occurrence=e["occurrence"] + 1) for e in fs])))
    c.add("baseline", json.dumps(dict(doc, findings=[dict(e, path="sub/../" + e["path"]) for e in fs[:3]])))
    c.add("baseline", json.dumps(dict(doc, findings=[{k: e[k] for k in ("rule", "path", "line_hash",
                                                                          "occurrence")} for e in fs[:2]])))
    c.add("baseline", json.dumps(dict(doc, findings=[])))
    c.add("baseline", json.dumps(dict(doc, cglint_baseline=2)))
    # a baseline of other files: nothing matches, every entry outside the tree
    p = run_cglint(cglint, ["--write-baseline", os.path.join(tmp, "other.json"), "tests/fixtures/py/CG101"], repo)
    if os.path.isfile(os.path.join(tmp, "other.json")):
        c.add("baseline", read(os.path.join(tmp, "other.json")))


def make_compdb(c, repo):
    db = os.path.join(repo, "tests/fixtures/cu/compile_db")
    if os.path.isdir(db):
        c.add("compdb", read(os.path.join(db, "compile_commands.json")))
    c.add("compdb", json.dumps([
        {"directory": ".", "file": "a.cu",
         "arguments": ["nvcc", "-Iinclude", "-isystem", "/usr/include", "-DUSE_GRAPHS=1", "-D", "X",
                       "-std=c++17", "--default-stream", "per-thread", "-rdc=true", "-Xcompiler", "-fopenmp",
                       "-include", "pre.h", "-c", "a.cu", "-o", "a.o"]},
        {"directory": ".", "file": "src/b.cpp",
         "command": "g++ -I'dir with space' -I\"q\\\"uote\" -DNAME=\\\"v\\\" --std c++20 -fgpu-rdc -c src/b.cpp"},
    ], indent=1) + "\n")
    c.add("compdb", json.dumps([
        {"directory": ".", "file": "a.cu", "arguments": ["nvcc", "@opts.rsp", "--options-file", "more.rsp",
                                                         "-optf", "opts.rsp", "-c", "a.cu"]},
    ]) + "\n" + SEP + "opts.rsp\n-Iinc -DA=1 --std=c++14 @more.rsp\n" + SEP + "more.rsp\n"
        "--include-path=x --system-include y --pre-include=z.h --define-macro=B=2 -UC\n")
    c.add("compdb", json.dumps([
        {"directory": "/nonexistent", "file": "a.cu", "command": "nvcc -c a.cu"},
        {"directory": "rel/dir", "file": "../../a.cu", "arguments": ["clang++", "-x", "cuda", "a.cu"]},
        {"file": "missing-directory.cu", "command": "nvcc"},
        {"directory": ".", "file": "a.cu", "arguments": [1, None, "-I", "x"]},
        "not an object",
    ]))
    c.add("compdb", '{"not": "an array"}')
    c.add("compdb", '[{"directory": ".", "file": "a.cu", "arguments": ["nvcc", ')


def make_findings(c, repo, cglint):
    for f in rglob(repo, "tests/golden/*.json", "tests/golden/*.sarif", "tests/gpu/findings.json"):
        c.add("findings", read(f))
    for fmt in ("json", "sarif"):
        for target in ("examples", "tests/fixtures/py/multifile", "tests/fixtures/cu/CG104"):
            p = run_cglint(cglint, ["--cuda-mode", "shim", "-f", fmt, target], repo)
            if p.returncode in (0, 1) and p.stdout:
                c.add("findings", p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", required=True)
    ap.add_argument("--cglint", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("harness", nargs="*")
    a = ap.parse_args()
    repo = os.path.abspath(a.repo)
    cglint = os.path.abspath(a.cglint)
    want = set(a.harness) or {"py", "pyproject", "cuda", "toml", "suppress", "baseline", "compdb", "findings"}
    for h in want:
        shutil.rmtree(os.path.join(a.out, h), ignore_errors=True)
    c = Corpus(a.out)
    tmp = tempfile.mkdtemp(prefix="cglint-corpus.")
    try:
        if "py" in want: make_py(c, repo)
        if "pyproject" in want: make_pyproject(c, repo)
        if "cuda" in want: make_cuda(c, repo)
        if "toml" in want: make_toml(c, repo)
        if "suppress" in want: make_suppress(c, repo)
        if "baseline" in want: make_baseline(c, repo, cglint, tmp)
        if "compdb" in want: make_compdb(c, repo)
        if "findings" in want: make_findings(c, repo, cglint)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    bad = [h for h in sorted(want) if c.count.get(h, 0) < 3]
    for h in sorted(want):
        print("%-10s %4d seeds" % (h, c.count.get(h, 0)))
    if bad:
        sys.exit("make_corpus: too few seeds for %s: the repository's files moved?" % ", ".join(bad))


if __name__ == "__main__":
    main()
