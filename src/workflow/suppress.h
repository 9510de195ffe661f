/* suppress.h - suppression comments, applied to a finished report.
 *
 * Forms (a directive starts right after a comment marker, `#` in Python,
 * `//` in C, C++ and CUDA; several may share one comment):
 *
 *   x = t.item()  # cglint: ignore[CG101]             this line
 *   # cglint: ignore-next-line[CG101, CG102] -- why    the next line
 *   # cglint: ignore-file[CG301]                       the whole file, anywhere in it
 *   x = t.item()  # noqa: CG101                        as ruff users write it
 *   cudaMemcpy(...);  // NOLINT(CG106)                 as clang-tidy users write it
 *   // NOLINTNEXTLINE(CG106)
 *   // NOLINTBEGIN(CG106) ... // NOLINTEND(CG106)      the lines from BEGIN to END
 *   # NOLINTBEGIN(CG101) ... # NOLINTEND(CG101)        (in Python comments too)
 *
 * A reason may follow `--`.  Only exact rule codes suppress; `noqa` and
 * `NOLINT` lists may mix in other tools' codes, which are passed over, and a
 * bare `# noqa` or `// NOLINT` (no codes) belongs to other tools and
 * suppresses nothing here: a blanket comment meant for flake8 must not hide
 * a capture hazard.  The same holds for a bare NOLINTBEGIN / NOLINTEND (no
 * codes): clang-tidy's, passed over.  A NOLINTBEGIN(codes) is ended by the
 * next NOLINTEND with the same codes, as in clang-tidy; one without its END
 * (or an END without its BEGIN) suppresses nothing and is a CG001.
 *
 * What is wrong with a suppression is itself a finding, CG001: a code that
 * suppressed nothing (when that rule is enabled for the file), a code that
 * is not a cglint rule, and a `cglint:` comment that cannot be read.  A
 * `cglint: ignore[CG001]` or `ignore-file[CG001]` silences CG001 itself.
 *
 * Findings are matched by the line they start on. */
#ifndef CG_SUPPRESS_H
#define CG_SUPPRESS_H
#include <stddef.h>
#include <stdint.h>
#include "core/report.h"
#include "walk.h"

typedef enum { CG_SUP_LINE, CG_SUP_NEXT_LINE, CG_SUP_FILE,
               CG_SUP_RANGE,       /* NOLINTBEGIN(...): line to end_line */
               CG_SUP_RANGE_END    /* NOLINTEND(...): covers nothing itself */
} cg_sup_scope;

#define CG_SUP_MAX_CODES 16

typedef struct cg_directive {
    cg_sup_scope scope;
    uint32_t line;          /* the comment's line */
    uint32_t byte_col;      /* 0-based byte offset of the directive in its line */
    uint32_t byte_end;      /* end of the directive (exclusive) */
    uint32_t end_line;      /* CG_SUP_RANGE: the line of its NOLINTEND */
    int ncodes;             /* -1: malformed, suppresses nothing */
    int codes[CG_SUP_MAX_CODES];     /* rule indexes */
    int used[CG_SUP_MAX_CODES];
    char problem[320];      /* non-empty: what is wrong with it (every unknown code of a list) */
    int unknown_code;       /* the problem is a code that is not a cglint rule */
    const char *form;       /* "cglint: ignore", "noqa", "NOLINT", ... */
} cg_directive;

/* The directives in a source text.  comment: "#" or "//".  Fills a
 * malloc'ed array (free it) and returns the count. */
size_t cg_suppress_scan(const char *text, size_t len, const char *comment, cg_directive **out);

/* Does the text possibly hold a directive in a '#' comment (Python)?  A cheap
 * byte scan the front end runs while the file is in memory (sets
 * cg_file.directives); a string holding '#' only costs a look. */
int cg_suppress_maybe(const char *text, size_t len);

/* Drop suppressed findings from the report and add CG001 findings.  files[i]
 * is analysed with rules[i]; only files with report set are looked at. */
void cg_suppress_apply(cg_report *r, const cg_file *files, size_t n, const cg_ruleset *rules);
#endif
