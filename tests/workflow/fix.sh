#!/usr/bin/env bash
# fix.sh - --fix, --diff and SARIF fixes end to end on CG108's mechanical
# fix (error_if_nonfinite=True -> False): the diff applies, --diff writes
# nothing, --fix writes atomically and keeps mode, BOM and CRLF, a second
# --fix changes nothing, what cannot be fixed is still reported.
. "$(dirname "$0")/lib.sh"

P=$TMP/proj
mkdir -p "$P"
cd "$P" || exit 1
cat >step.py <<'PY'
import torch


def step(model, opt, static_x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        loss = model(static_x).sum()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
        torch.nn.utils.clip_grad_norm_(
            model.parameters(),
            max_norm=1.0,
            error_if_nonfinite=True,   # keep this comment
        )
        opt.step()
        n = loss.item()
    g.replay()
PY
cp step.py step.orig
chmod 640 step.py

run "$CGLINT" .
expect "fixable findings say so" 1 "(fixable with --fix)" "2 fixable with --fix."

run "$CGLINT" --diff .
expect "--diff prints a unified diff and exits 1" 1 "--- a/step.py" "+++ b/step.py" \
    "-        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)" \
    "+            error_if_nonfinite=False,   # keep this comment" "2 fixes in 1 file would be applied by --fix"
cmp -s step.py step.orig && ok "--diff writes nothing" || nok "--diff writes nothing"
printf '%s\n' "$out" >"$TMP/fix.diff"
if command -v patch >/dev/null 2>&1; then
    patch -p1 --dry-run <"$TMP/fix.diff" >/dev/null 2>&1 && ok "the diff applies with patch -p1" || nok "the diff applies with patch -p1" "$out"
fi
git apply --check "$TMP/fix.diff" 2>/dev/null && ok "the diff applies with git apply" || nok "the diff applies with git apply" "$(git apply --check "$TMP/fix.diff" 2>&1)"

run "$CGLINT" --format sarif .
expect "SARIF carries the fixes" 1 '"fixes": [' '"deletedRegion"' '"insertedContent"' '"text": "False"' 'Pass `error_if_nonfinite=False`.'
if [ -n "${SARIF_MULTITOOL:-}" ] && [ -e "$SARIF_MULTITOOL" ]; then
    printf '%s\n' "$out" >"$TMP/fix.sarif"
    run "$SRC/tests/sarif_validate.sh" "$TMP/fix.sarif"
    expect "SARIF with fixes validates with no errors or warnings" 0 "valid SARIF"
fi

run "$CGLINT" --fix .
expect "--fix applies the safe fixes and reports what is left" 1 "fixed 2 findings in 1 file" "step.py:16:13" "[CG101]"
refute "--fix: the fixed findings are gone" "[CG108]"
grep -q "error_if_nonfinite=False)" step.py && grep -q "error_if_nonfinite=False,   # keep this comment" step.py &&
    ok "the file holds the fixed code" || nok "the file holds the fixed code" "$(cat step.py)"
[ "$(stat -c %a step.py)" = 640 ] && ok "--fix keeps the file's mode" || nok "--fix keeps the file's mode" "$(stat -c %a step.py)"
ls -a | grep -q cglint-fix && nok "no temporary file is left behind" "$(ls -a)" || ok "no temporary file is left behind"
cp step.py step.once
run "$CGLINT" --fix .
expect "a second --fix has nothing to fix" 1 "step.py:16:13"
refute "a second --fix: nothing fixed" "fixed "
cmp -s step.py step.once && ok "--fix is idempotent" || nok "--fix is idempotent"
run "$CGLINT" --diff .
expect "--diff after --fix: no diff, exit 0" 0 "0 fixes in 0 files"

# a BOM and CRLF line endings survive
printf '\xef\xbb\xbf' >crlf.py
sed 's/$/\r/' step.orig >>crlf.py
run "$CGLINT" --fix crlf.py
head -c 3 crlf.py | od -An -tx1 | grep -q "ef bb bf" && ok "--fix keeps a BOM" || nok "--fix keeps a BOM"
[ "$(grep -c $'\r$' crlf.py)" = "$(wc -l <step.orig)" ] && grep -q "error_if_nonfinite=False)"$'\r' crlf.py &&
    ok "--fix keeps CRLF line endings" || nok "--fix keeps CRLF line endings" "$(od -c crlf.py | head)"

# the keyword fixes of the other rules: CG601 cache_enabled=False and CG605
# capturable=True (safe), CG604 preserve_rng_state=False (unsafe); CG605's
# edit is at the optimizer's constructor, not at the finding
mkdir -p kw && for r in CG601 CG604 CG605; do cp "$SRC/tests/fixtures/py/$r/positive.py" "kw/$r.py"; done
run "$CGLINT" --isolated --select CG601,CG604,CG605 kw
expect "safe and unsafe fixes are counted apart" 1 "8 fixable with --fix (3 more with --unsafe-fixes)."
run "$CGLINT" --isolated --select CG601,CG604,CG605 --fix kw
expect "--fix applies only the safe ones" 1 "fixed 8 findings in 2 files" "[CG604]"
grep -q "capturable=True" kw/CG605.py && grep -q "cache_enabled=False" kw/CG601.py &&
    ok "capturable=True and cache_enabled=False were written" || nok "capturable=True and cache_enabled=False were written"
run "$CGLINT" --isolated --select CG601,CG604,CG605 --fix --unsafe-fixes kw
expect "--unsafe-fixes applies the rest" 0 "fixed 3 findings in 1 file" "No findings."
run "$CGLINT" --isolated --select CG601,CG604,CG605 --diff --unsafe-fixes kw
expect "nothing left to fix" 0 "0 fixes in 0 files"
run "$CGLINT" --isolated kw
refute "the fixed files have no new findings of other rules from the edits" "[CG601]" "[CG604]" "[CG605]"

# conflicting flags
run "$CGLINT" --diff --format json .
one_error "--diff with --format" "--diff prints the fixes as a diff instead of a report"
run "$CGLINT" --diff -o out.txt .
one_error "--diff with --output" "--diff prints the fixes as a diff instead of a report"

finish
