/* walk.h - finding the files to analyse under the paths given on the command
 * line, with ruff's conventions: recurse into directories, pick files by
 * extension, skip hidden, VCS, virtualenv and build directories, take explicit
 * files of any name, apply --exclude globs.  Problems (missing paths, broken
 * links, unreadable directories) become notices on the report; the walk goes on. */
#ifndef CG_WALK_H
#define CG_WALK_H
#include <stddef.h>
#include "report.h"

/* CG_LANG_CU: C, C++ and CUDA (.cu .cuh .c .cc .cpp .cxx .h .hpp), all parsed
 * by the libclang front end. */
typedef enum { CG_LANG_NONE = 0, CG_LANG_PY = 1, CG_LANG_CU = 2 } cg_lang;

typedef struct cg_file {
    char *path;      /* display path: as given, joined with names below it */
    cg_lang lang;
    int is_explicit; /* named on the command line */
} cg_file;

typedef struct cg_walk_opts {
    const char *const *exclude;  /* fnmatch globs */
    size_t nexclude;
} cg_walk_opts;

/* Language of a path by its extension; CG_LANG_NONE when not ours. */
cg_lang cg_lang_of(const char *path);

/* Fill *out with a malloc'ed array of *nout files (sorted, no duplicates).
 * Returns 0; notices go to `report`.  Free with cg_walk_free. */
int cg_walk(const char *const *paths, size_t npaths, const cg_walk_opts *opts,
            cg_report *report, cg_file **out, size_t *nout);
void cg_walk_free(cg_file *files, size_t n);
/* Does `path` match one of the exclude globs (by whole path or any suffix of
 * its components)? */
int cg_walk_excluded(const cg_walk_opts *opts, const char *path);
#endif
