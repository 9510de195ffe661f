# lib.sh - sourced by the install tests: TAP-like checks over an installed
# cglint.  Arguments of every test: BUILD_DIR SOURCE_DIR.
#
#   check NAME CMD...      CMD succeeds
#   has NAME PAT TEXT      TEXT holds PAT (fixed string)
#   finish                 the summary line; exit status 1 if anything failed
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
pass=0
fail=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cglint-install.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export NO_COLOR=1

ok() { echo "ok - $1"; pass=$((pass + 1)); }
nok() { echo "not ok - $1"; shift; for l in "$@"; do printf '    %s\n' "$l"; done; fail=$((fail + 1)); }
check() { local name=$1; shift; if "$@" >"$TMP/.out" 2>&1; then ok "$name"; else nok "$name" "$*: $(tail -5 "$TMP/.out")"; fi; }
has() { if grep -qF -- "$2" <<<"$3"; then ok "$1"; else nok "$1" "missing '$2' in:" "$3"; fi; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }

# A scratch project: one capture with a host sync, and a program that prints
# what `cglint run` hands it (the observer's PYTHONPATH, the CUPTI library).
#   make_project DIR
make_project() {
    mkdir -p "$1"
    cp "$SRC/examples/pipelined.py" "$1/"
    cat >"$1/show_env.py" <<'PY'
import os
print("PYTHONPATH=" + os.environ.get("PYTHONPATH", ""))
print("CUDA_INJECTION64_PATH=" + os.environ.get("CUDA_INJECTION64_PATH", ""))
PY
}

# The checks every installed layout must pass.
#   check_installed ROOT_PREFIX     (ROOT_PREFIX/bin/cglint; runtime under it)
check_installed() {
    local pfx=$1 bin=$1/bin/cglint out rc
    check "the binary is installed at PREFIX/bin/cglint" test -x "$bin"
    out=$("$bin" --version 2>&1)
    local want
    want=$(sed -n 's/^project(cglint VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
    has "--version prints the project's version" "cglint $want" "$out"
    has "--version prints libclang's version" "libclang: " "$out"
    has "--version prints the pinned grammar's version" "tree-sitter-python: 0.23.6" "$out"
    make_project "$TMP/proj"
    out=$(cd "$TMP/proj" && "$bin" pipelined.py 2>&1); rc=$?
    if [ "$rc" = 1 ] && grep -qF "pipelined.py:47:14: error" <<<"$out" && grep -qF "[CG402]" <<<"$out"; then
        ok "the installed cglint analyses an example (CG402, exit 1)"
    else nok "the installed cglint analyses an example (CG402, exit 1)" "exit $rc" "$out"; fi
    out=$("$bin" run --help 2>&1); rc=$?
    if [ "$rc" = 0 ] && grep -qF "CGLINT_RUNTIME_DIR" <<<"$out"; then ok "cglint run --help (names CGLINT_RUNTIME_DIR)"
    else nok "cglint run --help (names CGLINT_RUNTIME_DIR)" "exit $rc" "$out"; fi
    # the runtime is the installed one, found beside the binary, not the source tree's
    out=$(cd "$TMP/proj" && "$bin" run pipelined.py -- python3 show_env.py 2>&1)
    local rt
    rt=$(cd "$pfx/share/cglint/runtime" && pwd -P)
    has "cglint run uses the runtime installed beside the binary" "PYTHONPATH=$rt/python/_cglint_site:$rt/python" "$out"
    if [ -f "$BUILD/runtime/cupti/libcglint_cupti.so" ]; then
        has "cglint run loads the CUPTI library installed beside the binary" \
            "CUDA_INJECTION64_PATH=$(cd "$pfx/lib/cglint" && pwd -P)/libcglint_cupti.so" "$out"
    else
        echo "ok - # SKIP the CUPTI library was not built (no CUDA toolkit)"
    fi
    check "the runtime's observer is installed" test -f "$pfx/share/cglint/runtime/python/cglint_runtime/observer.py"
    check "no bytecode is installed" bash -c "! find '$pfx/share/cglint' -name __pycache__ | grep -q ."
    check "the docs are installed" test -f "$pfx/share/doc/cglint/README.md" -a -f "$pfx/share/doc/cglint/LICENSE" \
        -a -f "$pfx/share/doc/cglint/CHANGELOG.md" -a -f "$pfx/share/doc/cglint/docs/rules.md" \
        -a -f "$pfx/share/doc/cglint/rules/CG101.md"
    # CGLINT_RUNTIME_DIR decides alone
    mkdir -p "$TMP/alt/python/cglint_runtime" "$TMP/alt/python/_cglint_site"
    cp -r "$pfx/share/cglint/runtime/python/." "$TMP/alt/python/"
    out=$(cd "$TMP/proj" && CGLINT_RUNTIME_DIR=$TMP/alt "$bin" run --no-cupti pipelined.py -- python3 show_env.py 2>&1)
    has "CGLINT_RUNTIME_DIR overrides the installed runtime" "PYTHONPATH=$(cd "$TMP/alt" && pwd -P)/python/_cglint_site" "$out"
    out=$(cd "$TMP/proj" && CGLINT_RUNTIME_DIR=$TMP/nowhere "$bin" run --no-cupti pipelined.py -- python3 show_env.py 2>&1)
    has "a CGLINT_RUNTIME_DIR without the observer is named in a warning" \
        "CGLINT_RUNTIME_DIR=$TMP/nowhere holds no python/cglint_runtime/observer.py" "$out"
    has "... and is not silently replaced by another runtime" "PYTHONPATH=
" "$out"
}
