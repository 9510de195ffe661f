#!/usr/bin/env bash
# docs.sh - the documented integrations stay true: the GitHub Actions
# workflow in docs/ci is valid YAML that builds cglint, writes SARIF and
# uploads it; .pre-commit-hooks.yaml has the hook the README shows; every
# option the README's tables name is one cglint --help knows.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import yaml' 2>/dev/null; then
    echo "python3 yaml is not installed: skipped"
    exit 77
fi
run "$PY" - "$SRC/docs/ci/github-actions.yml" <<'PYEOF'
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
steps = wf["jobs"]["cglint"]["steps"]
runs = " ".join(s.get("run", "") for s in steps)
uses = [s.get("uses", "") for s in steps]
assert "cmake --build" in runs, "does not build cglint"
assert "--format sarif" in runs and "--output cglint.sarif" in runs, "does not write SARIF"
assert "--format github" in runs, "no annotations"
assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses), "no upload-sarif"
assert wf["permissions"]["security-events"] == "write"
print("workflow ok")
PYEOF
expect "docs/ci/github-actions.yml builds, writes SARIF and uploads it" 0 "workflow ok"

run "$PY" - "$SRC/.pre-commit-hooks.yaml" <<'PYEOF'
import sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
h = [x for x in hooks if x["id"] == "cglint"][0]
assert h["entry"] == "scripts/pre-commit-hook" and h["language"] == "script"
assert h["types_or"] == ["python", "c", "c++", "cuda"]
print("hooks ok")
PYEOF
expect ".pre-commit-hooks.yaml declares the cglint hook" 0 "hooks ok"

help=$("$CGLINT" --help)
missing=""
for opt in $(grep -o '`--[a-z-]*' "$SRC/README.md" | tr -d '`' | sort -u); do
    grep -q -- "$opt" <<<"$help" || missing="$missing $opt"
done
[ -z "$missing" ] && ok "every option the README names is in --help" || nok "every option the README names is in --help" "missing:$missing"

finish
