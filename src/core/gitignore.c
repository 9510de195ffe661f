/* gitignore.c - see gitignore.h. */
#include "gitignore.h"
#include "hash.h"
#include "path.h"
#include <stdlib.h>
#include <string.h>

#ifndef CGLINT_HAVE_LIBGIT2
/* A build without the analyzers (CGLINT_ANALYZERS=OFF) has no libgit2 and
 * walks no trees for analysis: nothing is ignored. */
struct cg_gitignore { int unused; };
cg_gitignore *cg_gitignore_new(void) { return calloc(1, sizeof(cg_gitignore)); }
void cg_gitignore_free(cg_gitignore *self) { free(self); }
int cg_gitignore_check(cg_gitignore *self, const char *abs_path, int is_dir)
{
    (void)self; (void)abs_path; (void)is_dir;
    return 0;
}
#else
#include <git2.h>

struct cg_gitignore {
    git_repository **repos;   /* one per work tree */
    size_t nrepos;
    cg_map by_dir;            /* absolute directory -> repo index + 1, or -1 cast: none */
    char **keys;
    size_t nkeys;
};

#define NO_REPO ((void *)(intptr_t)-1)

cg_gitignore *cg_gitignore_new(void)
{
    cg_gitignore *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    git_libgit2_init();
    cg_map_init(&g->by_dir);
    return g;
}

void cg_gitignore_free(cg_gitignore *self)
{
    if (!self) return;
    for (size_t i = 0; i < self->nrepos; i++) git_repository_free(self->repos[i]);
    for (size_t i = 0; i < self->nkeys; i++) free(self->keys[i]);
    free(self->repos);
    free(self->keys);
    cg_map_free(&self->by_dir);
    free(self);
    git_libgit2_shutdown();
}

static git_repository *repo_for_dir(cg_gitignore *g, const char *dir)
{
    void *v = cg_map_get(&g->by_dir, dir, strlen(dir));
    if (v == NO_REPO) return NULL;
    if (v) return g->repos[(intptr_t)v - 1];
    git_repository *repo = NULL;
    intptr_t idx = -1;
    if (git_repository_open_ext(&repo, dir, 0, NULL) == 0 && git_repository_workdir(repo)) {
        const char *wd = git_repository_workdir(repo);
        for (size_t i = 0; i < g->nrepos; i++)
            if (strcmp(git_repository_workdir(g->repos[i]), wd) == 0) { idx = (intptr_t)i; break; }
        if (idx < 0) {
            g->repos = realloc(g->repos, (g->nrepos + 1) * sizeof *g->repos);
            g->repos[g->nrepos] = repo;
            idx = (intptr_t)g->nrepos++;
            repo = NULL;
        }
    }
    if (repo) git_repository_free(repo);
    char *k = strdup(dir);
    g->keys = realloc(g->keys, (g->nkeys + 1) * sizeof *g->keys);
    g->keys[g->nkeys++] = k;
    cg_map_put(&g->by_dir, k, strlen(k), idx < 0 ? NO_REPO : (void *)(idx + 1));
    return idx < 0 ? NULL : g->repos[idx];
}

int cg_gitignore_check(cg_gitignore *self, const char *abs_path, int is_dir)
{
    if (!self) return 0;
    char *dir = cg_path_dirname(abs_path);
    git_repository *repo = repo_for_dir(self, dir);
    free(dir);
    if (!repo) return 0;
    const char *wd = git_repository_workdir(repo);   /* ends with '/' */
    size_t wl = strlen(wd);
    if (strncmp(abs_path, wd, wl) != 0) return 0;
    const char *rel = abs_path + wl;
    if (!*rel) return 0;
    char *q = malloc(strlen(rel) + 2);
    if (!q) return 0;
    strcpy(q, rel);
    if (is_dir) strcat(q, "/");
    int ignored = 0;
    if (git_ignore_path_is_ignored(&ignored, repo, q) != 0) ignored = 0;
    free(q);
    return ignored;
}
#endif /* CGLINT_HAVE_LIBGIT2 */
