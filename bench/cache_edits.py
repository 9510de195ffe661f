#!/usr/bin/env python3
"""bench/cache_edits.py TREE [N] [SEED] - the project index against random edits on a
real tree: copies TREE to a scratch directory, warms the index, then N times appends
one edit of a kind pre-commit sees (a comment, a helper, an import, a call of a
common name, an import of a capture API) to a random .py file and runs cglint with
the index (naming the file or the whole tree) and without it (--no-cache): the
two outputs (JSON and stderr) must be byte-identical.  Prints each edit, whether
the memo answered, and the count of differences (exit 1 if any).  Not a timed
test; BENCHMARKS.md section F records a run."""
import os, random, subprocess, shutil, sys, tempfile
src = sys.argv[1]
n_edits = int(sys.argv[2]) if len(sys.argv) > 2 else 24
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
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
edits = ["\n# a comment\n", "\ndef _helper_%d(x):\n    return torch.zeros(1) + x\n", "\nimport os\n", "\ndef _call_%d(model, x):\n    return model(x)\n",
         "\nfrom megatron.core.transformer.cuda_graphs import CudaGraphManager\n", "\ndef _f%d():\n    return forward_step(None, None)\n"]
stats = {}
bad = 0
for i in range(n_edits):
    f = random.choice(pys)
    e = random.choice(edits)
    if "%d" in e: e = e % i
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
print("memo:", stats, "outputs that differ:", bad)
shutil.rmtree(os.path.dirname(root))
sys.exit(1 if bad else 0)
