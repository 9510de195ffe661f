#!/usr/bin/env bash
# The add-rule path, end to end: in a copy of the source tree, scaffold a
# Python rule and a C/C++/CUDA rule with scripts/add-rule, write each one's
# checker (a few lines, in the stub add-rule wrote), and nothing else; then
# the copy must build and pass the tests a rule can affect, and no file but
# those add-rule wrote may have changed.
#
#   test_add_rule.sh PYTHON SOURCE_DIR BUILD_DIR CMAKE CTEST
#
# BUILD_DIR is the configured build of SOURCE_DIR: its fetched grammars and
# SARIF Multitool are reused, so the test needs no network.
set -u
PY=$1; SRC=$2; BUILD=$3; CMAKE=$4; CTEST=$5
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
T=$tmp/tree
mkdir -p "$T"
fail() { echo "not ok - $*"; exit 1; }
ok() { echo "ok - $*"; }

# ---- a copy of the source tree: tracked and untracked-but-not-ignored files --
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
     tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$T" -xf - || fail "copy the tree"
else
  (cd "$SRC" && tar --exclude='./build*' --exclude='./.git' -cf - .) | tar -C "$T" -xf - || fail "copy the tree"
fi
cd "$T" || fail "cd"
snapshot() { find . -path ./build -prune -o -type f -print0 | sort -z | xargs -0 md5sum; }
snapshot >"$tmp/before"

# ---- scaffold ----------------------------------------------------------------
"$PY" scripts/add-rule CG799 py placeholder-in-capture >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "add-rule CG799 py"; }
"$PY" scripts/add-rule CG798 cu placeholder-call-in-capture >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "add-rule CG798 cu"; }
ok "add-rule scaffolds CG799 (py) and CG798 (cu)"
"$PY" scripts/add-rule CG799 cu >"$tmp/out" 2>&1 && fail "add-rule reuses an id"
ok "add-rule refuses an id that has a page"

# the scaffold's TODO text is accepted in preview only
cp -r rules "$tmp/r"
sed -i 's/^status: preview/status: stable/' "$tmp/r/CG799.md"
if "$PY" "$tmp/r/gen_rules.py" --rules-dir "$tmp/r" >"$tmp/out" 2>&1 ||
   ! grep -q "CG799.md:[0-9]*: unfinished scaffold text" "$tmp/out"; then
  cat "$tmp/out"; fail "the generator refuses a stable page with TODO(add-rule)"
fi
ok "the generator refuses the scaffold as a stable rule"

# ---- the checkers: the only code written by hand ------------------------------
"$PY" - <<'EOF' || fail "write the checkers"
def put(path, name, body):
    s = open(path).read()
    i = s.index("static void %s(" % name)
    j = s.index("\n}\n", i) + 3
    open(path, "w").write(s[:i] + body + s[j:])

put("src/python/py_checks.c", "check_cg799", '''static void check_cg799(const py_ctx *ctx, const py_event *ev)
{
    if (!cg_eq(ev->qual, "torch.cuda.cg799_placeholder")) return;
    py_report(ctx, PY_AT(CG_R_CG799, ev->mod, ev->node),
              "`%s` calls the placeholder during capture", expr(ctx, ev));
}
''')
put("src/cuda/cu_checks.c", "check_cg798", '''static void check_cg798(const cu_ctx *ctx, const cu_event *ev)
{
    if (!cg_eq(ev->name, "cg798_placeholder")) return;
    cu_report(ctx, ev, ev->node, CG_R_CG798, -1, NULL,
              "`%s` calls the placeholder during capture", cu_snip(ctx, ev->node));
}
''')
EOF

# ---- nothing but what add-rule wrote changed -----------------------------------
snapshot >"$tmp/after"
changed=$("$PY" - "$tmp/before" "$tmp/after" <<'EOF'
import sys
def load(p):
    return {path: h for h, path in (l.rstrip("\n").split("  ", 1) for l in open(p))}
b, a = load(sys.argv[1]), load(sys.argv[2])
print("\n".join(sorted(p[2:] for p in set(a) | set(b) if a.get(p) != b.get(p))))
EOF
)
want=$(printf '%s\n' docs/rules.md rules/CG798.md rules/CG799.md src/cuda/cu_checks.c src/python/py_checks.c \
  tests/fixtures/cu/CG798/negative.cu tests/fixtures/cu/CG798/positive.cu \
  tests/fixtures/py/CG799/negative.py tests/fixtures/py/CG799/positive.py | sort)
[ "$changed" = "$want" ] || fail "files changed: $(tr '\n' ' ' <<<"$changed"); expected: $(tr '\n' ' ' <<<"$want")"
ok "only the files add-rule wrote changed"

# ---- build, reusing the build's downloads ------------------------------------
mkdir -p build/grammars build/tools
for g in "$BUILD"/grammars/*; do
  case $g in *.tgz) cp "$g" build/grammars/ ;; *) [ -f "$g/src/parser.c" ] && cp -r "$g" build/grammars/ ;; esac
done
sarif=OFF; skip_cli=cli
if [ -x "$BUILD/tools/sarif/node_modules/.bin/sarif-multitool" ]; then
  ln -s "$BUILD/tools/sarif" build/tools/sarif; sarif=ON; skip_cli=
fi
"$CMAKE" -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE="$PY" \
  -DCGLINT_SARIF_VALIDATE=$sarif >"$tmp/out" 2>&1 || { tail -30 "$tmp/out"; fail "configure"; }
"$CMAKE" --build build -j2 >"$tmp/out" 2>&1 || { grep -E "error|Error" "$tmp/out" | head -30; fail "build"; }
grep -E "warning:" "$tmp/out" && fail "the build warns"
ok "the copy builds without warnings"

# ---- the tests a rule can affect ---------------------------------------------
# fixtures (its fixtures, every rule has both), the generator and docs, the
# unit tests, the emitters, the CLI (--list-rules, --explain).  Not this test.
exclude="rules.add-rule|gpu${skip_cli:+|$skip_cli}"
"$CTEST" --test-dir build -j2 -R 'fixtures|rules|unit|emit|json|cli' -E "$exclude" --output-on-failure \
  >"$tmp/out" 2>&1 || { grep -vE '^\[ +(OK|RUN) ' "$tmp/out" | tail -60; fail "the tests in the copy"; }
grep -E "tests passed" "$tmp/out"
[ -z "$skip_cli" ] || echo "# no SARIF Multitool in $BUILD: cli not run"
ok "the copy with CG799 and CG798 passes"
echo "# $(build/cglint tests/fixtures/py/CG799 tests/fixtures/cu/CG798 | tail -1)"
