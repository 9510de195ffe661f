/* gitignore.c - see gitignore.h. */
#include "gitignore.h"
#include "core/alloc.h"
#include "core/hash.h"
#include "core/path.h"
#include "core/report.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CGLINT_HAVE_LIBGIT2
/* A build without the analyzers (CGLINT_ANALYZERS=OFF) has no libgit2 and
 * walks no trees for analysis: nothing is ignored. */
struct cg_gitignore { int unused; };
cg_gitignore *cg_gitignore_new(struct cg_report *report) { (void)report; return cg_xcalloc(1, sizeof(cg_gitignore)); }
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
    cg_report *report;
    cg_map safe_dir;          /* absolute directory -> 1: its .gitignore is regular or absent;
                                 2: it is not a regular file (never read) */
};

#define NO_REPO ((void *)(intptr_t)-1)

cg_gitignore *cg_gitignore_new(cg_report *report)
{
    cg_gitignore *g = cg_xcalloc(1, sizeof *g);
    if (!g) return NULL;
    git_libgit2_init();
    cg_map_init(&g->by_dir);
    cg_map_init(&g->safe_dir);
    g->report = report;
    return g;
}

static char *remember_key(cg_gitignore *g, const char *s)
{
    char *k = cg_xstrdup(s);
    g->keys = cg_xrealloc(g->keys, (g->nkeys + 1) * sizeof *g->keys);
    g->keys[g->nkeys++] = k;
    return k;
}

/* 1 when `file` is absent or a regular file, so libgit2 may read it; else a
 * warning (the caller says once) and 0. */
static int readable_ignore_file(cg_gitignore *g, const char *file)
{
    struct stat st;
    if (stat(file, &st) != 0 || S_ISREG(st.st_mode)) return 1;
    if (cg_map_get(&g->safe_dir, file, strlen(file))) return 0;   /* said already */
    char *k = remember_key(g, file);
    if (k) cg_map_put(&g->safe_dir, k, strlen(k), (void *)2);
    if (g->report) {
        char *cwd = cg_path_abs(".");
        char *shown = cwd ? cg_path_relative(file, cwd) : NULL;
        cg_report_notice(g->report, CG_WARN, shown ? shown : file, 0, 0,
                         "not a regular file (%s); not read, so what it ignores is analysed",
                         S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory" : "a device or socket");
        free(shown);
        free(cwd);
    }
    return 0;
}

/* Whether libgit2 may be asked about paths in `dir`: the .gitignore of
 * every directory from the work tree `wd` (with its '/') down to `dir` is a
 * regular file or absent. */
static int safe_to_ask(cg_gitignore *g, const char *wd, const char *dir)
{
    void *v = cg_map_get(&g->safe_dir, dir, strlen(dir));
    if (v) return v == (void *)1;
    size_t wl = strlen(wd), dl = strlen(dir);
    int root = (dl + 1 == wl && strncmp(dir, wd, dl) == 0) || (strcmp(dir, "/") == 0 && strcmp(wd, "/") == 0);
    int below = !root && dl >= wl && strncmp(dir, wd, wl) == 0;
    int ok = 1;
    if (below) {
        char *up = cg_path_dirname(dir);
        if (up && strcmp(up, dir) != 0) ok = safe_to_ask(g, wd, up);
        free(up);
    }
    if (ok && (root || below)) {
        char *f = NULL;
        if (asprintf(&f, "%s/.gitignore", strcmp(dir, "/") ? dir : "") < 0) f = NULL;
        ok = !f || readable_ignore_file(g, f);
        free(f);
    }
    char *k = remember_key(g, dir);
    if (k) cg_map_put(&g->safe_dir, k, strlen(k), ok ? (void *)1 : (void *)2);
    return ok;
}

/* Ignore files of the repository itself: .git/info/exclude and
 * core.excludesFile (or ~/.config/git/ignore).  1 when libgit2 may read them. */
static int repo_files_readable(cg_gitignore *g, git_repository *repo)
{
    int ok = 1;
    char *f = NULL;
    if (asprintf(&f, "%sinfo/exclude", git_repository_path(repo)) >= 0) {
        ok = readable_ignore_file(g, f);
        free(f);
    }
    git_config *cfg = NULL;
    git_buf path = {0};
    if (ok && git_repository_config_snapshot(&cfg, repo) == 0) {
        if (git_config_get_path(&path, cfg, "core.excludesfile") == 0 && path.ptr) ok = readable_ignore_file(g, path.ptr);
        git_buf_dispose(&path);
        git_config_free(cfg);
    }
    if (ok) {
        const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
        f = NULL;
        if (xdg && *xdg) { if (asprintf(&f, "%s/git/ignore", xdg) < 0) f = NULL; }
        else if (home && *home) { if (asprintf(&f, "%s/.config/git/ignore", home) < 0) f = NULL; }
        if (f) ok = readable_ignore_file(g, f);
        free(f);
    }
    return ok;
}

void cg_gitignore_free(cg_gitignore *self)
{
    if (!self) return;
    for (size_t i = 0; i < self->nrepos; i++) git_repository_free(self->repos[i]);
    for (size_t i = 0; i < self->nkeys; i++) free(self->keys[i]);
    free(self->repos);
    free(self->keys);
    cg_map_free(&self->by_dir);
    cg_map_free(&self->safe_dir);
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
    /* libgit2's discovery from `dir` looks for a repository in dir, then in
     * each parent up to the root or a file-system boundary: a dozen stats a
     * level, for every directory of the tree.  A directory without `.git`
     * has its parent's answer (on the same file system), and the parent's
     * is remembered. */
    char gp[4200];
    struct stat gst, dst, pst;
    if ((size_t)snprintf(gp, sizeof gp, "%s/.git", strcmp(dir, "/") ? dir : "") < sizeof gp &&
        lstat(gp, &gst) != 0 && errno == ENOENT && strcmp(dir, "/") != 0) {
        char *parent = cg_path_dirname(dir);
        git_repository *r = NULL;
        if (stat(dir, &dst) == 0 && stat(parent, &pst) == 0 && dst.st_dev == pst.st_dev) r = repo_for_dir(g, parent);
        free(parent);
        for (size_t i = 0; r && i < g->nrepos; i++)
            if (g->repos[i] == r) idx = (intptr_t)i;
        char *k = remember_key(g, dir);
        if (k) cg_map_put(&g->by_dir, k, strlen(k), idx < 0 ? NO_REPO : (void *)(idx + 1));
        return idx < 0 ? NULL : g->repos[idx];
    }
    if (git_repository_open_ext(&repo, dir, 0, NULL) == 0 && git_repository_workdir(repo)) {
        const char *wd = git_repository_workdir(repo);
        for (size_t i = 0; i < g->nrepos; i++)
            if (strcmp(git_repository_workdir(g->repos[i]), wd) == 0) { idx = (intptr_t)i; break; }
        if (idx < 0 && !repo_files_readable(g, repo)) idx = -2;   /* not asked: nothing ignored */
        if (idx == -2) {
            idx = -1;
        } else if (idx < 0) {
            g->repos = cg_xrealloc(g->repos, (g->nrepos + 1) * sizeof *g->repos);
            g->repos[g->nrepos] = repo;
            idx = (intptr_t)g->nrepos++;
            repo = NULL;
        }
    }
    if (repo) git_repository_free(repo);
    char *k = remember_key(g, dir);
    if (k) cg_map_put(&g->by_dir, k, strlen(k), idx < 0 ? NO_REPO : (void *)(idx + 1));
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
    /* every .gitignore libgit2 would read for this path: regular files only */
    char *pdir = is_dir ? cg_xstrdup(abs_path) : cg_path_dirname(abs_path);
    int safe = pdir && safe_to_ask(self, wd, pdir);
    free(pdir);
    if (!safe) return 0;
    char *q = cg_xmalloc(strlen(rel) + 2);
    strcpy(q, rel);
    if (is_dir) strcat(q, "/");
    int ignored = 0;
    if (git_ignore_path_is_ignored(&ignored, repo, q) != 0) ignored = 0;
    free(q);
    return ignored;
}
#endif /* CGLINT_HAVE_LIBGIT2 */
