#!/usr/bin/env bash
# install.sh - `cmake --install` into a scratch root (DESTDIR, prefix /usr):
# the installed binary finds its runtime relative to itself, analyses an
# example, runs `cglint run --help`, and --version names the versions.  A
# binary copied out of the build directory still analyses.
. "$(dirname "$0")/lib.sh"

if DESTDIR=$TMP/root cmake --install "$BUILD" --prefix /usr >"$TMP/install.log" 2>&1; then
    ok "cmake --install into DESTDIR"
else
    nok "cmake --install into DESTDIR" "$(tail -5 "$TMP/install.log")"
    finish; exit
fi
check_installed "$TMP/root/usr"

# a copied binary: static analysis needs nothing beside it
mkdir -p "$TMP/copy"
cp "$BUILD/cglint" "$TMP/copy/cglint"
make_project "$TMP/proj2"
out=$(cd "$TMP/proj2" && "$TMP/copy/cglint" pipelined.py 2>&1); rc=$?
if [ "$rc" = 1 ] && grep -qF "[CG402]" <<<"$out"; then ok "a copied binary analyses an example"
else nok "a copied binary analyses an example" "exit $rc" "$out"; fi
finish
