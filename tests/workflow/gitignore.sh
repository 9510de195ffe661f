#!/usr/bin/env bash
# gitignore.sh - the walk respects .gitignore (through libgit2: nested
# .gitignore files, negation, .git/info/exclude), can be told not to, and
# never drops a file named on the command line.
. "$(dirname "$0")/lib.sh"

P=$TMP/proj
make_project "$P"
cd "$P" || exit 1
mkdir -p generated sub/deep
cp train.py generated/t.py
cp train.py sub/deep/made_gen.py
cp train.py sub/deep/keep_gen.py
cp train.py sub/local.py

run "$CGLINT" --statistics .
expect "outside a git repository everything is walked" 1 "    5  CG104"

git init -q .
printf 'generated/\n*_gen.py\n!keep_gen.py\n' >.gitignore
printf 'local.py\n' >sub/.gitignore
run "$CGLINT" .
expect "ignored files are skipped" 1 "train.py:10:9" "sub/deep/keep_gen.py:10:9"
refute "ignored: generated/, *_gen.py, nested .gitignore" "generated/t.py" "made_gen.py" "sub/local.py"

printf 'train.py\n' >.git/info/exclude
run "$CGLINT" .
refute ".git/info/exclude is honoured" "train.py:10:9"
: >.git/info/exclude

run "$CGLINT" --no-respect-gitignore --statistics .
expect "--no-respect-gitignore walks everything" 1 "    5  CG104"
printf '[tool.cglint]\nrespect-gitignore = false\n' >pyproject.toml
run "$CGLINT" --statistics .
expect "respect-gitignore = false in the configuration" 1 "    5  CG104"
rm pyproject.toml
run "$CGLINT" generated/t.py
expect "a file named on the command line is analysed even if ignored" 1 "generated/t.py:10:9"
run "$CGLINT" generated
expect "a directory named on the command line is walked even if git ignores it" 1 "generated/t.py:10:9"
run "$CGLINT" --statistics sub
expect "a named directory that git does not ignore: .gitignore applies inside" 1 "    1  CG104"

finish
