#!/usr/bin/env bash
# progress.sh - the progress line: on a terminal only (a pseudo-terminal from
# util-linux `script` here), never with --quiet, never when stderr is piped,
# not at all for runs under the delay, and erased when the run ends.
. "$(dirname "$0")/lib.sh"

if ! command -v script >/dev/null 2>&1; then
    echo "util-linux script is not installed: skipped"
    exit 77
fi
P=$TMP/proj
make_project "$P"
for i in $(seq 1 300); do printf 'def f%d(x):\n    return x + %d\n' "$i" "$i" >"$P/m$i.py"; done
cd "$P" || exit 1

tty_run() { # command line, run on a pseudo-terminal; sets $out to all it printed
    out=$(script -qec "$1" /dev/null 2>&1)
    rc=$?
}
tty_run "CGLINT_PROGRESS_DELAY_MS=0 '$CGLINT' . >/dev/null"
grep -q "cglint: finding files" <<<"$out" && grep -q $'\x1b\[K' <<<"$out" &&
    ok "on a terminal the progress line is shown" || nok "on a terminal the progress line is shown" "$(od -c <<<"$out" | head)"
last=${out##*$'\r'}
[ "$(printf '%s' "$last" | tr -d '\r\n')" = $'\x1b[K' ] && ok "the progress line is erased at the end" ||
    nok "the progress line is erased at the end" "$(printf '%s' "$last" | od -c | head -3)"
tty_run "CGLINT_PROGRESS_DELAY_MS=0 '$CGLINT' -q . >/dev/null"
grep -q "cglint:" <<<"$out" && nok "--quiet: no progress line" "$out" || ok "--quiet: no progress line"
tty_run "'$CGLINT' . >/dev/null"
grep -q "cglint:" <<<"$out" && nok "a run under a second shows no progress line" "$out" || ok "a run under a second shows no progress line"
CGLINT_PROGRESS_DELAY_MS=0 "$CGLINT" . >/dev/null 2>"$TMP/err"
grep -q $'\r\|finding files\|reading files' "$TMP/err" && nok "stderr piped: no progress line" "$(cat "$TMP/err")" ||
    ok "stderr piped: no progress line"

finish
