#!/usr/bin/env bash
# headers.sh - the C/C++/CUDA front end finds a project's own headers and
# flags, as a user runs it: on a directory and on named files (pre-commit).
#
#  - without a compile database, `#include <proj/x.h>` / `"a/b.h"` are found
#    by path suffix in the tree (also when the directory's name starts with
#    "cu": a project header is not a CUDA library header by its prefix);
#  - a project header that is still missing is one warning naming -I, the
#    file is analysed as far as it parses, the exit status is not 2; a call
#    to a function it would have declared is followed by name to the one
#    definition of that name in the tree;
#    a missing library header (cuBLAS, NCCL...) is a note;
#  - -I, -D, --std and the configuration's include-dirs, defines, std,
#    compile-commands are used;
#  - compile_commands.json at the project root or in its build/ is found for
#    named files as for directories.
#
# Usage: headers.sh CGLINT
set -uo pipefail
CGLINT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-hdr.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { checks=$((checks + 1)); }

# run DIR ARGS...: cglint in DIR, sets rc, out, err
run() {
    local dir=$1
    shift
    out=$(cd "$dir" && "$CGLINT" --cuda-mode shim --color never --isolated "$@" 2>"$TMP/err")
    rc=$?
    err=$(cat "$TMP/err")
}
capture='#include <cuda_runtime.h>
void record(cudaStream_t s, cudaGraph_t *g)
{
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    drain(s);
    cudaStreamEndCapture(s, g);
}'
sync_h='#pragma once
#include <cuda_runtime.h>
inline void drain(cudaStream_t s) { cudaStreamSynchronize(s); }'

tree() {   # tree NAME INCLUDE-LINE HEADER-PATH: a project with a header and a user
    local d=$TMP/$1
    mkdir -p "$d/src" "$(dirname "$d/$3")"
    : >"$d/.git"
    printf '%s\n' "$sync_h" >"$d/$3"
    { echo "$2"; printf '%s\n' "$capture"; } >"$d/src/user.cu"
}

# ---- found by suffix, whatever the directory's name -------------------------
tree cuprefix '#include <cuhelp/sync.h>' include/cuhelp/sync.h
tree angled '#include <proj/sync.h>' include/proj/sync.h
tree quoted '#include "proj/sync.h"' lib/core/include/proj/sync.h
for t in cuprefix angled quoted; do
    for how in dir named; do
        check
        # named: as pre-commit passes the files a commit changed (a finding in
        # a file that is not named is not reported, as in every linter)
        if [ $how = dir ]; then run "$TMP/$t" .; else run "$TMP/$t" src/user.cu "$(cd "$TMP/$t" && find . -name sync.h)"; fi
        [ "$rc" -eq 1 ] && grep -q 'sync.h:3:37: error: .*\[CG104\]' <<<"$out" ||
            fail "$t ($how): the sync in the project's header was missed (exit $rc):"$'\n'"$out$err"
        grep -q 'not found' <<<"$err" && fail "$t ($how): a header reported missing:"$'\n'"$err"
    done
done

# ---- a header reached through `..` leads to the headers it names ------------
# (TransformerEngine: "../../../util/ptx_arch_spec.cuh", which includes
# "common/util/ptx.cuh", found by suffix only once the first is followed)
d=$TMP/dotdot
mkdir -p "$d/lib/ops/fused" "$d/lib/util" "$d/include/proj"
: >"$d/.git"
printf '%s\n' "$sync_h" >"$d/include/proj/sync.h"
printf '#pragma once\n#include "proj/sync.h"\n' >"$d/lib/util/arch.cuh"
{ echo '#include "../../util/arch.cuh"'; printf '%s\n' "$capture"; } >"$d/lib/ops/fused/user.cu"
for how in dir named; do
    check
    if [ $how = dir ]; then run "$d" .; else run "$d" lib/ops/fused/user.cu include/proj/sync.h; fi
    [ "$rc" -eq 1 ] && grep -q 'sync.h:3:37: error: .*\[CG104\]' <<<"$out" ||
        fail "dotdot ($how): the header's own include was not found (exit $rc):"$'\n'"$out$err"
    grep -q 'not found' <<<"$err" && fail "dotdot ($how): a header reported missing:"$'\n'"$err"
done

# ---- C++ that nvcc accepts and clang's parser rejects: not exit 2 ------------
# (TransformerEngine's group_dequantize_mxfp8.cuh, reached once "../" includes
# are followed: clang drops the misplaced attribute, the declaration stands)
d=$TMP/attr
mkdir -p "$d"
: >"$d/.git"
{ echo '#include <cuda_runtime.h>'; echo 'namespace ns { constexpr int N = 4; __device__ alignas(128) int maps[N]; }';
  printf '%s\n' "$capture" | sed 's/drain(s);/cudaDeviceSynchronize();/'; } >"$d/user.cu"
run "$d" .
check
[ "$rc" -eq 1 ] && grep -q 'user.cu:7:.*\[CG104\]' <<<"$out" && ! grep -q 'cannot be parsed' <<<"$err" ||
    fail "attribute placement: exit $rc:"$'\n'"$out$err"

# ---- still missing: one warning, analysed, exit 0 ----------------------------
mkdir -p "$TMP/missing/src"
: >"$TMP/missing/.git"
{ echo '#include <proj/sync.h>'; echo '#include <nccl_net_v9.h>'; printf '%s\n' "$capture";
  echo 'void other(cudaStream_t s, cudaGraph_t *g) { cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); cudaDeviceSynchronize(); cudaStreamEndCapture(s, g); }'; } >"$TMP/missing/src/user.cu"
run "$TMP/missing" .
check
[ "$rc" -eq 1 ] || fail "missing project header: exit $rc, expected 1 (the other capture's finding):"$'\n'"$out$err"
grep -q 'user.cu:10:.*\[CG104\]' <<<"$out" || fail "missing project header: the file was not analysed as far as it parsed:"$'\n'"$out"
grep -q '^cglint: warning: headers of this project not found: proj/sync.h (first wanted by src/user.cu).*-I DIR' <<<"$err" ||
    fail "missing project header: no warning naming -I:"$'\n'"$err"
grep -q '^cglint: note: CUDA library headers not found.*: nccl_net_v9.h' <<<"$err" ||
    fail "missing library header: not a note:"$'\n'"$err"
grep -q 'cannot be parsed\|^cglint: error' <<<"$err" && fail "missing project header: reported as an error:"$'\n'"$err"

# ---- a lost library header: the system headers' errors that follow are not
# the headers' fault (mcPytorch: c10/macros/cmake_macros.h is generated; 1,056
# errors in libstdc++'s hashtable.h were reported as "the system headers gave
# errors"); without the lost header the same errors are still one warning
mkdir -p "$TMP/syslost"
: >"$TMP/syslost/.git"
sysuser='#include <unordered_set>
struct Key { int k; bool operator==(const Key &o) const { return k == o.k; } };
struct Hash { int operator()(const Key &k) { return k.k; } };   /* not const: libstdc++ asserts */
std::unordered_set<Key, Hash> keys;
int add() { keys.insert(Key{1}); return (int)keys.size(); }'
{ echo '#include <c10/macros/cmake_macros.h>'; printf '%s\n' "$sysuser" "$capture"; } >"$TMP/syslost/user.cu"
run "$TMP/syslost" .
check
grep -q 'system headers gave' <<<"$err" && fail "lost library header: its consequences in system headers reported:"$'\n'"$err"
grep -q '^cglint: note: CUDA library headers not found.*c10/macros/cmake_macros.h' <<<"$err" ||
    fail "lost library header: not a note:"$'\n'"$err"
sed -i 1d "$TMP/syslost/user.cu"
run "$TMP/syslost" .
check
grep -q '^cglint: warning: .*system headers gave [0-9]* error.*, parsing user.cu)' <<<"$err" ||
    fail "errors in system headers (no header lost): no warning naming the file parsed:"$'\n'"$err"

# ---- a call clang could not declare is followed by name into the tree -------
# (the header that declares drain is missing; a source of the tree defines it)
mkdir -p "$TMP/byname/src"
: >"$TMP/byname/.git"
{ echo '#include <proj/sync.h>'; printf '%s\n' "$capture"; } >"$TMP/byname/src/user.cu"
printf '#include <cuda_runtime.h>\nvoid drain(cudaStream_t s) { cudaStreamSynchronize(s); }\n' >"$TMP/byname/src/sync.cu"
run "$TMP/byname" .
check
[ "$rc" -eq 1 ] && grep -q 'sync.cu:2:30: error: .*\[CG104\]' <<<"$out" ||
    fail "undeclared call: not followed by name to its definition (exit $rc):"$'\n'"$out$err"
# two definitions of that name: not guessed
printf '#include <cuda_runtime.h>\nstatic void drain(cudaStream_t s) { cudaStreamQuery(s); }\n' >"$TMP/byname/src/other.cu"
run "$TMP/byname" .
check
grep -q 'CG10[45]' <<<"$out" && fail "undeclared call: followed although two functions have its name:"$'\n'"$out"

# ---- -I, -D, --std and their configuration keys ------------------------------
mkdir -p "$TMP/flags/src" "$TMP/outside/inc/ext"
: >"$TMP/flags/.git"
printf '%s\n' "$sync_h" >"$TMP/outside/inc/ext/sync.h"
{ echo '#include <ext/sync.h>'; echo '#include <cuda_runtime.h>';
  echo 'void record(cudaStream_t s, cudaGraph_t *g) {';
  echo '    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);'
  echo '#ifdef CGT_DRAIN'; echo '    cudaStreamSynchronize(s);'; echo '#endif'
  echo '#if __cplusplus >= 202002L'; echo '    cudaDeviceSynchronize();'; echo '#endif'
  echo '    cudaStreamEndCapture(s, g);'; echo '}'; } >"$TMP/flags/src/user.cu"
run "$TMP/flags" .
check
[ "$rc" -eq 0 ] && grep -q 'not found: ext/sync.h' <<<"$err" || fail "flags: without -I: exit $rc:"$'\n'"$out$err"
# (a header outside the analysed tree is the environment's: found, not analysed)
run "$TMP/flags" -I "$TMP/outside/inc" -D CGT_DRAIN --std c++20 .
check
grep -q 'user.cu:6:.*\[CG104\]' <<<"$out" && grep -q 'user.cu:9:.*\[CG104\]' <<<"$out" &&
    ! grep -q 'not found' <<<"$err" || fail "flags: -I/-D/--std not used:"$'\n'"$out$err"
printf '[tool.cglint]\ninclude-dirs = ["%s"]\ndefines = ["CGT_DRAIN=1"]\nstd = "c++20"\n' "$TMP/outside/inc" >"$TMP/flags/pyproject.toml"
out=$(cd "$TMP/flags" && "$CGLINT" --cuda-mode shim --color never . 2>"$TMP/err"); rc=$?; err=$(cat "$TMP/err")
check
grep -q 'user.cu:6:.*\[CG104\]' <<<"$out" && grep -q 'user.cu:9:.*\[CG104\]' <<<"$out" &&
    ! grep -q 'not found' <<<"$err" || fail "flags: include-dirs/defines/std from pyproject.toml not used:"$'\n'"$out$err"

# ---- a compile database, found for named files as for directories ------------
for where in . build; do
    d=$TMP/db_$where
    mkdir -p "$d/src" "$d/third/mylib" "$d/$where"
    : >"$d/.git"
    printf '%s\n' "$sync_h" >"$d/third/mylib/mylib.h"
    { echo '#include "mylib.h"'; printf '%s\n' "$capture"; } >"$d/src/user.cu"
    printf '[{"directory": "%s", "file": "src/user.cu", "arguments": ["nvcc", "-I%s/third/mylib", "-c", "src/user.cu"]}]\n' \
        "$d" "$d" >"$d/$where/compile_commands.json"
    for how in dir named; do
        check
        if [ $how = dir ]; then run "$d" .; else run "$d" src/user.cu third/mylib/mylib.h; fi
        [ "$rc" -eq 1 ] && grep -q 'mylib.h:3:37: .*\[CG104\]' <<<"$out" ||
            fail "database in $where ($how): exit $rc:"$'\n'"$out$err"
    done
done
# compile-commands in the configuration
d=$TMP/db_cfg
mkdir -p "$d/src" "$d/third/mylib" "$d/out/x"
printf '%s\n' "$sync_h" >"$d/third/mylib/mylib.h"
{ echo '#include "mylib.h"'; printf '%s\n' "$capture"; } >"$d/src/user.cu"
printf '[{"directory": "%s", "file": "src/user.cu", "arguments": ["nvcc", "-I%s/third/mylib", "-c", "src/user.cu"]}]\n' \
    "$d" "$d" >"$d/out/x/compile_commands.json"
printf '[tool.cglint]\ncompile-commands = "out/x"\n' >"$d/pyproject.toml"
out=$(cd "$d" && "$CGLINT" --cuda-mode shim --color never src/user.cu third/mylib/mylib.h 2>"$TMP/err"); rc=$?; err=$(cat "$TMP/err")
check
[ "$rc" -eq 1 ] && grep -q 'mylib.h:3:37: .*\[CG104\]' <<<"$out" || fail "compile-commands key: exit $rc:"$'\n'"$out$err"

# ---- named files parse themselves, not every capture file of the project -----
d=$TMP/speed
mkdir -p "$d/src"
: >"$d/.git"
for i in 1 2 3 4; do printf '%s\n' "$capture" | sed "s/record/record$i/; s/drain(s);/cudaDeviceSynchronize();/" >"$d/src/cap$i.cu"; done
n=$(cd "$d" && CGLINT_CU_TIMES=1 "$CGLINT" --cuda-mode shim --isolated -q src/cap1.cu 2>&1 >/dev/null | grep -c '^cu-times')
check
[ "$n" -eq 1 ] || fail "named file: $n files parsed, expected 1 (the project's other capture files are not needed)"
n=$(cd "$d" && CGLINT_CU_TIMES=1 "$CGLINT" --cuda-mode shim --isolated -q . 2>&1 >/dev/null | grep -c '^cu-times')
check
[ "$n" -eq 4 ] || fail "directory: $n files parsed, expected 4"

if [ "$fails" -eq 0 ]; then echo "all $checks header checks passed"; exit 0; fi
echo "$fails of $checks header checks failed"
exit 1
