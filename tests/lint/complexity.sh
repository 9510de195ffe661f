#!/usr/bin/env bash
# complexity.sh SRC_DIR BUILD_DIR - no function of the Python front end
# (src/python/*.c) above the cognitive complexity .clang-tidy allows (60),
# measured by clang-tidy-22 with the build's compile_commands.json.
# Exit 77 (skipped, with the reason) where clang-tidy-22 is not installed.
set -u
SRC=$1 BUILD=$2
TIDY=$(command -v clang-tidy-22) || {
    echo "lint.complexity: skipped: clang-tidy-22 is not installed (scripts/bootstrap installs it)"
    exit 77
}
if [ ! -f "$BUILD/compile_commands.json" ]; then
    echo "lint.complexity: skipped: no $BUILD/compile_commands.json"
    exit 77
fi
out=$("$TIDY" -p "$BUILD" --quiet --config-file="$SRC/.clang-tidy" "$SRC"/src/python/*.c 2>&1)
rc=$?
over=$(printf '%s\n' "$out" | grep -E 'warning:|error:')
if [ $rc -ne 0 ] || [ -n "$over" ]; then
    printf '%s\n' "$out"
    echo "lint.complexity: functions of src/python over the cognitive complexity .clang-tidy allows: split them"
    exit 1
fi
echo "lint.complexity: every function of src/python/*.c within the cognitive complexity .clang-tidy allows"
