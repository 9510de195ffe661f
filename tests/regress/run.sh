#!/usr/bin/env bash
# tests/regress/run.sh CGLINT - inputs that once crashed or hung cglint.
#
# Each *.py here is analysed twice: named on the command line (what
# pre-commit does) and as part of a directory; the findings must match its
# `# expect:` markers exactly, within 20 s, with exit 1 (findings) and no
# signal.  Large inputs that are no use to read are generated below.
# Prints "ok - ..." / "not ok - ..." per check and "N passed, M failed".
set -u
CGLINT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cglint_regress.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
PASSED=0 FAILED=0
ok() { echo "ok - $1"; PASSED=$((PASSED + 1)); }
bad() { echo "not ok - $1: $2"; FAILED=$((FAILED + 1)); }

cp "$HERE"/*.py "$WORK"/
# defect 11: a 10,000-long chained assignment
python3 - "$WORK" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/long_chain.py", "w") as f:
    f.write("import torch\n\n\ndef step(x):\n    g = torch.cuda.CUDAGraph()\n    with torch.cuda.graph(g):\n")
    f.write("        a = " + "a = " * 10000 + "x.item()  # expect: CG101\n")
# defect 2 at full size: 40 self-references, 30 rebinds
with open(d + "/many_self_refs.py", "w") as f:
    f.write("import torch\nN = [1]\n")
    for _ in range(30):
        f.write("N = [" + ", ".join(["N"] * 40) + "]\n")
    f.write("\n\ndef step(x):\n    g = torch.cuda.CUDAGraph()\n    with torch.cuda.graph(g):\n")
    f.write("        y = x + len(N)\n        print(y)  # expect: CG301\n")
PY

# expected "FILE:LINE:CG..." lines of a file, from its markers
expected() {
    grep -n '# expect: ' "$1" | sed -E 's/^([0-9]+):.*# expect: *(CG[0-9]+).*/\1 \2/' |
        while read -r line rule; do echo "$(basename "$1"):$line:$rule"; done | sort
}
# actual "FILE:LINE:CG..." from cglint's concise JSON
actual() {
    python3 -c '
import json, os, sys
for f in json.load(sys.stdin)["findings"]:
    print("%s:%d:%s" % (os.path.basename(f["path"]), f["line"], f["rule"]))' | sort
}

for f in "$WORK"/*.py; do
    name=$(basename "$f")
    want=$(expected "$f")
    for mode in named directory; do
        if [ $mode = named ]; then args=("$f"); else
            d="$WORK/dir_$name"; mkdir -p "$d"; cp "$f" "$d/"; args=("$d"); fi
        out=$(cd "$WORK" && timeout 20 "$CGLINT" --isolated -f json "${args[@]}" 2>"$WORK/err")
        rc=$?
        if [ $rc -ge 124 ]; then bad "$name ($mode)" "exit $rc (crash or hang): $(head -c 300 "$WORK/err")"; continue; fi
        if [ $rc -ne 1 ]; then bad "$name ($mode)" "exit $rc, want 1: $(head -c 300 "$WORK/err")"; continue; fi
        got=$(printf '%s' "$out" | actual 2>&1)
        if [ "$got" != "$want" ]; then bad "$name ($mode)" "findings differ: want [$want] got [$got]"; continue; fi
        ok "$name ($mode)"
    done
done

# The Python front end reads the tree only through its null-safe accessors
# (py_int.h): a raw tree-sitter node call elsewhere is how defect 1 happened.
raw=$(grep -n 'ts_node_' "$HERE"/../../src/python/*.c 2>/dev/null)
if [ -n "$raw" ]; then bad "python front end uses null-safe accessors" "$raw"
else ok "python front end uses null-safe accessors"; fi

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
