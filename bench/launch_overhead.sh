#!/usr/bin/env bash
# bench/launch_overhead.sh - what `cglint run` costs eager CUDA C launches,
# measured closely: bench/launch_loop.cu (tiny kernels launched one by one,
# the fastest of 5 synchronised blocks; then a capture and eager launches
# again after it) run plainly and under `cglint run` (its CUPTI library),
# alternating, PAIRS times.  Each pair's ratio is printed as it is measured
# (a call that runs out of time still says what it had), then the median
# ratio with a 95% bootstrap interval, for launches before the capture and
# after it.  bench/runtime_overhead.sh measures everything else (and this with
# 3-5 runs, where run-to-run spread was larger than the effect).
#
# Usage: bench/launch_overhead.sh [--cglint PATH] [--pairs N] [--launches N] [--pin CPU]
# --pin CPU runs the program (not cglint) on that CPU in both variants
# (taskset): without it, where the scheduler put the launching thread moved
# single runs by 20%.  Environment variables reach the CUPTI library
# (CGLINT_CUPTI_DURING=calls, CGLINT_CUPTI_ALL=1: bench/runtime_overhead.sh).
# Needs a GPU and nvcc.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CGLINT=$REPO/build/cglint
PAIRS=20
LAUNCHES=50000
PIN=
while [ $# -gt 0 ]; do
    case "$1" in
    --cglint) CGLINT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --pairs) PAIRS=$2; shift 2 ;;
    --launches) LAUNCHES=$2; shift 2 ;;
    --pin) PIN=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "launch_overhead.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "launch_overhead.sh: needs nvcc" >&2; exit 77; }
[ -x "$CGLINT" ] || { echo "launch_overhead.sh: no cglint at $CGLINT" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-launch.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
"$NVCC" -O2 -o "$TMP/launch_loop" "$REPO/bench/launch_loop.cu"
echo '{"schema_version": 1, "tool": {"name": "cglint", "version": "bench"}, "findings": []}' >"$TMP/none.json"
PROG=("$TMP/launch_loop")
[ -n "$PIN" ] && PROG=(taskset -c "$PIN" "$TMP/launch_loop")
"${PROG[@]}" 1000 >/dev/null   # the first CUDA context of the machine is slower
: >"$TMP/rows"
for i in $(seq "$PAIRS"); do
    # alternate which goes first: drift (clocks, temperature) falls on both
    if [ $((i % 2)) = 1 ]; then order="plain cglint"; else order="cglint plain"; fi
    for v in $order; do
        if [ "$v" = plain ]; then line=$("${PROG[@]}" "$LAUNCHES" | tail -1)
        else line=$("$CGLINT" run -q --findings "$TMP/none.json" -f json -o "$TMP/c.json" -- "${PROG[@]}" "$LAUNCHES" | tail -1); fi
        echo "$i $v $line" >>"$TMP/rows"
    done
    python3 - "$TMP/rows" "$i" <<'EOF'
import json, sys
rows = [l.split(" ", 2) for l in open(sys.argv[1])]
pair = {v: json.loads(j) for i, v, j in rows if i == sys.argv[2]}
p, c = pair["plain"], pair["cglint"]
print("pair %s: plain %.3f us, cglint %.3f us (%+.1f%%); after the capture %.3f / %.3f us (%+.1f%%)" % (
    sys.argv[2], p["launch_us"], c["launch_us"], (c["launch_us"] / p["launch_us"] - 1) * 100,
    p["launch_after_us"], c["launch_after_us"], (c["launch_after_us"] / p["launch_after_us"] - 1) * 100), flush=True)
EOF
done
python3 - "$TMP/rows" <<'EOF'
import json, random, statistics, sys
rows = [l.split(" ", 2) for l in open(sys.argv[1])]
pairs = {}
for i, v, j in rows:
    pairs.setdefault(i, {})[v] = json.loads(j)
pairs = [p for p in pairs.values() if len(p) == 2]
random.seed(1)
for key, what in (("launch_us", "eager launches"), ("graph_us", "graph launches (replays)"),
                  ("launch_after_us", "eager launches after a capture")):
    r = [p["cglint"][key] / p["plain"][key] for p in pairs]
    boots = sorted(statistics.median(random.choices(r, k=len(r))) for _ in range(2000))
    print("%s: median ratio %+.2f%% (95%% interval %+.2f%% .. %+.2f%%), %d pairs; plain median %.3f us" % (
        what, (statistics.median(r) - 1) * 100, (boots[50] - 1) * 100, (boots[1949] - 1) * 100, len(r),
        statistics.median(p["plain"][key] for p in pairs)))
EOF
