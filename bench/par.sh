#!/usr/bin/env bash
# par.sh - issue 16's remainder: cold runs on one thread and on every core, and
# a warm Python-only run with libclang linked (BEFORE) and loaded lazily
# (AFTER), with hyperfine.  One run of the script gives one table.
#
#   bench/par.sh --before OLD_CGLINT --after NEW_CGLINT [--runs N] [--cold-runs N]
#                [--te-runs N] [--mega DIR] [--torch DIR] [--te DIR] [--work DIR] [--out DIR]
#
# Cold rows: --no-cache (nothing is written to the trees), --jobs 1 and
# --jobs 2, AFTER only; PyTorch is torch/ and test/ of the tree (Python and
# the C/C++ beside it), TransformerEngine the whole tree (--te-runs runs of
# each, default 1 and no warm-up: minutes a run on a loaded machine).  Warm row: a copy of
# Megatron-LM under --work with a warm index, one file no capture reaches
# edited before every timed run (--prepare) and named; then the loader's own
# account of start-up (LD_DEBUG=statistics) for both binaries.  Every command
# gets -q --exit-zero --isolated.  Results: hyperfine JSON per case under
# --out, a Markdown table (median, min, user+system) on stdout.
set -euo pipefail
BEFORE= AFTER= RUNS=20 COLD_RUNS=5 TE_RUNS=1
MEGA=/work/corpus/Megatron-LM TORCH=/work/corpus/mcPytorch TE=/work/corpus/TransformerEngine
WORK=/tmp/cglint-par OUT=
while [ $# -gt 0 ]; do
    case $1 in
        --before) BEFORE=$2; shift 2 ;;
        --after) AFTER=$2; shift 2 ;;
        --runs) RUNS=$2; shift 2 ;;
        --cold-runs) COLD_RUNS=$2; shift 2 ;;
        --te-runs) TE_RUNS=$2; shift 2 ;;
        --mega) MEGA=$2; shift 2 ;;
        --torch) TORCH=$2; shift 2 ;;
        --te) TE=$2; shift 2 ;;
        --work) WORK=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        *) echo "par.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -x "$BEFORE" ] && [ -x "$AFTER" ] || { echo "par.sh: --before and --after name cglint binaries" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "par.sh: hyperfine is not installed" >&2; exit 2; }
OUT=${OUT:-$WORK/results}
mkdir -p "$WORK" "$OUT"
cp "$BEFORE" "$WORK/cglint-before"; cp "$AFTER" "$WORK/cglint-after"
B=$WORK/cglint-before A=$WORK/cglint-after
FLAGS="-q --exit-zero --isolated"

row() { # NAME JSON...: "| name | median (min) s, user+sys s |" per command
    python3 - "$@" <<'PY'
import json, sys
name, files = sys.argv[1], sys.argv[2:]
cells = []
for f in files:
    for r in json.load(open(f))["results"]:
        cells.append("%.3f (%.3f) s, %.3f s CPU" % (r["median"], r["min"], r["user"] + r["system"]))
print("| %s | %s |" % (name, " | ".join(cells)))
PY
}

echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| case | --jobs 1 | --jobs 2 |"
echo "|---|--:|--:|"
cold() { # NAME RUNS WARMUP DIR PATHS...
    local name=$1 runs=$2 warm=$3 dir=$4
    shift 4
    (cd "$dir" && hyperfine -N -w "$warm" -r "$runs" --export-json "$OUT/cold-$name.json" \
        "$A $FLAGS --no-cache --jobs 1 $*" "$A $FLAGS --no-cache --jobs 2 $*" >&2)
    row "$name, cold" "$OUT/cold-$name.json"
}
cold megatron "$COLD_RUNS" 1 "$MEGA" .
cold pytorch "$COLD_RUNS" 1 "$TORCH" torch test
cold te "$TE_RUNS" 0 "$TE" .

echo
echo "| case | before (linked) | after (lazy) |"
echo "|---|--:|--:|"
rm -rf "$WORK/mega"
cp -a "$MEGA" "$WORK/mega"
rm -rf "$WORK/mega/.cglint_cache"
sleep 3   # past the index's "racy" window for the copied files
F=megatron/core/num_microbatches_calculator.py   # no capture reaches it
# the edit before each timed run (hyperfine -N runs --prepare without a shell)
printf '#!/bin/sh\nprintf "# edited %%s\\n" "$(date +%%s%%N)" >>"$1"\n' >"$WORK/edit.sh"
chmod +x "$WORK/edit.sh"
(cd "$WORK/mega" && "$A" $FLAGS . && "$B" $FLAGS --cache-dir "$WORK/cache-before" . )   # warm both indexes
(cd "$WORK/mega" && hyperfine -N -w 2 -r "$RUNS" --export-json "$OUT/warm-named.json" \
    --prepare "$WORK/edit.sh $F" \
    "$B $FLAGS --cache-dir $WORK/cache-before $F" "$A $FLAGS $F" >&2)
row "Megatron-LM, one changed .py named, warm" "$OUT/warm-named.json"
(cd "$WORK/mega" && hyperfine -N -w 2 -r "$RUNS" --export-json "$OUT/warm-tree.json" \
    "$B $FLAGS --cache-dir $WORK/cache-before ." "$A $FLAGS ." >&2)
row "Megatron-LM whole tree, warm, nothing changed" "$OUT/warm-tree.json"
for bin in "$B" "$A"; do
    (cd "$WORK/mega" && LD_DEBUG=statistics "$bin" $FLAGS --cache-dir "$WORK/cache-$(basename "$bin")" $F 2>&1 >/dev/null |
        grep -E 'total startup time|final number of relocations:' | sed "s|^ *[0-9]*: *|# $(basename "$bin"): |") >&2
    echo "# $(basename "$bin"): $(ldd "$bin" | grep -cE 'libclang|libLLVM') of libclang/libLLVM in ldd" >&2
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
