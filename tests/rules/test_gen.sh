#!/usr/bin/env bash
# The rule generator must refuse malformed rule pages with a message naming
# the file: a missing section, a category that contradicts the id, an id that
# does not match the file name.  Each case copies the real catalog and breaks
# one page.
set -u
PY=$1; SRC=$2
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check() { # name, sed expression applied to CG101.md, expected message fragment
  rm -rf "$tmp/r"; cp -r "$SRC/rules" "$tmp/r"
  sed -i "$2" "$tmp/r/CG101.md"
  out=$("$PY" "$tmp/r/gen_rules.py" --rules-dir "$tmp/r" --header "$tmp/h.h" --table "$tmp/t.c" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] && grep -q "CG101.md" <<<"$out" && grep -qi "$3" <<<"$out"; then
    echo "ok - $1"; pass=$((pass+1))
  else
    echo "not ok - $1 (rc=$rc): $out"; fail=$((fail+1))
  fi
}
# the unbroken catalog generates
if "$PY" "$SRC/rules/gen_rules.py" --rules-dir "$SRC/rules" --header "$tmp/h.h" --table "$tmp/t.c" >/dev/null 2>&1; then
  echo "ok - real catalog generates"; pass=$((pass+1))
else echo "not ok - real catalog generates"; fail=$((fail+1)); fi
check "missing section" '/^## Use instead/,/^## Measured/{/^## Measured/!d}' "Use instead"
check "category contradicts id" 's/^category: sync/category: stream/' "categor"
check "id does not match file" 's/^id: CG101/id: CG102/' "CG102"
check "unknown severity" 's/^severity: error/severity: fatal/' "severity"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
