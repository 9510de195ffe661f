#!/usr/bin/env bash
# tests/lsp/nvim.sh CGLINT - `cglint server` end to end with a real client:
# Neovim's built-in LSP client (Debian's neovim package), headless, scripted
# in Lua (nvim_client.lua): open a file whose helper a capture in another
# file of the project reaches, read the diagnostics back, hover, edit.
# Skipped (77) when nvim is not installed.
set -u
CGLINT=$(readlink -f "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvim >/dev/null 2>&1; then
    echo "SKIP: nvim is not installed (Debian package neovim; scripts/bootstrap installs it)"
    exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/proj/pkg" "$T/xdg"
touch "$T/proj/pyproject.toml" "$T/proj/pkg/__init__.py"
cat > "$T/proj/pkg/model.py" <<'PY'
import torch


def helper(x):
    return x.sum().item()
PY
cat > "$T/proj/train.py" <<'PY'
import torch
from pkg.model import helper


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        helper(x)
PY
export XDG_CONFIG_HOME="$T/xdg" XDG_DATA_HOME="$T/xdg" XDG_CACHE_HOME="$T/xdg" XDG_STATE_HOME="$T/xdg"
export CGLINT ROOT="$T/proj" FILE="$T/proj/pkg/model.py" OUT="$T/out.txt"
cd "$T/proj"
timeout 180 nvim --headless --clean -n -c "luafile $HERE/nvim_client.lua" </dev/null >"$T/nvim.log" 2>&1
rc=$?
echo "nvim exited $rc; what the client saw:"
cat "$T/out.txt" 2>/dev/null || { echo "FAIL: no output from the Lua script"; cat "$T/nvim.log"; exit 1; }
fail=0
expect() {
    grep -qF -- "$1" "$T/out.txt" || { echo "FAIL: expected a line with: $1"; fail=1; }
}
expect "diagnostic 5:12 CG101 cglint \`x.sum().item()\` copies a CUDA tensor's value to the host"
expect "hover **CG101** \`host-scalar-read\`"
expect "cleared after an unsaved edit"
if grep -q "^error" "$T/out.txt"; then fail=1; fi
[ "$(grep -c '^diagnostic' "$T/out.txt")" = 1 ] || { echo "FAIL: expected exactly one diagnostic"; fail=1; }
[ $fail = 0 ] && echo "PASS: Neovim's LSP client got the diagnostics, the hover and the update"
exit $fail
