#!/usr/bin/env bash
# The rule generator must refuse malformed rule pages with a message naming
# the file and the line (`path:line: message`): a missing section, a
# category that contradicts the id, an id that does not match the file name,
# a missing or malformed key (runtime-signal, fix-cu, compiled-as included),
# scaffold text left in a stable page.  Each case copies the real catalog and
# breaks one page.
set -u
PY=$1; SRC=$2
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# check NAME PAGE SED-EXPRESSION FRAGMENT: apply the sed expression to
# rules/PAGE.md; the generator must fail with `.../PAGE.md:LINE: ...FRAGMENT...`
check() {
  rm -rf "$tmp/r"; cp -r "$SRC/rules" "$tmp/r"
  sed -i "$3" "$tmp/r/$2.md"
  if cmp -s "$SRC/rules/$2.md" "$tmp/r/$2.md"; then
    echo "not ok - $1: the sed expression changed nothing"; fail=$((fail+1)); return
  fi
  out=$("$PY" "$tmp/r/gen_rules.py" --rules-dir "$tmp/r" --header "$tmp/h.h" --table "$tmp/t.c" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] && grep -F "$2.md:" <<<"$out" | grep -Eq "^[^ ]*$2\.md:[0-9]+: " &&
     grep -E "^[^ ]*$2\.md:[0-9]+: " <<<"$out" | grep -qiF -- "$4"; then
    echo "ok - $1"; pass=$((pass+1))
  else
    echo "not ok - $1 (rc=$rc): $out"; fail=$((fail+1))
  fi
}
# the unbroken catalog generates
if "$PY" "$SRC/rules/gen_rules.py" --rules-dir "$SRC/rules" --header "$tmp/h.h" --table "$tmp/t.c" >/dev/null 2>&1; then
  echo "ok - real catalog generates"; pass=$((pass+1))
else echo "not ok - real catalog generates"; fail=$((fail+1)); fi
check "missing section" CG101 '/^## Use instead/,/^## Measured/{/^## Measured/!d}' "Use instead"
check "category contradicts id" CG101 's/^category: sync/category: stream/' "categor"
check "id does not match file" CG101 's/^id: CG101/id: CG102/' "CG102"
check "unknown severity" CG101 's/^severity: error/severity: fatal/' "severity"
# runtime-signal: required; `none` exactly when runtime is none
check "missing runtime-signal" CG101 '/^runtime-signal:/d' "missing key 'runtime-signal'"
check "empty runtime-signal" CG101 's/^runtime-signal: .*/runtime-signal:/' "'runtime-signal' has an empty value"
check "unknown runtime signal" CG101 's/^runtime-signal: .*/runtime-signal: error crash/' "unknown runtime signal 'crash'"
check "runtime signal twice" CG101 's/^runtime-signal: .*/runtime-signal: error dynop error/' "names a signal twice"
check "none among signals" CG101 's/^runtime-signal: .*/runtime-signal: error none/' "'none' stands alone"
check "runtime-signal only modifiers" CG101 's/^runtime-signal: .*/runtime-signal: region block/' "names no observation"
check "runtime-signal none, runtime not" CG101 's/^runtime-signal: .*/runtime-signal: none/' "runtime-signal is 'none' but runtime"
check "runtime none, runtime-signal not" CG101 's/^runtime: .*/runtime: none/' "but runtime (line 9) is 'none'"
# fix-cu: required; a sentence only for rules of both languages
check "missing fix-cu" CG104 '/^fix-cu:/d' "missing key 'fix-cu'"
check "fix-cu without a period" CG104 's/^fix-cu: .*/fix-cu: Use events/' "fix-cu must be one sentence"
check "fix-cu on a Python-only rule" CG101 's/^fix-cu: .*/fix-cu: Use cudaMemcpyAsync./' "fix-cu is for rules of both languages"
check "fix-cu on a C-only rule" CG106 's/^fix-cu: .*/fix-cu: Use cudaMemcpyAsync./' "fix-cu is for rules of both languages"
# compiled-as: required; a Python rule that is reported as itself there
check "missing compiled-as" CG101 '/^compiled-as:/d' "missing key 'compiled-as'"
check "compiled-as not an id" CG101 's/^compiled-as: .*/compiled-as: graph-break/' "is not a rule id"
check "compiled-as without a page" CG101 's/^compiled-as: .*/compiled-as: CG999/' "CG999, which has no page"
check "compiled-as names a C rule" CG101 's/^compiled-as: .*/compiled-as: CG106/' "not a Python rule"
check "compiled-as names a remapped rule" CG101 's/^compiled-as: .*/compiled-as: CG102/' "not reported as itself"
check "compiled-as on a C-only rule" CG106 's/^compiled-as: .*/compiled-as: CG901/' "compiled-as is for Python rules"
# scripts/add-rule's scaffold text: only while the status is preview
check "scaffold text in a stable rule" CG101 's/^## Measured/## Measured\n\nTODO(add-rule): what was measured./' "unfinished scaffold text"
rm -rf "$tmp/r"; cp -r "$SRC/rules" "$tmp/r"
sed -i -e 's/^## Measured/## Measured\n\nTODO(add-rule): what was measured./' -e 's/^status: stable/status: preview/' "$tmp/r/CG101.md"
if "$PY" "$tmp/r/gen_rules.py" --rules-dir "$tmp/r" --header "$tmp/h.h" --table "$tmp/t.c" >/dev/null 2>&1; then
  echo "ok - scaffold text in a preview rule is accepted"; pass=$((pass+1))
else echo "not ok - scaffold text in a preview rule is accepted"; fail=$((fail+1)); fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
