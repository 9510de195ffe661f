# lib.sh - sourced by the workflow tests: run the built cglint in scratch
# projects and check exit status and output.  Prints TAP-like "ok - name"
# lines and closes with "N passed, N failed".
#
#   run CMD...             runs CMD; sets $out (stdout), $err (stderr), $rc
#   expect NAME RC PAT...  the last run exited RC and its output holds each PAT
#   refute NAME PAT...     the last run's output holds none of PAT
#   one_error NAME PAT     exit 2 and exactly one "cglint: error:" line, holding PAT
#   finish                 the summary line; exit status 1 if anything failed
CGLINT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
pass=0
fail=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-workflow.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export NO_COLOR=1

run() { out=$("$@" 2>"$TMP/.stderr"); rc=$?; err=$(cat "$TMP/.stderr"); }
ok() { echo "ok - $1"; pass=$((pass + 1)); }
nok() {
    echo "not ok - $1"
    shift
    for l in "$@"; do printf '    %s\n' "$l"; done
    fail=$((fail + 1))
}
expect() {
    local name=$1 want=$2 bad="" pat
    shift 2
    [ "$rc" = "$want" ] || bad="exit $rc, wanted $want;"
    for pat in "$@"; do
        grep -qF -- "$pat" <<<"$out
$err" || bad="$bad missing '$pat';"
    done
    if [ -z "$bad" ]; then ok "$name"; else nok "$name" "$bad" "stdout: $out" "stderr: $err"; fi
}
refute() {
    local name=$1 bad="" pat
    shift
    for pat in "$@"; do
        grep -qF -- "$pat" <<<"$out
$err" && bad="$bad unexpected '$pat';"
    done
    if [ -z "$bad" ]; then ok "$name"; else nok "$name" "$bad" "stdout: $out" "stderr: $err"; fi
}
one_error() {
    local name=$1 pat=$2 n
    n=$(grep -c '^cglint: error:' <<<"$err")
    if [ "$rc" = 2 ] && [ "$n" = 1 ] && grep -qF -- "$pat" <<<"$err"; then ok "$name"
    else nok "$name" "exit $rc (wanted 2), $n error lines (wanted 1), wanted '$pat'" "stderr: $err"; fi
}
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

# A project with a capture in one file reaching a host read in another.
#   make_project DIR
make_project() {
    mkdir -p "$1"
    cat >"$1/train.py" <<'PY'
import torch
from helpers import read_loss


def capture(model, static_x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        loss = model(static_x).sum()
        read_loss(loss)
        torch.cuda.synchronize()
    g.replay()
PY
    cat >"$1/helpers.py" <<'PY'
def read_loss(loss):
    return loss.item()
PY
}
