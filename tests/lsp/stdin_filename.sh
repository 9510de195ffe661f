#!/usr/bin/env bash
# tests/lsp/stdin_filename.sh CGLINT - `--stdin-filename PATH`: the buffer on
# stdin is analysed and reported as PATH, with the project around PATH
# read from disk for context, in every format; usage errors exit 2.
set -u
CGLINT=$(readlink -f "$1")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
mkdir -p "$T/proj/pkg"
touch "$T/proj/pyproject.toml" "$T/proj/pkg/__init__.py"
printf 'import torch\n\n\ndef helper(x):\n    return x.sum()\n' > "$T/proj/pkg/model.py"
printf 'import torch\nfrom pkg.model import helper\n\n\ndef step(x):\n    g = torch.cuda.CUDAGraph()\n    with torch.cuda.graph(g):\n        helper(x)\n' > "$T/proj/train.py"
HAZARD='import torch\n\n\ndef helper(x):\n    return x.sum().item()\n'
cd "$T/proj"

# the disk copy is clean; the buffer on stdin is not, and a capture in
# train.py (read from disk as context) reaches it
printf "$HAZARD" | "$CGLINT" --stdin-filename pkg/model.py >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] && ok "findings: exit 1" || bad "findings: exit $rc, not 1"
grep -q '^pkg/model.py:5:12: error: .*\[CG101\]' "$T/out" && ok "reported as PATH" || { bad "text output"; cat "$T/out" "$T/err"; }
grep -q 'reached from the capture at train.py:7:5' "$T/out" && ok "the project around PATH is the context" || bad "no context"
"$CGLINT" pkg/model.py >/dev/null 2>&1 && ok "the file on disk is unchanged and clean" || bad "disk copy has findings"
printf 'import torch\n\n\ndef helper(x):\n    return x.sum()\n' | "$CGLINT" --stdin-filename pkg/model.py >/dev/null 2>&1 \
    && ok "a clean buffer: exit 0" || bad "a clean buffer: exit $?"

# every format names PATH
printf "$HAZARD" | "$CGLINT" --stdin-filename pkg/model.py -f json | python3 -c '
import json, sys
f = json.load(sys.stdin)["findings"]
sys.exit(0 if [(x["path"], x["rule"], x["line"]) for x in f] == [("pkg/model.py", "CG101", 5)] else 1)' \
    && ok "json" || bad "json"
printf "$HAZARD" | "$CGLINT" --stdin-filename pkg/model.py -f sarif | python3 -c '
import json, sys
r = json.load(sys.stdin)["runs"][0]["results"]
loc = r[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
sys.exit(0 if len(r) == 1 and r[0]["ruleId"] == "CG101" and loc.endswith("pkg/model.py") else 1)' \
    && ok "sarif" || bad "sarif"
printf "$HAZARD" | "$CGLINT" --stdin-filename pkg/model.py -f github | grep -q '^::error file=pkg/model.py,line=5' \
    && ok "github" || bad "github"
printf "$HAZARD" | "$CGLINT" --stdin-filename pkg/model.py --statistics | grep -q 'CG101' && ok "statistics" || bad "statistics"

# a path that does not exist yet (an unsaved new file)
printf 'import torch\ng = torch.cuda.CUDAGraph()\nx = torch.zeros(2, device="cuda")\nwith torch.cuda.graph(g):\n    y = x.sum().item()\n' \
    | "$CGLINT" --stdin-filename pkg/new.py >"$T/out" 2>&1
grep -q '^pkg/new.py:5:9: error: .*\[CG101\]' "$T/out" && ok "a new file" || { bad "a new file"; cat "$T/out"; }

# C/C++: libclang gets the buffer as an unsaved file, on disk or not
printf '#include <cuda_runtime.h>\nvoid f(cudaStream_t s) {\n    cudaGraph_t g;\n    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n    cudaDeviceSynchronize();\n    cudaStreamEndCapture(s, &g);\n}\n' >"$T/k.cu.txt"
"$CGLINT" --stdin-filename k.cu <"$T/k.cu.txt" >"$T/out" 2>&1
grep -q '^k.cu:5:5: error: .*\[CG104\]' "$T/out" && ok "C/C++, not on disk" || { bad "C/C++ not on disk"; cat "$T/out"; }
echo 'int unrelated;' > k.cu
"$CGLINT" --stdin-filename k.cu <"$T/k.cu.txt" >"$T/out" 2>&1
grep -q '^k.cu:5:5: error: .*\[CG104\]' "$T/out" && ok "C/C++, the buffer over the file on disk" || { bad "C/C++ on disk"; cat "$T/out"; }

# errors: one line, exit 2
printf 'x = 1\0\n' | "$CGLINT" --stdin-filename pkg/bin.py >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ "$(grep -c 'cglint: error: pkg/bin.py' "$T/err")" = 1 ] && ok "a binary buffer: one error, exit 2" \
    || { bad "binary buffer: exit $rc"; cat "$T/err"; }
echo x | "$CGLINT" --stdin-filename pkg/model.py train.py >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q 'cannot be combined with PATHs' "$T/err" && ok "with PATHs: usage error" || bad "with PATHs: exit $rc"
echo x | "$CGLINT" --stdin-filename pkg/model.py --fix >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && ok "with --fix: usage error" || bad "with --fix: exit $rc"
exit $fail
