/* fix.h - applying the mechanical fixes that findings carry (report.h's
 * cg_edit): `cglint --fix` writes them, `cglint --diff` prints them as a
 * unified diff and writes nothing.
 *
 * Per file: the edits of every fixable finding, sorted; an edit that
 * overlaps one already taken is left for a later run; the file must still be
 * the one analysed (the edit's digest of it, its old text, the line and
 * column where it begins: an insertion has no old text), else it is left
 * alone.  The result is parsed again with the front end's parser and
 * refused if it has more syntax errors than the original.  Files are written
 * through core/file.h: atomically (a temporary file in the same directory,
 * fsync, rename), keeping their mode, owner and group, BOM, lone-CR line
 * ends and PEP 263 encoding; a file with other hard links, or whose owner a
 * new file cannot have, is rewritten in place; a symbolic link's target is
 * fixed; a read-only file is refused (an error).  Applying the fixes a
 * second time changes nothing: a fixed value no longer matches its rule. */
#ifndef CG_FIX_H
#define CG_FIX_H
#include <stdio.h>
#include "core/report.h"

/* Syntax errors in a text of the file's language, or -1 when it cannot be
 * told; NULL from the lookup means no check for that file. */
typedef long (*cg_syntax_check_fn)(const char *text, size_t len);

typedef struct cg_fix_opts {
    int unsafe;          /* also apply fixes not marked safe */
    int write;           /* write the files (--fix) */
    FILE *diff;          /* print a unified diff here (--diff), or NULL */
    cg_syntax_check_fn (*checker)(const char *path);
} cg_fix_opts;

typedef struct cg_fix_result {
    size_t findings;     /* findings fixed (removed from the report when written) */
    size_t files;        /* files changed */
} cg_fix_result;

/* Apply or show the fixes in the report.  Problems (a file changed since
 * analysis, a result that parses worse, a write that failed) are notices:
 * warnings that leave the file as it was, errors when writing failed. */
void cg_fix_apply(cg_report *r, const cg_fix_opts *o, cg_fix_result *out);
#endif
