#!/usr/bin/env bash
# run_cli_tests.sh CGLINT SOURCE_DIR [BUILD_DIR] - black-box tests of the
# cglint command line: exit codes, output formats, --output, bad input,
# directory walking and determinism.
#
# Prints one line per check, "ok - NAME" or "not ok - NAME: why", then
# "N passed, M failed" alone on a line; exits 1 if any check failed.
# Each check asserts behaviour; the t_bug_* ones pin bugs that were fixed.
#
# Environment: SARIF_MULTITOOL (see tests/sarif_validate.sh); the default is
# BUILD_DIR/tools/sarif/node_modules/.bin/sarif-multitool.  CLI_ONLY=REGEX
# runs only the checks whose names match it.
# Every input is generated in a mktemp -d directory removed on exit.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 CGLINT SOURCE_DIR [BUILD_DIR]" >&2
    exit 2
fi
CGLINT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
BUILD=$(cd "${3:-$SRC/build}" 2>/dev/null && pwd || echo "${3:-$SRC/build}")
SARIF_MULTITOOL=${SARIF_MULTITOOL:-$BUILD/tools/sarif/node_modules/.bin/sarif-multitool}
export SARIF_MULTITOOL
unset NO_COLOR CLICOLOR_FORCE

if [ ! -x "$CGLINT" ]; then
    echo "not ok - setup: $CGLINT is not an executable"
    echo "0 passed, 1 failed"
    exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cglint_cli.XXXXXX") || exit 1
cleanup() {
    chmod -R u+rwX "$WORK" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PASSED=0
FAILED=0
FAILED_NAMES=()

# check NAME FUNCTION [ARGS...]: run the function in a subshell, in a fresh
# directory; it prints why and returns non-zero on failure.
# mem_bound MB CMD...: CMD with its memory bounded.  ulimit -v, except for an
# AddressSanitizer build (scripts/test-sanitized), which reserves terabytes of
# address space for its shadow at start-up and cannot start under ulimit -v;
# there ASan's own RSS bound (hard_rss_limit_mb, a later setting wins) does it.
if ldd "$CGLINT" 2>/dev/null | grep -q libasan; then CLI_ASAN=1; else CLI_ASAN=0; fi
mem_bound() {
    local mb=$1
    shift
    if [ "$CLI_ASAN" = 1 ]; then
        # resident, not virtual, and ASan's shadow and quarantine about double
        # a run's memory (16k findings as SARIF: 0.28 GB plain, 1.7-2.1 GB here)
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$((mb * 2))" "$@"
    else
        (ulimit -v $((mb * 1024)); "$@")
    fi
}
check() {
    local name=$1
    shift
    # CLI_ONLY=REGEX runs only the checks whose names match (while iterating)
    if [ -n "${CLI_ONLY:-}" ] && ! [[ $name =~ $CLI_ONLY ]]; then return 0; fi
    local dir why rc
    dir=$(mktemp -d "$WORK/t.XXXXXX")
    why=$(cd "$dir" && T=$dir "$@" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "ok - $name"
        PASSED=$((PASSED + 1))
    elif [ $rc -eq 77 ]; then
        echo "ok - $name # SKIP ${why:-skipped}"
        PASSED=$((PASSED + 1))
    else
        why=$(printf '%s' "${why:-failed}" | tr '\n' ' ' | sed 's/  */ /g; s/ $//' | cut -c1-600)
        echo "not ok - $name: $why"
        FAILED=$((FAILED + 1))
        FAILED_NAMES+=("$name")
    fi
}

# ---- helpers used inside checks (cwd is the check's own directory $T) -----

# cg ARGS...: run cglint; stdout in $T/out, stderr in $T/err, status in RC.
cg() {
    "$CGLINT" "$@" >"$T/out" 2>"$T/err"
    RC=$?
}
# cg_in DIR ARGS...: the same, run from DIR
cg_in() {
    local d=$1
    shift
    (cd "$d" && "$CGLINT" "$@") >"$T/out" 2>"$T/err"
    RC=$?
}
show() { # a short excerpt of a file for failure messages
    printf '[%s: %s]' "$(basename "$1")" "$(head -c 400 "$1" | tr '\n' '|')"
}
want_rc() {
    if [ "$RC" -ne "$1" ]; then
        echo "exit status $RC, expected $1; stderr $(show "$T/err") stdout $(show "$T/out")"
        return 1
    fi
}
want_out() { # ERE on stdout
    grep -Eq -- "$1" "$T/out" || { echo "stdout lacks /$1/: $(show "$T/out")"; return 1; }
}
want_no_out() {
    if grep -Eq -- "$1" "$T/out"; then echo "stdout has /$1/: $(grep -E -m2 -- "$1" "$T/out" | tr '\n' '|')"; return 1; fi
}
want_err() {
    grep -Eq -- "$1" "$T/err" || { echo "stderr lacks /$1/: $(show "$T/err")"; return 1; }
}
want_empty_out() {
    [ ! -s "$T/out" ] || { echo "stdout is not empty: $(show "$T/out")"; return 1; }
}
# one_error FILE_REGEX MSG_REGEX: exactly one "cglint: error:" line on
# stderr, and it names the file and says MSG.
one_error() {
    local n
    n=$(grep -c '^cglint: error:' "$T/err")
    if [ "$n" -ne 1 ]; then
        echo "expected one 'cglint: error:' line on stderr, got $n: $(show "$T/err")"
        return 1
    fi
    grep -E '^cglint: error:' "$T/err" | grep -Eq -- "$1" ||
        { echo "the error line does not name /$1/: $(show "$T/err")"; return 1; }
    grep -E '^cglint: error:' "$T/err" | grep -Eq -- "$2" ||
        { echo "the error line does not say /$2/: $(show "$T/err")"; return 1; }
}
no_esc() {
    if grep -q $'\x1b' "$1"; then echo "$(basename "$1") has ESC bytes"; return 1; fi
}

# ---- inputs ----------------------------------------------------------------

# hazard FILE: a CG101 (y.item() in a capture) at line 8, column 13.
hazard() {
    mkdir -p "$(dirname "$1")"
    cat >"$1" <<'EOF'
import torch


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x.sum()
        v = y.item()
    return v
EOF
}
clean() {
    mkdir -p "$(dirname "$1")"
    cat >"$1" <<'EOF'
import torch


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x.sum()
    return y
EOF
}
HAZARD_RE='hazard\.py:8:13: error: .*\[CG101\]'

# ============================================================================
# exit codes
# ============================================================================

t_exit_clean() {
    clean tree/a.py; clean tree/sub/b.py
    cg tree
    want_rc 0 && want_out '^No findings\.$' && want_no_out 'CG[0-9]{3}'
}
t_exit_findings() {
    clean tree/a.py; hazard tree/hazard.py
    cg tree
    want_rc 1 && want_out "^tree/$HAZARD_RE" && want_out '^Found 1 finding \(1 error\) in 1 file\.$'
}
t_exit_zero() {
    hazard tree/hazard.py
    cg --exit-zero tree
    want_rc 0 && want_out "$HAZARD_RE"
}
t_unknown_option() {
    hazard tree/hazard.py
    cg --bogus-option tree
    want_rc 2 && want_empty_out && one_error "--bogus-option" "unknown option"
}
t_bad_format() {
    hazard tree/hazard.py
    cg --format nope tree
    want_rc 2 && want_empty_out && one_error "nope" "format"
}
t_bad_select() {
    hazard tree/hazard.py
    cg --select XX1 tree
    want_rc 2 && want_empty_out && one_error "XX1" "select" || return 1
    cg --ignore XX1 tree
    want_rc 2 && want_empty_out && one_error "XX1" "ignore"
}
t_jobs_zero() {
    hazard tree/hazard.py
    cg --jobs 0 tree
    want_rc 2 && want_empty_out && one_error "'0'" "--jobs" || return 1
    cg -j abc tree
    want_rc 2 && one_error "abc" "--jobs"
}
t_missing_value() {
    cg tree --format
    want_rc 2 && want_empty_out && one_error "--format" "value"
}
t_statistics_json() {
    hazard tree/hazard.py
    cg --statistics --format sarif tree
    want_rc 1 && grep -q '"statistics": \[' "$T/out"
}
t_missing_path() {
    hazard tree/hazard.py
    cg tree no_such_file.py
    want_rc 2 && one_error "no_such_file\.py" "No such file" && want_out "$HAZARD_RE"
}
t_version() {
    cg --version
    # cglint's version first, then libclang's and the pinned grammar's (issue 15)
    want_rc 0 && want_out '^cglint [0-9]+\.[0-9]+\.[0-9]+$' && want_out '^libclang: .*clang version [0-9]+' &&
        want_out '^tree-sitter-python: [0-9]+\.[0-9]+\.[0-9]+$' && [ "$(wc -l <"$T/out")" -eq 3 ] ||
        { echo "version output: $(show "$T/out")"; return 1; }
    [ ! -s "$T/err" ] || { echo "stderr not empty"; return 1; }
}
t_help() {
    cg --help
    want_rc 0 && want_out '^Usage: cglint' && want_out '--format' && want_out '--exit-zero' &&
        want_out '^Exit status:' || return 1
    cg -h
    want_rc 0 && want_out '^Usage: cglint'
}

# Every option --help lists (cli/options.c) is one the command's switch
# handles: an option added to the table but not to main.c's or run_cmd.c's
# switch would fall to "unknown option".
t_help_options_handled() {
    local cmd o arg bad=""
    for cmd in "" run; do
        while read -r o arg; do
            [ "$o" = --help ] && continue
            if [ -n "$cmd" ]; then
                "$CGLINT" run $o ${arg:+x} --findings /nonexistent -- true </dev/null >"$T/out" 2>"$T/err"
            else
                "$CGLINT" $o ${arg:+x} "$T/none" </dev/null >"$T/out" 2>"$T/err"
            fi
            grep -q 'unknown option' "$T/err" && bad="$bad ${cmd:+run }$o"
        done < <("$CGLINT" $cmd --help | sed -nE 's/^  (-., |    )(--[a-z-]+)( ([A-Z][^ ]*))?.*/\2 \4/p')
    done
    [ -z "$bad" ] || { echo "listed by --help but not handled:$bad"; return 1; }
}

check exit.clean-tree-0 t_exit_clean
check exit.findings-1 t_exit_findings
check exit.exit-zero t_exit_zero
check exit.unknown-option-2 t_unknown_option
check exit.bad-format-2 t_bad_format
check exit.bad-select-ignore-2 t_bad_select
check exit.jobs-0-2 t_jobs_zero
check exit.missing-option-value-2 t_missing_value
check exit.statistics-sarif-1 t_statistics_json
check exit.missing-path-2 t_missing_path
check exit.version t_version
check exit.help t_help
check help.options-handled t_help_options_handled

# ============================================================================
# output formats, on examples/
# ============================================================================

t_text_format() {
    cg_in "$SRC" examples/
    want_rc 1 || return 1
    want_out '^examples/[A-Za-z0-9_/]+\.py:[0-9]+:[0-9]+: (error|warning|note): .+ \[CG[0-9]{3}\]$' &&
        want_out '^ +\| +\^+$' && want_out '^ += help: ' && want_out '^ += note: (inside|reached from) the capture at ' &&
        want_out '^Found [0-9]+ findings? \(' || return 1
    # every finding header is followed by a gutter, the line, and a caret line
    local headers carets
    headers=$(grep -cE '^examples/.*\[CG[0-9]{3}\]$' "$T/out")
    carets=$(grep -cE '^ +\| +\^+$' "$T/out")
    [ "$headers" -gt 0 ] && [ "$headers" -eq "$carets" ] ||
        { echo "$headers finding headers but $carets caret lines"; return 1; }
    no_esc "$T/out"
}
t_text_call_path() {
    cg_in "$SRC" examples/
    want_rc 1 && want_out '= note: reached from the capture at examples/[a-z_]+\.py:[0-9]+:[0-9]+ .*via [A-Za-z_][A-Za-z0-9_.]* -> [A-Za-z_][A-Za-z0-9_.]*'
}
t_json_format() {
    cg_in "$SRC" --format json examples/
    want_rc 1 || return 1
    python3 - "$T/out" "$SRC/docs/json-schema.md" <<'EOF'
import json, re, sys
out, doc = sys.argv[1], sys.argv[2]
raw = open(out, "rb").read()
try:
    d = json.loads(raw.decode("utf-8"))
except Exception as e:
    sys.exit("not JSON: %s" % e)
if not raw.endswith(b"\n"):
    sys.exit("no final newline")
if list(d) != ["schema_version", "tool", "root", "findings", "errors", "summary", "run"] or not d["root"].startswith("/"):
    sys.exit("top-level keys %s" % list(d))
if d["schema_version"] != 1 or d["tool"]["name"] != "cglint":
    sys.exit("schema_version/tool wrong: %r %r" % (d["schema_version"], d["tool"]))
fkeys = ["rule", "name", "category", "severity", "path", "line", "column", "end_line",
         "end_column", "message", "fix", "capture", "call_path", "autofix", "verdict", "evidence"]
if not d["findings"]:
    sys.exit("no findings")
for f in d["findings"]:
    if list(f) != fkeys:
        sys.exit("finding keys %s" % list(f))
    if not re.match(r"^CG[0-9]{3}$", f["rule"]):
        sys.exit("rule id %r" % f["rule"])
    if f["capture"] is not None and list(f["capture"]) != ["path", "line", "column", "kind"]:
        sys.exit("capture keys %s" % list(f["capture"]))
    for s in f["call_path"]:
        if list(s) != ["function", "path", "line", "column"]:
            sys.exit("call_path keys %s" % list(s))
if not any(f["call_path"] for f in d["findings"]):
    sys.exit("no finding with a call_path")
if list(d["summary"]) != ["findings", "errors", "files_analysed"]:
    sys.exit("summary keys %s" % list(d["summary"]))
if d["summary"]["findings"] != len(d["findings"]):
    sys.exit("summary.findings %d != %d findings" % (d["summary"]["findings"], len(d["findings"])))
keys = [f[k] for f in d["findings"] for k in ("path", "line", "column", "rule")]
order = [(f["path"], f["line"], f["column"], f["rule"]) for f in d["findings"]]
if order != sorted(order):
    sys.exit("findings not sorted by path, line, column, rule")
# the schema in the documentation, when jsonschema is installed
try:
    import jsonschema
except ImportError:
    sys.exit(0)
text = open(doc, encoding="utf-8").read()
sec = text.split("\n## JSON Schema\n", 1)[1]
schema = json.loads(re.search(r"^```json\n(.*?)^```", sec, re.S | re.M).group(1))
errs = ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
        for e in jsonschema.Draft202012Validator(schema).iter_errors(d)]
if errs:
    sys.exit("schema: " + "; ".join(errs[:5]))
EOF
}
t_json_with_errors() {
    hazard tree/hazard.py
    printf 'import torch\x00\n' >tree/bin.py
    cg --format json tree
    want_rc 2 || return 1
    python3 - "$T/out" "$SRC/docs/json-schema.md" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
if len(d["findings"]) != 1 or d["findings"][0]["path"] != "tree/hazard.py":
    sys.exit("findings: %r" % d["findings"])
errs = [e for e in d["errors"] if e["level"] == "error"]
if len(errs) != 1 or errs[0]["path"] != "tree/bin.py" or "binary" not in errs[0]["message"]:
    sys.exit("errors: %r" % d["errors"])
if list(errs[0]) != ["level", "path", "line", "column", "message"]:
    sys.exit("error keys %s" % list(errs[0]))
if d["summary"]["errors"] != 1:
    sys.exit("summary.errors %r" % d["summary"]["errors"])
try:
    import jsonschema
except ImportError:
    sys.exit(0)
text = open(sys.argv[2], encoding="utf-8").read()
sec = text.split("\n## JSON Schema\n", 1)[1]
schema = json.loads(re.search(r"^```json\n(.*?)^```", sec, re.S | re.M).group(1))
errs = ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
        for e in jsonschema.Draft202012Validator(schema).iter_errors(d)]
if errs:
    sys.exit("schema: " + "; ".join(errs[:5]))
EOF
}
t_github_format() {
    cg_in "$SRC" --format github examples/
    want_rc 1 || return 1
    local bad n
    bad=$(grep -vE '^::(error|warning) file=examples/[^,]+\.py,line=[0-9]+,col=[0-9]+' "$T/out" | head -3)
    [ -z "$bad" ] || { echo "lines not in the github format: $bad"; return 1; }
    n=$(grep -c '' "$T/out")
    [ "$n" -gt 0 ] || { echo "no output"; return 1; }
    grep -q '^::warning file=' "$T/out" || { echo "no ::warning line (examples have warnings)"; return 1; }
    # one line per finding
    "$CGLINT" --format json "$SRC/examples" >"$T/j.json" 2>/dev/null
    local nj
    nj=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$T/j.json")
    [ "$n" -eq "$nj" ] || { echo "$n github lines for $nj findings"; return 1; }
}
sarif_check() { # FILE
    if [ ! -e "$SARIF_MULTITOOL" ]; then
        echo "SARIF Multitool not found at $SARIF_MULTITOOL"
        return 1
    fi
    bash "$SRC/tests/sarif_validate.sh" "$1" >"$T/sarif.log" 2>&1 ||
        { echo "sarif_validate: $(tr '\n' '|' <"$T/sarif.log" | head -c 500)"; return 1; }
    grep -q 'valid SARIF (no errors or warnings)' "$T/sarif.log" ||
        { echo "validator said: $(show "$T/sarif.log")"; return 1; }
}
t_sarif_format() {
    cg_in "$SRC" --format sarif examples/
    want_rc 1 || return 1
    cp "$T/out" "$T/examples.sarif"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["runs"][0]["results"], "no results"' "$T/examples.sarif" ||
        { echo "SARIF has no results"; return 1; }
    sarif_check "$T/examples.sarif"
}
t_sarif_with_errors() {
    hazard tree/hazard.py
    printf '# caf\xe9\n' >tree/latin1.py
    cg --format sarif tree
    want_rc 2 || return 1
    cp "$T/out" "$T/errors.sarif"
    sarif_check "$T/errors.sarif"
}
t_statistics() {
    cg_in "$SRC" --statistics examples/
    want_rc 1 || return 1
    want_no_out '\^\^' || return 1
    "$CGLINT" --format json "$SRC/examples" >"$T/j.json" 2>/dev/null
    python3 - "$T/out" "$T/j.json" <<'EOF'
import collections, json, re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
want = collections.Counter(f["rule"] for f in json.load(open(sys.argv[2]))["findings"])
got = {}
for l in lines:
    m = re.match(r"^\s*(\d+)\s+(CG\d{3})\s+([a-z0-9-]+)$", l)
    if m:
        got[m.group(2)] = int(m.group(1))
if got != dict(want):
    sys.exit("statistics %r, findings per rule %r" % (got, dict(want)))
counts = [got[r] for r in [re.match(r"^\s*\d+\s+(CG\d{3})", l).group(1) for l in lines if re.match(r"^\s*\d+\s+CG", l)]]
if counts != sorted(counts, reverse=True):
    sys.exit("not sorted by count: %r" % counts)
if not any(l.startswith("Found ") for l in lines):
    sys.exit("no summary line")
EOF
}
t_select() {
    cg_in "$SRC" --select CG3 examples/
    want_rc 1 || return 1
    local ids
    ids=$(grep -oE '\[CG[0-9]{3}\]$' "$T/out" | sort -u | tr '\n' ' ')
    [ -n "$ids" ] || { echo "no findings with --select CG3"; return 1; }
    case $ids in *CG[!3]*) echo "rules other than CG3xx: $ids"; return 1 ;; esac
    # several codes, lower case
    cg_in "$SRC" --select cg101,CG402 examples/
    want_rc 1 || return 1
    ids=$(grep -oE '\[CG[0-9]{3}\]$' "$T/out" | sort -u | tr '\n' ' ')
    [ "$ids" = "[CG101] [CG402] " ] || { echo "--select cg101,CG402 gave: $ids"; return 1; }
    # a well-formed code with no rule: accepted, nothing reported
    cg_in "$SRC" --select CG9 examples/
    want_rc 0 && want_out '^No findings\.$'
}
t_ignore() {
    cg_in "$SRC" --ignore CG1 examples/
    want_rc 1 || return 1
    want_no_out '\[CG1[0-9]{2}\]$' || return 1
    want_out '\[CG[2-9][0-9]{2}\]$' || return 1
    cg_in "$SRC" --ignore ALL examples/
    want_rc 0 && want_out '^No findings\.$'
}
t_quiet() {
    cg_in "$SRC" --quiet examples/
    want_rc 1 && want_out '\[CG[0-9]{3}\]$' && want_no_out '^Found ' && want_no_out '^No findings' || return 1
    clean tree/a.py
    cg -q tree
    want_rc 0 && want_empty_out
}
t_no_color_pipe() {
    cg_in "$SRC" examples/                      # stdout is a file
    no_esc "$T/out" || return 1
    NO_COLOR=1 script -qec "\"$CGLINT\" \"$SRC/examples\"" /dev/null >"$T/tty_nc" 2>&1 </dev/null
    no_esc "$T/tty_nc" || { echo "(NO_COLOR=1 on a terminal)"; return 1; }
    grep -q 'CG101' "$T/tty_nc" || { echo "no output under script(1): $(show "$T/tty_nc")"; return 1; }
    "$CGLINT" --color never "$SRC/examples" >"$T/never" 2>&1
    no_esc "$T/never"
}
t_color_always() {
    cg_in "$SRC" --color always examples/
    want_rc 1 || return 1
    grep -q $'\x1b\\[' "$T/out" || { echo "no SGR sequence with --color always"; return 1; }
    # and colour on a terminal by default
    script -qec "\"$CGLINT\" \"$SRC/examples\"" /dev/null >"$T/tty" 2>&1 </dev/null
    grep -q $'\x1b\\[' "$T/tty" || { echo "no colour on a terminal without NO_COLOR"; return 1; }
    cg_in "$SRC" --color sometimes examples/
    want_rc 2 && one_error "sometimes" "color"
}
t_list_rules() {
    cg --list-rules
    want_rc 0 || return 1
    local ids=0 id f
    for f in "$SRC"/rules/CG*.md; do
        id=$(sed -n 's/^id: *//p' "$f" | head -1)
        [ -n "$id" ] || id=$(basename "$f" .md)
        grep -Eq "^$id " "$T/out" || { echo "--list-rules lacks $id ($f)"; return 1; }
        ids=$((ids + 1))
    done
    local listed
    listed=$(grep -cE '^CG[0-9]{3} ' "$T/out")
    [ "$listed" -eq "$ids" ] || { echo "$listed rules listed, $ids rule pages"; return 1; }
}
t_explain() {
    cg --explain CG101
    want_rc 0 && want_out '^# CG101: host-scalar-read$' || return 1
    # the page body after the front matter, as written
    awk 'n >= 2 { print } /^---$/ { n++ }' "$SRC/rules/CG101.md" >"$T/body"
    tail -n +2 "$T/out" >"$T/got"
    cmp -s "$T/body" "$T/got" || { echo "--explain CG101 differs from rules/CG101.md: $(diff "$T/body" "$T/got" | head -5 | tr '\n' '|')"; return 1; }
    cg --explain cg101
    want_rc 0 && want_out '^# CG101' || return 1
    cg --explain CG999
    want_rc 2 && want_empty_out && one_error "CG999" "no rule"
}

check format.text t_text_format
check format.text-call-path t_text_call_path
check format.json t_json_format
check format.json-errors t_json_with_errors
check format.github t_github_format
check format.sarif-valid t_sarif_format
check format.sarif-valid-with-errors t_sarif_with_errors
check format.statistics t_statistics
check select t_select
check ignore t_ignore
check quiet t_quiet
check color.none-when-piped-or-NO_COLOR t_no_color_pipe
check color.always t_color_always
check list-rules t_list_rules
check explain t_explain

# ============================================================================
# --output
# ============================================================================

no_temp_files() { # DIR
    local left
    left=$(find "$1" -name '.*.cglint-*' 2>/dev/null | head -3)
    [ -z "$left" ] || { echo "temporary files left: $left"; return 1; }
}
t_output_file() {
    hazard tree/hazard.py
    cg --format json -o report.json tree
    want_rc 1 && want_empty_out || return 1
    [ -s report.json ] || { echo "report.json not written"; return 1; }
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["findings"]) == 1' report.json ||
        { echo "report.json: $(show report.json)"; return 1; }
    cg --output report.txt tree
    want_rc 1 && want_empty_out || return 1
    grep -Eq "$HAZARD_RE" report.txt && grep -q '^Found 1 finding' report.txt ||
        { echo "report.txt: $(show report.txt)"; return 1; }
    no_esc report.txt && no_temp_files .
}
t_output_missing_dir() {
    hazard tree/hazard.py
    cg -o no_such_dir/report.json --format json tree
    want_rc 2 && want_empty_out && one_error "no_such_dir/report\.json" "cannot write" || return 1
    [ ! -e no_such_dir ] || { echo "no_such_dir was created"; return 1; }
    no_temp_files .
}
t_output_atomic() {
    hazard tree/hazard.py
    echo "old report" >report.txt
    ln report.txt keep.txt                # a second name for the old inode
    local before after
    before=$(stat -c %i report.txt)
    cg -o report.txt tree
    want_rc 1 || return 1
    after=$(stat -c %i report.txt)
    [ "$before" != "$after" ] || { echo "report.txt rewritten in place (inode $before kept), not renamed over"; return 1; }
    grep -q 'CG101' report.txt || { echo "report.txt: $(show report.txt)"; return 1; }
    [ "$(cat keep.txt)" = "old report" ] || { echo "the old inode was modified: $(show keep.txt)"; return 1; }
    no_temp_files .
}
# src/cli/main.c emit_to_file(): the temporary file comes from mkstemp(3),
# which creates it with mode 0600, and it is renamed over the target without
# an fchmod.  So `cglint -o report.txt` leaves a file only its owner can read
# whatever the umask (and replaces a 0644 report with a 0600 one), unlike
# `cglint > report.txt`.  Expected: 0666 & ~umask (0644 under umask 022).
t_bug_output_mode() {
    hazard tree/hazard.py
    umask 022
    cg -o report.txt tree
    want_rc 1 || return 1
    local mode
    mode=$(stat -c %a report.txt)
    [ "$mode" = 644 ] || { echo "report.txt has mode $mode, expected 644 under umask 022 (BUG in src/cli/main.c emit_to_file)"; return 1; }
}

t_output_target_is_dir() {
    hazard tree/hazard.py
    mkdir out.d
    cg -o out.d tree
    want_rc 2 && want_empty_out && one_error "out\.d" "cannot write" || return 1
    [ -d out.d ] && [ -z "$(ls -A out.d)" ] || { echo "out.d was changed"; return 1; }
    no_temp_files .
}
t_stdout_write_error() {
    [ -w /dev/full ] || { echo "no /dev/full"; return 77; }
    hazard tree/hazard.py
    "$CGLINT" tree >/dev/full 2>"$T/err"
    RC=$?
    want_rc 2 && one_error "report" "cannot write"
}

check output.file t_output_file
check output.target-is-directory t_output_target_is_dir
check output.stdout-write-error t_stdout_write_error
check output.missing-dir t_output_missing_dir
check output.atomic-rename t_output_atomic
check output-file-mode-follows-umask t_bug_output_mode

# ============================================================================
# bad input: one clear line on stderr naming the file, the rest analysed,
# exit 2
# ============================================================================

t_bad_unparsable() {
    hazard tree/hazard.py
    cat >tree/broken.py <<'EOF'
import torch

g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = (1 +
    def def
EOF
    cg tree
    want_rc 2 && one_error "tree/broken\.py" "cannot parse" && want_out "^tree/$HAZARD_RE"
}
t_bad_binary() {
    hazard tree/hazard.py
    printf 'import torch\n\x00\x01\x02\x00binary\n' >tree/x.py
    cg tree
    want_rc 2 && one_error "tree/x\.py" "binary|NUL" && want_out "^tree/$HAZARD_RE"
}
t_bad_latin1() {
    hazard tree/hazard.py
    printf '# r\xe9sum\xe9 of the model\nimport torch\n' >tree/latin1.py
    cg tree
    want_rc 2 && one_error "tree/latin1\.py" "UTF-8" && want_out "^tree/$HAZARD_RE"
}
t_bad_max_file_size() {
    hazard tree/hazard.py
    python3 -c 'print("x = 1\n" * 400, end="")' >tree/big.py      # 2400 bytes
    cg --max-file-size 1K tree
    want_rc 2 && one_error "tree/big\.py" "over the .* limit" && want_out "^tree/$HAZARD_RE"
}
# src/core/source.c cg_source_load(): sizes are printed as "%.1f MiB", so
# with --max-file-size 1K the message reads "file is 0.0 MiB, over the
# 0.0 MiB limit": the numbers are useless.  Expected: readable sizes
# (e.g. "2400 bytes, over the 1024-byte limit" or "2.3 KiB ... 1.0 KiB").
t_bug_max_file_size_message() {
    hazard tree/hazard.py
    python3 -c 'print("x = 1\n" * 400, end="")' >tree/big.py
    cg --max-file-size 1K tree
    want_rc 2 || return 1
    if grep -q '0\.0 MiB' "$T/err"; then
        echo "unreadable sizes (BUG in src/core/source.c cg_source_load): $(grep big.py "$T/err")"
        return 1
    fi
}
t_bad_50mb() {
    hazard tree/hazard.py
    yes 'x = 1  # padding padding padding padding padding padding padding padding' |
        head -c $((50 * 1024 * 1024)) >tree/huge.py
    cg tree
    want_rc 2 && one_error "tree/huge\.py" "over the .*limit" && want_out "^tree/$HAZARD_RE"
}
t_bad_dangling() {
    hazard tree/hazard.py
    ln -s does_not_exist.py tree/y.py
    cg tree
    want_rc 2 && one_error "tree/y\.py" "broken symbolic link" && want_out "^tree/$HAZARD_RE"
}
t_bad_fifo() {
    hazard tree/hazard.py
    mkfifo tree/z.py
    timeout 20 "$CGLINT" tree tree/z.py >"$T/out" 2>"$T/err"
    RC=$?
    [ "$RC" -ne 124 ] || { echo "hung on the FIFO (killed after 20 s)"; return 1; }
    want_rc 2 && one_error "tree/z\.py" "not a regular file|FIFO" && want_out "^tree/$HAZARD_RE"
}
t_bad_unreadable() {
    command -v setpriv >/dev/null 2>&1 || { echo "setpriv not available"; return 77; }
    [ "$(id -u)" -eq 0 ] || { echo "not root: cannot switch to user nobody"; return 77; }
    # a copy of the tree outside $WORK (mode 0700), readable by nobody but
    # for the one file
    local top
    top=$(mktemp -d /tmp/cglint_unreadable.XXXXXX) || return 1
    chmod 755 "$top"
    hazard "$top/tree/hazard.py"
    printf 'import torch\nx = 1\n' >"$top/tree/secret.py"
    chmod -R a+rX "$top/tree"
    chmod 000 "$top/tree/secret.py"
    local bin=$CGLINT
    if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin"; then
        cp "$CGLINT" "$top/cglint" && chmod 755 "$top/cglint"
        bin=$top/cglint
    fi
    (cd "$top" && timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" tree) \
        >"$T/out" 2>"$T/err"
    RC=$?
    rm -rf "$top"
    want_rc 2 && one_error "tree/secret\.py" "Permission denied|cannot open|unreadable" &&
        want_out "^tree/$HAZARD_RE"
}
t_bad_symlink_loop_file() {
    hazard tree/hazard.py
    ln -s self.py tree/self.py
    timeout 20 "$CGLINT" tree >"$T/out" 2>"$T/err"
    RC=$?
    want_rc 2 && one_error "tree/self\.py" "symbolic link loop" && want_out "^tree/$HAZARD_RE"
}
# A directory symlink cycle (tree/sub/loop -> ..) is not an unreadable input:
# the walk does not follow it again, warns once, and the run's status is that
# of its findings (1 here), not 2.
t_bad_symlink_loop_dir() {
    hazard tree/hazard.py
    hazard tree/sub/hazard.py
    ln -s .. tree/sub/loop
    ln -s . tree/self
    timeout 20 "$CGLINT" tree >"$T/out" 2>"$T/err"
    RC=$?
    [ "$RC" -ne 124 ] || { echo "the walk did not terminate"; return 1; }
    want_rc 1 && want_out "^tree/$HAZARD_RE" && want_out "^tree/sub/$HAZARD_RE" || return 1
    local n
    n=$(grep -cE 'CG101\]$' "$T/out")
    [ "$n" -eq 2 ] || { echo "$n CG101 findings, expected 2 (each file once)"; return 1; }
    grep -Eq '^cglint: warning: tree/sub/loop: .*(loop|already walked)' "$T/err" &&
        grep -Eq '^cglint: warning: tree/self: .*(loop|already walked)' "$T/err" ||
        { echo "no warning naming each link: $(show "$T/err")"; return 1; }
    ! grep -q '^cglint: error:' "$T/err" || { echo "errors: $(show "$T/err")"; return 1; }
}

check bad.unparsable-capture t_bad_unparsable
check bad.binary-nul t_bad_binary
check bad.latin1 t_bad_latin1
check bad.max-file-size t_bad_max_file_size
check max-file-size-message-readable t_bug_max_file_size_message
check bad.50mb-default-limit t_bad_50mb
check bad.dangling-symlink t_bad_dangling
check bad.fifo-explicit t_bad_fifo
check unreadable t_bad_unreadable
check bad.symlink-loop-file t_bad_symlink_loop_file
check bad.symlink-loop-dir t_bad_symlink_loop_dir

# ============================================================================
# inputs that must be analysed fine
# ============================================================================

t_bom() {
    # U+FEFF, then non-ASCII text before the span: columns count code points
    printf '\xef\xbb\xbfimport torch\ng = torch.cuda.CUDAGraph()\nwith torch.cuda.graph(g):\n    s = "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80"; v = x.item()\n' >bom.py
    cg bom.py
    want_rc 1 && want_out '^bom\.py:4:20: error: .*\[CG101\]$' || return 1
    [ ! -s "$T/err" ] || { echo "stderr: $(show "$T/err")"; return 1; }
    # the caret sits under x.item(): 19 code points of padding, 8 carets
    grep -qE '^  \| {20}\^{8}$' "$T/out" || { echo "caret line misplaced: $(grep -E '\^' "$T/out")"; return 1; }
    cg --format json bom.py
    python3 - "$T/out" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1], encoding="utf-8"))["findings"]
got = [(x["line"], x["column"], x["end_line"], x["end_column"], x["capture"]["line"], x["capture"]["column"]) for x in f]
if got != [(4, 20, 4, 28, 3, 1)]:
    sys.exit("json span %r, expected [(4, 20, 4, 28, 3, 1)]" % got)
EOF
}
t_crlf() {
    printf 'import torch\r\n\r\ng = torch.cuda.CUDAGraph()\r\nwith torch.cuda.graph(g):\r\n    y = x * 2\r\n    v = y.item()\r\n' >crlf.py
    cg crlf.py
    want_rc 1 && want_out '^crlf\.py:6:9: error: .*\[CG101\]$' || return 1
    if grep -q $'\r' "$T/out"; then echo "a CR byte in the output: $(grep -n $'\r' "$T/out" | od -c | head -3 | tr '\n' ' ')"; return 1; fi
    grep -qE '^6 \|     v = y\.item\(\)$' "$T/out" || { echo "source line wrong: $(show "$T/out")"; return 1; }
    grep -qE '^  \| {9}\^{8}$' "$T/out" || { echo "caret line wrong: $(grep -E '\^' "$T/out")"; return 1; }
    cg --format json crlf.py
    grep -q '\\r' "$T/out" && { echo "\\r in the JSON"; return 1; }
    return 0
}
gen_deep() { # FILE PARENS IFS
    python3 - "$@" <<'EOF'
import sys
path, parens, ifs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = ["import torch", "", "", "def step(x):", "    g = torch.cuda.CUDAGraph()",
         "    with torch.cuda.graph(g):"]
if parens:
    lines.append("        y = " + "(" * parens + "x" + ")" * parens)
else:
    lines.append("        y = x")
ind = "        "
for _ in range(ifs):
    lines.append(ind + "if x:")
    ind += " "
lines.append(ind + "v = y.item()")
lines.append("    return v")
open(path, "w").write("\n".join(lines) + "\n")
EOF
}
t_deep_nesting() {
    # the brief's worst case: 5000-deep parentheses and 500 nested ifs in a
    # capture (beyond CPython's own limits): no crash, no hang
    gen_deep deep.py 5000 500
    hazard hazard.py
    local start end
    start=$(date +%s)
    timeout 20 "$CGLINT" deep.py hazard.py >"$T/out" 2>"$T/err"
    RC=$?
    end=$(date +%s)
    [ "$RC" -ne 124 ] || { echo "took more than 20 s"; return 1; }
    [ "$RC" -le 2 ] || { echo "crashed: exit status $RC; stderr $(show "$T/err")"; return 1; }
    [ $((end - start)) -lt 20 ] || { echo "took $((end - start)) s"; return 1; }
    want_out "^$HAZARD_RE" || return 1
    # whatever it decides about deep.py, it says so in at most one clear line
    local n
    n=$(grep -c '^cglint: error:' "$T/err")
    [ "$n" -le 1 ] || { echo "$n error lines: $(show "$T/err")"; return 1; }
    if [ "$RC" -eq 2 ]; then one_error "deep\.py" "cannot parse|too deep|nest" || return 1; fi
}
t_deep_parens() {
    # 5000-deep expression alone is valid for tree-sitter: the hazard after it is found
    gen_deep deep.py 5000 0
    timeout 20 "$CGLINT" deep.py >"$T/out" 2>"$T/err"
    RC=$?
    want_rc 1 && want_out '^deep\.py:8:13: error: .*\[CG101\]$'
}
t_deep_ifs() {
    # 99 nested blocks (CPython's limit is 100 indentation levels)
    gen_deep deep.py 0 98
    timeout 20 "$CGLINT" deep.py >"$T/out" 2>"$T/err"
    RC=$?
    want_rc 1 && want_out '^deep\.py:106:[0-9]+: error: .*\[CG101\]$'
}
t_explicit_other_extension() {
    hazard script.txt
    hazard tree/notes.txt
    cg script.txt tree
    want_rc 1 && want_out '^script\.txt:8:13: error: .*\[CG101\]$' && want_no_out 'notes\.txt'
}

check ok.bom t_bom
check ok.crlf t_crlf
check ok.deep-nesting t_deep_nesting
check ok.deep-parens-5000 t_deep_parens
check ok.nested-ifs-98 t_deep_ifs
check ok.explicit-file-any-extension t_explicit_other_extension

# ============================================================================
# walking
# ============================================================================

t_walk_skips() {
    hazard tree/hazard.py
    local d
    for d in .git .venv venv build node_modules __pycache__ .tox dist; do hazard "tree/$d/hazard.py"; done
    hazard tree/pkg/.git/hooks/hazard.py
    hazard tree/myenv/lib/hazard.py && touch tree/myenv/pyvenv.cfg
    hazard tree/cmake-out/hazard.py && touch tree/cmake-out/CMakeCache.txt
    cg --format json tree
    want_rc 1 || return 1
    python3 - "$T/out" <<'EOF'
import json, sys
paths = [f["path"] for f in json.load(open(sys.argv[1]))["findings"]]
if paths != ["tree/hazard.py"]:
    sys.exit("findings in %r, expected only tree/hazard.py" % paths)
EOF
}
t_walk_exclude() {
    hazard tree/hazard.py
    hazard tree/tests/hazard.py
    hazard tree/gen/hazard.py
    hazard tree/a/skipme.py
    cg --exclude 'tests/*' --exclude gen,skipme.py tree
    want_rc 1 || return 1
    local n
    n=$(grep -cE 'CG101\]$' "$T/out")
    [ "$n" -eq 1 ] && want_out "^tree/$HAZARD_RE" ||
        { echo "findings: $(grep -E 'CG101\]$' "$T/out" | tr '\n' '|')"; return 1; }
    cg --exclude '*.py' tree
    want_rc 0 && want_out '^No findings\.$'
}
t_walk_dedupe() {
    hazard tree/hazard.py
    cg tree tree/ tree/hazard.py
    want_rc 1 || return 1
    local n
    n=$(grep -cE 'CG101\]$' "$T/out")
    [ "$n" -eq 1 ] || { echo "$n findings for one hazard"; return 1; }
}
t_default_path() {
    hazard hazard.py
    cg
    want_rc 1 && want_out "^$HAZARD_RE"
}

check walk.skips-vcs-venv-build t_walk_skips
check walk.exclude t_walk_exclude
check walk.duplicate-paths t_walk_dedupe
check walk.default-path-is-dot t_default_path

# ============================================================================
# bad input stays handled (the "Never crash" issue, item 5): every class of
# bad input gives one clear "cglint: error:" (or warning) line, exit 2 where
# it is an error, the rest of the tree still analysed, no file damaged, and
# nothing blocks.  Classes with a test above are not repeated here.
# ============================================================================

# fixable FILE: a CG108 at line 8 whose safe fix writes error_if_nonfinite=False
fixable() {
    mkdir -p "$(dirname "$1")"
    cat >"$1" <<'EOF'
import torch


def step(model, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        loss = model(x).sum()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
    return loss
EOF
}
# at_most_one_error_each: no file is named by more than one error line
at_most_one_error_each() {
    local dup
    dup=$(grep '^cglint: error:' "$T/err" | sed -E 's/^cglint: error: ([^:]+):.*/\1/' | sort | uniq -d | head -3)
    [ -z "$dup" ] || { echo "more than one error line for: $dup"; return 1; }
}
# not_hung RC: the command was not killed by timeout(1)
not_hung() {
    [ "$1" -ne 124 ] && [ "$1" -ne 137 ] || { echo "blocked (killed by timeout)"; return 1; }
}
# sane_rc: an exit status cglint gives (0, 1, 2), not a crash
sane_rc() {
    [ "$RC" -le 2 ] || { echo "exit status $RC (a crash?); stderr $(show "$T/err")"; return 1; }
}

t_rb_truncated() {
    hazard tree/hazard.py
    local f n
    f=$SRC/examples/$(cd "$SRC/examples" && ls *.py | head -1)
    for n in 1 17 64 200 333 500 777 1000 1500; do head -c "$n" "$f" >"tree/trunc_$n.py"; done
    timeout 60 "$CGLINT" tree >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && sane_rc && want_out "^tree/$HAZARD_RE" && at_most_one_error_each || return 1
    if grep '^cglint: error:' "$T/err" | grep -qv 'tree/trunc_'; then echo "errors about other files: $(show "$T/err")"; return 1; fi
}
t_rb_byteflip() {
    hazard tree/hazard.py
    python3 - "$SRC/examples" tree <<'EOF'
import os, random, sys
src, out = sys.argv[1], sys.argv[2]
rnd = random.Random(20240611)
files = sorted(f for f in os.listdir(src) if f.endswith(".py"))
for i in range(24):
    data = bytearray(open(os.path.join(src, files[i % len(files)]), "rb").read())
    for _ in range(1 + i % 6):
        data[rnd.randrange(len(data))] = rnd.randrange(256)
    open(os.path.join(out, "flip_%02d.py" % i), "wb").write(bytes(data))
EOF
    timeout 60 "$CGLINT" tree >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && sane_rc && want_out "^tree/$HAZARD_RE" && at_most_one_error_each || return 1
    "$CGLINT" -f sarif tree >"$T/flip.sarif" 2>/dev/null
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/flip.sarif" || { echo "SARIF is not JSON"; return 1; }
}
# Python reads a file with old Mac line ends (CR only); so does cglint, and
# --fix writes them back.
t_rb_cr_only() {
    printf 'import torch\r\r\ng = torch.cuda.CUDAGraph()\rwith torch.cuda.graph(g):\r    y = x * 2\r    v = y.item()\r' >cr.py
    cg cr.py
    want_rc 1 && want_out '^cr\.py:6:9: error: .*\[CG101\]$' || return 1
    [ ! -s "$T/err" ] || { echo "stderr: $(show "$T/err")"; return 1; }
    if grep -q $'\r' "$T/out"; then echo "a CR byte in the output"; return 1; fi
    fixable fix.py
    tr '\n' '\r' <fix.py >fixcr.py
    rm fix.py
    cg --fix --select CG108 fixcr.py
    want_rc 0 || return 1
    grep -q 'error_if_nonfinite=False' fixcr.py || { echo "not fixed: $(od -c fixcr.py | head -3)"; return 1; }
    [ "$(tr -cd '\n' <fixcr.py | wc -c)" -eq 0 ] || { echo "--fix turned CR line ends into LF"; return 1; }
    [ "$(tr -cd '\r' <fixcr.py | wc -c)" -eq 9 ] || { echo "CR count changed"; return 1; }
}
t_rb_one_mb_line() {
    python3 -c '
print("import torch")
print("BLOB = \"" + "ab" * 524288 + "\"")
print("g = torch.cuda.CUDAGraph()")
print("with torch.cuda.graph(g):")
print("    v = x.item()")' >big_line.py
    timeout 60 "$CGLINT" big_line.py >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 1 && want_out '^big_line\.py:5:9: error: .*\[CG101\]$' || return 1
    [ ! -s "$T/err" ] || { echo "stderr: $(show "$T/err")"; return 1; }
}
t_rb_empty_files() {
    hazard tree/hazard.py
    : >tree/empty.py
    : >tree/__init__.py
    mkdir -p tree/pkg && : >tree/pkg/__init__.py
    cg tree tree/empty.py
    want_rc 1 && want_out "^tree/$HAZARD_RE" || return 1
    [ ! -s "$T/err" ] || { echo "stderr: $(show "$T/err")"; return 1; }
}
t_rb_dir_named_py() {
    hazard tree/x.py/inner.py
    hazard tree/hazard.py
    cg tree
    want_rc 1 && want_out "^tree/$HAZARD_RE" && want_out '^tree/x\.py/inner\.py:8:13: error' || return 1
    [ ! -s "$T/err" ] || { echo "stderr: $(show "$T/err")"; return 1; }
    cg tree/x.py
    want_rc 1 && want_out '^tree/x\.py/inner\.py:8:13: error' || return 1
    [ ! -s "$T/err" ] || { echo "stderr: $(show "$T/err")"; return 1; }
}
t_rb_fifo_walked() {
    hazard tree/hazard.py
    mkfifo tree/z.py tree/w.cu
    timeout 20 "$CGLINT" tree >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 2 && want_out "^tree/$HAZARD_RE" || return 1
    grep -q '^cglint: error: tree/z\.py: not a regular file (a FIFO)' "$T/err" ||
        { echo "no error for the FIFO: $(show "$T/err")"; return 1; }
    [ -p tree/z.py ] || { echo "the FIFO was replaced"; return 1; }
}
t_rb_fifo_gitignore() {
    command -v git >/dev/null 2>&1 || { echo "no git"; return 77; }
    hazard tree/hazard.py
    hazard tree/sub/hazard.py
    git init -q tree
    mkfifo tree/.gitignore tree/sub/.gitignore
    timeout 20 "$CGLINT" tree >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 1 && want_out "^tree/$HAZARD_RE" && want_out "^tree/sub/$HAZARD_RE" || return 1
    grep -q '^cglint: warning: tree/\.gitignore: not a regular file (a FIFO)' "$T/err" ||
        { echo "no warning naming the FIFO: $(show "$T/err")"; return 1; }
    ! grep -q '^cglint: error:' "$T/err" || { echo "errors: $(show "$T/err")"; return 1; }
    rm tree/.gitignore tree/sub/.gitignore
    mkfifo tree/.git/info/exclude 2>/dev/null || { rm -f tree/.git/info/exclude; mkfifo tree/.git/info/exclude; }
    timeout 20 "$CGLINT" tree >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 1 && want_out "^tree/$HAZARD_RE" || return 1
    [ "$(grep -c 'info/exclude: not a regular file' "$T/err")" -eq 1 ] ||
        { echo "info/exclude: not one warning: $(show "$T/err")"; return 1; }
}
t_rb_fifo_baseline() {
    hazard tree/hazard.py
    mkfifo base.json
    timeout 20 "$CGLINT" --baseline base.json tree >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 2 && one_error "base\.json" "not a regular file \(a FIFO\)"
}
t_rb_baseline_bom() {
    hazard tree/hazard.py
    cg --write-baseline base.json tree
    want_rc 0 || return 1
    { printf '\xef\xbb\xbf'; cat base.json; } >bom.json
    cg --baseline bom.json tree
    want_rc 0 && want_out '^No findings\.$' && want_err '1 finding hidden by the baseline bom\.json'
}
# An entry recorded twice (a hand-merged baseline) is one entry: the finding
# still occurs, so neither copy "no longer occurs".
t_rb_baseline_duplicates() {
    hazard tree/hazard.py
    cg --write-baseline base.json tree
    want_rc 0 || return 1
    python3 - base.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["findings"] = d["findings"] * 2
json.dump(d, open(sys.argv[1], "w"), indent=2)
EOF
    cg --baseline base.json tree
    want_rc 0 && want_out '^No findings\.$' || return 1
    if grep -q 'no longer occur' "$T/err"; then echo "a duplicated entry said fixed: $(show "$T/err")"; return 1; fi
}
t_rb_fifo_compile_db() {
    mkdir tree
    cat >tree/k.cu <<'EOF'
__global__ void k(float *x) { x[0] = 1; }
void run(cudaStream_t s, float *x) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<1, 1, 0, s>>>(x);
    cudaStreamSynchronize(s);
    cudaStreamEndCapture(s, &g);
}
EOF
    mkfifo tree/compile_commands.json
    timeout 60 "$CGLINT" --cuda-mode shim tree >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 2 && want_out '^tree/k\.cu:6:5: error: .*\[CG104\]$' || return 1
    one_error "tree/compile_commands\.json" "not a regular file \(a FIFO\)"
}
t_rb_fifo_header() {
    mkdir -p tree/inc
    cat >tree/k.cu <<'EOF'
#include "near.h"
#include "inc/far.h"
__global__ void k(float *x) { x[0] = 1; }
void run(cudaStream_t s, float *x) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<1, 1, 0, s>>>(x);
    cudaStreamSynchronize(s);
    cudaStreamEndCapture(s, &g);
}
EOF
    mkfifo tree/near.h tree/inc/far.h
    timeout 60 "$CGLINT" --cuda-mode shim tree/k.cu >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && sane_rc && want_out '^tree/k\.cu:8:5: error: .*\[CG104\]$' || return 1
    grep -q 'near\.h, which is not a regular file' "$T/err" && grep -q 'far\.h, which is not a regular file' "$T/err" ||
        { echo "the FIFO headers are not named: $(show "$T/err")"; return 1; }
}
# cglint run --findings: a report is read only from a regular file of sane
# size, and a source line only from a regular file
findings_json() { # FILE PATH LINE COL END_COL
    printf '{"schema_version": 1, "tool": {"name": "cglint"}, "findings": [{"rule": "CG101", "path": "%s", "line": %s, "column": %s, "end_line": %s, "end_column": %s, "message": "m", "capture": null, "call_path": []}]}\n' \
        "$2" "$3" "$4" "$3" "$5" >"$1"
}
t_rb_findings_special() {
    timeout 20 "$CGLINT" run --findings /dev/zero -- true >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 2 && one_error "/dev/zero" "not a regular file" || return 1
    mkfifo f.fifo
    timeout 20 "$CGLINT" run --findings f.fifo -- true >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 2 && one_error "f\.fifo" "not a regular file \(a FIFO\)" || return 1
    # a finding whose file is a FIFO: its line is not read
    mkfifo src.py
    findings_json f.json src.py 3 1 5
    timeout 20 "$CGLINT" run --findings f.json -- true >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 0 && want_err 'src\.py:3:1: error' || return 1
    # ... or /dev/zero, which has no line end: read without bound before
    findings_json z.json /dev/zero 3 1 5
    mem_bound 1000 timeout 20 "$CGLINT" run --findings z.json -- true >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 0 && want_err '/dev/zero:3:1: error'
}
# a column of 2e9 in a findings file: the caret line stays on the line
t_rb_findings_huge_column() {
    hazard h.py
    findings_json f.json h.py 8 2000000000 2000000010
    timeout 30 "$CGLINT" run --findings f.json -- true >"$T/out" 2>"$T/err"
    RC=$?
    not_hung "$RC" && want_rc 0 || return 1
    local size
    size=$(wc -c <"$T/err")
    [ "$size" -lt 20000 ] || { echo "the report is $size bytes"; return 1; }
    grep -qE '^  \| {21}\^$' "$T/err" || { echo "caret not clamped to just past the line: $(grep -E '\^' "$T/err" | head -2 | cut -c1-80)"; return 1; }
}
# 16,000 findings on one generated line: linear time and memory (it took
# 18 s and 9 GiB: the column, the line copied per finding)
t_rb_many_findings_one_line() {
    python3 -c '
print("import torch")
print("g = torch.cuda.CUDAGraph()")
print("with torch.cuda.graph(g):")
print("    " + "; ".join("a%d = x.item()" % i for i in range(16000)))' >long.py
    local fmt start
    for fmt in json text sarif; do
        start=$(date +%s)
        mem_bound 2000 timeout 60 "$CGLINT" -f "$fmt" long.py >"$T/out" 2>"$T/err"
        RC=$?
        not_hung "$RC" && want_rc 1 || { echo "(format $fmt)"; return 1; }
        [ $(($(date +%s) - start)) -lt 30 ] || { echo "-f $fmt took $(($(date +%s) - start)) s"; return 1; }
    done
    [ "$(grep -c 'CG101' "$T/out")" -ge 16000 ] || { echo "SARIF lacks the findings"; return 1; }
    # the project index shares the line among the findings (it once wrote the
    # 300 KB line 16k times: a 4.7 GB entry and 9 GB of memory)
    if [ -d .cglint_cache ]; then
        [ "$(du -sm .cglint_cache | cut -f1)" -lt 64 ] || { echo "the project index holds $(du -sh .cglint_cache)"; return 1; }
    fi
}
# Named files (pre-commit): a bad configuration in a directory read only as
# context does not stop the run; a warning at most
t_rb_context_bad_config() {
    mkdir -p proj/unrelated
    hazard proj/hazard.py
    printf 'x = 1\n' >proj/unrelated/other.py
    printf 'select = [\n' >proj/unrelated/.cglint.toml
    touch proj/pyproject.toml
    cg_in proj hazard.py
    want_rc 1 && want_out "^$HAZARD_RE" || return 1
    ! grep -q '^cglint: error:' "$T/err" || { echo "errors: $(show "$T/err")"; return 1; }
    # the file that configuration governs, named: still an error
    cg_in proj unrelated/other.py
    want_rc 2 && one_error "unrelated/\.cglint\.toml" "TOML"
}
t_rb_leaks() {
    command -v valgrind >/dev/null 2>&1 || { echo "no valgrind"; return 77; }
    hazard h.py
    fixable f.py
    "$CGLINT" -f json -o static.json h.py f.py 2>/dev/null
    timeout 300 valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
        "$CGLINT" run --findings static.json -o report.txt -- true >"$T/out" 2>"$T/err"
    RC=$?
    [ "$RC" -ne 99 ] || { echo "valgrind: $(grep -E 'definitely|by 0x' "$T/err" | head -6 | tr '\n' ' ')"; return 1; }
    timeout 300 valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
        "$CGLINT" h.py f.py >"$T/out" 2>"$T/err"
    RC=$?
    [ "$RC" -ne 99 ] || { echo "valgrind: $(grep -E 'definitely|by 0x' "$T/err" | head -6 | tr '\n' ' ')"; return 1; }
}
# a.py -> b.py -> a.py: a loop, for both (not "broken" for one)
t_rb_symlink_cycle() {
    hazard tree/hazard.py
    ln -s b.py tree/a.py
    ln -s a.py tree/b.py
    timeout 20 "$CGLINT" tree >"$T/out" 2>"$T/err"
    RC=$?
    want_rc 2 && want_out "^tree/$HAZARD_RE" || return 1
    grep -q '^cglint: error: tree/a\.py: symbolic link loop' "$T/err" &&
        grep -q '^cglint: error: tree/b\.py: symbolic link loop' "$T/err" ||
        { echo "not both a loop: $(show "$T/err")"; return 1; }
    ! grep -q 'broken' "$T/err" || { echo "called broken: $(show "$T/err")"; return 1; }
}
# control bytes in file names never reach the terminal, colour on or off
t_rb_escape_names() {
    hazard "tree/"$'\e[2J\e]0;pwned\a'"evil.py"
    ln -s missing.py "tree/"$'\e[31m'"bad.py"
    cg --color never tree
    want_rc 2 || return 1
    if grep -q $'\e\|\a' "$T/out" "$T/err"; then echo "control bytes on stdout or stderr"; return 1; fi
    want_out 'x1b\[2J' && want_err 'x1b\[31mbad\.py' || return 1
    cg --color always tree
    if grep -q $'\a\|\e\[2J\|\e\]0' "$T/out" "$T/err"; then echo "control bytes with --color always"; return 1; fi
}
# -o and --write-baseline write through devices and FIFOs, and through a
# symbolic link to its target; they never replace those
t_rb_output_special() {
    hazard tree/hazard.py
    mkdir real
    echo old >real/report.txt
    ln -s real/report.txt link.txt
    cg -o link.txt tree
    want_rc 1 || return 1
    [ -L link.txt ] || { echo "-o replaced the symbolic link"; return 1; }
    grep -q CG101 real/report.txt || { echo "the link's target was not written"; return 1; }
    cg --write-baseline link.txt tree
    [ -L link.txt ] && grep -q cglint_baseline real/report.txt || { echo "--write-baseline replaced the link"; return 1; }
    mkfifo out.fifo
    (timeout 20 cat out.fifo >got.txt) &
    local reader=$!
    timeout 20 "$CGLINT" -o out.fifo tree >"$T/out" 2>"$T/err"
    RC=$?
    wait "$reader"
    not_hung "$RC" && want_rc 1 || return 1
    [ -p out.fifo ] || { echo "-o replaced the FIFO"; return 1; }
    grep -q CG101 got.txt || { echo "nothing came through the FIFO"; return 1; }
    "$CGLINT" -o /dev/stdout tree >piped.txt 2>"$T/err"
    grep -q CG101 piped.txt || { echo "-o /dev/stdout: $(show piped.txt)"; return 1; }
    if [ "$(id -u)" -eq 0 ] && mknod null.dev c 1 3 2>/dev/null; then
        cg -o null.dev tree
        want_rc 1 && [ -c null.dev ] || { echo "-o replaced a device node"; return 1; }
    fi
    no_temp_files .
}
# --fix fixes a link's target, keeps hard links, owner and mode, and refuses
# a read-only file with one error
t_rb_fix_links() {
    fixable real.py
    ln -s real.py link.py
    cg --fix --select CG108 link.py
    want_rc 0 || return 1
    [ -L link.py ] || { echo "--fix replaced the symbolic link with a copy"; return 1; }
    grep -q 'error_if_nonfinite=False' real.py || { echo "the link's target was not fixed"; return 1; }
    fixable a.py
    ln a.py b.py
    local ino
    ino=$(stat -c %i a.py)
    cg --fix --select CG108 a.py
    want_rc 0 || return 1
    grep -q 'error_if_nonfinite=False' b.py || { echo "--fix split the hard link"; return 1; }
    [ "$(stat -c %i a.py)" = "$ino" ] || { echo "a new inode"; return 1; }
    no_temp_files .
}
t_rb_fix_owner() {
    [ "$(id -u)" -eq 0 ] || { echo "not root: cannot give a file to another user"; return 77; }
    fixable o.py
    chown 65534:65534 o.py
    chmod 640 o.py
    cg --fix --select CG108 o.py
    want_rc 0 || return 1
    grep -q 'error_if_nonfinite=False' o.py || { echo "not fixed"; return 1; }
    [ "$(stat -c %u:%g:%a o.py)" = "65534:65534:640" ] || { echo "owner or mode changed: $(stat -c %u:%g:%a o.py)"; return 1; }
}
t_rb_fix_readonly() {
    fixable ro.py
    chmod 444 ro.py
    cp ro.py ro.orig
    cg --fix --select CG108 ro.py
    want_rc 2 && one_error "ro\.py" "read-only" || return 1
    cmp -s ro.py ro.orig || { echo "the read-only file was changed"; return 1; }
    [ "$(stat -c %a ro.py)" = 444 ] || { echo "mode changed"; return 1; }
    want_out 'CG108' || return 1
}
# a PEP 263 file is written back in its own encoding
t_rb_fix_latin1() {
    printf '# -*- coding: latin-1 -*-\nimport torch\nNAME = "caf\xe9"\n\n\ndef step(model, x):\n    g = torch.cuda.CUDAGraph()\n    with torch.cuda.graph(g):\n        loss = model(x).sum()\n        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)\n    return loss\n' >lat.py
    cg --fix --select CG108 lat.py
    want_rc 0 || return 1
    grep -q 'error_if_nonfinite=False' lat.py || { echo "not fixed"; return 1; }
    grep -q $'caf\xe9"' lat.py || { echo "caf\\xe9 was re-encoded: $(grep -a NAME lat.py | od -c | head -2 | tr '\n' ' ')"; return 1; }
    head -1 lat.py | grep -q 'coding: latin-1' || { echo "the cookie is gone"; return 1; }
    cg --diff lat.py
    want_rc 0 || return 1
}

check robust.truncated-files t_rb_truncated
check robust.byte-flipped-files t_rb_byteflip
check robust.cr-only-line-ends t_rb_cr_only
check robust.one-mb-line t_rb_one_mb_line
check robust.empty-files t_rb_empty_files
check robust.directory-named-x.py t_rb_dir_named_py
check robust.fifo-found-by-walking t_rb_fifo_walked
check robust.fifo-gitignore t_rb_fifo_gitignore
check robust.fifo-baseline t_rb_fifo_baseline
check robust.baseline-bom t_rb_baseline_bom
check robust.baseline-duplicate-entries t_rb_baseline_duplicates
check robust.fifo-compile-db t_rb_fifo_compile_db
check robust.fifo-include t_rb_fifo_header
check robust.findings-dev-zero-fifo t_rb_findings_special
check robust.findings-huge-column t_rb_findings_huge_column
check robust.many-findings-one-line t_rb_many_findings_one_line
check robust.context-bad-config t_rb_context_bad_config
check robust.no-leaks t_rb_leaks
check robust.symlink-cycle t_rb_symlink_cycle
check robust.escape-file-names t_rb_escape_names
check robust.output-through-links-fifos-devices t_rb_output_special
check robust.fix-links t_rb_fix_links
check robust.fix-keeps-owner t_rb_fix_owner
check robust.fix-read-only t_rb_fix_readonly
check robust.fix-latin1 t_rb_fix_latin1

# ============================================================================
# determinism
# ============================================================================

t_determinism() {
    local i
    cp -r "$SRC/examples" ex
    for i in $(seq 1 40); do
        hazard "tree/m$((i % 7))/f$i.py"
        mkdir -p "tree/m$((i % 5))"
        printf 'import torch\n' >"tree/m$((i % 5))/plain$i.py"
    done
    printf '# caf\xe9\n' >tree/bad.py
    "$CGLINT" -j1 --format json ex tree >"$T/j1.json" 2>"$T/e1"
    local r1=$?
    "$CGLINT" -j4 --format json ex tree >"$T/j4.json" 2>"$T/e4"
    local r4=$?
    "$CGLINT" --format json ex tree >"$T/jall.json" 2>/dev/null
    [ "$r1" -eq 2 ] && [ "$r4" -eq 2 ] || { echo "exit statuses $r1 and $r4, expected 2"; return 1; }
    cmp -s "$T/j1.json" "$T/j4.json" || { echo "-j1 and -j4 JSON differ: $(diff "$T/j1.json" "$T/j4.json" | head -5 | tr '\n' '|')"; return 1; }
    cmp -s "$T/j1.json" "$T/jall.json" || { echo "-j1 and default -j JSON differ"; return 1; }
    cmp -s "$T/e1" "$T/e4" || { echo "stderr differs between -j1 and -j4"; return 1; }
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["findings"]) >= 48, len(d["findings"])' "$T/j1.json" ||
        { echo "too few findings in the determinism tree"; return 1; }
    "$CGLINT" -j1 --format sarif ex tree >"$T/s1" 2>/dev/null
    "$CGLINT" -j4 --format sarif ex tree >"$T/s4" 2>/dev/null
    cmp -s "$T/s1" "$T/s4" || { echo "-j1 and -j4 SARIF differ"; return 1; }
}

# The prefilter (which files are parsed at once as capture files): a name that
# only begins like a capture API (Megatron-LM's CUDAGraphBatchDimensionBuilder)
# is not one; the API itself, spelt any of the ways below, is.
t_prefilter_whole_names() {
    mkdir -p p
    printf 'from dims import CUDAGraphBatchDimensionBuilder\n\ndef f(x):\n    return CUDAGraphBatchDimensionBuilder.match(x)\n' >p/builder.py
    printf 'import torch\ng = torch.cuda.CUDAGraph()\n' >p/api1.py
    printf 'import torch\nfrom torch.cuda.graphs import make_graphed_callables\n' >p/api2.py
    printf 'import torch\nwith torch.cuda.graph(g):\n    pass\n' >p/api3.py
    printf 'import torch\ntorch._inductor.config.triton.cudagraphs = True\n' >p/api4.py
    CGLINT_TRACE_PARSE=1 "$CGLINT" --no-cache --isolated --exit-zero p >"$T/out" 2>"$T/err"
    local f
    for f in api1 api2 api3 api4; do
        grep -q "parse p/$f.py\$" "$T/err" || { echo "p/$f.py not parsed as a capture file: $(show "$T/err")"; return 1; }
    done
    if grep -q "parse p/builder.py" "$T/err"; then echo "p/builder.py parsed: $(show "$T/err")"; return 1; fi
}
check prefilter.whole-names t_prefilter_whole_names

# A capture API named only in prose (a docstring, a help text that begins its
# line, a comment: Megatron-LM's transformer_config.py) makes no capture file;
# in code, or in a string that is code (`mode="reduce-overhead"`), it does.
t_prefilter_prose() {
    mkdir -p q
    printf 'def f(x):\n    """Wrap x for torch.cuda.make_graphed_callables() later."""\n    return x  # see CUDAGraph\n' >q/doc.py
    printf 'HELP = (\n    r"""capture_begin() is called by\n    the runner"""\n)\n# torch.cuda.graph(g) is used elsewhere\n' >q/help.py
    printf 'import torch\nm = torch.compile(model, mode="reduce-overhead")\n' >q/mode.py
    printf 'import torch\ns = "#"; g = torch.cuda.CUDAGraph()  # the # in the string starts no comment\n' >q/hash.py
    printf 'x = """\nnot a docstring"""; import torch\ng = torch.cuda.CUDAGraph()\n' >q/after.py
    CGLINT_TRACE_PARSE=1 "$CGLINT" --no-cache --isolated --exit-zero q >"$T/out" 2>"$T/err"
    local f
    for f in mode hash after; do
        grep -q "parse q/$f.py\$" "$T/err" || { echo "q/$f.py not parsed as a capture file: $(show "$T/err")"; return 1; }
    done
    for f in doc help; do
        if grep -q "parse q/$f.py" "$T/err"; then echo "q/$f.py parsed (its API names are prose): $(show "$T/err")"; return 1; fi
    done
}
check prefilter.prose t_prefilter_prose
check determinism.j1-j4-identical t_determinism

# The issue's item 6: byte-identical JSON and SARIF (and the messages on
# stderr) across --jobs 1 and --jobs 2 and across two runs of each, on the
# fixture tree (Python and C/C++/CUDA, with its deliberate errors) and on
# examples/.  Without the project index (--no-cache): a warm run would
# answer from the first run's memo and the later runs would compare nothing.
t_determinism_fixtures() {
    local what fmt j run first
    for what in tests/fixtures examples; do
        for fmt in json sarif; do
            first=
            for j in 1 2; do
                for run in 1 2; do
                    (cd "$SRC" && "$CGLINT" --no-cache --jobs "$j" -f "$fmt" "$what") >"$T/r.$j.$run" 2>"$T/e.$j.$run"
                    [ -s "$T/r.$j.$run" ] || { echo "$what -f $fmt --jobs $j: no output"; return 1; }
                    if [ -z "$first" ]; then first=$j.$run; continue; fi
                    cmp -s "$T/r.$first" "$T/r.$j.$run" ||
                        { echo "$what -f $fmt: --jobs ${first%.*} and --jobs $j (run $run) differ: $(diff "$T/r.$first" "$T/r.$j.$run" | head -4 | tr '\n' '|')"; return 1; }
                    cmp -s "$T/e.$first" "$T/e.$j.$run" ||
                        { echo "$what -f $fmt: stderr differs between --jobs ${first%.*} and --jobs $j (run $run):"
                          diff "$T/e.$first" "$T/e.$j.$run" | head -40; return 1; }
                done
            done
        done
    done
}

check determinism.fixtures-examples-jobs-1-2-two-runs t_determinism_fixtures

# ============================================================================
echo
if [ "$FAILED" -gt 0 ]; then
    echo "# failed: ${FAILED_NAMES[*]}"
fi
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
