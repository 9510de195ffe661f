/* walk.c - file discovery (see walk.h). */
#include "walk.h"
#include "core/alloc.h"
#include "core/hash.h"
#include <pthread.h>
#ifdef CGLINT_HAVE_LIBGIT2
#include <git2.h>
#endif
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct walker {
    const cg_walk_opts *opts;
    cg_report *report;
    cg_file *files; size_t n, cap;
    struct { dev_t dev; ino_t ino; } *seen; size_t nseen, capseen;
} walker;

cg_lang cg_lang_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return CG_LANG_NONE;
    if (strcmp(dot, ".py") == 0) return CG_LANG_PY;
    static const char *const cu[] = { ".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", NULL };
    for (int i = 0; cu[i]; i++)
        if (strcmp(dot, cu[i]) == 0) return CG_LANG_CU;
    return CG_LANG_NONE;
}

/* ---- globs ----------------------------------------------------------------------
 * A glob is matched by libgit2's public pathspec matcher (git_pathspec, git's
 * wildmatch without WM_PATHNAME: `*` and `**` cross '/', and a directory
 * matches what is below it).  What it lacks is done here, before it:
 * braces ("{train,eval}.py" is two patterns) and a `**` directory that stands
 * for no directory at all (src, then a `**` directory, then x.py also matches
 * src/x.py, as in .gitignore).  Compiled patterns are cached for the run (a config's globs
 * are tried against every file). */
#define GLOB_MAX_ALTS 64

typedef struct glob_alts {
    char *alts[GLOB_MAX_ALTS];
    size_t n;
#ifdef CGLINT_HAVE_LIBGIT2
    git_pathspec *ps[GLOB_MAX_ALTS];
#endif
} glob_alts;

static void glob_add(glob_alts *g, const char *s, size_t n)
{
    for (size_t i = 0; i < g->n; i++)
        if (strlen(g->alts[i]) == n && memcmp(g->alts[i], s, n) == 0) return;
    if (g->n < GLOB_MAX_ALTS) g->alts[g->n++] = strndup(s, n);
}

/* Brace alternatives (nested braces expand from the first one outwards),
 * then each `**` + '/' at a component start also without it. */
static void glob_expand(glob_alts *g, const char *pat, int depth)
{
    size_t len = strlen(pat);
    const char *open = strchr(pat, '{');
    const char *close = NULL;
    if (open && depth < 8) {
        int d = 0;
        for (const char *q = open; *q; q++) {
            if (*q == '{') d++;
            else if (*q == '}' && --d == 0) { close = q; break; }
        }
    }
    if (open && close) {
        size_t pre = (size_t)(open - pat);
        const char *alt = open + 1;
        int d = 0;
        for (const char *q = open + 1; q <= close; q++) {
            if (*q == '{') d++;
            else if (*q == '}' && d) { d--; continue; }
            if ((*q == ',' && !d) || q == close) {
                char buf[4096];
                int n = snprintf(buf, sizeof buf, "%.*s%.*s%s", (int)pre, pat, (int)(q - alt), alt, close + 1);
                if (n > 0 && (size_t)n < sizeof buf) glob_expand(g, buf, depth + 1);
                alt = q + 1;
            }
        }
        return;
    }
    glob_add(g, pat, len);
    for (size_t i = 0; i + 2 < len; i++)
        if ((i == 0 || pat[i - 1] == '/') && pat[i] == '*' && pat[i + 1] == '*' && pat[i + 2] == '/') {
            char buf[4096];
            int n = snprintf(buf, sizeof buf, "%.*s%s", (int)i, pat, pat + i + 3);
            if (n > 0 && (size_t)n < sizeof buf && depth < 16) glob_expand(g, buf, depth + 1);
        }
}

static pthread_mutex_t glob_lock = PTHREAD_MUTEX_INITIALIZER;
static cg_map glob_cache;
static int glob_cache_ready;

static const glob_alts *glob_compile(const char *pat)
{
    pthread_mutex_lock(&glob_lock);
    if (!glob_cache_ready) { cg_map_init(&glob_cache); glob_cache_ready = 1; }
    glob_alts *g = cg_map_get(&glob_cache, pat, strlen(pat));
    if (!g && (g = cg_xcalloc(1, sizeof *g))) {
        glob_expand(g, pat, 0);
#ifdef CGLINT_HAVE_LIBGIT2
        git_libgit2_init();
        for (size_t i = 0; i < g->n; i++) {
            char *one[] = { g->alts[i] };
            git_strarray sa = { one, 1 };
            if (git_pathspec_new(&g->ps[i], &sa) != 0) g->ps[i] = NULL;
        }
#endif
        char *key = cg_xstrdup(pat);   /* the cache lives for the process */
        cg_map_put(&glob_cache, key, strlen(key), g);
    }
    pthread_mutex_unlock(&glob_lock);
    return g;
}

static int glob_match_one(const glob_alts *g, const char *path)
{
    for (size_t i = 0; i < g->n; i++) {
#ifdef CGLINT_HAVE_LIBGIT2
        if (g->ps[i]) {
            if (git_pathspec_matches_path(g->ps[i], GIT_PATHSPEC_DEFAULT, path) == 1) return 1;
            continue;
        }
#endif
        if (fnmatch(g->alts[i], path, 0) == 0) return 1;
    }
    return 0;
}

int cg_walk_glob(const char *pat, const char *path)
{
    const glob_alts *g = glob_compile(pat);
    if (!g) return 0;
    /* the whole path, then every tail starting at a component */
    for (const char *p = path; p; ) {
        if (glob_match_one(g, p)) return 1;
        const char *s = strchr(p, '/');
        p = s ? s + 1 : NULL;
    }
    /* a directory pattern matches everything below it: "build" excludes build/x.py */
    size_t pl = strlen(pat);
    for (const char *p = path; *p; p++)
        if ((p == path || p[-1] == '/') && strncmp(p, pat, pl) == 0 && p[pl] == '/') return 1;
    return 0;
}

int cg_walk_excluded(const cg_walk_opts *opts, const char *path)
{
    if (!opts) return 0;
    while (path[0] == '.' && path[1] == '/') path += 2;
    for (size_t i = 0; i < opts->nexclude; i++)
        if (cg_walk_glob(opts->exclude[i], path)) return 1;
    return 0;
}

static void add_file(walker *w, const char *path, cg_lang lang, int is_explicit, const struct stat *st)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 256;
        w->files = cg_xrealloc(w->files, w->cap * sizeof *w->files);
    }
    w->files[w->n].path = cg_xstrdup(path);
    w->files[w->n].lang = lang;
    w->files[w->n].is_explicit = is_explicit;
    w->files[w->n].report = 1;
    w->files[w->n].directives = 0;
    w->files[w->n].have_st = st != NULL;
    if (st) w->files[w->n].st = *st;
    w->n++;
    /* the progress line's "finding files... N found" */
    if (w->report) __atomic_store_n(&w->report->progress_done, w->n, __ATOMIC_RELAXED);
}

int cg_walk_default_excluded(const char *name)
{
    static const char *const names[] = {
        "__pycache__", "node_modules", "site-packages", "__pypackages__", "venv",
        "build", "_build", "dist", "buck-out",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0) return 1;
    return 0;
}

/* Directories a project never wants linted by their name: VCS, caches,
 * virtualenvs, builds.  (By their content: walk_dir.) */
static int skip_dir(const walker *w, const char *name)
{
    if (name[0] == '.') return 1;   /* .git .venv .tox .mypy_cache ... */
    if (!w->opts || !w->opts->skip) {
        if (cg_walk_default_excluded(name)) return 1;
    }
    return 0;
}

static int path_skipped(const walker *w, const char *path, int is_dir, int is_explicit)
{
    if (w->opts && w->opts->skip) return w->opts->skip(w->opts->skip_ctx, path, is_dir, is_explicit);
    return cg_walk_excluded(w->opts, path);
}

/* A directory entry: its name and readdir's type (DT_UNKNOWN when the file
 * system does not say). */
typedef struct dent { char *name; unsigned char type; } dent;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const dent *)a)->name, ((const dent *)b)->name);
}

static int seen_dir(walker *w, const struct stat *st)
{
    for (size_t i = 0; i < w->nseen; i++)
        if (w->seen[i].dev == st->st_dev && w->seen[i].ino == st->st_ino) return 1;
    if (w->nseen == w->capseen) {
        w->capseen = w->capseen ? w->capseen * 2 : 64;
        w->seen = cg_xrealloc(w->seen, w->capseen * sizeof *w->seen);
    }
    w->seen[w->nseen].dev = st->st_dev;
    w->seen[w->nseen].ino = st->st_ino;
    w->nseen++;
    return 0;
}

/* Walk dir (depth 0: a directory named on the command line, walked whatever
 * it holds). */
static void walk_dir(walker *w, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        cg_report_notice(w->report, CG_ERROR, dir, 0, 0, "cannot read directory: %s; skipped",
                         strerror(errno));
        return;
    }
    dent *names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            names = cg_xrealloc(names, cap * sizeof *names);
        }
        names[n].type = e->d_type;
        names[n++].name = cg_xstrdup(e->d_name);
    }
    closedir(d);
    /* a virtualenv under any name, or a CMake build tree: seen in the listing
     * (two access() calls per directory before) */
    for (size_t i = 0; depth > 0 && i < n; i++)
        if (strcmp(names[i].name, "pyvenv.cfg") == 0 || strcmp(names[i].name, "CMakeCache.txt") == 0) {
            for (size_t k = 0; k < n; k++) free(names[k].name);
            free(names);
            /* not walked: unmark it (the caller marked it last), so that a link
             * to it is skipped for the same reason, not said to be a loop */
            w->nseen--;
            return;
        }
    if (n > 1) qsort(names, n, sizeof *names, cmp_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        int len = (strcmp(dir, ".") == 0) ? snprintf(path, sizeof path, "%s", names[i].name)
                                          : snprintf(path, sizeof path, "%s/%s", dir, names[i].name);
        if (len < 0 || (size_t)len >= sizeof path) {
            cg_report_notice(w->report, CG_ERROR, dir, 0, 0, "path too long under this directory: %s; skipped", names[i].name);
            free(names[i].name);
            continue;
        }
        cg_lang lang = cg_lang_of(names[i].name);
        unsigned char type = names[i].type;
        /* a regular file of no analysed kind needs no stat at all, and a
         * directory or regular file that readdir says is one, no lstat */
        if (type == DT_REG && lang == CG_LANG_NONE) { free(names[i].name); continue; }
        struct stat lst, st;
        int is_link = 0;
        if (type != DT_REG && type != DT_DIR) {
            if (lstat(path, &lst) < 0) { free(names[i].name); continue; }
            is_link = S_ISLNK(lst.st_mode);
        }
        int ok = stat(path, &st) == 0;
        int stat_errno = errno;   /* path_skipped() below looks at other files */
        if (!ok) {
            /* Only links that would be analysed matter to the user. */
            if (is_link && lang != CG_LANG_NONE && !path_skipped(w, path, 0, 0))
                cg_report_notice(w->report, CG_ERROR, path, 0, 0, "%s; skipped",
                                 stat_errno == ELOOP ? "symbolic link loop" :
                                 "broken symbolic link (its target does not exist)");
        } else if (S_ISDIR(st.st_mode)) {
            if (!skip_dir(w, names[i].name) && !path_skipped(w, path, 1, 0)) {
                if (seen_dir(w, &st)) {
                    if (is_link)
                        cg_report_notice(w->report, CG_WARN, path, 0, 0,
                                         "symbolic link to a directory already walked (a loop or a duplicate); not followed");
                } else if (depth > 200) {
                    cg_report_notice(w->report, CG_ERROR, path, 0, 0, "directory nesting deeper than 200; skipped");
                } else {
                    walk_dir(w, path, depth + 1);
                }
            }
        } else if (lang != CG_LANG_NONE && !path_skipped(w, path, 0, 0)) {
            add_file(w, path, lang, 0, &st);
        }
        free(names[i].name);
    }
    free(names);
}

typedef struct file_ident { dev_t dev; ino_t ino; size_t idx; } file_ident;

static int cmp_ident(const void *pa, const void *pb)
{
    const file_ident *a = pa, *b = pb;
    if (a->dev != b->dev) return a->dev < b->dev ? -1 : 1;
    if (a->ino != b->ino) return a->ino < b->ino ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(((const cg_file *)a)->path, ((const cg_file *)b)->path);
}

int cg_walk(const char *const *paths, size_t npaths, const cg_walk_opts *opts,
            cg_report *report, cg_file **out, size_t *nout)
{
    walker w = { .opts = opts, .report = report };
    for (size_t i = 0; i < npaths; i++) {
        char given[4096];
        snprintf(given, sizeof given, "%s", paths[i]);
        size_t gl = strlen(given);
        while (gl > 1 && given[gl - 1] == '/') given[--gl] = 0;
        struct stat st;
        if (stat(given, &st) < 0) {
            struct stat lst;
            int e = errno;
            if (lstat(given, &lst) == 0 && S_ISLNK(lst.st_mode))
                cg_report_notice(report, CG_ERROR, given, 0, 0, "%s",
                                 e == ELOOP ? "symbolic link loop" : "broken symbolic link (its target does not exist)");
            else
                cg_report_notice(report, CG_ERROR, given, 0, 0, "%s", strerror(e));
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (!seen_dir(&w, &st)) walk_dir(&w, given, 0);
        } else if (!path_skipped(&w, given, 0, 1)) {
            cg_lang lang = cg_lang_of(given);
            add_file(&w, given, lang ? lang : CG_LANG_PY, 1, &st);
        }
    }
    free(w.seen);
    /* sort and drop duplicates: the same file named twice, also under two
     * spellings (`a.py ./a.py`, a link to it): same device and inode */
    if (w.n > 1) qsort(w.files, w.n, sizeof *w.files, cmp_file);
    file_ident *ids = cg_xcalloc(w.n ? w.n : 1, sizeof *ids);
    unsigned char *drop = cg_xcalloc(w.n ? w.n : 1, 1);
    size_t nid = 0;
    for (size_t i = 0; i < w.n; i++) {
        const cg_file *f = &w.files[i];
        struct stat st;
        if (f->have_st) ids[nid++] = (file_ident){ f->st.st_dev, f->st.st_ino, i };
        else if (stat(f->path, &st) == 0) ids[nid++] = (file_ident){ st.st_dev, st.st_ino, i };
    }
    if (nid > 1) qsort(ids, nid, sizeof *ids, cmp_ident);
    for (size_t i = 1; i < nid; i++)
        if (ids[i].dev == ids[i - 1].dev && ids[i].ino == ids[i - 1].ino) {
            /* keep the first spelling in path order; it inherits is_explicit */
            w.files[ids[i - 1].idx].is_explicit |= w.files[ids[i].idx].is_explicit;
            drop[ids[i].idx] = 1;
            ids[i] = ids[i - 1];
        }
    size_t k = 0;
    for (size_t i = 0; i < w.n; i++) {
        if (drop[i] || (k && strcmp(w.files[k - 1].path, w.files[i].path) == 0)) {
            if (!drop[i]) w.files[k - 1].is_explicit |= w.files[i].is_explicit;
            free(w.files[i].path);
            continue;
        }
        w.files[k++] = w.files[i];
    }
    free(ids);
    free(drop);
    *out = w.files;
    *nout = k;
    return 0;
}

void cg_walk_free(cg_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) free(files[i].path);
    free(files);
}
