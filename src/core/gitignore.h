/* gitignore.h - is a path ignored by git?  Asked of libgit2, which reads
 * every .gitignore on the way, .git/info/exclude and core.excludesFile
 * exactly as git does.  Repositories are discovered from each path
 * (nested repositories and worktrees included) and kept open for the run.
 * Not thread-safe: the walk that uses it is single-threaded. */
#ifndef CG_GITIGNORE_H
#define CG_GITIGNORE_H

typedef struct cg_gitignore cg_gitignore;

cg_gitignore *cg_gitignore_new(void);   /* NULL on out of memory */
void cg_gitignore_free(cg_gitignore *self);
/* 1 when the absolute, normalised path is ignored in its repository; 0 when
 * not, or when it is in no repository. */
int cg_gitignore_check(cg_gitignore *self, const char *abs_path, int is_dir);
#endif
