#!/usr/bin/env bash
# baseline.sh - --write-baseline and --baseline: findings recorded once stay
# hidden while lines move, are re-indented, or the run starts elsewhere; new
# findings are reported; recorded findings that disappeared are "fixed".
. "$(dirname "$0")/lib.sh"

P=$TMP/proj
make_project "$P"
cd "$P" || exit 1
# a second, identical hazard line: occurrence 2 of one fingerprint
cat >>helpers.py <<'PY'


def read_again(loss):
    return loss.item()
PY
sed -i 's/        read_loss(loss)/        read_loss(loss)\n        read_again(loss)/' train.py
sed -i 's/^from helpers import .*/from helpers import read_loss, read_again, read_third, read_fourth/' train.py

run "$CGLINT" --statistics .
expect "three findings to start with" 1 "    2  CG101" "    1  CG104"
run "$CGLINT" --write-baseline cglint-baseline.json .
expect "--write-baseline records them and exits 0" 0 "wrote 3 findings to the baseline cglint-baseline.json"
[ -s cglint-baseline.json ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["cglint_baseline"]==1 and len(d["findings"])==3 and {f["occurrence"] for f in d["findings"]}=={1,2}' cglint-baseline.json \
    && ok "the baseline is JSON with occurrences" || nok "the baseline is JSON with occurrences" "$(cat cglint-baseline.json)"

run "$CGLINT" --baseline cglint-baseline.json .
expect "everything recorded is hidden" 0 "No findings." "3 findings hidden by the baseline cglint-baseline.json"

# move lines: a docstring and blank lines on top, a re-indented hazard
printf '"""Helpers."""\n\n\n\n' | cat - helpers.py >h && mv h helpers.py
sed -i 's/^    return loss.item()$/    return  loss.item()/' helpers.py
printf 'import os\n\n' | cat - train.py >t && mv t train.py
run "$CGLINT" --baseline cglint-baseline.json .
expect "lines moved and re-indented: still hidden" 0 "No findings." "3 findings hidden"

# a new hazard is reported, the old ones stay hidden
cat >>helpers.py <<'PY'


def read_third(loss):
    return loss.tolist()
PY
sed -i 's/        read_again(loss)/        read_again(loss)\n        read_third(loss)/' train.py
run "$CGLINT" --baseline cglint-baseline.json .
expect "a new finding is reported" 1 "loss.tolist()" "3 findings hidden" "Found 1 finding"
# a third identical line: occurrence 3 is new
cat >>helpers.py <<'PY'


def read_fourth(loss):
    return loss.item()
PY
sed -i 's/        read_third(loss)/        read_third(loss)\n        read_fourth(loss)/' train.py
run "$CGLINT" --baseline cglint-baseline.json --statistics .
expect "a new copy of a recorded line is reported once" 1 "    2  CG101" "3 findings hidden"

# fix one: it is reported as fixed
sed -i 's/        torch.cuda.synchronize()/        pass/' train.py
run "$CGLINT" --baseline cglint-baseline.json .
expect "a recorded finding that disappeared is reported as fixed" 1 \
    "cglint: note: train.py: CG104 \`torch.cuda.synchronize()\`" "no longer occurs: fixed" \
    "1 baseline entry no longer occurs; run --write-baseline cglint-baseline.json to drop it"

# from another directory, with relative paths: the same fingerprints
mkdir -p elsewhere
(cd elsewhere && run "$CGLINT" --baseline ../cglint-baseline.json .. &&
    expect "run from another directory: paths are relative to the baseline" 1 "2 findings hidden")

# pre-commit style: entries of files not given are not "fixed"
run "$CGLINT" --baseline cglint-baseline.json helpers.py
refute "entries of files not analysed are not reported as fixed" "no longer occurs"
expect "explicit file with a baseline" 1 "2 findings hidden"

# -q keeps the notes quiet
run "$CGLINT" -q --baseline cglint-baseline.json .
refute "--quiet hides the baseline notes" "hidden by the baseline"

# bad baselines: one clear error each
printf '{"findings": [' >bad.json
run "$CGLINT" --baseline bad.json .
one_error "a baseline that is not JSON" "bad.json:1: not a valid baseline (invalid JSON"
printf '{"version": 1}\n' >bad.json
run "$CGLINT" --baseline bad.json .
one_error "JSON that is not a baseline" "bad.json: not a cglint baseline"
run "$CGLINT" --baseline missing.json .
one_error "a missing baseline" "missing.json: cannot read the baseline"
run "$CGLINT" --baseline cglint-baseline.json --write-baseline x.json .
one_error "conflicting flags: --baseline and --write-baseline" "--baseline and --write-baseline cannot be used together"

finish
