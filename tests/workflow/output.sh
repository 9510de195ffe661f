#!/usr/bin/env bash
# output.sh - issue 15 items 5-10 from the command line: per-rule severity and
# --fail-on, the added formats (concise, json-lines, junit, gitlab) checked by
# readers, --statistics and --list-rules in every format, setup-rule
# fingerprints, fix safety, the text output's snippet and messages, and the
# configuration's errors and globs.
. "$(dirname "$0")/lib.sh"

P=$TMP/proj
make_project "$P"
cd "$P" || exit 1

# ---- item 5: severity and --fail-on ----------------------------------------
run "$CGLINT" .
expect "defaults: two errors, exit 1" 1 "helpers.py:2:12: error:" "train.py:10:9: error:"
printf '[severity]\nCG1 = "warning"\nCG104 = "note"\n' >.cglint.toml
run "$CGLINT" .
expect "severity: a prefix and a more specific code" 1 "helpers.py:2:12: warning:" "train.py:10:9: note:" \
    "(1 warning, 1 note)"
run "$CGLINT" -f json .
expect "severity reaches JSON" 1 '"severity": "warning"' '"severity": "note"'
run "$CGLINT" -f sarif .
expect "severity reaches SARIF levels" 1 '"level": "warning"' '"level": "note"'
run "$CGLINT" --fail-on error .
expect "--fail-on error: warnings and notes do not fail" 0 "(1 warning, 1 note)"
run "$CGLINT" --fail-on warning .
expect "--fail-on warning: a warning fails" 1 "warning:"
run "$CGLINT" --fail-on note .
expect "--fail-on note (the default) fails on anything" 1
printf 'fail-on = "error"\n[severity]\nCG1 = "warning"\n' >.cglint.toml
run "$CGLINT" .
expect "fail-on in the configuration" 0 "(2 warnings)"
run "$CGLINT" --fail-on warning .
expect "--fail-on over the configuration" 1
run "$CGLINT" --show-settings .
expect "--show-settings: severity and fail-on" 0 "severity CG1       warning" "fail-on            error"
run "$CGLINT" --fail-on fatal .
one_error "--fail-on: a bad level" "--fail-on takes error, warning or note, not 'fatal'"
printf '[severity]\nCG101 = "fatal"\n' >.cglint.toml
run "$CGLINT" .
one_error "severity: a bad level" '.cglint.toml:2: severity: CG101: expected "error", "warning" or "note", got "fatal"'
printf '[severity]\nCG9999 = "note"\n' >.cglint.toml
run "$CGLINT" .
one_error "severity: a bad code" ".cglint.toml:2: severity: 'CG9999' is not a rule code"
rm .cglint.toml

# ---- item 6: formats, --statistics and --list-rules in each ----------------
run "$CGLINT" -f concise .
expect "concise: one line a finding" 1 "helpers.py:2:12: CG101 \`loss.item()\`" "train.py:10:9: CG104 " "Found 2 findings."
[ "$(grep -c '^[^ ].*:[0-9]*:[0-9]*: CG' <<<"$out")" = 2 ] && ok "concise: exactly two finding lines" || nok "concise lines" "$out"
run "$CGLINT" -f json-lines .
expect "json-lines" 1 '{"rule":"CG101"' '{"rule":"CG104"'
printf '%s\n' "$out" >"$TMP/r.jsonl"
run "$CGLINT" -f junit -o "$TMP/r.xml" .
expect "junit to a file" 1
run "$CGLINT" -f gitlab -o "$TMP/r.gitlab.json" .
expect "gitlab to a file" 1
run python3 "$SRC/tests/formats_check.py" "$SRC/tests/golden" "$SRC/docs/json-schema.md" \
    "$TMP/r.xml:junit" "$TMP/r.gitlab.json:gitlab" "$TMP/r.jsonl:jsonl"
expect "junit, gitlab and json-lines of a real run pass their readers" 0 "checked $TMP/r.xml"
printf 'def f():\n    return 1\n' >"$TMP/clean.py"
run "$CGLINT" -f junit "$TMP/clean.py"
expect "junit with no findings: one passing testcase" 0 '<testcase name="no findings"'
run "$CGLINT" -f gitlab "$TMP/clean.py"
expect "gitlab with no findings: an empty array" 0 "[]"
run "$CGLINT" --statistics -f json .
expect "--statistics -f json" 1 '"code": "CG101"' '"count": 1'
run "$CGLINT" --statistics -f json-lines .
expect "--statistics -f json-lines" 1 '{"code":"CG101","name":"host-scalar-read","count":1,"fixable":0}'
run "$CGLINT" --statistics -f concise .
expect "--statistics -f concise" 1 "    1  CG101  host-scalar-read"
run "$CGLINT" --statistics -f gitlab .
expect "--statistics -f gitlab: json's counts" 1 '"code": "CG101"' '"count": 1'
run "$CGLINT" --list-rules -f json
expect "--list-rules -f json" 0 '"code": "CG101"' '"severity": "error"'
run "$CGLINT" -f json-lines --list-rules
expect "--list-rules -f json-lines (format after)" 0 '{"code":"CG101","name":"host-scalar-read"'
run "$CGLINT" --list-rules -f sarif
expect "--list-rules -f sarif: the rule catalog" 0 '"rules": [' '"id": "CG101"'
refute "--list-rules -f sarif: no results" '"ruleId"'
run "$CGLINT" --list-rules -f concise
expect "--list-rules -f concise" 0 "CG101 host-scalar-read"
run "$CGLINT" --list-rules -f junit
expect "--list-rules -f junit: a testcase per rule" 0 '<testcase name="CG101 host-scalar-read" classname="cglint.sync">'
printf 'output-format = "concise"\n' >.cglint.toml
run "$CGLINT" .
expect "output-format = concise in the configuration" 1 "helpers.py:2:12: CG101 "
rm .cglint.toml
# ---- item 7: setup rules carry their own line ------------------------------
mkdir -p "$TMP/loops" && cat >"$TMP/loops/loop.py" <<'PY'
import torch


def train(model, x, steps):
    g = torch.cuda.CUDAGraph()
    for _ in range(steps):
        with torch.cuda.graph(g):
            y = model(x)
        g.replay()


def other(model, x, steps):
    g2 = torch.cuda.CUDAGraph()
    for _ in range(steps):
        with torch.cuda.graph(g2):
            z = model(x)
        g2.replay()
PY
cd "$TMP/loops" || exit 1
run "$CGLINT" --select CG705 loop.py
 expect "CG705 shows its own line as the snippet" 1 "7 |         with torch.cuda.graph(g):" "15 |         with torch.cuda.graph(g2):"
 run "$CGLINT" --select CG705 -f sarif loop.py
 n=$(grep -o '"primaryLocationLineHash": "[0-9a-f]*:1"' <<<"$out" | sort -u | wc -l)
 [ "$n" = 2 ] && ok "CG705: two captures, two SARIF line hashes (each occurrence 1)" || nok "CG705 SARIF fingerprints" "$out"
 run "$CGLINT" --select CG705 --write-baseline b.json loop.py
 [ "$(grep -o '"line_hash": "[0-9a-f]*"' b.json | sort -u | wc -l)" = 2 ] && ok "CG705: two baseline line hashes" || nok "CG705 baseline" "$(cat b.json)"
 # the first loop is fixed: the second finding is still known to the baseline, not new
 python3 - <<'PY2'
import re
s = open("loop.py").read()
s = s.replace("""    g = torch.cuda.CUDAGraph()
    for _ in range(steps):
        with torch.cuda.graph(g):
            y = model(x)
        g.replay()""", """    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    for _ in range(steps):
        g.replay()""")
open("loop.py", "w").write(s)
PY2
 run "$CGLINT" --select CG705 --baseline b.json loop.py
 expect "baseline: fixing one CG705 leaves the other recorded" 0 "CG705 \`with torch.cuda.graph(g):\` (line 7 when the baseline was written) no longer occurs: fixed" "1 finding hidden by the baseline"
 refute "baseline: the remaining CG705 is not reported as new" "loop.py:14"
cd "$P" || exit 1

# ---- item 8: a fix is safe only when it replaces a literal ------------------
mkdir -p "$TMP/amp" && cat >"$TMP/amp/amp.py" <<'PY'
import torch


def lit(model, x):
    g = torch.cuda.CUDAGraph()
    with torch.autocast("cuda", cache_enabled=True):
        with torch.cuda.graph(g):
            y = model(x)


def var(model, x, cache_enabled):
    g = torch.cuda.CUDAGraph()
    with torch.autocast("cuda", cache_enabled=cache_enabled):
        with torch.cuda.graph(g):
            y = model(x)


def absent(model, x):
    g = torch.cuda.CUDAGraph()
    with torch.autocast("cuda"):
        with torch.cuda.graph(g):
            y = model(x)
PY
cd "$TMP/amp" || exit 1
run "$CGLINT" --select CG601 --diff amp.py
expect "--diff: the literal and the absent keyword are safe" 1 '+    with torch.autocast("cuda", cache_enabled=False):' \
    '-    with torch.autocast("cuda", cache_enabled=True):' '-    with torch.autocast("cuda"):' "2 fixes in 1 file"
refute "--diff: the variable is not replaced without --unsafe-fixes" "cache_enabled=cache_enabled"
run "$CGLINT" --select CG601 --diff --unsafe-fixes amp.py
expect "--unsafe-fixes: the variable too" 1 '-    with torch.autocast("cuda", cache_enabled=cache_enabled):' "3 fixes in 1 file"
run "$CGLINT" --select CG601 -f json amp.py
expect "JSON marks the variable's fix unsafe" 1 '"safe": false' 'instead of `cache_enabled` (unsafe'
[ "$(grep -c '"safe": true' <<<"$out")" = 2 ] && ok "JSON: two safe fixes" || nok "JSON safe count" "$out"
run "$CGLINT" --select CG601 -f sarif amp.py
expect "SARIF marks it too" 1 '"safe": false' "(unsafe: review the change)"
run "$CGLINT" --select CG601 --fix amp.py
expect "--fix leaves the variable" 1 "cache_enabled=cache_enabled"
grep -q 'cache_enabled=cache_enabled' amp.py && ok "--fix: the variable is still in the file" || nok "--fix replaced the variable"
cd "$P" || exit 1

# ---- item 10: configuration errors, globs, unused codes ---------------------
G=$TMP/globs
mkdir -p "$G/src/a/b" "$G/tools"
for f in src/gen.py src/a/gen.py src/a/b/gen.py src/keep.py tools/train.py tools/eval.py tools/other.py; do
    printf 'import torch\n\n\ndef f(g):\n    with torch.cuda.graph(g):\n        torch.cuda.synchronize()\n' >"$G/$f"
done
cd "$G" || exit 1
printf 'extend-exclude = ["src/**/gen.py"]\n' >.cglint.toml
run "$CGLINT" -f concise .
expect "glob **: zero, one and two directories" 1 "src/keep.py:6:9" "tools/train.py:6:9"
refute "glob **: every gen.py excluded" "gen.py"
printf '[per-file-ignores]\n"tools/{train,eval}.py" = ["CG104"]\n' >.cglint.toml
run "$CGLINT" -f concise .
expect "glob braces: both alternatives" 1 "tools/other.py:6:9" "src/gen.py:6:9"
refute "glob braces: train and eval ignored" "tools/train.py" "tools/eval.py"
refute "a matching pattern: no warning" "matches no analysed file"
printf '[per-file-ignores]\n"tool/*.py" = ["CG104"]\n"tools/*.py" = ["CG104"]\n' >.cglint.toml
run "$CGLINT" -f concise .
expect "a per-file-ignores pattern matching nothing is a warning" 1 \
    'cglint: warning: .cglint.toml: per-file-ignores: "tool/*.py" matches no analysed file'
refute "only the pattern that matches nothing" '"tools/*.py" matches no'
run "$CGLINT" -f concise src/keep.py
refute "no warning when one named file is analysed" "matches no analysed file"
rm .cglint.toml
printf '[tool.cglint\nselect = ["CG1"]\n' >pyproject.toml
run "$CGLINT" .
one_error "TOML: an unclosed table header" "pyproject.toml:1: invalid TOML at column 13: expected ']' to close the table header, found the end of the line"
printf '[tool.cglint]\nselect = ["CG1" "CG2"]\n' >pyproject.toml
run "$CGLINT" .
one_error "TOML: a missing comma" "pyproject.toml:2: invalid TOML at column 17: expected ',' or ']' after an array item, found '\"'"
printf '[tool.cglint]\njobs = many\n' >pyproject.toml
run "$CGLINT" .
one_error "TOML: a bare word value" "pyproject.toml:2: invalid TOML at column 8: expected a value"
printf '[tool.cglint]\nselect "CG1"\n' >pyproject.toml
run "$CGLINT" .
one_error "TOML: no '='" "pyproject.toml:2: invalid TOML at column 8: expected '=' after the key, found '\"'"
rm pyproject.toml
cd "$P" || exit 1

# ---- item 10: a suppression list reports every unknown and unused code -----
cat >"$TMP/sup.py" <<'PY'
import torch


def f(g, x):
    with torch.cuda.graph(g):
        torch.cuda.synchronize()  # cglint: ignore[CG999, CG101, CG104, CG998]
        y = x + 1  # cglint: ignore[CG999, CG101]
PY
run "$CGLINT" -f concise "$TMP/sup.py"
expect "ignore[...]: every unknown and every unused code" 1 \
    'sup.py:6:35: CG001 unknown code in suppression: `CG999` is not a cglint rule code, `CG998` is not a cglint rule code; unused suppression: CG101 is not reported on this line' \
    'sup.py:7:20: CG001 unknown code in suppression: `CG999` is not a cglint rule code; unused suppression: CG101 is not reported on this line'
refute "ignore[...]: the used code is not reported" "CG104 is not reported" "CG104 \`torch"

# ---- item 9: the text output --------------------------------------------------
cat >"$TMP/ms.py" <<'PY'
import torch


def f(g, x, n):
    with torch.cuda.graph(g):
        y = torch.tensor(  # build it
            [1, 2],  # values
            device="cuda",
        )
        z = torch.tensor([n] * 3, dtype=torch.int32, device=torch.cuda.current_device(), pin_memory=False)
PY
run "$CGLINT" "$TMP/ms.py"
expect "a multi-line call is quoted on one line, balanced, without its comments" 1 \
    '`torch.tensor([1, 2], device="cuda")` copies host data'
expect "a long call is cut between tokens with its brackets closed" 1 '`torch.tensor([n] * 3, dtype=torch.int32, device=torch...)`'
expect "two lines of context above and below, as ruff shows" 1 "4 | def f(g, x, n):" "5 |     with torch.cuda.graph(g):" \
    "7 |             [1, 2],  # values" '8 |             device="cuda",'
grep -qxF '  |             ^^^^^^^^^^^^^' <<<"$out" && ok "the caret of a multi-line call stops before the comment" ||
    nok "caret of a multi-line call" "$out"
mkdir -p "$TMP/cu" && cat >"$TMP/cu/m.cu" <<'CU'
#include <cuda_runtime.h>
void f(cudaStream_t s, float *d, float *h, size_t n) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpy(d,  // device
               h, n * sizeof(float),
               cudaMemcpyHostToDevice);
    cudaStreamEndCapture(s, &g);
}
CU
run "$CGLINT" --cuda-mode shim "$TMP/cu/m.cu"
expect "C/C++: a multi-line call quoted whole, without its comment" 1 '`cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice)` is a synchronous'
run "$CGLINT" --select CG705 "$TMP/loops/loop.py"
expect "help lines in one style: a capitalised sentence with a full stop" 1 \
    "= help: Capture once before the loop and \`replay()\` inside it."
if command -v script >/dev/null 2>&1; then
    tty=$(script -qec "env -u NO_COLOR '$CGLINT' --fail-on x" /dev/null 2>&1)
    grep -qF $'cglint: \x1b[1;31merror\x1b[0m: --fail-on' <<<"$tty" && ok "cglint: error: coloured on a terminal" ||
        nok "coloured error on a terminal" "$(od -c <<<"$tty" | head -3)"
    tty=$(script -qec "NO_COLOR=1 '$CGLINT' --fail-on x" /dev/null 2>&1)
    grep -qF 'cglint: error: --fail-on' <<<"$tty" && ok "NO_COLOR: no colour on the terminal" || nok "NO_COLOR" "$tty"
    tty=$(script -qec "env -u NO_COLOR '$CGLINT' --color never --fail-on x" /dev/null 2>&1)
    grep -qF 'cglint: error: --fail-on' <<<"$tty" && ok "--color never: no colour on the terminal" || nok "--color never" "$tty"
    mkdir -p "$TMP/many"
    for i in $(seq 1 400); do printf 'def f%d(x):\n    return x + %d\n' "$i" "$i" >"$TMP/many/m$i.py"; done
    tty=$(script -qec "CGLINT_PROGRESS_DELAY_MS=0 '$CGLINT' '$TMP/many' >/dev/null" /dev/null 2>&1)
    grep -qE 'finding files\.\.\. [1-9][0-9]* found|reading Python files [0-9]+/400' <<<"$tty" &&
        ok "the progress line counts files (found, or read of 400)" || nok "progress counts" "$(tr '\r' '\n' <<<"$tty" | sort | uniq -c | head)"
else
    echo "util-linux script is not installed: terminal checks skipped"
fi
run "$CGLINT" --fail-on x
refute "stderr piped: no colour" $'\x1b['

finish
