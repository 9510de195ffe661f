#!/usr/bin/env bash
# config.sh - configuration files from the command line: discovery (closest
# to each path, parent directories, .cglint.toml over pyproject.toml),
# --config, --isolated, --show-settings, every key's effect, CLI flags over
# the file, and bad configurations: each one clear error and exit 2.
. "$(dirname "$0")/lib.sh"

P=$TMP/proj
make_project "$P"
cd "$P" || exit 1

run "$CGLINT" .
expect "no config: every rule" 1 "helpers.py:2:12" "[CG101]" "[CG104]"

# ---- discovery -------------------------------------------------------------
printf '[project]\nname = "p"\n\n[tool.cglint]\nselect = ["CG104"]\n' >pyproject.toml
run "$CGLINT" .
expect "pyproject [tool.cglint] select" 1 "[CG104]"
refute "pyproject select drops CG101" "[CG101]"

# trailing comments are TOML too (Megatron-LM's pyproject.toml has them in [tool.isort])
printf '[tool.isort]\nprofile = "black"   # black-compatible\nline_length = 100  # c\n\n[tool.cglint]\nselect = ["CG104"]  # only syncs\nignore = [\n  "CG105",  # not queries\n]\n' >pyproject.toml
run "$CGLINT" .
expect "trailing comments after values and in arrays" 1 "[CG104]"
refute "trailing comments: the select still applies" "[CG101]"
printf '[project]\nname = "p"\n\n[tool.cglint]\nselect = ["CG104"]\n' >pyproject.toml

mkdir -p sub && cp train.py helpers.py sub/
(cd sub && run "$CGLINT" . && expect "config in a parent directory applies" 1 "[CG104]" && refute "parent config: no CG101" "[CG101]")
cd sub && run "$CGLINT" . && cd ..
refute "config in a parent directory applies (from below)" "[CG101]"

printf 'select = ["CG101"]\n' >sub/.cglint.toml
run "$CGLINT" .
expect "closest config wins for files below it" 1 "sub/helpers.py:2:12" "train.py:10:9: error"
refute "closest config: sub has no CG104" "sub/train.py:10"
printf '[tool.cglint]\nselect = ["CG104"]\n' >sub/pyproject.toml
run "$CGLINT" sub
expect ".cglint.toml wins over pyproject.toml in one directory" 1 "[CG101]"
rm sub/pyproject.toml
printf '[tool.ruff]\nline-length = 90\n' >sub/pyproject.toml
rm sub/.cglint.toml
run "$CGLINT" sub
expect "pyproject.toml without [tool.cglint] is passed over" 1 "[CG104]"
refute "passed over: parent's select still applies" "[CG101]"
rm -rf sub

run "$CGLINT" --isolated .
expect "--isolated ignores configuration" 1 "[CG101]" "[CG104]"
printf 'select = ["CG101"]\n' >"$TMP/other.toml"
run "$CGLINT" --config "$TMP/other.toml" .
expect "--config FILE replaces discovery" 1 "[CG101]"
refute "--config: no CG104" "[CG104]"

# ---- CLI over the file -----------------------------------------------------------
run "$CGLINT" --select CG101 .
expect "--select replaces the file's select" 1 "[CG101]"
refute "--select: no CG104" "[CG104]"
run "$CGLINT" --extend-select CG101 .
expect "--extend-select adds to the file's select" 1 "[CG101]" "[CG104]"
run "$CGLINT" --ignore CG104 .
expect "--ignore removes from the file's select" 0 "No findings."

# ---- keys ---------------------------------------------------------------------------
cat >pyproject.toml <<'T'
[tool.cglint]
per-file-ignores = { "helpers.py" = ["CG101"] }
T
run "$CGLINT" .
expect "per-file-ignores" 1 "[CG104]"
refute "per-file-ignores drops CG101 in helpers.py" "[CG101]"

mkdir -p gen build && cp helpers.py gen/g.py && cp train.py build/t.py
printf '[tool.cglint]\nextend-exclude = ["gen"]\n' >pyproject.toml
run "$CGLINT" --statistics .
refute "extend-exclude skips gen/, defaults still skip build/" "gen/g.py" "build/t.py"
printf '[tool.cglint]\nexclude = ["gen"]\n' >pyproject.toml
run "$CGLINT" .
expect "exclude replaces the default excluded names" 1 "build/t.py:10:9"
refute "exclude: gen/ still skipped" "gen/g.py"
rm -rf gen build

printf '[tool.cglint]\noutput-format = "sarif"\njobs = 3\n' >pyproject.toml
run "$CGLINT" .
expect "output-format from the file" 1 '"$schema"' '"ruleId": "CG101"'
run "$CGLINT" --format text .
expect "--format overrides output-format" 1 "helpers.py:2:12: error"
run "$CGLINT" --statistics .
expect "--statistics in the file's sarif format: the counts in run.properties" 1 '"statistics": [' '"code": "CG101"'
run "$CGLINT" --show-settings helpers.py
expect "--show-settings" 0 "Settings for helpers.py" "config file        pyproject.toml [tool.cglint]" "jobs               3" "output-format      sarif"
printf '[tool.cglint]\ncuda-path = "/opt/cuda"\ncompile-commands = "build/compile_commands.json"\n' >pyproject.toml
run "$CGLINT" --show-settings .
expect "cuda-path and compile-commands are stored (resolved against the file)" 0 "cuda-path          /opt/cuda" "compile-commands   $P/build/compile_commands.json"
run "$CGLINT" --isolated --show-settings .
expect "--show-settings --isolated" 0 "config file        none (defaults)"

# ---- bad configurations: one clear error each, exit 2 -------------------------------------
bad() { # name, file content, expected message
    printf '%b' "$2" >pyproject.toml
    run "$CGLINT" .
    one_error "$1" "$3"
}
bad "unknown key" '[tool.cglint]\nselect = ["CG1"]\nselct = ["CG1"]\n' "pyproject.toml:3: unknown key 'selct' in [tool.cglint] (did you mean 'select'?)"
bad "wrong type: string for a list" '[tool.cglint]\nignore = "CG101"\n' "pyproject.toml:2: ignore: expected an array of strings, got a string"
bad "wrong type: jobs" '[tool.cglint]\njobs = "many"\n' "pyproject.toml:2: jobs: expected an integer from 1 to 1024, got a string"
bad "bad value: output-format" '[tool.cglint]\noutput-format = "xml"\n' "pyproject.toml:2: output-format: expected"
bad "bad value: rule code" '[tool.cglint]\nselect = [\n  "CG1",\n  "F401",\n]\n' "pyproject.toml:4: select: 'F401' is not a rule code or prefix"
bad "unparsable TOML" '[tool.cglint\nselect = ["CG1"]\n' "pyproject.toml:1: invalid TOML"
bad "duplicate key" '[tool.cglint]\njobs = 2\njobs = 3\n' "pyproject.toml:3: key 'jobs' is defined twice (first on line 2)"
rm pyproject.toml

mkdir -p deep/er && cp helpers.py deep/er/h.py
printf 'select = ["CG1"]\nextend-ignore = ["CG104"]\n' >deep/.cglint.toml
run "$CGLINT" .
one_error "a bad config in a subdirectory stops the run" "deep/.cglint.toml:2: unknown key 'extend-ignore'"
(cd deep/er && run "$CGLINT" h.py && one_error "a bad config in a parent directory" ".cglint.toml:2: unknown key 'extend-ignore'")
rm -rf deep

run "$CGLINT" --config "$TMP/missing.toml" .
one_error "--config names a missing file" "missing.toml: cannot open"
printf '[project]\nname = "x"\n' >"$TMP/pyproject.toml"
run "$CGLINT" --config "$TMP/pyproject.toml" .
one_error "--config names a pyproject.toml without [tool.cglint]" "without a [tool.cglint] table"
run "$CGLINT" --config "$TMP/other.toml" --isolated .
one_error "conflicting flags: --config and --isolated" "--config and --isolated cannot be used together"
run "$CGLINT" --select CGX .
one_error "bad --select code" "--select: 'CGX' is not a rule code"

finish
