#!/usr/bin/env bash
# bench/runtime_overhead.sh - what `cglint run` costs the program it watches.
#
# 1. A replay-heavy PyTorch loop (bench/replay_loop.py: an MLP training step
#    captured once, replayed STEPS times with a new input copied in before
#    each replay), run plainly, under `cglint run` (Python observer + CUPTI
#    library) and under `cglint run --no-cupti`, RUNS times each, interleaved.
#    Reported: median time per step (copy_ + replay; the target is at most 5%
#    over plain), median capture time (the `with torch.cuda.graph` block:
#    line events, operator inspection and CUPTI during capture), and the
#    whole process's wall time.
# 2. A CUDA C launch loop (bench/launch_loop.cu, built with nvcc): eager
#    kernel launches, graph launches and capture time, plain, under
#    `cglint run` (CUPTI library: per-call callbacks only while a capture is
#    active; outside, the runtime API's capture and graph calls), with
#    CGLINT_CUPTI_OUTSIDE=all (the driver API's capture calls too), and with
#    CGLINT_CUPTI_ALL=1 (every call subscribed all the time, as before), and
#    with CGLINT_CUPTI_DURING=calls (during captures only the calls the rules
#    look at instead of both whole API domains; the PyTorch loop too).
#    The PyTorch loop also times a second capture of the same step (the
#    per-capture cost once the one-time set-up is done).
#
# Usage: bench/runtime_overhead.sh [--cglint PATH] [--python PY] [--runs N]
#                                  [--steps N] [--out FILE]
# Needs a GPU; prints a Markdown report (and writes it to --out FILE).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CGLINT=$REPO/build/cglint
PY=${PYTHON:-python3}
RUNS=5
STEPS=3000
OUT=""
while [ $# -gt 0 ]; do
    case "$1" in
    --cglint) CGLINT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --python) PY=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --steps) STEPS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "runtime_overhead.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
"$PY" -c 'import torch,sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null ||
    { echo "runtime_overhead.sh: needs PyTorch with a GPU ($PY)" >&2; exit 77; }
[ -x "$CGLINT" ] || { echo "runtime_overhead.sh: no cglint at $CGLINT" >&2; exit 2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-overhead.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
echo '{"schema_version": 1, "tool": {"name": "cglint", "version": "bench"}, "findings": []}' >"$TMP/none.json"

now_ns() { date +%s%N; }
# one measurement: VARIANT -> appends "variant wall_ms json" to $TMP/rows
measure() {
    local variant=$1; shift
    local t0 t1 line
    t0=$(now_ns)
    line=$("$@" 2>"$TMP/err" | tail -1) || { echo "runtime_overhead.sh: $variant failed:" >&2; cat "$TMP/err" >&2; exit 1; }
    t1=$(now_ns)
    echo "$variant $(( (t1 - t0) / 1000000 )) $line" >>"$TMP/rows"
}

: >"$TMP/rows"
for r in $(seq "$RUNS"); do
    measure py-plain "$PY" "$REPO/bench/replay_loop.py" "$STEPS"
    measure py-cglint "$CGLINT" run -q --findings "$TMP/none.json" -f json -o "$TMP/r-cupti.json" -- \
        "$PY" "$REPO/bench/replay_loop.py" "$STEPS"
    measure py-cglint-nocupti "$CGLINT" run -q --no-cupti --findings "$TMP/none.json" -f json -o "$TMP/r.json" -- \
        "$PY" "$REPO/bench/replay_loop.py" "$STEPS"
    measure py-cglint-nodispatch env CGLINT_DISPATCH=0 "$CGLINT" run -q --no-cupti --findings "$TMP/none.json" -f json \
        -o "$TMP/r.json" -- "$PY" "$REPO/bench/replay_loop.py" "$STEPS"
    measure py-cglint-linesatcapture env CGLINT_LINES_AT=capture "$CGLINT" run -q --findings "$TMP/none.json" -f json \
        -o "$TMP/r.json" -- "$PY" "$REPO/bench/replay_loop.py" "$STEPS"
    measure py-cglint-calls env CGLINT_CUPTI_DURING=calls "$CGLINT" run -q --findings "$TMP/none.json" -f json \
        -o "$TMP/r.json" -- "$PY" "$REPO/bench/replay_loop.py" "$STEPS"
done
cp "$TMP/r-cupti.json" "$TMP/last-report.json"

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ] && "$NVCC" -O2 -o "$TMP/launch_loop" "$REPO/bench/launch_loop.cu" 2>"$TMP/nvcc.log"; then
    for r in $(seq "$RUNS"); do
        measure c-plain "$TMP/launch_loop" 20000
        measure c-cglint "$CGLINT" run -q --findings "$TMP/none.json" -f json -o "$TMP/c.json" -- "$TMP/launch_loop" 20000
        measure c-cglint-drv env CGLINT_CUPTI_OUTSIDE=all "$CGLINT" run -q --findings "$TMP/none.json" -f json \
            -o "$TMP/c-drv.json" -- "$TMP/launch_loop" 20000
        measure c-cglint-all env CGLINT_CUPTI_ALL=1 "$CGLINT" run -q --findings "$TMP/none.json" -f json \
            -o "$TMP/c-all.json" -- "$TMP/launch_loop" 20000
        measure c-cglint-calls env CGLINT_CUPTI_DURING=calls "$CGLINT" run -q --findings "$TMP/none.json" -f json \
            -o "$TMP/c-calls.json" -- "$TMP/launch_loop" 20000
    done
else
    echo "runtime_overhead.sh: nvcc could not build bench/launch_loop.cu; the CUDA C part is skipped" >&2
fi

"$PY" - "$TMP/rows" "$TMP/last-report.json" "$RUNS" "$STEPS" "$CGLINT" >"$TMP/report.md" <<'EOF'
import json, statistics, subprocess, sys
rows, report, runs, steps, cglint = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
data = {}
for line in open(rows):
    variant, wall, js = line.split(" ", 2)
    d = json.loads(js)
    d["wall_ms"] = float(wall)
    data.setdefault(variant, []).append(d)

def med(v, k):
    return statistics.median(x[k] for x in data[v]) if v in data else None

def pct(a, b):
    return "n/a" if a is None or b is None else "%+.1f%%" % ((a / b - 1) * 100)

import torch
smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                     capture_output=True, text=True).stdout.strip()
print("### cglint run overhead")
print()
print("- GPU: %s; PyTorch %s (CUDA %s); %d runs per variant, interleaved; medians" %
      (smi, torch.__version__, torch.version.cuda, runs))
print("- replay loop: bench/replay_loop.py, %d steps of `static_x.copy_(batch); g.replay()` "
      "(an MLP 512-1024-512 forward, backward and SGD step in one graph)" % steps)
print()
print("| variant | step (us) | vs plain | capture (ms) | vs plain | 2nd capture (ms) | vs plain | process wall (ms) | vs plain |")
print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
base = "py-plain"
for v, name in (("py-plain", "python (plain)"), ("py-cglint", "cglint run (Python observer + CUPTI)"),
                ("py-cglint-nocupti", "cglint run --no-cupti (Python observer)"),
                ("py-cglint-nodispatch", "cglint run --no-cupti, CGLINT_DISPATCH=0 (no dispatch mode)"),
                ("py-cglint-calls", "cglint run, CGLINT_CUPTI_DURING=calls (CUPTI: listed calls during captures)"),
                ("py-cglint-linesatcapture", "cglint run, CGLINT_LINES_AT=capture (PY_START from the first capture)")):
    if v not in data:
        continue
    c2 = med(v, "capture2_ms") if all("capture2_ms" in x for x in data[v]) else None
    c2b = med(base, "capture2_ms") if all("capture2_ms" in x for x in data[base]) else None
    print("| %s | %.2f | %s | %.1f | %s | %s | %s | %.0f | %s |" % (
        name, med(v, "step_us"), pct(med(v, "step_us"), med(base, "step_us")),
        med(v, "capture_ms"), pct(med(v, "capture_ms"), med(base, "capture_ms")),
        "%.1f" % c2 if c2 is not None else "n/a", pct(c2, c2b),
        med(v, "wall_ms"), pct(med(v, "wall_ms"), med(base, "wall_ms"))))
if "c-plain" in data:
    print()
    print("CUDA C launch loop (bench/launch_loop.cu, 20000 launches of a 256-thread kernel; a 20-kernel graph):")
    print()
    print("| variant | eager launch (us) | vs plain | graph launch (us) | vs plain | capture+instantiate (ms) | vs plain "
          "| eager after the capture (us) | vs plain |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for v, name in (("c-plain", "plain"),
                    ("c-cglint", "cglint run (CUPTI: runtime capture calls outside captures, every call during)"),
                    ("c-cglint-drv", "cglint run, CGLINT_CUPTI_OUTSIDE=all (the driver's capture calls too)"),
                    ("c-cglint-all", "cglint run, CGLINT_CUPTI_ALL=1 (every call subscribed)"),
                    ("c-cglint-calls", "cglint run, CGLINT_CUPTI_DURING=calls (listed calls during captures)")):
        if v not in data:
            continue
        la = med(v, "launch_after_us") if all("launch_after_us" in x for x in data[v]) else None
        lb = med("c-plain", "launch_after_us") if all("launch_after_us" in x for x in data["c-plain"]) else None
        print("| %s | %.3f | %s | %.3f | %s | %.3f | %s | %s | %s |" % (
            name, med(v, "launch_us"), pct(med(v, "launch_us"), med("c-plain", "launch_us")),
            med(v, "graph_us"), pct(med(v, "graph_us"), med("c-plain", "graph_us")),
            med(v, "capture_ms"), pct(med(v, "capture_ms"), med("c-plain", "capture_ms")),
            "%.3f" % la if la is not None else "n/a", pct(la, lb)))
try:
    r = json.load(open(report))["run"]["regions"][0]
    print()
    print("Region as `cglint run` reported it: %s:%d (%s): %d capture, %d replays, %s graph nodes, "
          "mean replay %s ms" % (r["path"], r["line"], r["kind"], r["captures"], r["replays"],
                                 r["graph_nodes"], r["mean_replay_ms"]))
except Exception as e:
    print("\n(no region in the last report: %r)" % (e,))
EOF
cat "$TMP/report.md"
if [ -n "$OUT" ]; then mkdir -p "$(dirname "$OUT")"; cp "$TMP/report.md" "$OUT"; fi
