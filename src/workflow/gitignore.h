/* gitignore.h - is a path ignored by git?  Asked of libgit2, which reads
 * every .gitignore on the way, .git/info/exclude and core.excludesFile
 * exactly as git does.  Repositories are discovered from each path
 * (nested repositories and worktrees included) and kept open for the run.
 * Not thread-safe: the walk that uses it is single-threaded. */
#ifndef CG_GITIGNORE_H
#define CG_GITIGNORE_H

typedef struct cg_gitignore cg_gitignore;
struct cg_report;

/* NULL on out of memory.  An ignore file that is not a regular file (a FIFO
 * named .gitignore would block libgit2's read for ever) is never read: the
 * paths it would rule on count as not ignored, with a warning in `report`
 * (may be NULL) once per such file. */
cg_gitignore *cg_gitignore_new(struct cg_report *report);
void cg_gitignore_free(cg_gitignore *self);
/* 1 when the absolute, normalised path is ignored in its repository; 0 when
 * not, or when it is in no repository. */
int cg_gitignore_check(cg_gitignore *self, const char *abs_path, int is_dir);
#endif
