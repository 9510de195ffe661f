#!/usr/bin/env bash
# deb.sh - CPack builds the .deb; its Depends name the Debian packages of the
# libraries cglint links; unpacked with dpkg -x into a scratch directory (never
# installed system-wide), it runs as an install does.
. "$(dirname "$0")/lib.sh"

for t in cpack dpkg-deb dpkg-shlibdeps; do
    command -v "$t" >/dev/null 2>&1 || { echo "$t is not installed (dpkg-dev, cmake): skipped"; exit 77; }
done
if cpack --config "$BUILD/CPackConfig.cmake" -B "$TMP/pkg" >"$TMP/cpack.log" 2>&1; then
    ok "cpack builds a package"
else
    nok "cpack builds a package" "$(tail -15 "$TMP/cpack.log")"
    finish; exit
fi
deb=$(ls "$TMP"/pkg/cglint_*.deb 2>/dev/null | head -1)
check "the package is a .deb named cglint_<version>_<arch>.deb" test -n "$deb"
[ -n "$deb" ] || { finish; exit; }
has "Package: cglint" "cglint" "$(dpkg-deb -f "$deb" Package)"
want=$(sed -n 's/^project(cglint VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
has "Version is the project's" "$want" "$(dpkg-deb -f "$deb" Version)"
deps=$(dpkg-deb -f "$deb" Depends)
# every library the binary links, by its package (dpkg -S), is in Depends
for lib in libclang libgit2 libjansson libtree-sitter libc.so; do
    path=$(ldd "$BUILD/cglint" | awk -v l="$lib" 'index($1, l) == 1 {print $3; exit}')
    # libclang is loaded when a run has C/C++ files (dlopen), not linked: the
    # library the build found
    [ "$lib" = libclang ] && path=$(sed -n 's/^LIBCLANG_LIBRARY:FILEPATH=//p' "$BUILD/CMakeCache.txt")
    [ -n "$path" ] || { nok "Depends: $lib is linked" "ldd shows no $lib"; continue; }
    real=$(readlink -f "$path")
    pkg=$(dpkg -S "$real" 2>/dev/null | head -1 | cut -d: -f1)
    [ -n "$pkg" ] || pkg=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)
    has "Depends names $pkg (for $lib)" "$pkg" "$deps"
done
rm -rf "$TMP/x"
dpkg -x "$deb" "$TMP/x"
check_installed "$TMP/x/usr"
finish
