#!/usr/bin/env bash
# alloc_torture.sh CGLINT REPO - torture mode (curl's idea): make the Nth
# allocation through cglint's allocation wrapper fail (CGLINT_FAIL_ALLOC=N),
# for every N up to 60 and then in growing steps until a run no longer
# reaches the Nth allocation, on a small tree of Python and CUDA files.
# Each run must end either normally (exit 0 or 1, no message) or with exactly
# one "cglint: error: out of memory" line and exit 2: never a signal, never a
# second message, never a half-written report.
set -uo pipefail
CGLINT=$1; REPO=$2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-torture.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/tree"
cp "$REPO/examples/model.py" "$REPO/examples/runtime_demo.py" "$REPO/examples/serve.py" "$TMP/tree/"
for r in CG104 CG401; do cp -r "$REPO/tests/fixtures/cu/$r" "$TMP/tree/"; done
fail=0; runs=0; n=1; step=1
while :; do
    CGLINT_FAIL_ALLOC=$n "$CGLINT" --color never --cuda-mode shim -f json -o "$TMP/out.json" "$TMP/tree" \
        >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    runs=$((runs + 1))
    oom=$(grep -c '^cglint: error: out of memory' "$TMP/stderr")
    if [ $rc -ge 128 ]; then
        echo "FAIL: CGLINT_FAIL_ALLOC=$n: killed by signal $((rc - 128))"; sed -n 1,5p "$TMP/stderr"; fail=1
    elif [ $rc -eq 2 ]; then
        [ "$oom" -eq 1 ] || { echo "FAIL: CGLINT_FAIL_ALLOC=$n: exit 2 with $oom out-of-memory lines"; cat "$TMP/stderr"; fail=1; }
    elif [ $rc -le 1 ]; then
        [ "$oom" -eq 0 ] || { echo "FAIL: CGLINT_FAIL_ALLOC=$n: exit $rc after saying out of memory"; fail=1; }
        break          # the run made fewer than n allocations: every earlier failure point was tried
    else
        echo "FAIL: CGLINT_FAIL_ALLOC=$n: exit $rc"; cat "$TMP/stderr"; fail=1
    fi
    [ $n -ge 60 ] && step=$(( step + step / 2 + 1 ))
    n=$((n + step))
    [ $n -gt 50000000 ] && { echo "FAIL: the run never ended normally"; fail=1; break; }
done
# a wrapper that ignored CGLINT_FAIL_ALLOC would end the first run normally
[ $runs -gt 10 ] || { echo "FAIL: CGLINT_FAIL_ALLOC=1 did not fail the first allocation"; fail=1; }
echo "alloc_torture: $runs runs, failure injected at allocations 1..60 and then every ~1.5x up to $n"
exit $fail
