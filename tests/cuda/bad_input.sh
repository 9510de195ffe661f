#!/usr/bin/env bash
# bad_input.sh - the C/C++/CUDA front end on input it cannot fully handle.
#
# Each bad input gets exactly one clear `cglint: error:` line naming it, the
# other files are still analysed (their findings are on stdout), and the exit
# status is 2.  Checked in shim mode and, when a toolkit is installed, with
# the toolkit's headers.  The bad files hold functions a capture calls (a
# file no capture can reach is parsed only with --cuda-parse-all; checked
# too).  Also: code nested too deep to analyse or to parse, a function of
# 70,000 statements, response files that include themselves, a configuration
# file nested 100,000 deep (none may crash), a Python and a CUDA file in
# one run make one report, and libclang that cannot be loaded.
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
    expect_errors "[$mode] bad files" 2
    grep -q 'unreachable.cu' <<<"$err" && fail "[$mode] a file no capture reaches was parsed"
    grep -q 'missing.cu:3:37: error: .*\[CG104\]' <<<"$out" || fail "[$mode] missing.cu was not analysed as far as it parsed:"$'\n'"$out"
    grep -q 'missing.cu:[0-9:]*: error: .*\[CG401\]' <<<"$out" && fail "[$mode] a call with an argument clang dropped was taken for one on the default stream"
    grep -q '^cglint: error: .*broken.cu:[0-9]*:[0-9]*: cannot be parsed: ' <<<"$err" || fail "[$mode] no parse error for broken.cu"
    # a header of the project that is not found is a warning naming the fix
    # (issue 13: one policy for missing headers), not a parse error
    grep -q "^cglint: warning: headers of this project not found: no_such_header.h (first wanted by .*missing.cu).*-I DIR" <<<"$err" ||
        fail "[$mode] no missing-header warning for missing.cu"
    grep -q "missing.cu.*cannot be parsed" <<<"$err" && fail "[$mode] a missing project header made missing.cu an error"
    grep -q '^cglint: error: .*crash.cu: libclang crashed while parsing this file; skipped' <<<"$err" ||
        fail "[$mode] no crash message for crash.cu"
    grep -q 'libclang: crash detected' <<<"$err" && fail "[$mode] libclang's own crash report leaked to stderr"
    grep -q 'good.cu:8:5: error: .*\[CG104\]' <<<"$out" || fail "[$mode] good.cu was not analysed:"$'\n'"$out"
    run "$TMP/tree" "$mode" --cuda-parse-all
    expect_errors "[$mode] --cuda-parse-all" 3
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

# ---- nesting too deep to analyse --------------------------------------------------
# A 700-term sum, ifs nested 600 deep and calls nested 1000 deep, each in a
# function a capture calls: one error for each, naming where cglint stopped
# analysing; what comes before them, and the file's other functions, are still
# analysed.  Calls nested 3000 deep are more than libclang can parse: that file
# is skipped, with one error.  Nothing crashes.
mkdir -p "$TMP/deep"
python3 - "$TMP/deep" <<'X'
import sys
d = sys.argv[1]
src = ["#include <cuda_runtime.h>",
       "int f(int x);",
       "int deeper(int a);",
       "int sum(int a)",
       "{",
       "    return " + " + ".join(["a"] * 700) + ";",                        # 6
       "}",
       "int nested_if(cudaStream_t s, int a)",
       "{",
       "    cudaStreamSynchronize(s);",                                       # 10
       "    " + "".join("if (a > %d) { " % i for i in range(600)) + "a++;" + " }" * 600,   # 11
       "    return a;",
       "}",
       "int calls(int a)",
       "{",
       "    return " + "f(" * 1000 + "a" + ")" * 1000 + ";",                 # 16
       "}",
       "void helper(void *d, const void *h) { cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); }",   # 18
       "void entry(cudaStream_t s, void *d, const void *h)",
       "{",
       "    cudaGraph_t g;",
       "    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);",
       "    sum(1);",
       "    nested_if(s, 2);",
       "    calls(3);",
       "    deeper(4);",
       "    helper(d, h);",
       "    cudaDeviceSynchronize();",                                        # 28
       "    cudaStreamEndCapture(s, &g);",
       "}"]
open(d + "/deep.cu", "w").write("\n".join(src) + "\n")
open(d + "/deeper.cu", "w").write("int g(int x);\nint deeper(int a)\n{\n    return " + "g(" * 3000 + "a" + ")" * 3000 + ";\n}\n")
X
for mode in "${modes[@]}"; do
    run "$TMP/deep" "$mode"
    [ "$rc" -eq 2 ] || fail "[$mode] deep nesting: exit $rc, expected 2"
    expect_errors "[$mode] deep nesting" 4
    for at in 'deep.cu:6' 'deep.cu:11' 'deep.cu:16' 'deeper.cu:4'; do
        grep -q "^cglint: error: .*$at:[0-9]*: .*too deeply nested" <<<"$err" ||
            fail "[$mode] no 'too deeply nested' error at $at:"$'\n'"$err"
    done
    grep -q 'deep.cu:10:5: error: .*\[CG104\]' <<<"$out" || fail "[$mode] the code before a deep construct was not analysed:"$'\n'"$out"
    grep -q 'deep.cu:18:[0-9]*: error: .*\[CG106\]' <<<"$out" || fail "[$mode] deep.cu's other functions were not analysed"
    grep -q 'deep.cu:28:5: error: .*\[CG104\]' <<<"$out" || fail "[$mode] the capture in deep.cu was not analysed"
done

# ---- a function of 70,000 statements -------------------------------------------------
# Every statement is analysed: the hazard after the 65,535th is found.
mkdir -p "$TMP/big"
python3 - "$TMP/big" <<'X'
import sys
body = ["#include <cuda_runtime.h>", "void big(cudaStream_t s)", "{", "    cudaGraph_t g;",
        "    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);", "    int x = 0;"]
body += ["    x = %d;" % i for i in range(70000)]
body += ["    cudaDeviceSynchronize();", "    cudaStreamEndCapture(s, &g);", "}"]
open(sys.argv[1] + "/big.cu", "w").write("\n".join(body) + "\n")
X
run "$TMP/big" shim
[ "$rc" -eq 1 ] || fail "70,000 statements: exit $rc, expected 1:"$'\n'"$err"
grep -q 'big.cu:70007:5: error: .*\[CG104\]' <<<"$out" || fail "the statement after the 65,535th was not analysed:"$'\n'"$out"

# ---- response files that name themselves --------------------------------------------
# @self.rsp inside self.rsp, a.rsp -> b.rsp -> a.rsp: each is read once, with
# one error; a chain of three response files is read to its end.
mkdir -p "$TMP/rsp"
printf '%s\n' "$good" >"$TMP/rsp/good.cu"
printf -- '-DSELF=1 @self.rsp\n' >"$TMP/rsp/self.rsp"
printf -- '@b.rsp -DA=1\n' >"$TMP/rsp/a.rsp"
printf -- '--options-file a.rsp -DB=1\n' >"$TMP/rsp/b.rsp"
printf -- '@r2.rsp\n' >"$TMP/rsp/r1.rsp"
printf -- '@r3.rsp\n' >"$TMP/rsp/r2.rsp"
printf -- '-DDEEP3=1\n' >"$TMP/rsp/r3.rsp"
printf '[{"directory": ".", "file": "good.cu", "arguments": ["nvcc", "@self.rsp", "--options-file", "a.rsp", "@r1.rsp", "-c", "good.cu"]}]\n' \
    >"$TMP/rsp/compile_commands.json"
out=$(timeout 120 "$CGLINT" --cuda-mode shim --color never "$TMP/rsp" 2>"$TMP/err")
rc=$?
err=$(cat "$TMP/err")
[ "$rc" -eq 2 ] || fail "self-including response files: exit $rc, expected 2:"$'\n'"$(tail -40 <<<"$err")"
expect_errors "self-including response files" 2
grep -q '^cglint: error: .*self.rsp: .*includes itself' <<<"$err" || fail "no error for self.rsp:"$'\n'"$err"
grep -q '^cglint: error: .*a.rsp: .*includes itself' <<<"$err" || fail "no error for a.rsp -> b.rsp -> a.rsp:"$'\n'"$err"
grep -q 'good.cu:6:5: error: .*\[CG104\]' <<<"$out" || fail "good.cu not analysed with self-including response files"
flags=$(timeout 120 "$CGLINT" --cuda-mode shim --print-cuda-flags "$TMP/rsp" 2>/dev/null)
for d in -DSELF=1 -DA=1 -DB=1 -DDEEP3=1; do
    n=$(grep -o -- "$d" <<<"$flags" | wc -l)
    [ "$n" -eq 1 ] || fail "$d is in good.cu's flags $n times, expected once:"$'\n'"$flags"
done

# ---- a configuration file nested too deep -------------------------------------------
# 100,000 nested arrays in .cglint.toml, 100,000 nested inline tables in a
# pyproject.toml: a configuration error naming the file and line, exit 2.
mkdir -p "$TMP/cfg1" "$TMP/cfg2"
python3 - "$TMP" <<'X'
import sys
t = sys.argv[1]
open(t + "/cfg1/.cglint.toml", "w").write("a = " + "[" * 100000 + "]" * 100000 + "\n")
open(t + "/cfg2/pyproject.toml", "w").write("[tool.cglint]\nselect = ['CG1']\n\n[tool.other]\nx = " +
                                             "{x=" * 100000 + "1" + "}" * 100000 + "\n")
X
printf 'x = 1\n' >"$TMP/cfg1/a.py"
printf 'x = 1\n' >"$TMP/cfg2/a.py"
for c in "cfg1/.cglint.toml:1" "cfg2/pyproject.toml:5"; do
    out=$("$CGLINT" --color never "$TMP/${c%%/*}" 2>"$TMP/err")
    rc=$?
    err=$(cat "$TMP/err")
    [ "$rc" -eq 2 ] || fail "${c%:*} nested 100,000 deep: exit $rc, expected 2"
    expect_errors "${c%:*} nested 100,000 deep" 1
    grep -q "^cglint: error: .*$c: .*too deeply nested" <<<"$err" || fail "no 'too deeply nested' error at $c:"$'\n'"$err"
done

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

# ---- libclang that cannot be loaded ---------------------------------------------
# It is loaded (dlopen) only when a run has C/C++/CUDA files: a Python-only run
# never needs it, a run with a .cu file gets one error line and exit 2.
mkdir -p "$TMP/pyonly"
cp "$TMP/mixed/train.py" "$TMP/pyonly/"
out=$(CGLINT_LIBCLANG=/nonexistent/libclang.so "$CGLINT" --color never "$TMP/pyonly" 2>"$TMP/err")
rc=$?
err=$(cat "$TMP/err")
[ "$rc" -eq 1 ] || fail "Python only, no libclang: exit $rc, expected 1 (its finding)"$'\n'"$err"
[ -z "$err" ] || fail "Python only, no libclang: stderr not empty:"$'\n'"$err"
# the loader's own account (glibc's LD_DEBUG): libclang is not mapped at all
LD_DEBUG=files "$CGLINT" --color never "$TMP/pyonly" >/dev/null 2>"$TMP/ld"
if grep -q 'file=libc\.so' "$TMP/ld"; then
    ! grep -q 'libclang' "$TMP/ld" || fail "a Python-only run loads libclang: $(grep -m1 libclang "$TMP/ld")"
    LD_DEBUG=files "$CGLINT" --no-cache --cuda-mode shim --color never "$TMP/mixed" >/dev/null 2>"$TMP/ld"
    grep -q 'file=.*libclang.*dynamically loaded' "$TMP/ld" || fail "a run with a .cu file does not load libclang"
fi
out=$(CGLINT_LIBCLANG=/nonexistent/libclang.so "$CGLINT" --no-cache --color never "$TMP/mixed" 2>"$TMP/err")
rc=$?
err=$(cat "$TMP/err")
[ "$rc" -eq 2 ] || fail "mixed tree, no libclang: exit $rc, expected 2"
expect_errors "mixed tree, no libclang" 1
grep -q '^cglint: error: cannot load libclang (/nonexistent/libclang.so): .*C/C++/CUDA files not analysed$' <<<"$err" ||
    fail "mixed tree, no libclang: no 'cannot load libclang' line:"$'\n'"$err"
grep -q 'train.py' <<<"$out" || fail "mixed tree, no libclang: the Python file's finding is missing"

[ "$fails" -eq 0 ] && echo "all bad-input checks passed (modes: ${modes[*]})"
exit $((fails > 0))
