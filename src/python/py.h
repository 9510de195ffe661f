/* py.h - the Python front end: PyTorch code parsed with tree-sitter-python.
 *
 * Public interface used by the driver.  The front end knows nothing of
 * emitters or the command line; it fills a cg_report. */
#ifndef CG_PY_H
#define CG_PY_H
#include <stddef.h>
#include <stdint.h>
#include "core/report.h"
#include "workflow/walk.h"

/* Parsed trees kept between runs (`cglint server`), by path and content
 * digest, and each module's index (py_keep.c); thread-safe.  A run with a
 * cache parses and indexes only what changed.  One run at a time uses a
 * module's kept index (a second run indexes that module afresh). */
typedef struct cg_py_cache cg_py_cache;
cg_py_cache *cg_py_cache_new(void);
void cg_py_cache_free(cg_py_cache *cache);
size_t cg_py_cache_size(const cg_py_cache *cache);   /* trees held */

/* A focused analysis (`cglint server`): a buffer is analysed with only the
 * capture files whose calls reached it in the last whole analysis; every
 * other file is context, read and parsed only if a call reaches it. */
/* Bloom filters of the names a file's text calls (`name(`) and imports: where
 * a function's call sites may be (callers' arguments flow into it). */
typedef struct cg_py_names { uint64_t call[64]; uint64_t import[32]; } cg_py_names;
void cg_py_names_of(const char *text, size_t len, cg_py_names *out);

typedef struct cg_py_focus {
    /* A file that is not reported: 1 to read it at once and look for
     * captures in it, 0 to leave it for calls to reach.  NULL: all at once. */
    int (*scan)(void *ctx, const char *path);
    /* After the analysis of the capture file `from`: it used the module
     * file `to` (called into it, resolved a name in it).  Called once per
     * module used, one call at a time (under a lock). */
    void (*reach)(void *ctx, const char *from, const char *to);
    /* The names of a file `scan` left unread (so that its calls into the
     * buffer's functions are found, as a whole run finds them); NULL when
     * unknown: then any name may be called there.  Called from several
     * threads at once. */
    const cg_py_names *(*names)(void *ctx, const char *path);
    void *ctx;
} cg_py_focus;

/* Does the text mention a capture API (the prefilter of a whole run)? */
int cg_py_mentions_capture(const char *text, size_t len);

typedef struct cg_py_opts {
    int jobs;               /* worker threads; <= 0: all cores */
    size_t max_file_size;   /* bytes; 0: no limit */
    cg_py_cache *cache;     /* NULL: parse everything afresh */
    const cg_py_focus *focus; /* NULL: the whole project, every capture */
    struct cg_cache *index; /* the project index (workflow/cache.h), or NULL: a cold run */
    int exit_after;         /* the process ends after this run (the command line): the
                               parsed project is left to the OS instead of freed */
} cg_py_opts;

/* Check that the linked grammar is usable by the tree-sitter runtime.
 * Returns 0, or -1 with one sentence in err. */
int cg_py_init(char *err, size_t errlen);

/* Analyse the Python files among `files` (lang == CG_LANG_PY) as one project:
 * calls are followed across them.  Never imports or runs the code.  Sets
 * each file's `directives` from its bytes (suppression comments or not). */
void cg_py_analyze(cg_file *files, size_t n, const cg_py_opts *opts, cg_report *report);

/* Syntax errors (ERROR and MISSING nodes) in a Python text, or -1 when it
 * cannot be parsed at all: --fix refuses an edit that makes this worse. */
long cg_py_syntax_errors(const char *text, size_t len);

/* Benchmark floors over the same files and threads: 1 = read and validate
 * only, 2 = read and parse every file.  Returns the number of files done. */
size_t cg_py_floor(cg_file *files, size_t n, const cg_py_opts *opts, int level,
                   cg_report *report);
#endif
