#!/usr/bin/env bash
# bench/run_cuda.sh - time cglint's C/C++/CUDA front end against clang itself.
#
# For each corpus directory (default: every directory under bench/corpus/
# that holds .cu files) it measures, with hyperfine, in both parsing modes
# (the CUDA toolkit's headers, when one is installed, and cglint's shim):
#   clang -jN    clang-22 -fsyntax-only on every translation unit of the
#                build, with exactly the flags cglint uses (--print-cuda-flags,
#                without cglint's per-run precompiled header), N at a time
#   clang -j1    the same, one at a time
#   floor        cglint --bench-floor parse: libclang parses every file (PCH
#                included), nothing is analysed
#   all -jN/-j1  cglint --cuda-parse-all: every file parsed and analysed
#   cglint -jN/-j1  the default: only the files a capture may reach are
#                parsed (the others are read)
# and prints a Markdown report on stdout, and into --out FILE if given.  It
# installs nothing.  A corpus's flags come from DIR/build/compile_commands.json
# or DIR/compile_commands.json when there is one (see BENCHMARKS-cuda.md for
# how the cuda-samples one is made).
#
# Usage: bench/run_cuda.sh [--runs N] [--warmup N] [--jobs N] [--cglint PATH]
#                          [--clang PATH] [--out FILE] [--modes "toolkit shim"] [DIR...]
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}
die() { echo "bench/run_cuda.sh: $*" >&2; exit 2; }
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac; }

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=1 WARMUP=0 JOBS=$(nproc) CGLINT="$REPO/build/cglint" CLANG=clang-22 OUT="" MODES="toolkit shim"
DIRS=()
while [ $# -gt 0 ]; do
    case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --cglint) CGLINT=$(abspath "$2"); shift 2 ;;
    --clang) CLANG=$2; shift 2 ;;
    --out) OUT=$(abspath "$2"); shift 2 ;;
    --modes) MODES=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) DIRS+=("$(abspath "$1")"); shift ;;
    esac
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive integer"
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "--jobs takes a positive integer"
command -v hyperfine >/dev/null || die "hyperfine is not installed (Debian: apt-get install hyperfine)"
command -v "$CLANG" >/dev/null || die "$CLANG not found (Debian: apt-get install clang-22)"
[ -x "$CGLINT" ] || die "no cglint binary at $CGLINT; build it first (cmake --build build)"
if [ ${#DIRS[@]} -eq 0 ]; then
    for d in "$REPO"/bench/corpus/*/; do
        [ -d "$d" ] && find "$d" -name '*.cu' -print -quit | grep -q . && DIRS+=("${d%/}")
    done
fi
[ ${#DIRS[@]} -gt 0 ] || die "no corpus: put a CUDA tree under bench/corpus/ (see BENCHMARKS-cuda.md) or name one"
toolkit=""
for c in "${CUDA_PATH:-}" "${CUDA_HOME:-}" /usr/local/cuda; do
    [ -n "$c" ] && [ -f "$c/include/cuda_runtime.h" ] && { toolkit=$c; break; }
done
[ -z "$toolkit" ] && MODES=${MODES//toolkit/}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-bench-cu.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cp "$CGLINT" "$TMP/cglint"
CG="$TMP/cglint"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo "?")
[ -n "$(git -C "$REPO" status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit (uncommitted changes)"
REPORT="$TMP/report.md"
{
    echo "### Machine"
    echo
    echo "- CPU: ${cpu:-unknown}, nproc = $(nproc), memory $(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
    echo "- cglint: $("$CG" --version), commit $commit; $("$CLANG" --version | head -1)"
    echo "- CUDA toolkit: ${toolkit:-none}$([ -n "$toolkit" ] && "$toolkit/bin/nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/ (\1)/p')"
    echo "- hyperfine $(hyperfine --version | cut -d' ' -f2), --runs $RUNS --warmup $WARMUP; -jN = -j$JOBS"
    echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the -jN columns)"
    echo
    echo "### Results (seconds, mean ± stddev)"
    echo
    echo "| corpus | mode | files | TUs | parsed by cglint | clang -jN | clang -j1 | floor -jN | all -jN | all -j1 | cglint -jN | cglint -j1 | all -j1 / clang -j1 | all speed-up -j1/-jN | findings |"
    echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
} >"$REPORT"

for d in "${DIRS[@]}"; do
    label=$(basename "$d")
    db=()
    [ -f "$d/build/compile_commands.json" ] && db=(-p "$d/build")
    [ -f "$d/compile_commands.json" ] && db=(-p "$d")
    for mode in $MODES; do
        echo "bench/run_cuda.sh: $label [$mode]" >&2
        # the translation units of the build, with cglint's own flags
        "$CG" --cuda-mode "$mode" --print-cuda-flags "${db[@]}" "$d" 2>/dev/null >"$TMP/flags.tsv" || true
        nfiles=$(wc -l <"$TMP/flags.tsv")
        python3 - "$TMP/flags.tsv" "$REPO/src/cuda/shim" "$CLANG" >"$TMP/clang.txt" <<'EOF'
import re, shlex, sys
flags, shim, clang = sys.argv[1:]
for line in open(flags, encoding="utf-8"):
    parts = line.rstrip("\n").split("\t")
    path, args, tag = parts[0], parts[1:-1], parts[-1]
    # the build's own translation units (or every source when there is no database)
    if "stage=0" not in tag:
        continue
    # the shim lives in cglint's temporary directory during a run: use the sources
    args = [re.sub(r"^/.*/cglint-[^/]*/shim$", shim, a) for a in args]
    print(" ".join(shlex.quote(x) for x in [clang, "-fsyntax-only"] + args + [path]))
EOF
        ntus=$(wc -l <"$TMP/clang.txt")
        # how many files the default run parses
        parsed=$(CGLINT_CU_TIMES=1 CGLINT_LIBCLANG_STDERR=1 "$CG" --cuda-mode "$mode" -q --exit-zero "${db[@]}" "$d" 2>&1 >/dev/null | grep -c '^cu-times' || true)
        findings=$( ("$CG" --cuda-mode "$mode" -q --exit-zero --statistics "${db[@]}" "$d" 2>/dev/null || true) | awk '{s += $1} END {print s + 0}')
        q=$(printf '%q' "$d")
        dbq=""
        [ ${#db[@]} -gt 0 ] && dbq="-p $(printf '%q' "${db[1]}")"
        cg="$CG --cuda-mode $mode -q --exit-zero $dbq"
        clangrun="xargs -d '\n' -n1 -P JOBS sh -c 'eval \"\$0\" >/dev/null 2>&1 || true' < $TMP/clang.txt"
        names=(clang-jN clang-j1 floor-jN all-jN all-j1 cglint-jN cglint-j1)
        cmds=("${clangrun/JOBS/$JOBS}" "${clangrun/JOBS/1}"
              "$CG --cuda-mode $mode -q --bench-floor parse -j $JOBS $dbq $q"
              "$cg --cuda-parse-all -j $JOBS $q" "$cg --cuda-parse-all -j 1 $q"
              "$cg -j $JOBS $q" "$cg -j 1 $q")
        hf=(hyperfine --warmup "$WARMUP" --runs "$RUNS" --ignore-failure --style basic --export-json "$TMP/$label-$mode.json")
        for k in "${!cmds[@]}"; do hf+=(-n "${names[$k]}" "${cmds[$k]}"); done
        "${hf[@]}" >&2
        echo "- $label [$mode]: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$TMP/loads.txt"
        python3 - "$TMP/$label-$mode.json" "$label" "$mode" "$nfiles" "$ntus" "$parsed" "$findings" >>"$REPORT" <<'EOF'
import json, sys
path, label, mode, nfiles, ntus, parsed, findings = sys.argv[1:]
res = {r["command"]: r for r in json.load(open(path))["results"]}
def mean(k):
    r = res.get(k)
    return None if r is None else r["mean"]
def cell(k):
    r = res.get(k)
    return "n/a" if r is None else "%.2f ± %.2f" % (r["mean"], r["stddev"] or 0.0)
def ratio(a, b):
    a, b = mean(a), mean(b)
    return "n/a" if not a or not b else "%.2f×" % (a / b)
print("| " + " | ".join([label, mode, nfiles, ntus, parsed, cell("clang-jN"), cell("clang-j1"), cell("floor-jN"),
                         cell("all-jN"), cell("all-j1"), cell("cglint-jN"), cell("cglint-j1"),
                         ratio("all-j1", "clang-j1"), ratio("all-j1", "all-jN"), findings]) + " |")
EOF
        # partial results survive an interrupted run
        [ -n "$OUT" ] && cp "$REPORT" "$OUT"
    done
done
{
    echo
    echo "- files: C/C++/CUDA files cglint's walker visits; TUs: the build's translation units"
    echo "  (those in compile_commands.json), the files the clang columns parse."
    echo "- parsed by cglint: files the default run parses (the others are only read)."
    echo "- all: --cuda-parse-all, every file parsed and analysed (TUs, and headers and sources"
    echo "  outside the build that no parsed file includes); floor: the same parses, no analysis."
    [ -f "$TMP/loads.txt" ] && cat "$TMP/loads.txt"
} >>"$REPORT"
cat "$REPORT"
if [ -n "$OUT" ]; then cp "$REPORT" "$OUT"; echo "bench/run_cuda.sh: report written to $OUT" >&2; fi
