/* baseline.h - adopting cglint on a big code base: record today's findings
 * once (--write-baseline FILE), then report only new ones (--baseline FILE).
 *
 * A finding is recorded by a fingerprint that survives lines moving: its
 * rule, its path relative to the baseline file's directory, a hash of its
 * source line with all whitespace removed (re-indenting changes nothing),
 * and its occurrence: the n-th finding with that same rule, path and line
 * hash, counted from the top of the file.  Line numbers are kept in the
 * file only for people reading it.
 *
 * The file is JSON:
 *   { "cglint_baseline": 1, "tool_version": "0.1.0",
 *     "findings": [ { "rule": "CG101", "path": "src/train.py",
 *                     "line_hash": "89ab...", "occurrence": 1,
 *                     "line": 42, "text": "n = loss.item()" }, ... ] }
 */
#ifndef CG_BASELINE_H
#define CG_BASELINE_H
#include <stddef.h>
#include "core/report.h"

/* Write every finding of the report (sorted) to `path`, atomically.
 * Returns 0, or -1 with a message in err. */
int cg_baseline_write(const cg_report *r, const char *path, const char *tool_version,
                      char *err, size_t errlen);

/* Drop the findings the baseline holds.  Adds a note "N findings hidden by
 * the baseline" and, for each entry that no longer occurs in a file this run
 * reported on (analysed(ctx, abs_path) != 0), a note that it is fixed.
 * Returns 0, or -1 with a message in err (unreadable, not JSON, not a
 * baseline). */
int cg_baseline_apply(cg_report *r, const char *path,
                      int (*analysed)(void *ctx, const char *abs_path), void *ctx,
                      char *err, size_t errlen);
#endif
