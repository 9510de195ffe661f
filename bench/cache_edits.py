#!/usr/bin/env python3
"""bench/cache_edits.py TREE [N] [SEED] [--reached] - the project index against random edits on a
real tree: copies TREE to a scratch directory, warms the index, then N times appends
one edit of a kind pre-commit sees (a comment, a helper, an import, a call of a
common name, an import of a capture API) to a random .py file and runs cglint with
the index (naming the file or the whole tree) and without it (--no-cache): the
two outputs (JSON and stderr) must be byte-identical.  Prints each edit, whether
the memo answered, and the count of differences (exit 1 if any).  Not a timed
test; BENCHMARKS.md section F records a run.

--reached: most edits go to files the analysis parses (capture files and the
modules their analyses load, from CGLINT_TRACE_PARSE), where the index answers
with a partial run (only the capture files the edit can affect analysed again),
and the edits include a module-level capture with a sync in it and the
deletion of a random line (which may break the syntax)."""
import os, random, subprocess, shutil, sys, tempfile
reached = "--reached" in sys.argv
argv = [a for a in sys.argv if a != "--reached"]
src = argv[1]
n_edits = int(argv[2]) if len(argv) > 2 else 24
random.seed(int(argv[3]) if len(argv) > 3 else 7)
root = os.path.join(tempfile.mkdtemp(prefix="cglint-edits-"), "tree")
if os.path.exists(root): shutil.rmtree(root)
shutil.copytree(src, root, ignore=shutil.ignore_patterns(".cglint_cache"))
cg = os.environ.get("CGLINT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "cglint"))
pys = [os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs if f.endswith(".py")]
pys.sort()
def run(args, cache=True):
    a = [cg, "-f", "json", "--exit-zero", "--isolated"] + ([] if cache else ["--no-cache"]) + args
    p = subprocess.run(a, cwd=root, capture_output=True, text=True, env=dict(os.environ, CGLINT_TRACE_CACHE="1"))
    said = [l for l in p.stderr.splitlines() if "cache: python" in l]
    err = "\n".join(l for l in p.stderr.splitlines() if not l.startswith("cglint: cache:"))
    return p.stdout, err, said
run(["."])
parsed = []
if reached:
    p = subprocess.run([cg, "-q", "--exit-zero", "--isolated", "--no-cache", "."], cwd=root, capture_output=True,
                       text=True, env=dict(os.environ, CGLINT_TRACE_PARSE="1"))
    parsed = sorted({os.path.relpath(l.split()[2], root) if os.path.isabs(l.split()[2]) else l.split()[2]
                     for l in p.stderr.splitlines() if l.startswith("cglint: parse ")})
edits = ["\n# a comment\n", "\ndef _helper_%d(x):\n    return torch.zeros(1) + x\n", "\nimport os\n", "\ndef _call_%d(model, x):\n    return model(x)\n",
         "\nfrom megatron.core.transformer.cuda_graphs import CudaGraphManager\n", "\ndef _f%d():\n    return forward_step(None, None)\n"]
if reached:
    edits += ["\nwith torch.cuda.graph(torch.cuda.CUDAGraph()):\n    _v%d = torch.ones(1).item()\n", "DELETE"]
stats = {}
bad = 0
for i in range(n_edits):
    f = random.choice(parsed if parsed and random.random() < 0.8 else pys)
    e = random.choice(edits)
    if "%d" in e: e = e % i
    if e == "DELETE":
        with open(os.path.join(root, f)) as fh: lines = fh.readlines()
        full = [k for k, l in enumerate(lines) if l.strip()]
        if full:
            k = random.choice(full)
            e = "DELETE line %d: %s" % (k + 1, lines[k].strip()[:20])
            del lines[k]
            with open(os.path.join(root, f), "w") as fh: fh.writelines(lines)
    else:
        with open(os.path.join(root, f), "a") as fh: fh.write(e)
    named = random.random() < 0.5
    args = [f] if named else ["."]
    w_out, w_err, said = run(args)
    c_out, c_err, _ = run(args, cache=False)
    same = (w_out == c_out and w_err == c_err)
    bad += not same
    key = (said[0] if said else "none").split("python ")[-1][:20]
    stats[key] = stats.get(key, 0) + 1
    print(i, "named" if named else "dir  ", f[:60], repr(e[:30]), said[0] if said else None, "SAME" if same else "DIFF")
    if not same and os.environ.get("CACHE_EDITS_DIFF"):
        import difflib
        for l in list(difflib.unified_diff(c_out.splitlines() + c_err.splitlines(), w_out.splitlines() + w_err.splitlines(),
                                           "cold", "warm", n=1, lineterm=""))[:30]:
            print("    " + l)
print("memo:", stats, "outputs that differ:", bad)
shutil.rmtree(os.path.dirname(root))
sys.exit(1 if bad else 0)
