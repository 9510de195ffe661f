#!/usr/bin/env bash
# speed.sh - issue 16's table: cold, warm and one-changed-file runs, before and
# after the project index, with hyperfine; the scaling rows (1x, 2x, 4x copies
# of Megatron-LM side by side) and peak memory (/usr/bin/time -v).
#
#   bench/speed.sh --before OLD_CGLINT --after NEW_CGLINT [--runs N] [--cold-runs N]
#                  [--mega DIR] [--torch DIR] [--te DIR] [--work DIR] [--out DIR] [--reuse]
#                  [--cases "NAME..."]
#
# The corpora are copied into --work (default /tmp/cglint-speed) first: the
# runs write .cglint_cache/ into the trees they analyse, and the "changed
# file" cases edit a file before every timed run (hyperfine --prepare
# appends a comment line). Every cglint command gets --isolated (a corpus's
# own configuration must not change what is measured) and -q --exit-zero.
# Results: one hyperfine JSON per case under --out, and a Markdown table on
# stdout (median, min, mean of each command; "before" is the old binary's run
# of the same command, which has no cache).
set -euo pipefail
BEFORE= AFTER= RUNS=10 COLD_RUNS=5 REUSE=0
MEGA=/work/corpus/Megatron-LM TORCH=/work/corpus/mcPytorch TE=/work/corpus/TransformerEngine
WORK=/tmp/cglint-speed OUT= CASES=
while [ $# -gt 0 ]; do
    case $1 in
        --before) BEFORE=$2; shift 2 ;;
        --after) AFTER=$2; shift 2 ;;
        --runs) RUNS=$2; shift 2 ;;
        --cold-runs) COLD_RUNS=$2; shift 2 ;;
        --mega) MEGA=$2; shift 2 ;;
        --torch) TORCH=$2; shift 2 ;;
        --te) TE=$2; shift 2 ;;
        --work) WORK=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --reuse) REUSE=1; shift ;;   # keep the copies of an earlier run
        --cases) CASES=$2; shift 2 ;; # only these cases (mega-cold mega-warm mega-named-unreached ... x4-named, memory)
        *) echo "speed.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -x "$BEFORE" ] && [ -x "$AFTER" ] || { echo "speed.sh: --before and --after name cglint binaries" >&2; exit 2; }
OUT=${OUT:-$WORK/results}
mkdir -p "$WORK" "$OUT"
# private copies of the binaries: a rebuild during the run changes nothing
cp "$BEFORE" "$WORK/cglint-before"; cp "$AFTER" "$WORK/cglint-after"
B=$WORK/cglint-before A=$WORK/cglint-after
FLAGS="-q --exit-zero --isolated"

if [ "$REUSE" = 0 ]; then
echo "# setting up copies under $WORK" >&2
rm -rf "$WORK/mega" "$WORK/x2" "$WORK/x4" "$WORK/torch" "$WORK/te"
mkdir -p "$WORK/torch"
cp -a "$MEGA" "$WORK/mega"; rm -rf "$WORK/mega/.cglint_cache"
for n in 2 4; do
    mkdir -p "$WORK/x$n"; : >"$WORK/x$n/pyproject.toml"
    # one project of n copies: the copies lose their own root markers
    for i in $(seq 1 $n); do cp -a "$MEGA" "$WORK/x$n/copy$i"; rm -rf "$WORK/x$n/copy$i/.cglint_cache" "$WORK/x$n/copy$i/.git" "$WORK/x$n/copy$i/pyproject.toml"; done
done
# PyTorch: the Python files and the project marker (a named .py file's run reads no C++)
(cd "$TORCH" && find . \( -name '*.py' -o -name pyproject.toml \) -print0 | tar --null -T - -cf - | tar -xf - -C "$WORK/torch")
cp -a "$TE" "$WORK/te"; rm -rf "$WORK/te/.cglint_cache"
sleep 3   # past the index's "racy" window for the copied files
fi

UNREACHED=megatron/core/num_microbatches_calculator.py      # no capture reaches it
REACHED=megatron/core/models/gpt/gpt_model.py                # a capture reaches it (parsed)
TORCH_FILE=torch/optim/adam.py
CU=tests/cpp/operator/test_grouped_gemm.cu
CLANG_FLAGS="-fsyntax-only -x cuda --cuda-host-only -std=c++17 --cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl -Wno-unknown-cuda-version -w -ferror-limit=0 -I transformer_engine/common/util -I transformer_engine/common/include -I transformer_engine/common"
# the edit before each timed run: a comment line appended (hyperfine -N runs
# --prepare without a shell, so through this script)
cat >"$WORK/edit.sh" <<'SH'
#!/bin/sh
# edit.sh FILE [PREFIX]: append a comment line that differs every time
printf '%s edited %s\n' "${2:-#}" "$(date +%s%N)" >>"$1"
SH
chmod +x "$WORK/edit.sh"
want() { [ -z "$CASES" ] || [[ " $CASES " == *" $1 "* ]]; }
touch_cmd() { echo "$WORK/edit.sh $1 ${2:-#}"; }

hf() { # NAME DIR RUNS hyperfine-args...
    local name=$1 dir=$2 runs=$3
    shift 3
    want "$name" || return 0
    echo "# $name" >&2
    (cd "$dir" && hyperfine -N -i --style basic --runs "$runs" --export-json "$OUT/$name.json" "$@" >&2) ||
        (cd "$dir" && hyperfine -i --style basic --runs "$runs" --export-json "$OUT/$name.json" "$@" >&2)
}

# warm the caches (one run each)
for d in mega x2 x4; do (cd "$WORK/$d" && "$A" $FLAGS . >/dev/null 2>&1 || true); done
(cd "$WORK/mega" && "$A" $FLAGS $UNREACHED $REACHED >/dev/null 2>&1 || true)
(cd "$WORK/torch" && "$A" $FLAGS $TORCH_FILE >/dev/null 2>&1 || true)
(cd "$WORK/te" && "$A" $FLAGS $CU >/dev/null 2>&1 || true)

hf mega-cold "$WORK/mega" "$COLD_RUNS" --warmup 1 \
    -n before "$B $FLAGS ." -n before-j1 "$B $FLAGS -j1 ." \
    -n after "$A $FLAGS --no-cache ." -n after-j1 "$A $FLAGS --no-cache -j1 ."
hf mega-warm "$WORK/mega" "$RUNS" --warmup 2 -n before "$B $FLAGS ." -n after "$A $FLAGS ."
hf mega-named-unreached "$WORK/mega" "$RUNS" --warmup 1 \
    --prepare "$(touch_cmd $UNREACHED)" -n before "$B $FLAGS $UNREACHED" \
    --prepare "$(touch_cmd $UNREACHED)" -n after "$A $FLAGS $UNREACHED"
hf mega-named-reached "$WORK/mega" "$COLD_RUNS" --warmup 1 \
    --prepare "$(touch_cmd $REACHED)" -n before "$B $FLAGS $REACHED" \
    --prepare "$(touch_cmd $REACHED)" -n after "$A $FLAGS $REACHED"
hf torch-named "$WORK/torch" "$COLD_RUNS" --warmup 1 \
    --prepare "$(touch_cmd $TORCH_FILE)" -n before "$B $FLAGS $TORCH_FILE" \
    --prepare "$(touch_cmd $TORCH_FILE)" -n after "$A $FLAGS $TORCH_FILE"
hf torch-named-unchanged "$WORK/torch" "$COLD_RUNS" --warmup 1 -n before "$B $FLAGS $TORCH_FILE" -n after "$A $FLAGS $TORCH_FILE"
hf te-cu-named "$WORK/te" 3 --warmup 1 \
    --prepare "$(touch_cmd $CU //)" -n before "$B $FLAGS $CU" \
    --prepare "$(touch_cmd $CU //)" -n after "$A $FLAGS $CU" \
    --prepare true -n clang "clang-22 $CLANG_FLAGS $CU"
hf te-cu-named-unchanged "$WORK/te" "$RUNS" --warmup 1 -n after "$A $FLAGS $CU"
for n in 2 4; do
    hf "x$n-cold" "$WORK/x$n" "$COLD_RUNS" --warmup 1 -n before "$B $FLAGS ." -n after "$A $FLAGS --no-cache ."
    hf "x$n-warm" "$WORK/x$n" "$RUNS" --warmup 2 -n after "$A $FLAGS ."
    hf "x$n-named" "$WORK/x$n" "$RUNS" --warmup 1 \
        --prepare "$(touch_cmd copy1/$UNREACHED)" -n after "$A $FLAGS copy1/$UNREACHED"
done

# peak memory, whole Megatron-LM tree
if want memory; then
mem() { (cd "$1" && /usr/bin/time -v "${@:2}" >/dev/null 2>"$OUT/time.txt" || true); grep 'Maximum resident' "$OUT/time.txt" | awk '{printf "%.1f", $6/1024}'; }
echo "| peak memory (MB), Megatron-LM | before | after cold | after warm |"
echo "|---|--:|--:|--:|"
echo "| whole tree | $(mem "$WORK/mega" "$B" $FLAGS .) | $(mem "$WORK/mega" "$A" $FLAGS --no-cache .) | $(mem "$WORK/mega" "$A" $FLAGS .) |"
echo "| 4 copies | $(mem "$WORK/x4" "$B" $FLAGS .) | $(mem "$WORK/x4" "$A" $FLAGS --no-cache .) | $(mem "$WORK/x4" "$A" $FLAGS .) |"
echo
fi
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
print("| case | command | median (s) | min (s) | mean ± sd (s) | user (s) | system (s) |")
print("|---|---|--:|--:|--:|--:|--:|")
for f in sorted(os.listdir(out)):
    if not f.endswith(".json"):
        continue
    for r in json.load(open(os.path.join(out, f)))["results"]:
        print("| %s | %s | %.3f | %.3f | %.3f ± %.3f | %.3f | %.3f |" % (f[:-5], r["command"], r["median"], r["min"],
              r["mean"], r["stddev"] or 0, r["user"], r["system"]))
PY
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg), nproc $(nproc)"
