#!/usr/bin/env bash
# docs.sh - the README is true: every fenced block of README.md is run or
# checked, in a scratch copy of this tree (cglint on PATH, HOME a scratch
# directory, build/ the real build directory):
#   ```sh blocks          each command runs; an exit status above 1 (cglint's
#                         findings) fails the block
#   <!-- docs-test: skip REASON --> before a block
#                         not run (it needs a GPU, the network, or root); the
#                         test prints a line saying so
#   output of: CMD        every line of the block is in CMD's output
#   synopsis              the block is the Usage line of --help (or run --help)
#   layout                every directory the block names exists
#   pre-commit-config     the hook ids it names are in .pre-commit-hooks.yaml
#   excerpt of FILE       every line of the block is a line of FILE
#   ```toml blocks        a valid configuration (--show-settings accepts it)
# A command or untagged block with none of these fails the test, as does a
# README rule table without a rule of --list-rules, an option --help does not
# know, or a relative link to a file that does not exist (README.md,
# examples/README.md, runtime/README.md, rules/README.md, docs/*.md).
# ```python and ```cpp blocks are examples of code and are not run.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import yaml' 2>/dev/null; then
    echo "python3 yaml is not installed: skipped"
    exit 77
fi

# a scratch copy of this tree: tracked and untracked, not ignored files
COPY=$TMP/copy
mkdir -p "$COPY" "$TMP/bin" "$TMP/home"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$SRC" && git ls-files -z -co --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
        tar -C "$COPY" -xf -
else
    (cd "$SRC" && tar --exclude=./build -cf - .) | tar -C "$COPY" -xf -
fi
ln -s "$(dirname "$CGLINT")" "$COPY/build"
ln -s "$CGLINT" "$TMP/bin/cglint"

run env PATH="$TMP/bin:$PATH" HOME="$TMP/home" "$PY" - "$COPY" README.md examples/README.md <<'PYEOF'
import os, re, subprocess, sys, yaml
copy = sys.argv[1]
bad = 0
nrun = nskip = nchecked = 0

def fail(n, why):
    global bad
    bad += 1
    print("FAIL %s:%d: %s" % (readme, n, why))

def sh(cmd):
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=copy, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=600)
    return p.returncode, p.stdout + p.stderr

blocks = []
for readme in sys.argv[2:]:
  lines = open(os.path.join(copy, readme)).read().split("\n")
  i = 0
  while i < len(lines):
    if lines[i].startswith("```"):
        lang = lines[i][3:].strip()
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        prev = lines[i - 1] if i else ""
        m = re.match(r"<!-- docs-test: (.*?) -->", prev)
        blocks.append((readme, i + 1, lang, lines[i + 1:j], m.group(1) if m else None))
        i = j + 1
    else:
        i += 1

nrun = nskip = nchecked = 0
for readme, n, lang, body, mark in blocks:
    text = "\n".join(body)
    if mark and mark.startswith("skip"):
        print("skipped %s:%d (%s): %s" % (readme, n, lang or "text", mark[4:].strip()))
        nskip += 1
        continue
    if lang in ("sh", "bash", "shell", "console"):
        cmds, cur = [], ""
        for l in body:
            cur += l[:-1] + " " if l.endswith("\\") else l
            if not l.endswith("\\"):
                if cur.strip() and not cur.strip().startswith("#"):
                    cmds.append(cur)
                cur = ""
        for c in cmds:
            rc, out = sh(c)
            if rc > 1:
                fail(n, "`%s` exited %d: %s" % (c.strip(), rc, out[-600:]))
            else:
                print("ran %s:%d: %s (exit %d)" % (readme, n, c.strip(), rc))
        nrun += 1
    elif lang == "toml":
        os.makedirs(os.path.join(copy, "tomlcheck"), exist_ok=True)
        open(os.path.join(copy, "tomlcheck", "pyproject.toml"), "w").write(text + "\n")
        rc, out = sh("cd tomlcheck && cglint --show-settings .")
        if rc != 0:
            fail(n, "the configuration is refused: " + out[-600:])
        nchecked += 1
    elif lang in ("python", "cpp"):
        continue
    elif mark is None:
        fail(n, "a %s block that is neither run nor marked" % (lang or "text"))
    elif mark.startswith("output of:"):
        rc, out = sh(mark[len("output of:"):].strip())
        outl = set(l.rstrip() for l in out.split("\n"))
        for l in body:
            if l.rstrip() not in outl:
                fail(n, "not in the output of `%s`: %s" % (mark[10:].strip(), l))
        nchecked += 1
    elif mark == "synopsis":
        rc, out = sh("cglint --help; cglint run --help")
        if "Usage: " + text.strip() not in out:
            fail(n, "the synopsis `%s` is not --help's Usage line" % text.strip())
        nchecked += 1
    elif mark == "layout":
        for l in body:
            d = l.split()[0] if l.strip() and not l.startswith(" ") else ""
            if d and not os.path.exists(os.path.join(copy, d)):
                fail(n, "the layout names %s, which does not exist" % d)
        nchecked += 1
    elif mark == "pre-commit-config":
        hooks = {h["id"] for h in yaml.safe_load(open(os.path.join(copy, ".pre-commit-hooks.yaml")))}
        cfg = yaml.safe_load(text)
        for r in cfg["repos"]:
            for h in r["hooks"]:
                if h["id"] not in hooks:
                    fail(n, "hook id %s is not in .pre-commit-hooks.yaml" % h["id"])
        nchecked += 1
    elif mark.startswith("excerpt of "):
        path = mark[len("excerpt of "):].strip()
        have = set(l.strip() for l in open(os.path.join(copy, path)))
        for l in body:
            k = l.strip()
            k = k[2:] if k.startswith("- ") else k
            if k and k not in have:
                fail(n, "not a line of %s: %s" % (path, l))
        nchecked += 1
    else:
        fail(n, "unknown docs-test mark: " + mark)
print("%d command blocks run, %d checked, %d skipped, %d failures" % (nrun, nchecked, nskip, bad))
sys.exit(1 if bad else 0)
PYEOF
echo "$out"
[ -n "$err" ] && echo "$err" | tail -5
expect "every block of README.md and examples/README.md runs, is checked, or is marked and skipped" 0 "0 failures"

# examples/README.md: each file's row names the rules cglint reports in it
(cd "$SRC" && "$CGLINT" -f json examples/ >"$TMP/ex.json" 2>/dev/null)
run "$PY" - "$SRC/examples/README.md" "$TMP/ex.json" <<'PYEOF'
import json, re, sys
found = {}
for f in json.load(open(sys.argv[2]))["findings"]:
    found.setdefault(f["path"].split("/")[-1], set()).add(f["rule"])
bad = 0
for line in open(sys.argv[1]):
    m = re.match(r"\| `([\w.]+\.py)` \|.*\| ([^|]*) \|\s*$", line)
    if not m:
        continue
    said = set(re.findall(r"CG\d{3}", m.group(2)))
    got = found.get(m.group(1), set())
    if said != got:
        bad += 1
        print("%s: the table says %s, cglint reports %s" % (m.group(1), sorted(said), sorted(got)))
rows = sum(1 for l in open(sys.argv[1]) if re.match(r"\| `[\w.]+\.py` \|", l))
print("%d rows, %d wrong" % (rows, bad))
PYEOF
expect "examples/README.md: each file's row names the rules cglint reports there" 0 "6 rows, 0 wrong"

# the rule table names every rule of the catalog
missing=""
for id in $("$CGLINT" --list-rules | awk 'NR > 1 {print $1}'); do
    grep -q "^| .*$id " "$SRC/README.md" || missing="$missing $id"
done
[ -z "$missing" ] && ok "the README's rule table names every rule" || nok "the README's rule table names every rule" "missing:$missing"

# relative links point at files that exist
broken=""
for md in README.md examples/README.md runtime/README.md rules/README.md docs/*.md; do
    [ -f "$SRC/$md" ] || continue
    dir=$(dirname "$SRC/$md")
    for link in $(grep -o '](\([^)#:]*\)[)#]' "$SRC/$md" | sed 's/^](//; s/[)#]$//' | sort -u); do
        [ -e "$dir/$link" ] || broken="$broken $md:$link"
    done
    grep -q '\.\./shared/' "$SRC/$md" && broken="$broken $md:../shared"
done
[ -z "$broken" ] && ok "every relative link of the docs exists" || nok "every relative link of the docs exists" "broken:$broken"

run "$PY" - "$SRC/.pre-commit-hooks.yaml" <<'PYEOF'
import sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
h = [x for x in hooks if x["id"] == "cglint"][0]
assert h["entry"] == "scripts/pre-commit-hook" and h["language"] == "script"
assert h["types_or"] == ["python", "c", "c++", "cuda"]
print("hooks ok")
PYEOF
expect ".pre-commit-hooks.yaml declares the cglint hook" 0 "hooks ok"

help=$("$CGLINT" --help; "$CGLINT" run --help)
missing=""
for opt in $(grep -o '`--[a-z-]*' "$SRC/README.md" | tr -d '`' | sort -u); do
    grep -q -- "$opt" <<<"$help" || missing="$missing $opt"
done
[ -z "$missing" ] && ok "every option the README names is in --help" || nok "every option the README names is in --help" "missing:$missing"

finish
