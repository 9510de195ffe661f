#!/usr/bin/env bash
# bench/run.sh - time cglint against its own floors and against flake8.
#
# For each corpus directory (default: this Python's standard library plus
# every directory under bench/corpus/) it measures, with hyperfine:
# (every cglint command also gets --isolated when the binary has it, so that
# a corpus's own pyproject.toml cannot change what is measured)
#   read   cglint --bench-floor read  -q DIR   read + validate every file
#   parse  cglint --bench-floor parse -q DIR   ... and tree-sitter-parse every file
#   full   cglint -q --exit-zero DIR           the real analysis, all cores
#   j1     cglint -j1 -q --exit-zero DIR       the real analysis, one core
#   flake8 flake8 --select=F -j auto --extend-exclude=... DIR
#                                              pyflakes checks, all cores, with
#                                              the directories cglint prunes
#                                              excluded too (site-packages, build, ...)
# and prints a Markdown report (machine, tools, one table) on stdout, and
# into --out FILE if given.  It installs nothing.
# flake8 is 10-100x slower than cglint, so it has its own run count
# (--flake8-runs) and no warm-up: the cglint runs before it have already
# brought the corpus into the page cache.
#
# Usage: bench/run.sh [--runs N] [--warmup N] [--flake8-runs N] [--cglint PATH]
#                     [--out FILE] [--json-dir DIR] [--no-flake8] [DIR...]
#        bench/run.sh --cuda [bench/run_cuda.sh's options]   (C/C++/CUDA trees
#                     against clang-22 -fsyntax-only: see bench/run_cuda.sh)
set -euo pipefail
if [ "${1:-}" = "--cuda" ]; then shift; exec "$(dirname "${BASH_SOURCE[0]}")/run_cuda.sh" "$@"; fi

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --runs N       timed runs per command (default 5)
  --warmup N     untimed warm-up runs per cglint command (default 1)
  --flake8-runs N timed flake8 runs per corpus (default: --runs)
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
RUNS=5 WARMUP=1 F8RUNS="" CGLINT="$REPO/build/cglint" OUT="" JSONDIR="" FLAKE8=1
DIRS=()
while [ $# -gt 0 ]; do
    case "$1" in
    --runs) [ $# -ge 2 ] || die "--runs needs a value"; RUNS=$2; shift 2 ;;
    --runs=*) RUNS=${1#*=}; shift ;;
    --warmup) [ $# -ge 2 ] || die "--warmup needs a value"; WARMUP=$2; shift 2 ;;
    --warmup=*) WARMUP=${1#*=}; shift ;;
    --flake8-runs) [ $# -ge 2 ] || die "--flake8-runs needs a value"; F8RUNS=$2; shift 2 ;;
    --flake8-runs=*) F8RUNS=${1#*=}; shift ;;
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
[ -n "$F8RUNS" ] || F8RUNS=$RUNS
[[ $F8RUNS =~ ^[1-9][0-9]*$ ]] || die "--flake8-runs takes a positive integer, not '$F8RUNS'"
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
# Newer cglint reads pyproject.toml / .cglint.toml; a corpus's own settings
# (or a configuration file cglint cannot read) must not change what is
# measured, and the floors ignore configuration.  Older binaries lack the flag.
ISO=""
if "$CG" --help 2>/dev/null | grep -q -- '--isolated'; then ISO="--isolated"; fi

# ---- machine and tool facts ----------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
mem=$(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo 2>/dev/null)
ts=$(pkg-config --modversion tree-sitter 2>/dev/null || echo "unknown (pkg-config has no tree-sitter)")
tsdeb=$(dpkg-query -W -f '${Version}' libtree-sitter0 2>/dev/null || true)
[ -n "$tsdeb" ] && ts="$ts (Debian package libtree-sitter0 $tsdeb)"
tspy=$(sed -n 's/^set(TSPY_VERSION \(.*\))/\1/p' "$REPO/grammars/CMakeLists.txt" 2>/dev/null || true)
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo "?")
if [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit (working tree has uncommitted changes)"
fi
f8ver=""
[ "$FLAKE8" = 1 ] && f8ver=$(flake8 --version 2>/dev/null | tr '\n' ' ' | sed 's/ *$//')

# flake8 walks everything but VCS and cache directories; give it the
# directories cglint's walker prunes, so both read the same files (a Python
# prefix's lib/python3.X holds site-packages, often 5x the stdlib).
F8EXCLUDE='.*,__pycache__,node_modules,site-packages,__pypackages__,venv,build,_build,dist,buck-out'

REPORT="$TMP/report.md"
{
    echo "### Machine"
    echo
    echo "- CPU: ${cpu:-unknown}, nproc = $(nproc), memory ${mem:-unknown}"
    echo "- Kernel: $(uname -sr); load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    echo "- cglint: $("$CG" --version 2>&1 | head -1), commit $commit, binary $CGLINT" \
         "(sha256 $(sha256sum "$CG" 2>/dev/null | cut -c1-12))${ISO:+; every cglint command gets $ISO}"
    echo "- tree-sitter (pkg-config): $ts; tree-sitter-python grammar: ${tspy:-unknown}"
    echo "- hyperfine: $(hyperfine --version | head -1); cglint: --warmup $WARMUP --runs $RUNS; flake8: --warmup 0 --runs $F8RUNS"
    [ "$FLAKE8" = 1 ] && echo "- flake8: $f8ver; run as \`flake8 --select=F -j auto --extend-exclude=$F8EXCLUDE DIR\`"
    echo "- python3: $(python3 -c 'import sys;print(sys.version.split()[0])')"
    echo
} >"$REPORT"

# ---- per corpus ----------------------------------------------------------------
# Files and MB as cglint's walker sees them (same directory pruning).
count_py() {
    python3 - "$1" <<'EOF'
import os, sys
SKIP = {"__pycache__", "node_modules", "site-packages", "__pypackages__", "venv",
        "build", "_build", "dist", "buck-out"}
root = sys.argv[1]
n = size = 0
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
            size += os.path.getsize(p)
        except OSError:
            continue
        n += 1
print(n, size)
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
    read -r nfiles nbytes < <(count_py "$d")
    echo "bench/run.sh: [$i/${#DIRS[@]}] $label: $nfiles files, $nbytes bytes" >&2

    # One untimed run to record what cglint says about this corpus, and
    # (CGLINT_TRACE_PARSE, where the binary has it) which files it parsed.
    set +e
    CGLINT_TRACE_PARSE=1 "$CG" $ISO -f json --exit-zero -o "$TMP/find.json" "$d" 2>"$TMP/err.txt"
    rc=$?
    set -e
    parsed="n/a"
    if grep -aq CGLINT_TRACE_PARSE "$CG"; then
        parsed=$(python3 - "$TMP/err.txt" <<'EOF'
import os, sys
n = reached = size = 0
for line in open(sys.argv[1], errors="replace"):
    if not line.startswith("cglint: parse "):
        continue
    path = line[len("cglint: parse "):].rstrip("\n")
    if path.endswith(" (reached)"):
        path = path[: -len(" (reached)")]
        reached += 1
    n += 1
    try:
        size += os.path.getsize(path)
    except OSError:
        pass
print("%d (%d reached), %.1f MB" % (n, reached, size / 1e6))
EOF
)
    fi
    read -r nfind byrule < <(python3 - "$TMP/find.json" <<'EOF'
import collections, json, sys
try:
    d = json.load(open(sys.argv[1]))
    c = collections.Counter(f["rule"] for f in d["findings"])
    print(d["summary"]["findings"], ",".join("%s:%d" % kv for kv in sorted(c.items())) or "-")
except Exception:
    print("? ?")
EOF
)
    nmsg=$(grep -c '^cglint: error' "$TMP/err.txt" || true)
    {
        echo "- **$label** (\`$d\`): exit status $rc; $nfind findings (by rule: $byrule);" \
             "$nmsg error message(s) on stderr"
        if [ "$nmsg" -gt 0 ]; then
            grep '^cglint: error' "$TMP/err.txt" | head -5 | sed 's/^/  - `/; s/$/`/'
            if [ "$nmsg" -gt 5 ]; then echo "  - ... and $((nmsg - 5)) more"; fi
        fi
    } >>"$NOTES"

    q=$(printf '%q' "$d")
    cg=$(printf '%q' "$CG")
    base="$JSONDIR/$i-$(basename "$d")"
    hyperfine --warmup "$WARMUP" --runs "$RUNS" --ignore-failure --style basic \
        --export-json "$base.cglint.json" \
        -n read "$cg $ISO --bench-floor read -q $q" \
        -n parse "$cg $ISO --bench-floor parse -q $q" \
        -n full "$cg $ISO -q --exit-zero $q" \
        -n j1 "$cg $ISO -j1 -q --exit-zero $q" >&2
    jsons=("$base.cglint.json")
    if [ "$FLAKE8" = 1 ]; then
        hyperfine --warmup 0 --runs "$F8RUNS" --ignore-failure --style basic \
            --export-json "$base.flake8.json" \
            -n flake8 "flake8 --select=F -j auto --extend-exclude=$F8EXCLUDE $q" >&2
        jsons+=("$base.flake8.json")
    fi

    python3 - "$label" "$nfiles" "$nbytes" "$parsed" "$nfind" "${jsons[@]}" >>"$ROWS" <<'EOF'
import json, sys
label, nfiles, nbytes, parsed, nfind = sys.argv[1:6]
res = {}
for path in sys.argv[6:]:
    res.update({r["command"]: r for r in json.load(open(path))["results"]})
def cell(k):
    r = res.get(k)
    return "n/a" if r is None else "%.3f ± %.3f" % (r["mean"], r["stddev"] or 0.0)
def mean(k):
    r = res.get(k)
    return None if r is None else r["mean"]
def ratio(a, b):
    a, b = mean(a), mean(b)
    return "n/a" if a is None or b is None or b == 0 else "%.2f×" % (a / b)
print("\t".join([label, nfiles, "%.1f" % (int(nbytes) / 1e6), parsed, nfind,
                 cell("read"), cell("parse"), cell("full"), cell("j1"), cell("flake8"),
                 ratio("full", "read"), ratio("full", "parse"), ratio("flake8", "full"),
                 ratio("j1", "full")]))
EOF
done

{
    echo "### Results (mean ± stddev, seconds)"
    echo
    echo "| corpus | files | MB | parsed by cglint | findings | read floor | parse floor | cglint | cglint -j1 | flake8 -F | cglint / read | cglint / parse | flake8 / cglint | -j1 / cglint |"
    echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    while IFS=$'\t' read -r -a c; do
        printf '|'
        for x in "${c[@]}"; do printf ' %s |' "$x"; done
        printf '\n'
    done <"$ROWS"
    echo
    echo "- files, MB: \`.py\` files cglint's walker visits (hidden, build, dist, venv, site-packages ... pruned)."
    echo "- parsed by cglint: files the full analysis tree-sitter-parsed (CGLINT_TRACE_PARSE), of which \"reached\""
    echo "  were parsed only because a capture region calls into them; the rest passed the capture prefilter."
    echo "- findings: from one extra \`cglint -f json --exit-zero DIR\` run."
    echo
    echo "### What cglint said (one untimed run per corpus)"
    echo
    cat "$NOTES"
    echo
    echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)."
} >>"$REPORT"

cat "$REPORT"
if [ -n "$OUT" ]; then
    mkdir -p "$(dirname "$OUT")"
    cp "$REPORT" "$OUT"
    echo "bench/run.sh: report written to $OUT" >&2
fi
