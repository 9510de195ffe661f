#!/usr/bin/env bash
# bench/run.sh - time cglint against its own floors and against flake8.
#
# For each corpus directory (default: this Python's standard library plus
# every directory under bench/corpus/) it measures, with hyperfine:
#   read   cglint --bench-floor read  -q DIR   read + validate every file
#   parse  cglint --bench-floor parse -q DIR   ... and tree-sitter-parse every file
#   full   cglint -q --exit-zero DIR           the real analysis, all cores
#   j1     cglint -j1 -q --exit-zero DIR       the real analysis, one core
#   flake8 flake8 --select=F -j auto DIR       pyflakes checks, all cores
# and prints a Markdown report (machine, tools, one table) on stdout, and
# into --out FILE if given.  It installs nothing.
#
# Usage: bench/run.sh [--runs N] [--warmup N] [--cglint PATH] [--out FILE]
#                     [--json-dir DIR] [--no-flake8] [DIR...]
#        bench/run.sh --cuda [bench/run_cuda.sh's options]   (C/C++/CUDA trees
#                     against clang-22 -fsyntax-only: see bench/run_cuda.sh)
set -euo pipefail
if [ "${1:-}" = "--cuda" ]; then shift; exec "$(dirname "${BASH_SOURCE[0]}")/run_cuda.sh" "$@"; fi

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --runs N       timed runs per command (default 5)
  --warmup N     untimed warm-up runs per command (default 1)
  --cglint PATH  the cglint binary (default: <repo>/build/cglint)
  --out FILE     also write the Markdown report to FILE
  --json-dir DIR keep hyperfine's JSON exports in DIR (default: a temp dir, removed)
  --no-flake8    skip the flake8 column
  -h, --help     this text
EOF
}

die() { echo "bench/run.sh: $*" >&2; exit 2; }
abspath() { # works for paths that do not exist yet (an --out file)
    case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=5 WARMUP=1 CGLINT="$REPO/build/cglint" OUT="" JSONDIR="" FLAKE8=1
DIRS=()
while [ $# -gt 0 ]; do
    case "$1" in
    --runs) [ $# -ge 2 ] || die "--runs needs a value"; RUNS=$2; shift 2 ;;
    --runs=*) RUNS=${1#*=}; shift ;;
    --warmup) [ $# -ge 2 ] || die "--warmup needs a value"; WARMUP=$2; shift 2 ;;
    --warmup=*) WARMUP=${1#*=}; shift ;;
    --cglint) [ $# -ge 2 ] || die "--cglint needs a value"; CGLINT=$(abspath "$2"); shift 2 ;;
    --cglint=*) CGLINT=$(abspath "${1#*=}"); shift ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; OUT=$(abspath "$2"); shift 2 ;;
    --out=*) OUT=$(abspath "${1#*=}"); shift ;;
    --json-dir) [ $# -ge 2 ] || die "--json-dir needs a value"; JSONDIR=$(abspath "$2"); shift 2 ;;
    --json-dir=*) JSONDIR=$(abspath "${1#*=}"); shift ;;
    --no-flake8) FLAKE8=0; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; while [ $# -gt 0 ]; do DIRS+=("$(abspath "$1")"); shift; done ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) DIRS+=("$(abspath "$1")"); shift ;;
    esac
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive integer, not '$RUNS'"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "--warmup takes a non-negative integer, not '$WARMUP'"

# ---- tools -------------------------------------------------------------------
command -v python3 >/dev/null || die "python3 is needed (to find the stdlib and read hyperfine's JSON)"
command -v hyperfine >/dev/null || die "hyperfine is not installed.
  Debian/Ubuntu: sudo apt-get install hyperfine
  or:            cargo install hyperfine   (https://github.com/sharkdp/hyperfine)"
[ -x "$CGLINT" ] || die "no cglint binary at $CGLINT; build it first:
  cmake -S '$REPO' -B '$REPO/build' && cmake --build '$REPO/build' -j\$(nproc)
  or pass --cglint PATH"
if [ "$FLAKE8" = 1 ] && ! command -v flake8 >/dev/null; then
    echo "bench/run.sh: flake8 not found (Debian: apt-get install flake8; or pip install flake8);" \
         "the flake8 column is skipped" >&2
    FLAKE8=0
fi

if [ ${#DIRS[@]} -eq 0 ]; then
    DIRS+=("$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')")
    if [ -d "$REPO/bench/corpus" ]; then
        for d in "$REPO"/bench/corpus/*/; do [ -d "$d" ] && DIRS+=("${d%/}"); done
    fi
fi
for d in "${DIRS[@]}"; do [ -d "$d" ] || die "not a directory: $d"; done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
[ -n "$JSONDIR" ] || JSONDIR="$TMP/json"
mkdir -p "$JSONDIR"
# Time a private copy: other people rebuilding build/cglint mid-run must not
# change the binary under measurement.
cp "$CGLINT" "$TMP/cglint"
CG="$TMP/cglint"

# ---- machine and tool facts ----------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
mem=$(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo 2>/dev/null)
ts=$(pkg-config --modversion tree-sitter 2>/dev/null || echo "unknown (pkg-config has no tree-sitter)")
tspy=$(sed -n 's/^set(TSPY_VERSION \(.*\))/\1/p' "$REPO/grammars/CMakeLists.txt" 2>/dev/null || true)
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo "?")
if [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit (working tree has uncommitted changes)"
fi
f8ver=""
[ "$FLAKE8" = 1 ] && f8ver=$(flake8 --version 2>/dev/null | tr '\n' ' ' | sed 's/ *$//')

REPORT="$TMP/report.md"
{
    echo "### Machine"
    echo
    echo "- CPU: ${cpu:-unknown}, nproc = $(nproc), memory ${mem:-unknown}"
    echo "- Kernel: $(uname -sr); load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    echo "- cglint: $("$CG" --version 2>&1 | head -1), commit $commit, binary $CGLINT"
    echo "- tree-sitter (pkg-config): $ts; tree-sitter-python grammar: ${tspy:-unknown}"
    echo "- hyperfine: $(hyperfine --version | head -1); --warmup $WARMUP --runs $RUNS"
    [ "$FLAKE8" = 1 ] && echo "- flake8: $f8ver"
    echo "- python3: $(python3 -c 'import sys;print(sys.version.split()[0])')"
    echo
} >"$REPORT"

# ---- per corpus ----------------------------------------------------------------
# Files and MB as cglint's walker sees them (same directory pruning), and how
# many of them pass cglint's capture prefilter (the files it parses up front).
count_py() {
    python3 - "$1" <<'EOF'
import os, sys
SKIP = {"__pycache__", "node_modules", "site-packages", "__pypackages__", "venv",
        "build", "_build", "dist", "buck-out"}
root = sys.argv[1]
n = size = hits = 0
seen = set()
for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
    st = os.stat(dirpath)
    if (st.st_dev, st.st_ino) in seen:
        dirnames[:] = []
        continue
    seen.add((st.st_dev, st.st_ino))
    dirnames[:] = [d for d in dirnames
                   if not d.startswith(".") and d not in SKIP
                   and not os.path.exists(os.path.join(dirpath, d, "pyvenv.cfg"))
                   and not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt"))]
    for f in filenames:
        if not f.endswith(".py") or f.startswith("."):
            continue
        p = os.path.join(dirpath, f)
        try:
            b = open(p, "rb").read()
        except OSError:
            continue
        n += 1
        size += len(b)
        if (b"capture_begin" in b or b"make_graphed_callables" in b
                or (b"cuda" in b and b"graph" in b)):
            hits += 1
print(n, size, hits)
EOF
}

label_of() {
    local d=$1
    case "$d" in
    "$REPO"/bench/corpus/*) basename "$d" ;;
    *) if [ "$d" = "$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')" ]; then
           echo "stdlib ($(basename "$d"))"
       else basename "$d"; fi ;;
    esac
}

ROWS="$TMP/rows.tsv"
NOTES="$TMP/notes.md"
: >"$ROWS"
: >"$NOTES"
i=0
for d in "${DIRS[@]}"; do
    i=$((i + 1))
    label=$(label_of "$d")
    read -r nfiles nbytes nhits < <(count_py "$d")
    echo "bench/run.sh: [$i/${#DIRS[@]}] $label: $nfiles files, $nbytes bytes" >&2

    # One untimed run to record what cglint says about this corpus.
    set +e
    "$CG" -f json --exit-zero -o "$TMP/find.json" "$d" 2>"$TMP/err.txt"
    rc=$?
    set -e
    read -r nfind nerr nanal < <(python3 - "$TMP/find.json" <<'EOF'
import json, sys
try:
    s = json.load(open(sys.argv[1]))["summary"]
    print(s.get("findings", "?"), s.get("errors", "?"), s.get("files_analysed", "?"))
except Exception:
    print("? ? ?")
EOF
)
    nmsg=$(grep -c '^cglint: error' "$TMP/err.txt" || true)
    {
        echo "- **$label** ($d): cglint exit $rc, $nfind findings, $nmsg error message(s) on stderr"
        if [ "$nmsg" -gt 0 ]; then
            grep '^cglint: error' "$TMP/err.txt" | head -5 | sed 's/^/  - `/; s/$/`/'
            [ "$nmsg" -gt 5 ] && echo "  - ... and $((nmsg - 5)) more"
        fi
    } >>"$NOTES"

    q=$(printf '%q' "$d")
    cg=$(printf '%q' "$CG")
    cmds=(
        "$cg --bench-floor read -q $q"
        "$cg --bench-floor parse -q $q"
        "$cg -q --exit-zero $q"
        "$cg -j1 -q --exit-zero $q"
    )
    names=(read parse full j1)
    if [ "$FLAKE8" = 1 ]; then
        cmds+=("flake8 --select=F -j auto $q")
        names+=(flake8)
    fi
    hf=(hyperfine --warmup "$WARMUP" --runs "$RUNS" --ignore-failure --style basic
        --export-json "$JSONDIR/$i-$(basename "$d").json")
    for k in "${!cmds[@]}"; do hf+=(-n "${names[$k]}" "${cmds[$k]}"); done
    "${hf[@]}" >&2

    python3 - "$JSONDIR/$i-$(basename "$d").json" "$label" "$nfiles" "$nbytes" "$nhits" "$nfind" >>"$ROWS" <<'EOF'
import json, sys
path, label, nfiles, nbytes, nhits, nfind = sys.argv[1:]
res = {r["command"]: r for r in json.load(open(path))["results"]}
def cell(k):
    r = res.get(k)
    return "n/a" if r is None else "%.3f ± %.3f" % (r["mean"], r["stddev"] or 0.0)
def mean(k):
    r = res.get(k)
    return None if r is None else r["mean"]
def ratio(a, b):
    a, b = mean(a), mean(b)
    return "n/a" if a is None or b is None or b == 0 else "%.2f×" % (a / b)
print("\t".join([label, nfiles, "%.1f" % (int(nbytes) / 1e6), nhits, nfind,
                 cell("read"), cell("parse"), cell("full"), cell("j1"), cell("flake8"),
                 ratio("full", "read"), ratio("full", "parse"), ratio("flake8", "full"),
                 ratio("j1", "full")]))
EOF
done

{
    echo "### Results (mean ± stddev, seconds)"
    echo
    echo "| corpus | files | MB | prefilter hits | findings | read floor | parse floor | cglint | cglint -j1 | flake8 -F | cglint / read | cglint / parse | flake8 / cglint | -j1 / cglint |"
    echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    while IFS=$'\t' read -r -a c; do
        printf '|'
        for x in "${c[@]}"; do printf ' %s |' "$x"; done
        printf '\n'
    done <"$ROWS"
    echo
    echo "- files, MB: \`.py\` files cglint's walker visits (hidden, build, dist, venv, site-packages ... pruned)."
    echo "- prefilter hits: files whose bytes mention \`capture_begin\`, \`make_graphed_callables\`, or both \`cuda\` and \`graph\`:"
    echo "  the files cglint parses up front (others are parsed only if a capture calls into them)."
    echo "- findings: from one extra \`cglint -f json --exit-zero DIR\` run."
    echo
    echo "### What cglint said (one untimed run per corpus)"
    echo
    cat "$NOTES"
} >>"$REPORT"

cat "$REPORT"
if [ -n "$OUT" ]; then
    mkdir -p "$(dirname "$OUT")"
    cp "$REPORT" "$OUT"
    echo "bench/run.sh: report written to $OUT" >&2
fi
