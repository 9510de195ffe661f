#!/usr/bin/env bash
# suppress.sh - suppression comments from the command line: they hide
# findings in every output format, CG001 reports the stale ones, and the
# configuration decides what counts as unused.
. "$(dirname "$0")/lib.sh"

P=$TMP/proj
make_project "$P"
cd "$P" || exit 1
sed -i 's/    return loss.item()/    return loss.item()  # cglint: ignore[CG101] -- read once, measured/' helpers.py
run "$CGLINT" .
expect "a suppressed finding is gone" 1 "train.py:10:9"
refute "suppressed: no CG101" "[CG101]" "[CG001]"
run "$CGLINT" --format sarif .
refute "suppressed in SARIF too" '"ruleId": "CG101"'

sed -i 's/torch.cuda.synchronize()/torch.cuda.synchronize()  # noqa: CG104/' train.py
run "$CGLINT" .
expect "noqa with a CG code suppresses" 0 "No findings."

sed -i 's/# noqa: CG104/# noqa/' train.py
run "$CGLINT" .
expect "a bare noqa does not suppress cglint findings" 1 "train.py:10:9"
refute "a bare noqa is not reported as unused" "[CG001]"

sed -i 's/# noqa$/# cglint: ignore[CG104, CG102]/' train.py
run "$CGLINT" .
expect "an unused code in a suppression is CG001" 1 "train.py:10:35: warning: unused suppression: CG102 is not reported on this line [CG001]"
run "$CGLINT" --ignore CG102 .
expect "a code of a rule that is not enabled is not judged" 0 "No findings."
printf '[tool.cglint]\nignore = ["CG001"]\n' >pyproject.toml
run "$CGLINT" .
expect "CG001 can be turned off in the configuration" 0 "No findings."
rm pyproject.toml

printf '# cglint: ignore-file[CG001]\n' | cat - train.py >t2 && mv t2 train.py
run "$CGLINT" .
expect "ignore-file[CG001] silences CG001 in that file" 0 "No findings."

printf 'x = 1  # cglint: ignore[CG101\n' >other.py
run "$CGLINT" --format json .
expect "a malformed suppression is reported in JSON" 1 '"rule": "CG001"' "malformed suppression"
printf '%s\n' "$out" >"$TMP/cg001.json"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
    run /usr/bin/python3 - "$SRC/docs/json-schema.md" "$TMP/cg001.json" <<'PYEOF'
import json, re, sys, jsonschema
text = open(sys.argv[1], encoding="utf-8").read()
schema = json.loads(re.search(r"^```json\n(.*?)^```", text.split("\n## JSON Schema\n", 1)[1], re.S | re.M).group(1))
jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
print("schema ok")
PYEOF
    expect "a JSON report with CG001 follows docs/json-schema.md" 0 "schema ok"
fi
rm other.py

printf '# cglint: ignore-next-line[CG101]\n' >h2 && cat helpers.py | sed 's/  # cglint.*//' >>h2
sed -i '1{h;d};2{G}' h2 && mv h2 helpers.py
run "$CGLINT" .
expect "ignore-next-line suppresses the line after it" 0 "No findings."

finish
