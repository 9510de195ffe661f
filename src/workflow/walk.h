/* walk.h - finding the files to analyse under the paths given on the command
 * line, with ruff's conventions: recurse into directories, pick files by
 * extension, skip hidden, VCS, virtualenv and build directories, take explicit
 * files of any name, apply --exclude globs.  Problems (missing paths, broken
 * links, unreadable directories) become notices on the report; the walk goes on. */
#ifndef CG_WALK_H
#define CG_WALK_H
#include <sys/stat.h>
#include <stddef.h>
#include "core/report.h"

/* CG_LANG_CU: C, C++ and CUDA (.cu .cuh .c .cc .cpp .cxx .h .hpp), all parsed
 * by the libclang front end. */
typedef enum { CG_LANG_NONE = 0, CG_LANG_PY = 1, CG_LANG_CU = 2 } cg_lang;

typedef struct cg_file {
    char *path;      /* display path: as given, joined with names below it */
    cg_lang lang;
    int is_explicit; /* named on the command line */
    int report;      /* findings in it are reported; 0: read only as context
                        for calls made from reported files (see driver.h) */
    int directives;  /* suppression comments: 0 not looked for, 1 none, 2 some
                        (a front end that reads the bytes sets it) */
    int have_st;     /* st is the walk's stat of path (taken before any read) */
    struct stat st;
} cg_file;

typedef struct cg_walk_opts {
    const char *const *exclude;  /* fnmatch globs */
    size_t nexclude;
    /* When set, decides instead of `exclude` and the default excluded names
     * whether to skip a path met while walking (is_explicit 0) or a file named
     * on the command line (is_explicit 1): return 1 to skip.  Hidden
     * entries, virtualenvs and CMake build trees are skipped regardless. */
    int (*skip)(void *ctx, const char *path, int is_dir, int is_explicit);
    void *skip_ctx;
} cg_walk_opts;

/* Directory names skipped by default (__pycache__, node_modules, venv,
 * build, dist, ...): 1 when `name` is one. */
int cg_walk_default_excluded(const char *name);

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
/* One glob against a relative path: the whole path, any tail of it that
 * starts at a component, or a directory above it ("build" matches build/x.py). */
int cg_walk_glob(const char *pat, const char *path);
#endif
