#!/usr/bin/env bash
# bad_input.sh - the C/C++/CUDA front end on input it cannot fully handle.
#
# Each bad input gets exactly one clear `cglint: error:` line naming it, the
# other files are still analysed (their findings are on stdout), and the exit
# status is 2.  Checked in shim mode and, when a toolkit is installed, with
# the toolkit's headers.  The bad files hold functions a capture calls (a
# file no capture can reach is parsed only with --cuda-parse-all; checked
# too).  Also: a Python and a CUDA file in one run make one report.
#
# Usage: bad_input.sh CGLINT
set -uo pipefail
CGLINT=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-bad.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

good='#include <cuda_runtime.h>
void good(cudaStream_t s)
{
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaDeviceSynchronize();
    cudaStreamEndCapture(s, &g);
}'

# run DIR MODE [ARGS...]: sets rc, out, err
run() {
    local dir=$1 mode=$2
    shift 2
    out=$("$CGLINT" --cuda-mode "$mode" --color never "$@" "$dir" 2>"$TMP/err")
    rc=$?
    err=$(cat "$TMP/err")
}

expect_errors() {   # LABEL N: exactly N error lines
    local n
    n=$(grep -c '^cglint: error:' <<<"$err")
    [ "$n" -eq "$2" ] || fail "$1: $n error lines, expected $2:"$'\n'"$err"
}

modes=(shim)
for c in "${CUDA_PATH:-}" "${CUDA_HOME:-}" /usr/local/cuda; do
    if [ -n "$c" ] && [ -f "$c/include/cuda_runtime.h" ]; then modes+=(toolkit); break; fi
done
[ ${#modes[@]} -eq 1 ] && echo "no CUDA toolkit found: toolkit-mode checks skipped"

# ---- unparsable C++, a missing header, a libclang crash --------------------
mkdir -p "$TMP/tree"
cat >"$TMP/tree/good.cu" <<'X'
#include <cuda_runtime.h>
void from_missing(cudaStream_t s);
void from_crash(void);
void good(cudaStream_t s)
{
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaDeviceSynchronize();
    from_missing(s);
    from_crash();
    cudaStreamEndCapture(s, &g);
}
X
cat >"$TMP/tree/unreachable.cu" <<'X'
void nobody_calls_this( {
X
cat >"$TMP/tree/broken.cu" <<'X'
#include <cuda_runtime.h>
void broken(cudaStream_t s) {
    cudaGraph_t g
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) +;
}
X
cat >"$TMP/tree/missing.cu" <<'X'
#include <cuda_runtime.h>
#include "no_such_header.h"
void from_missing(cudaStream_t s) { cudaStreamSynchronize(s);
    /* PROJECT_CHECK and bytes_of came from the missing header: clang drops
     * the argument it cannot build, which must not read as an omitted stream */
    PROJECT_CHECK(cudaMemsetAsync(d_buf, 0, bytes_of(view), s)); }
X
printf 'void from_crash(void) {}\n#pragma clang __debug crash\n' >"$TMP/tree/crash.cu"
for mode in "${modes[@]}"; do
    run "$TMP/tree" "$mode"
    [ "$rc" -eq 2 ] || fail "[$mode] bad files: exit $rc, expected 2"
    expect_errors "[$mode] bad files" 3
    grep -q 'unreachable.cu' <<<"$err" && fail "[$mode] a file no capture reaches was parsed"
    grep -q 'missing.cu:3:37: error: .*\[CG104\]' <<<"$out" || fail "[$mode] missing.cu was not analysed as far as it parsed:"$'\n'"$out"
    grep -q 'missing.cu:[0-9:]*: error: .*\[CG401\]' <<<"$out" && fail "[$mode] a call with an argument clang dropped was taken for one on the default stream"
    grep -q '^cglint: error: .*broken.cu:[0-9]*:[0-9]*: cannot be parsed: ' <<<"$err" || fail "[$mode] no parse error for broken.cu"
    grep -q "^cglint: error: .*missing.cu:2:[0-9]*: cannot be parsed: 'no_such_header.h' file not found" <<<"$err" ||
        fail "[$mode] no missing-header error for missing.cu"
    grep -q '^cglint: error: .*crash.cu: libclang crashed while parsing this file; skipped' <<<"$err" ||
        fail "[$mode] no crash message for crash.cu"
    grep -q 'libclang: crash detected' <<<"$err" && fail "[$mode] libclang's own crash report leaked to stderr"
    grep -q 'good.cu:8:5: error: .*\[CG104\]' <<<"$out" || fail "[$mode] good.cu was not analysed:"$'\n'"$out"
    run "$TMP/tree" "$mode" --cuda-parse-all
    expect_errors "[$mode] --cuda-parse-all" 4
    grep -q '^cglint: error: .*unreachable.cu:1:[0-9]*: cannot be parsed: ' <<<"$err" ||
        fail "[$mode] --cuda-parse-all did not diagnose unreachable.cu"
done

# ---- a bad compile_commands.json ---------------------------------------------
mkdir -p "$TMP/db"
printf '%s\n' "$good" >"$TMP/db/good.cu"
printf '[{"directory": ".", "file": "good.cu", "arguments": ["nvcc", ' >"$TMP/db/compile_commands.json"
run "$TMP/db" shim
[ "$rc" -eq 2 ] || fail "bad compile_commands.json: exit $rc, expected 2"
expect_errors "bad compile_commands.json" 1
grep -q '^cglint: error: .*compile_commands.json:1:[0-9]*: cannot read the compile database: ' <<<"$err" ||
    fail "no message for the bad compile database"
grep -q 'good.cu:6:5: error: .*\[CG104\]' <<<"$out" || fail "good.cu not analysed with a bad compile database"
printf '{"not": "an array"}' >"$TMP/db/compile_commands.json"
run "$TMP/db" shim
[ "$rc" -eq 2 ] && grep -q 'not a JSON array' <<<"$err" || fail "a non-array compile database is not reported"
rm "$TMP/db/compile_commands.json"
run "$TMP/db" shim -p "$TMP/nowhere"
[ "$rc" -eq 2 ] && grep -q 'no compile_commands.json here (-p)' <<<"$err" || fail "-p to a missing database is not reported"

# ---- --cuda-path that is not a toolkit -------------------------------------
run "$TMP/db" auto --cuda-path "$TMP/nowhere"
[ "$rc" -eq 2 ] || fail "--cuda-path to nothing: exit $rc, expected 2"
expect_errors "--cuda-path to nothing" 1
grep -q 'good.cu:6:5: error: .*\[CG104\]' <<<"$out" || fail "good.cu not analysed after a bad --cuda-path"

# ---- not a text file ----------------------------------------------------------
mkdir -p "$TMP/bin"
printf '%s\n' "$good" >"$TMP/bin/good.cu"
printf 'int x;\0\0\0' >"$TMP/bin/binary.cu"
run "$TMP/bin" shim
[ "$rc" -eq 2 ] && grep -q 'binary.cu' <<<"$err" || fail "a binary .cu is not reported"
expect_errors "binary .cu" 1

# ---- Python and CUDA in one run, one report -------------------------------------
mkdir -p "$TMP/mixed"
printf '%s\n' "$good" >"$TMP/mixed/good.cu"
cat >"$TMP/mixed/train.py" <<'X'
import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    torch.cuda.synchronize()
X
out=$("$CGLINT" --cuda-mode shim -f json "$TMP/mixed" 2>"$TMP/err")
rc=$?
[ "$rc" -eq 1 ] || fail "mixed tree: exit $rc, expected 1"
n=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted({f["path"].rsplit(".",1)[1] for f in d["findings"]}))' <<<"$out" 2>/dev/null)
[ "$n" = "['cu', 'py']" ] || fail "mixed tree: expected findings in the .py and the .cu file, got $n"

[ "$fails" -eq 0 ] && echo "all bad-input checks passed (modes: ${modes[*]})"
exit $((fails > 0))
