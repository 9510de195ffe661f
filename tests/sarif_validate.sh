#!/usr/bin/env bash
# sarif_validate.sh FILE... - validate SARIF logs with the Microsoft SARIF
# Multitool (pinned in tests/sarif/package.json) and fail on any error or
# warning it reports.
#
# The multitool runs its SARIF rules (structure, URIs, indices, authoring
# guidance) and its GitHub code scanning rules (what GitHub requires to
# accept an upload).  It exits 0 even when it finds problems, so its own
# output log is read back and every result at level error or warning is
# listed; notes (advice such as "consider message ids") are not failures.
#
# Environment:
#   SARIF_MULTITOOL  the tool: node_modules/.bin/sarif-multitool as installed
#                    by `npm ci` from tests/sarif (CMake installs it into
#                    BUILD/tools/sarif), or the native Sarif.Multitool binary.
#                    Default: build*/tools/sarif/node_modules/.bin/sarif-multitool
#                    under the repository.
# Exit status: 0 all files clean, 1 a finding or a missing tool, 2 bad usage.
set -u

if [ $# -eq 0 ]; then
    echo "usage: SARIF_MULTITOOL=PATH $0 FILE.sarif..." >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
tool=${SARIF_MULTITOOL:-}
if [ -z "$tool" ]; then
    for cand in "$repo"/build*/tools/sarif/node_modules/.bin/sarif-multitool; do
        if [ -e "$cand" ]; then tool=$cand; break; fi
    done
fi
if [ -z "$tool" ] || [ ! -e "$tool" ]; then
    echo "sarif_validate: SARIF Multitool not found (${tool:-SARIF_MULTITOOL is not set});" \
         "install it with: npm ci --prefix BUILD/tools/sarif (from tests/sarif) and set SARIF_MULTITOOL" >&2
    exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "sarif_validate: python3 is needed to read the validator's output" >&2
    exit 1
fi

# The npm shim (bin.js) hands its arguments to /bin/sh unquoted, which would
# split "Sarif;Gh" at the ';' and any path at its spaces.  Run the native
# binary it wraps when it is there.
native=
case $tool in
*/node_modules/.bin/*)
    nm=$(cd "$(dirname "$tool")/.." && pwd)
    case $(uname -s) in
    Linux) plat=linux ;;
    Darwin) plat=darwin ;;
    *) plat=win32 ;;
    esac
    native=$nm/@microsoft/sarif-multitool-$plat/Sarif.Multitool
    if [ -e "$native" ] && [ ! -x "$native" ]; then
        # npm 11 skips install scripts, among them the one doing this chmod.
        echo "sarif_validate: $native is not executable: chmod u+x it (npm did not run its install script)" >&2
        exit 1
    fi
    [ -x "$native" ] || native=
    ;;
esac

# For the shim fallback: one argument as a single-quoted sh word.
shq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

run_validator() { # OUT IN
    if [ -n "$native" ]; then
        "$native" validate --rule-kind "Sarif;Gh" --log ForceOverwrite --output "$1" "$2"
    else
        "$tool" validate --rule-kind "$(shq 'Sarif;Gh')" --log ForceOverwrite \
            --output "$(shq "$1")" "$(shq "$2")"
    fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/sarif_validate.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

status=0
for file in "$@"; do
    if [ ! -f "$file" ]; then
        echo "sarif_validate: $file: no such file" >&2
        status=1
        continue
    fi
    out=$work/result.sarif
    rm -f "$out"
    if ! run_validator "$out" "$file" >"$work/log" 2>&1 || [ ! -s "$out" ]; then
        echo "sarif_validate: $file: the validator failed:" >&2
        cat "$work/log" >&2
        status=1
        continue
    fi
    # List results at error/warning (a result without a level is a warning in
    # SARIF) and tool notifications at error, e.g. a file it could not read.
    python3 - "$file" "$out" <<'EOF' || status=1
import json, sys

name, path = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8-sig") as f:
    log = json.load(f)
problems = []
for run in log.get("runs", []):
    rules = {r.get("id"): r for r in run.get("tool", {}).get("driver", {}).get("rules", [])}
    for res in run.get("results", []):
        level = res.get("level", "warning")
        if level not in ("error", "warning"):
            continue
        msg = res.get("message", {})
        text = msg.get("text")
        if text is None:
            strings = rules.get(res.get("ruleId"), {}).get("messageStrings", {})
            text = strings.get(msg.get("id"), {}).get("text", msg.get("id", ""))
            for i, arg in enumerate(msg.get("arguments", [])):
                text = text.replace("{%d}" % i, str(arg))
        problems.append("%s: %s %s: %s" % (name, level, res.get("ruleId", "?"), text))
    for inv in run.get("invocations", []):
        for n in inv.get("toolExecutionNotifications", []) + inv.get("toolConfigurationNotifications", []):
            if n.get("level", "warning") == "error":
                problems.append("%s: tool error: %s" % (name, n.get("message", {}).get("text", "")))
for p in problems:
    print(p)
if problems:
    print("%s: %d problem%s" % (name, len(problems), "" if len(problems) == 1 else "s"))
    sys.exit(1)
print("%s: valid SARIF (no errors or warnings)" % name)
EOF
done
exit $status
