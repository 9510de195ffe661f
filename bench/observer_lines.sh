#!/usr/bin/env bash
# bench/observer_lines.sh - what the Python observer's line recording
# (sys.monitoring, Python 3.12+) costs around captures, without a GPU: the
# fake torch of tests/runtime (its capture does no GPU work) and a generated
# "library" of N functions in a site-packages directory (code that is not the
# user's, as torch's is), which a warm-up runs 3 times and every capture
# runs once.  Variants, interleaved, RUNS each:
#   plain                    python alone
#   lines at torch import    cglint run --no-cupti (the default: PY_START/PY_RESUME on from torch's import)
#   lines at first capture   CGLINT_LINES_AT=capture
#   previous observer        the runtime of commit OLD (default e87a1ac: PY_START switched at every capture)
# Prints medians: import (ms, the imports before the warm-up), warm-up (ms),
# first capture (ms; also its minimum: on a loaded machine one sample per
# run is often preempted), later captures (ms, median of 4), library work
# right after a capture (ms).
#
# Usage: bench/observer_lines.sh [--cglint PATH] [--python PY3.12+] [--runs N] [--funcs N] [--old COMMIT]
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CGLINT=$REPO/build/cglint
PY=${PYTHON:-python3}
RUNS=3
FUNCS=600
OLD=e87a1ac
while [ $# -gt 0 ]; do
    case "$1" in
    --cglint) CGLINT=$2; shift 2 ;;
    --python) PY=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --funcs) FUNCS=$2; shift 2 ;;
    --old) OLD=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "observer_lines.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' ||
    { echo "observer_lines.sh: needs Python 3.12+ (sys.monitoring): $PY" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-lines.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/lib/site-packages" "$TMP/old"
"$PY" - "$TMP/lib/site-packages/fakelib.py" "$FUNCS" <<'EOF'
import sys
n = int(sys.argv[2])
with open(sys.argv[1], "w") as f:
    for i in range(n):
        f.write("def f%d(x):\n    y = x + %d\n    for k in range(2):\n        y = y * 1\n    return y\n\n" % (i, i))
    f.write("FUNCS = [%s]\n" % ", ".join("f%d" % i for i in range(n)))
EOF
cat >"$TMP/prog.py" <<EOF
import sys, time, json
t00 = time.perf_counter()
import email.mime.multipart, asyncio, http.client, xml.dom.minidom, unittest, argparse, decimal
sys.path.insert(0, "$TMP/lib/site-packages")
import torch
import fakelib
imp = (time.perf_counter() - t00) * 1e3

def work():
    s = 0
    for f in fakelib.FUNCS:
        s = f(s)
    return s

x = torch.ones(4, device="cuda")
t0 = time.perf_counter()
for _ in range(3):
    work()
warm = (time.perf_counter() - t0) * 1e3
caps, after = [], []
for i in range(5):
    g = torch.cuda.CUDAGraph()
    t0 = time.perf_counter()
    with torch.cuda.graph(g):
        y = x * 2
        work()
    caps.append((time.perf_counter() - t0) * 1e3)
    t0 = time.perf_counter()
    work()
    after.append((time.perf_counter() - t0) * 1e3)
print(json.dumps({"import": imp, "warm": warm, "first": caps[0], "later": sorted(caps[1:])[1],
                  "after": sorted(after[1:])[1]}))
EOF
git -C "$REPO" archive "$OLD" runtime/python | tar -x -C "$TMP/old" --strip-components=1
echo '{"schema_version": 1, "tool": {"name": "cglint"}, "findings": []}' >"$TMP/none.json"
export PYTHONPATH=$REPO/tests/runtime/fake_torch
: >"$TMP/rows"
for r in $(seq "$RUNS"); do
    echo "plain $("$PY" "$TMP/prog.py")" >>"$TMP/rows"
    echo "torch $("$CGLINT" run -q --no-cupti --findings "$TMP/none.json" -f json -o "$TMP/r.json" -- "$PY" "$TMP/prog.py" | tail -1)" >>"$TMP/rows"
    echo "capture $(CGLINT_LINES_AT=capture "$CGLINT" run -q --no-cupti --findings "$TMP/none.json" -f json -o "$TMP/r.json" -- "$PY" "$TMP/prog.py" | tail -1)" >>"$TMP/rows"
    echo "old $(CGLINT_RUNTIME_DIR="$TMP/old" "$CGLINT" run -q --no-cupti --findings "$TMP/none.json" -f json -o "$TMP/r.json" -- "$PY" "$TMP/prog.py" | tail -1)" >>"$TMP/rows"
done
cp "$TMP/rows" "${ROWS_COPY:-/dev/null}" 2>/dev/null || true
"$PY" - "$TMP/rows" "$RUNS" "$FUNCS" "$OLD" <<'EOF'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    v, js = line.split(" ", 1)
    for k, x in json.loads(js).items():
        rows.setdefault(v, {}).setdefault(k, []).append(x)
print("Python %s, fake torch, %s library functions, %s runs per variant, medians (ms)" %
      (sys.version.split()[0], sys.argv[3], sys.argv[2]))
print()
print("| variant | imports | warm-up | first capture (min) | first capture | later captures | library work after a capture |")
print("|---|--:|--:|--:|--:|--:|--:|")
for v, name in (("plain", "python (plain)"), ("torch", "cglint run --no-cupti (lines at torch import)"),
                ("capture", "CGLINT_LINES_AT=capture"), ("old", "observer of %s" % sys.argv[4])):
    r = rows.get(v)
    if r:
        print("| %s | %s | %.2f | %s |" % (name, " | ".join("%.2f" % statistics.median(r[k]) for k in ("import", "warm")),
                                         min(r["first"]), " | ".join("%.2f" % statistics.median(r[k])
                                                                     for k in ("first", "later", "after"))))
EOF
