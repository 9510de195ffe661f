#!/usr/bin/env bash
# cache.sh - the project index in .cglint_cache/ (issue 16): a warm run says
# byte for byte what a cold run says, on the fixture tree, on a generated
# multi-package project and (when CGLINT_TEST_REAL_TREE names one, such as a
# Megatron-LM checkout, which is copied first) on a real tree; after editing
# a file a capture reaches, one it does not, and one that gains a capture;
# with corrupt entries; named files; --no-cache, --cache-dir and cache-dir;
# a read-only project.  Also: -j1 and -j4 (with and without CGLINT_LOOKAHEAD=1)
# agree byte for byte on these trees.
# CGLINT_TRACE_CACHE=1 makes cglint say whether the memo answered, so the
# test knows a warm run really was one.
. "$(dirname "$0")/lib.sh"

# both outputs of a run, in one file: stdout, a separator, stderr, the status
snap() { # OUT ARGS...
    local o=$1
    shift
    "$CGLINT" "$@" >"$o" 2>"$o.err"
    echo "rc=$?" >>"$o.err"
    grep -v '^cglint: cache:' "$o.err" >>"$o"
}
# warm run (cache on, traced) and cold run (--no-cache) compared byte for byte;
# WANT is "hit", "miss" or "any" (what the warm run must say)
same_as_cold() { # NAME WANT ARGS...
    local name=$1 want=$2
    shift 2
    CGLINT_TRACE_CACHE=1 snap "$TMP/warm" "$@"
    snap "$TMP/cold" --no-cache "$@"
    local said
    said=$(grep -o 'cache: python [a-z]*' "$TMP/warm.err" | head -1 | sed 's/cache: python //')
    if ! cmp -s "$TMP/warm" "$TMP/cold"; then
        nok "$name" "warm and cold runs differ:" "$(diff "$TMP/cold" "$TMP/warm" | head -8)"
    elif [ "$want" != any ] && [ "$said" != "$want" ]; then
        nok "$name" "the warm run's memo said '$said', wanted '$want'" "$(cat "$TMP/warm.err")"
    else
        ok "$name"
    fi
}
jobs_agree() { # NAME ARGS...  (-j4 also with the lookahead parser on)
    local name=$1
    shift
    snap "$TMP/j1" --no-cache -j1 "$@"
    snap "$TMP/j4" --no-cache -j4 "$@"
    CGLINT_LOOKAHEAD=1 snap "$TMP/j4la" --no-cache -j4 "$@"
    if cmp -s "$TMP/j1" "$TMP/j4" && cmp -s "$TMP/j1" "$TMP/j4la"; then ok "$name"
    else nok "$name" "$(diff "$TMP/j1" "$TMP/j4" | head -6)" "$(diff "$TMP/j1" "$TMP/j4la" | head -6)"; fi
}

# ---- a generated project: packages, classes, helpers reached across modules ----
gen_project() { # DIR
    local d=$1 p i
    for p in core models train; do
        mkdir -p "$d/$p"
        : >"$d/$p/__init__.py"
        for i in $(seq 1 12); do
            cat >"$d/$p/util$i.py" <<PY
import torch


def scale$i(x):
    return x * $i


def host$i(x):
    return x.sum().item()


class Block$i(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(4))

    def forward(self, x):
        return scale$i(x) * self.w
PY
        done
    done
    cat >"$d/train/loop.py" <<'PY'
import torch
from core.util1 import scale1
from core.util2 import host2
from models.util3 import Block3
from train import util4


def step(model, static_x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(static_x)
        z = scale1(y)
        host2(z)
        util4.host4(z)
    g.replay()


def main():
    m = Block3().cuda()
    x = torch.zeros(4, device="cuda")
    step(m, x)
PY
    cat >"$d/models/graphed.py" <<'PY'
import torch
from core.util5 import Block5

block = Block5().cuda()
graphed = torch.cuda.make_graphed_callables(block, (torch.zeros(4, device="cuda"),))
s = torch.cuda.Stream()
g = torch.cuda.CUDAGraph()
g.capture_begin()
out = block(torch.zeros(4, device="cuda"))
print(out.item())
g.capture_end()
PY
    : >"$d/pyproject.toml"
}

P=$TMP/proj
gen_project "$P"
cd "$P" || exit 1
sleep 0.2   # past the "racy" window, so the index records the files

# ---- the directory and what it holds ---------------------------------------
run "$CGLINT" --no-cache .
[ ! -e .cglint_cache ] && ok "--no-cache writes nothing" || nok "--no-cache writes nothing" "$(ls -a .cglint_cache)"
same_as_cold "first run (no entry yet) equals a cold run" miss .
if [ -f .cglint_cache/.gitignore ] && grep -qx '\*' .cglint_cache/.gitignore &&
   grep -q '^Signature: 8a477f597d28d172789f06886806bc55' .cglint_cache/CACHEDIR.TAG; then
    ok "the cache directory has a .gitignore of * and a CACHEDIR.TAG"
else
    nok "the cache directory has a .gitignore of * and a CACHEDIR.TAG" "$(ls -a .cglint_cache)"
fi
grep -q 'core/util2.py' "$TMP/cold" && grep -q 'train/util4.py' "$TMP/cold" && ok "the generated project has findings across modules" ||
    nok "the generated project has findings across modules" "$(head -20 "$TMP/cold")"
same_as_cold "warm, nothing changed: the memo answers, byte for byte" hit .
same_as_cold "warm, JSON" hit -f json .
same_as_cold "warm, SARIF" hit -f sarif .
jobs_agree "generated project: -j1 and -j4 agree" -f json .

# ---- edits ----------------------------------------------------------------------
printf '\n# a comment\n' >>core/util9.py
# a file no capture reaches mattered only through the names it calls and
# imports that the callers search asked about: an edit that leaves those
# alone keeps the entry (and rewrites it with the file's new digest)
same_as_cold "an edited file no capture reaches: the memo answers, as a cold run" hit -f json .
CGLINT_TRACE_CACHE=1 "$CGLINT" -f json . 2>&1 >/dev/null | grep -qx 'cglint: cache: python hit' &&
    ok "the entry was written back: the next run answers from stats" ||
    nok "the entry was written back: the next run answers from stats" "$(CGLINT_TRACE_CACHE=1 "$CGLINT" . 2>&1 >/dev/null)"
printf 'def unrelated_helper(x):\n    return helper_of_helpers(x)\n' >>core/util9.py
same_as_cold "new calls of names the analysis never asked about: the memo answers" hit -f json .
cp core/util9.py "$TMP/util9.py"
# a new caller of the function that captures (step, imported): its
# arguments flow into the capture, so the analysis must run again
printf 'from train.loop import step\n\n\ndef feeds(m, x):\n    return step(m, x)\n' >>core/util9.py
same_as_cold "an unreached file that now calls a reached function: its capture file re-analysed" partial -f json .
cp "$TMP/util9.py" core/util9.py
same_as_cold "that call removed again" any -f json .
printf '# caf\xe9\n' >>core/util9.py
same_as_cold "an unreached file that stops being UTF-8: re-analysed (its error reported)" miss .
grep -q 'util9.py' "$TMP/warm" && ok "the unreadable file is named" || nok "the unreadable file is named" "$(cat "$TMP/warm")"
cp "$TMP/util9.py" core/util9.py
cp core/util1.py "$TMP/util1.py"
sed -i 's/return x \* 1$/return x.item() * 1/' core/util1.py
same_as_cold "an edited file a capture reaches is analysed again" miss -f json .
grep -q 'util1.py' "$TMP/warm" && ok "the edit's new finding is reported" ||
    nok "the edit's new finding is reported" "$(head -30 "$TMP/warm")"
cp "$TMP/util1.py" core/util1.py
same_as_cold "the edit undone: the old findings again" any -f json .
grep -q 'core/util1.py' "$TMP/warm" && nok "no stale finding after the undo" "$(grep util1 "$TMP/warm")" ||
    ok "no stale finding after the undo"
cat >>core/util10.py <<'PY'


def later():
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        torch.cuda.synchronize()
PY
same_as_cold "a file that gains a capture is analysed" miss -f json .
grep -q 'util10.py' "$TMP/warm" && ok "the new capture's finding is reported" ||
    nok "the new capture's finding is reported" "$(head -30 "$TMP/warm")"
printf 'def broken(:\n' >core/broken.py
same_as_cold "a new file that does not parse" miss .
rm core/broken.py
same_as_cold "a file removed: the entry of that file set, checked again" any .

# ---- named files (pre-commit) ------------------------------------------------
same_as_cold "named file, cold entry" any core/util1.py train/loop.py
same_as_cold "named file, warm" hit core/util1.py train/loop.py
printf '\n# touched\n' >>core/util11.py
same_as_cold "named file no capture reaches, edited (what pre-commit runs): the memo answers" hit core/util11.py
printf '\n# touched\n' >>core/util1.py
same_as_cold "named file, the named file edited" any -f json core/util1.py
sed -i 's/return x \* 1$/return x.item() * 1/' core/util1.py
same_as_cold "named file, edited into a hazard" partial core/util1.py
grep -q 'core/util1.py' "$TMP/warm" && ok "the named file's new hazard is reported" ||
    nok "the named file's new hazard is reported" "$(cat "$TMP/warm")"

# ---- partial runs: only the capture files an edit can affect ------------------
same_as_cold "partial: a fresh entry" any -f json .
sed -i 's/return x \* 2$/return x.item() * 2/' core/util2.py 2>/dev/null
cp core/util1.py "$TMP/util1b.py"
sed -i 's/return x.item() \* 1$/return x * 1/' core/util1.py
same_as_cold "partial: a module one capture file's analysis loaded, edited" partial -f json .
grep -q 'python partial (1 of 3 ' "$TMP/warm.err" && ok "partial: only that capture file is analysed again" ||
    nok "partial: only that capture file is analysed again" "$(cat "$TMP/warm.err")"
grep -q '"path": "core/util1.py"' "$TMP/warm" && nok "partial: the removed hazard is gone" "$(grep -c util1 "$TMP/warm")" ||
    ok "partial: the removed hazard is gone"
same_as_cold "partial: then nothing changed: a hit" hit -f json .
cp "$TMP/util1b.py" core/util1.py
same_as_cold "partial: the hazard back" partial -f json .
grep -q '"path": "core/util1.py"' "$TMP/warm" && ok "partial: its finding is back" || nok "partial: its finding is back" "$(head -20 "$TMP/warm")"
printf '
with torch.cuda.graph(torch.cuda.CUDAGraph()):
    late = torch.ones(1).item()
' >>models/graphed.py
same_as_cold "partial: a capture file edited (a new capture in it)" partial -f json .
grep -q '"line": 13' "$TMP/warm" && ok "partial: the new capture's finding" || nok "partial: the new capture's finding" "$(grep -n line "$TMP/warm" | head)"
printf 'from core import util12
' >>models/graphed.py
same_as_cold "a capture file's imports changed: a full run" miss -f json .
grep -q 'imports of a capture file changed' "$TMP/warm.err" && ok "the reason is said (CGLINT_TRACE_CACHE)" ||
    nok "the reason is said (CGLINT_TRACE_CACHE)" "$(cat "$TMP/warm.err")"
printf '
# named
' >>core/util2.py
same_as_cold "partial: a named file a capture reaches (pre-commit)" partial core/util2.py
printf 'def broken(:
' >>core/util2.py
same_as_cold "partial: a reached file that stops parsing" any -f json .
grep -q 'util2.py' "$TMP/warm" && ok "partial: its parse error is reported" || nok "partial: its parse error is reported" "$(cat "$TMP/warm" | head)"
sed -i '$d' core/util2.py
same_as_cold "partial: and parses again" any -f json .
jobs_agree "partial: -j1 and -j4 agree on the edited project" -f json .

# ---- corrupt entries are ignored and rebuilt ----------------------------------
same_as_cold "before corrupting" any -f json .
for f in .cglint_cache/memo/*; do printf 'garbage' >"$f"; done
same_as_cold "a corrupt memo entry is ignored" miss -f json .
same_as_cold "and rebuilt" hit -f json .
for f in .cglint_cache/memo/*; do head -c 100 "$f" >"$f.t" && mv "$f.t" "$f"; done
same_as_cold "a truncated memo entry is ignored" miss -f json .
head -c 50 .cglint_cache/index >"$TMP/idx" && cp "$TMP/idx" .cglint_cache/index
same_as_cold "a truncated index is ignored" any -f json .
for f in .cglint_cache/memo/*; do
    python3 - "$f" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[-3] ^= 0x55   # one flipped byte in the payload
open(p, "wb").write(b)
PY
done
same_as_cold "a memo entry with a flipped byte is ignored" miss -f json .

# ---- --cache-dir, cache-dir, CGLINT_CACHE_DIR, read-only trees --------------------
run "$CGLINT" --cache-dir "$TMP/elsewhere" .
[ -f "$TMP/elsewhere/CACHEDIR.TAG" ] && ls "$TMP/elsewhere/memo" | grep -q py- && ok "--cache-dir DIR holds the index" ||
    nok "--cache-dir DIR holds the index" "$(ls -aR "$TMP/elsewhere" 2>&1 | head)"
printf '[tool.cglint]\ncache-dir = "build-cache/cg"\n' >pyproject.toml
run "$CGLINT" .
[ -f build-cache/cg/CACHEDIR.TAG ] && ok "cache-dir in pyproject.toml, relative to it" ||
    nok "cache-dir in pyproject.toml, relative to it" "$err"
printf '[tool.cglint]\ncache-dir = 3\n' >pyproject.toml
run "$CGLINT" .
one_error "cache-dir must be a string" "cache-dir"
: >pyproject.toml
rm -rf build-cache
printf 'x' >"$TMP/afile"
run "$CGLINT" --cache-dir "$TMP/afile/sub" .
if [ "$rc" = 1 ] && grep -q "warning: .*cache" <<<"$err"; then ok "an unusable --cache-dir: one warning, the run goes on"
else nok "an unusable --cache-dir: one warning, the run goes on" "rc=$rc" "$err"; fi
run "$CGLINT" --cache-dir "" .
one_error "an empty --cache-dir is a usage error" "--cache-dir"
if [ "$(id -u)" != 0 ]; then
    R=$TMP/ro
    gen_project "$R"
    chmod -R a-w "$R"
    (cd "$R" && "$CGLINT" . >"$TMP/ro.out" 2>"$TMP/ro.err"); rc=$?
    chmod -R u+w "$R"
    if [ "$rc" = 1 ] && [ ! -s "$TMP/ro.err" ]; then ok "a read-only project: no cache, no complaint"
    else nok "a read-only project: no cache, no complaint" "rc=$rc" "$(cat "$TMP/ro.err")"; fi
fi

# ---- the fixture tree and the examples ----------------------------------------------
F=$TMP/fixtures
cp -r "$SRC/tests/fixtures/py" "$F"
cp -r "$SRC/examples" "$F/examples"
mkdir "$F/.git"
cd "$F" || exit 1
sleep 0.2
same_as_cold "fixture tree: first run" any -f json .
same_as_cold "fixture tree: warm" hit -f json .
same_as_cold "fixture tree: warm, text with the source lines" hit .
jobs_agree "fixture tree: -j1 and -j4 agree" -f json .

# ---- C/C++/CUDA: the front end's memo, and headers outside the tree ------------------
C=$TMP/cu
mkdir -p "$C/src" "$TMP/ext"
mkdir -p "$C/fixtures" && cp -r "$SRC/tests/fixtures/cu/CG104" "$SRC/tests/fixtures/cu/CG106" "$C/fixtures/"
printf '#pragma once\n#define EXT_SYNC() ((void)0)\n' >"$TMP/ext/ext.h"
cat >"$C/src/cap.cu" <<'CU'
#include <cuda_runtime.h>
#include "ext.h"

__global__ void step(float *x, int n) {}

void capture(float *d_x, float *h_x, int n)
{
    cudaStream_t s;
    cudaGraph_t g;
    cudaStreamCreate(&s);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    step<<<(n + 255) / 256, 256, 0, s>>>(d_x, n);
    EXT_SYNC();
    cudaStreamEndCapture(s, &g);
}
CU
mkdir "$C/.git"
cd "$C" || exit 1
sleep 0.2
cuda_same() { # NAME WANT ARGS...
    local name=$1 want=$2 said
    shift 2
    CGLINT_TRACE_CACHE=1 snap "$TMP/warm" "$@"
    snap "$TMP/cold" --no-cache "$@"
    said=$(grep -o 'cache: cuda [a-z]*' "$TMP/warm.err" | head -1 | sed 's/cache: cuda //')
    if ! cmp -s "$TMP/warm" "$TMP/cold"; then nok "$name" "$(diff "$TMP/cold" "$TMP/warm" | head -8)"
    elif [ "$want" != any ] && [ "$said" != "$want" ]; then nok "$name" "the memo said '$said', wanted '$want'"
    else ok "$name"; fi
}
cuda_same "C/C++/CUDA tree: first run" any -f json --cuda-mode shim -I "$TMP/ext" .
cuda_same "C/C++/CUDA tree: warm" hit -f json --cuda-mode shim -I "$TMP/ext" .
grep -q '"path": "fixtures/' "$TMP/warm" && ok "the C/C++/CUDA fixtures have findings" || nok "the C/C++/CUDA fixtures have findings" "$(head -c 600 "$TMP/warm")"
cuda_same "C/C++/CUDA: other flags, another entry" miss -f json --cuda-mode shim -I "$TMP/ext" -D X=1 .
printf '#pragma once\n#include <cuda_runtime.h>\n#define EXT_SYNC() cudaDeviceSynchronize()\n' >"$TMP/ext/ext.h"
cuda_same "a header outside the tree edited: analysed again" miss -f json --cuda-mode shim -I "$TMP/ext" .
grep -q '"path": "src/cap.cu"' "$TMP/warm" && ok "the header's new hazard is reported at its call" ||
    nok "the header's new hazard is reported at its call" "$(grep -c rule "$TMP/warm") findings"
cuda_same "named .cu, first run" any -f json --cuda-mode shim -I "$TMP/ext" src/cap.cu
cuda_same "named .cu, warm" hit -f json --cuda-mode shim -I "$TMP/ext" src/cap.cu
printf '\n// edited\n' >>src/cap.cu
cuda_same "named .cu edited" miss -f json --cuda-mode shim -I "$TMP/ext" src/cap.cu
jobs_agree "C/C++/CUDA tree: -j1 and -j4 agree" -f json --cuda-mode shim -I "$TMP/ext" .

# ---- a real tree, when one is given ---------------------------------------------------
if [ -n "${CGLINT_TEST_REAL_TREE:-}" ] && [ -d "$CGLINT_TEST_REAL_TREE" ]; then
    cp -r "$CGLINT_TEST_REAL_TREE" "$TMP/real"
    cd "$TMP/real" || exit 1
    rm -rf .cglint_cache
    sleep 0.2
    same_as_cold "real tree: first run" any -f json --isolated .
    same_as_cold "real tree: warm" hit -f json --isolated .
    jobs_agree "real tree: -j1 and -j4 agree" -f json --isolated .
    f=$(grep -rlE --include='*.py' 'CUDAGraph|cuda\.graph' . | sort | head -1)
    printf '\nimport torch\n' >>"$f"
    same_as_cold "real tree: a capture file edited" miss -f json --isolated .
    same_as_cold "real tree: named, warm" any -f json --isolated "$f"
else
    echo "# CGLINT_TEST_REAL_TREE not set: the real-tree part is skipped"
fi
finish
