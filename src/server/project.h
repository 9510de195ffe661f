/* project.h - the project a language server analyses buffers against.
 *
 * Opened once (at `initialize`): the project's files are walked, the
 * Python files' bytes are read into memory, and a first analysis of the
 * whole tree parses every file a capture reaches into a tree cache.  A
 * buffer is then analysed against that context: the files are neither
 * walked nor read again, and only what changed is parsed and indexed (the
 * buffer itself; trees of unchanged files come from the cache, and so do
 * their module indexes: python/py_keep.c).  A saved file's
 * entry is refreshed from disk.  Unsaved buffers stand for their files
 * through core/source.h's provider, for both front ends (libclang gets
 * them as unsaved files).
 *
 * This is the one place the server's context is kept: a persistent
 * project index (.cglint_cache/) can later stand behind the same calls. */
#ifndef CG_SERVER_PROJECT_H
#define CG_SERVER_PROJECT_H
#include <stddef.h>
#include "workflow/config.h"
#include "core/report.h"

typedef struct cg_project cg_project;

/* Walk and read the project under `root` (absolute).  `configs` (borrowed,
 * may be NULL) is the configuration discovery every analysis uses.
 * Problems go to `notices` as in a run.  NULL only when out of memory. */
cg_project *cg_project_open(const char *root, cg_configs *configs, int jobs, cg_report *notices);
void cg_project_free(cg_project *p);

/* Parse what the captures of the whole project reach (fills the tree
 * cache), reporting nothing: the first buffer is then as fast as the next. */
void cg_project_warm(cg_project *p);

/* An editor buffer for `path` (absolute) with this content, or NULL text to
 * drop it (the file on disk, as last read, stands again). */
void cg_project_set_buffer(cg_project *p, const char *path, const char *text, size_t len);
/* The buffer's bytes, or NULL when it has none. */
const char *cg_project_buffer(const cg_project *p, const char *path, size_t *len);

/* `path` was saved: read it from disk again (a new file joins the project). */
void cg_project_saved(cg_project *p, const char *path);

/* Files changed on disk outside the editor (workspace/didChangeWatchedFiles:
 * a checkout, another tool): the tree is walked again (new files join, gone
 * ones leave, the walk's exclusions hold), the `n` `changed` paths (absolute)
 * and every new file are read again, and what captures reach is learnt again
 * before the next analysis.  Problems go to `notices`. */
void cg_project_rescan(cg_project *p, const char *const *changed, size_t n, cg_report *notices);

/* Analyse `path` (its buffer when it has one) against the project: the
 * report (initialised by the caller) gets its findings and notices, as
 * `cglint PATH` would report them.  Returns 0, or -1 when the analysis
 * could not run (a configuration error: a CG_ERROR notice says why). */
int cg_project_analyze(cg_project *p, const char *path, cg_report *out);

/* Numbers for the benchmark and the tests: files known, trees cached. */
size_t cg_project_files(const cg_project *p);
size_t cg_project_trees(const cg_project *p);
#endif
