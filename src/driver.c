/* driver.c - see driver.h.  The front-end table (`frontends`, below) is
 * where a new language is added.
 *
 * The order of a run:
 *   1. walk the paths (and, for named files, their project root as context),
 *      skipping what the closest configuration, --exclude and .gitignore say;
 *   2. give each file the rules its configuration selects;
 *   3. analyse every file with every rule (a capture in one file reaches
 *      helpers in others whatever their own settings);
 *   4. keep the findings of selected rules in reported files;
 *   5. apply suppression comments, reporting unused ones (CG001);
 *   6. hide what the baseline records. */
#include "driver.h"
#include "core/alloc.h"
#include "workflow/baseline.h"
#include "workflow/cache.h"
#include "workflow/gitignore.h"
#include "core/hash.h"
#include "core/path.h"
#include "core/source.h"
#include "workflow/suppress.h"
#include "workflow/walk.h"
#include "python/py.h"
#include "cuda/cu.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct skip_ctx {
    const cg_analyze_opts *o;
    cg_gitignore *git;
    char **ignored_roots;   /* directories named on the command line that git ignores */
    size_t nignored_roots;
    char err[1024];
    int failed;
    /* Walking a named file's project for context: a configuration that
     * cannot be loaded there is not the run's business (its files report
     * nothing): a warning, once per message, and its directories walked
     * with the defaults. */
    int lenient;
    cg_report *report;
    cg_map bad_dirs;        /* directories whose configuration failed: 1 */
    char **bad_keys;
    size_t nbad;
} skip_ctx;

/* A context directory's configuration failed to load: warn once. */
static void context_config_failed(skip_ctx *x, const char *dir, const char *err)
{
    int seen = 0;
    for (size_t i = 0; i < x->nbad && !seen; i++) seen = strcmp(x->bad_keys[i] + strlen(x->bad_keys[i]) + 1, err) == 0;
    if (!seen && x->report)
        cg_report_notice(x->report, CG_WARN, NULL, 0, 0, "%s (in a directory read only as context: its "
                         "configuration is not used)", err);
    /* the key holds the directory, then the message after its NUL */
    size_t dl = strlen(dir), el = strlen(err);
    char *k = cg_xmalloc(dl + el + 2);
    memcpy(k, dir, dl + 1);
    memcpy(k + dl + 1, err, el + 1);
    x->bad_keys = cg_xrealloc(x->bad_keys, (x->nbad + 1) * sizeof *x->bad_keys);
    x->bad_keys[x->nbad++] = k;
    cg_map_put(&x->bad_dirs, k, dl, (void *)1);
}

static int skip_path(void *arg, const char *path, int is_dir, int is_explicit)
{
    skip_ctx *x = arg;
    if (x->failed) return 1;
    cg_walk_opts cli = { .exclude = x->o->exclude, .nexclude = x->o->nexclude };
    if (cg_walk_excluded(&cli, path)) return 1;
    char *abs = cg_path_abs(path);
    char *dir = cg_path_dirname(abs);
    const cg_config *c = NULL;
    int skip = 0;
    if (x->o->configs && !(x->lenient && cg_map_get(&x->bad_dirs, dir, strlen(dir))) &&
        cg_configs_find(x->o->configs, dir, &c, x->err, sizeof x->err) < 0) {
        if (x->lenient) {
            context_config_failed(x, dir, x->err);
            c = NULL;
        } else {
            x->failed = 1;
            skip = 1;
            goto done;
        }
    }
    const char *base = strrchr(abs, '/') + 1;
    const char *rel = c ? cg_path_under(abs, c->dir) : NULL;
    if (c && rel) {
        if (c->has_exclude) {
            for (size_t i = 0; i < c->exclude.n && !skip; i++) skip = cg_config_glob(c->exclude.items[i], rel);
        } else if (is_dir) {
            skip = cg_walk_default_excluded(base);
        }
        for (size_t i = 0; i < c->extend_exclude.n && !skip; i++)
            skip = cg_config_glob(c->extend_exclude.items[i], rel);
    } else if (is_dir) {
        skip = cg_walk_default_excluded(base);
    }
    if (!skip && !is_explicit && x->git) {
        int respect = x->o->respect_gitignore;
        if (respect < 0) respect = !c || c->respect_gitignore != 0;
        /* a directory the user named is walked even if git ignores it, and
         * then wholly: git (and libgit2) call everything below an ignored
         * directory ignored, so no finer answer is to be had */
        for (size_t i = 0; respect && i < x->nignored_roots; i++)
            if (cg_path_under(abs, x->ignored_roots[i])) respect = 0;
        if (respect) skip = cg_gitignore_check(x->git, abs, is_dir);
    }
done:
    free(abs);
    free(dir);
    return skip;
}

char *cg_project_root(const char *abs_dir)
{
    static const char *const markers[] = { "pyproject.toml", ".cglint.toml", ".git" };
    char *dir = cg_xstrdup(abs_dir);
    for (;;) {
        for (size_t i = 0; i < 3; i++) {
            char probe[PATH_MAX + 32];
            snprintf(probe, sizeof probe, "%s/%s", strcmp(dir, "/") ? dir : "", markers[i]);
            if (access(probe, F_OK) == 0) return dir;
        }
        if (strcmp(dir, "/") == 0) break;
        char *up = cg_path_dirname(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    return NULL;
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(((const cg_file *)a)->path, ((const cg_file *)b)->path);
}

/* Named files: add their projects' other files as context (report = 0). */
static void add_context(const cg_analyze_opts *o, const cg_walk_opts *wo, cg_report *report,
                        cg_file **files, size_t *n)
{
    char **roots = NULL;
    size_t nroots = 0;
    for (size_t i = 0; i < o->npaths; i++) {
        struct stat st;
        size_t plen;
        if ((stat(o->paths[i], &st) != 0 || !S_ISREG(st.st_mode)) && !cg_source_provided(o->paths[i], &plen))
            continue;
        char *abs = cg_path_abs(o->paths[i]);
        char *dir = cg_path_dirname(abs);
        char *root = cg_project_root(dir);
        char *cwd = cg_path_abs(".");
        /* no marker: the current directory, when the file is below it */
        if (!root && cg_path_under(abs, cwd)) root = cg_xstrdup(cwd);
        free(abs);
        free(dir);
        if (!root) { free(cwd); continue; }
        char *shown = cg_path_relative(root, cwd);
        free(cwd);
        free(root);
        int dup = 0;
        for (size_t k = 0; k < nroots && !dup; k++) dup = strcmp(roots[k], shown) == 0;
        if (dup) { free(shown); continue; }
        roots = cg_xrealloc(roots, (nroots + 1) * sizeof *roots);
        roots[nroots++] = shown;
    }
    if (!nroots) return;
    cg_report scratch;   /* problems in context files are not this run's */
    cg_report_init(&scratch, NULL);
    cg_file *ctx = NULL;
    size_t nctx = 0;
    cg_walk((const char *const *)roots, nroots, wo, &scratch, &ctx, &nctx);
    cg_report_free(&scratch);
    /* the same file twice (named, and found under the root): the named entry stays */
    struct stat *ids = cg_xcalloc(*n ? *n : 1, sizeof *ids);
    for (size_t i = 0; i < *n; i++)
        if ((*files)[i].have_st) ids[i] = (*files)[i].st;
        else if (stat((*files)[i].path, &ids[i]) != 0) memset(&ids[i], 0, sizeof ids[i]);
    cg_file *all = cg_xrealloc(*files, (*n + nctx) * sizeof *all);
    size_t m = *n;
    for (size_t i = 0; i < nctx; i++) {
        struct stat st;
        int dup = 0;
        if (ctx[i].have_st) st = ctx[i].st;
        if (ctx[i].have_st || stat(ctx[i].path, &st) == 0)
            for (size_t k = 0; k < *n && !dup; k++)
                dup = ids[k].st_ino == st.st_ino && ids[k].st_dev == st.st_dev;
        for (size_t k = 0; k < *n && !dup; k++) dup = strcmp(all[k].path, ctx[i].path) == 0;
        if (dup) { free(ctx[i].path); continue; }
        ctx[i].report = 0;
        all[m++] = ctx[i];
    }
    free(ctx);
    free(ids);
    if (m > 1) qsort(all, m, sizeof *all, cmp_file);
    *files = all;
    *n = m;
    for (size_t i = 0; i < nroots; i++) free(roots[i]);
    free(roots);
    (void)report;
}

/* C, C++ and CUDA files (as pre-commit's types_or passes them) that no
 * front end claims (cg_lang_of says none) are left out quietly rather than
 * parsed as Python; once the CUDA front end claims the extensions this
 * drops nothing. */
static void drop_unsupported(cg_file *files, size_t *n)
{
    static const char *const exts[] = { ".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp",
                                        ".hxx", ".cu", ".cuh", ".inl", ".ipp", ".tpp", NULL };
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        const char *dot = strrchr(files[i].path, '.');
        int drop = 0;
        if (dot && !strchr(dot, '/') && cg_lang_of(files[i].path) == CG_LANG_NONE)
            for (size_t e = 0; exts[e] && !drop; e++) drop = strcmp(dot, exts[e]) == 0;
        if (drop) free(files[i].path);
        else files[k++] = files[i];
    }
    *n = k;
}

/* A per-file-ignores pattern that matches none of the files analysed under
 * its configuration's directory is most likely a typo: a warning, once per
 * pattern.  Only when a path given covers that whole directory (analysing one
 * named file says nothing about the patterns for the others). */
static void warn_unmatched_pfi(const cg_analyze_opts *o, cg_report *r, const cg_file *files, size_t n,
                               const cg_config **cfg)
{
    static const char *const dot[] = { "." };
    const char *const *paths = o->npaths ? o->paths : dot;
    size_t npaths = o->npaths ? o->npaths : 1;
    const cg_config *done[64];
    size_t ndone = 0;
    for (size_t i = 0; i < n; i++) {
        const cg_config *c = cfg[i];
        if (!c || !c->npfi) continue;
        size_t d = 0;
        while (d < ndone && done[d] != c) d++;
        if (d < ndone || ndone == 64) continue;
        done[ndone++] = c;
        int covered = 0;
        for (size_t p = 0; p < npaths && !covered; p++) {
            struct stat st;
            if (stat(paths[p], &st) != 0 || !S_ISDIR(st.st_mode)) continue;
            char *abs = cg_path_abs(paths[p]);
            covered = cg_path_under(c->dir, abs) != NULL;
            free(abs);
        }
        if (!covered) continue;
        for (size_t g = 0; g < c->npfi; g++) {
            int hit = 0;
            for (size_t j = 0; j < n && !hit; j++) {
                if (cfg[j] != c) continue;
                char *abs = cg_path_abs(files[j].path);
                const char *rel = cg_path_under(abs, c->dir);
                hit = rel && cg_config_glob(c->pfi[g].glob, rel);
                free(abs);
            }
            if (!hit)
                cg_report_notice(r, CG_WARN, c->path, 0, 0,
                                 "per-file-ignores: \"%s\" matches no analysed file", c->pfi[g].glob);
        }
    }
}

/* Step 4: keep findings of rules selected for their file, in reported files. */
static int select_findings(const cg_analyze_opts *o, cg_report *r, const cg_file *files, size_t n,
                           cg_ruleset *rules, char *err, size_t errlen)
{
    cg_map by_path;
    cg_map_init(&by_path);
    for (size_t i = 0; i < n; i++) cg_map_put(&by_path, files[i].path, strlen(files[i].path), (void *)(i + 1));
    const cg_config **cfg = cg_xcalloc(n ? n : 1, sizeof *cfg);   /* each file's configuration */
    for (size_t i = 0; i < n; i++) {
        const cg_config *c = NULL;
        if (!files[i].report) {
            /* a context file reports nothing: its configuration (good or bad) is not needed */
            cg_config_rules(NULL, o->rule_cli, NULL, &rules[i]);
            continue;
        }
        char *abs = cg_path_abs(files[i].path);
        char *dir = cg_path_dirname(abs);
        int rc = o->configs ? cg_configs_find(o->configs, dir, &c, err, errlen) : 0;
        free(dir);
        if (rc < 0) { free(abs); free(cfg); cg_map_free(&by_path); return -1; }
        cg_config_rules(c, o->rule_cli, c ? cg_path_under(abs, c->dir) : NULL, &rules[i]);
        cfg[i] = c;
        free(abs);
    }
    warn_unmatched_pfi(o, r, files, n, cfg);
    size_t k = 0;
    for (size_t i = 0; i < r->nfindings; i++) {
        cg_finding *f = &r->findings[i];
        size_t idx = f->loc.path ? (size_t)cg_map_get(&by_path, f->loc.path, strlen(f->loc.path)) : 0;
        int keep = 1;
        if (idx) keep = files[idx - 1].report && rules[idx - 1].on[f->rule];
        else if (o->rule_cli || o->configs) {
            cg_ruleset rs;
            cg_config_rules(NULL, o->rule_cli, NULL, &rs);
            keep = rs.on[f->rule];
        }
        if (keep && idx && cfg[idx - 1]) f->level = cg_config_severity(cfg[idx - 1], f->rule);
        if (keep) r->findings[k++] = *f;
        else cg_finding_free(f);
    }
    r->nfindings = k;
    /* tool messages about context files are not this run's business */
    k = 0;
    for (size_t i = 0; i < r->nnotices; i++) {
        cg_notice *no = &r->notices[i];
        size_t idx = no->path ? (size_t)cg_map_get(&by_path, no->path, strlen(no->path)) : 0;
        if (idx && !files[idx - 1].report) {
            free(no->path);
            free(no->message);
            continue;
        }
        r->notices[k++] = *no;
    }
    r->nnotices = k;
    cg_map_free(&by_path);
    free(cfg);
    return 0;
}

/* ---- the front ends ----------------------------------------------------------
 * One row per language: adding one is a row here, its extensions in
 * workflow/walk.c (cg_lang_of: the walk picks files by them) and its front
 * end's directory.  A front end gets every file, context ones included, and
 * analyses those of its language; it runs when a file it reports on is
 * there (context files of another language cannot be reached from this
 * one's captures).  Its options are made from the run's by `run`, which
 * hands it the project index (`cache`, NULL: none) for its memos. */
typedef struct frontend {
    cg_lang lang;
    int is_default;    /* runs when no front end has a file (named files of other names are its) */
    int max_floor;     /* the highest --bench-floor level it measures (driver.h's `floor`) */
    /* analyse, or with floor > 0 only read/parse (bench/) */
    void (*run)(const cg_analyze_opts *o, cg_cache *cache, cg_file *files, size_t n, int floor,
                cg_report *report);
    cg_syntax_check_fn syntax_errors;   /* for --fix's re-parse; NULL: none */
} frontend;

static const char *const dot_path[] = { "." };

static void py_run(const cg_analyze_opts *o, cg_cache *cache, cg_file *files, size_t n, int floor,
                   cg_report *report)
{
    cg_py_opts po = { .jobs = o->jobs, .max_file_size = o->max_file_size, .cache = o->py_cache,
                      .focus = o->py_focus, .index = cache, .exit_after = o->exit_after };
    if (floor) cg_py_floor(files, n, &po, floor, report);
    else cg_py_analyze(files, n, &po, report);
}

static void cu_run(const cg_analyze_opts *o, cg_cache *cache, cg_file *files, size_t n, int floor,
                   cg_report *report)
{
    cg_cu_opts co = { .jobs = o->jobs, .max_file_size = o->max_file_size,
                      .mode = (cg_cu_mode)o->cuda_mode, .cuda_path = o->cuda_path,
                      .compile_commands = o->compile_commands, .parse_all = o->cuda_parse_all,
                      .include_dirs = o->include_dirs, .ninclude_dirs = o->ninclude_dirs,
                      .defines = o->defines, .ndefines = o->ndefines, .std = o->std,
                      .roots = o->npaths ? o->paths : dot_path, .nroots = o->npaths ? o->npaths : 1,
                      .cache = cache };
    if (floor) cg_cu_floor(files, n, &co, floor, report);
    else cg_cu_analyze(files, n, &co, report);
}

static const frontend frontends[] = {
    { CG_LANG_PY, 1, 2, py_run, cg_py_syntax_errors },
    { CG_LANG_CU, 0, 3, cu_run, NULL },
};
enum { NFRONTENDS = sizeof frontends / sizeof *frontends };

cg_syntax_check_fn cg_syntax_checker(const char *path)
{
    cg_lang lang = cg_lang_of(path);
    for (size_t i = 0; i < NFRONTENDS; i++)
        if (frontends[i].lang == lang) return frontends[i].syntax_errors;
    return NULL;
}

static int baseline_analysed(void *ctx, const char *abs_path)
{
    return cg_map_get(ctx, abs_path, strlen(abs_path)) != NULL;
}

/* Named paths that exist only as provided bytes (an unsaved buffer,
 * --stdin-filename): files of their own, not walked. */
static void add_provided(const char *const *paths, size_t npaths, cg_file **files, size_t *n)
{
    for (size_t i = 0; i < npaths; i++) {
        size_t len;
        if (access(paths[i], F_OK) == 0 || !cg_source_provided(paths[i], &len)) continue;
        cg_file *g = *files = cg_xrealloc(*files, (*n + 1) * sizeof *g);
        cg_lang lang = cg_lang_of(paths[i]);
        g[(*n)++] = (cg_file){ .path = cg_xstrdup(paths[i]), .lang = lang ? lang : CG_LANG_PY,
                               .is_explicit = 1, .report = 1 };
    }
}

/* Named paths that are on disk go to the walk; provided-only ones do not. */
static size_t on_disk(const char *const *paths, size_t npaths, const char **out)
{
    size_t k = 0, len;
    for (size_t i = 0; i < npaths; i++)
        if (access(paths[i], F_OK) == 0 || !cg_source_provided(paths[i], &len)) out[k++] = paths[i];
    return k;
}

int cg_analyze_files(const cg_analyze_opts *o, cg_report *report, cg_file **out, size_t *nout)
{
    char cwd[PATH_MAX];
    if (!report->root) report->root = cg_xstrdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
    static const char *const dot[] = { "." };
    skip_ctx sx = { .o = o };
    cg_walk_opts wo = { .exclude = o->exclude, .nexclude = o->nexclude };
    int managed = o->configs || o->respect_gitignore >= 0;
    if (managed) {
        if (o->respect_gitignore != 0) sx.git = cg_gitignore_new(report);
        wo.skip = skip_path;
        wo.skip_ctx = &sx;
    }
    cg_file *files = NULL;
    size_t n = 0;
    const char *const *paths = o->npaths ? o->paths : dot;
    size_t npaths = o->npaths ? o->npaths : 1;
    for (size_t i = 0; sx.git && i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        char *abs = cg_path_abs(paths[i]);
        if (cg_gitignore_check(sx.git, abs, 1)) {
            sx.ignored_roots = cg_xrealloc(sx.ignored_roots, (sx.nignored_roots + 1) * sizeof *sx.ignored_roots);
            sx.ignored_roots[sx.nignored_roots++] = abs;
        } else {
            free(abs);
        }
    }
    const char **disk = cg_xcalloc(npaths, sizeof *disk);
    size_t ndisk = on_disk(paths, npaths, disk);
    if (ndisk) cg_walk(disk, ndisk, &wo, report, &files, &n);
    free(disk);
    add_provided(paths, npaths, &files, &n);
    drop_unsupported(files, &n);
    if (o->context && o->npaths && !sx.failed && n) {
        cg_analyze_opts oo = *o;
        oo.paths = paths;
        oo.npaths = npaths;
        sx.lenient = 1;
        sx.report = report;
        add_context(&oo, &wo, report, &files, &n);
        sx.lenient = 0;
    }
    cg_gitignore_free(sx.git);
    for (size_t i = 0; i < sx.nbad; i++) free(sx.bad_keys[i]);
    free(sx.bad_keys);
    cg_map_free(&sx.bad_dirs);
    for (size_t i = 0; i < sx.nignored_roots; i++) free(sx.ignored_roots[i]);
    free(sx.ignored_roots);
    if (sx.failed) {
        cg_report_notice(report, CG_ERROR, NULL, 0, 0, "%s", sx.err);
        cg_walk_free(files, n);
        return -1;
    }
    *out = files;
    *nout = n;
    return 0;
}

/* The project index: --cache-dir, cache-dir or CGLINT_CACHE_DIR; else
 * .cglint_cache in the project root of the first path (as .ruff_cache), or
 * the current directory.  NULL when off (--no-cache, CGLINT_NO_CACHE=1) or
 * unusable: a directory chosen by default that cannot be made (a read-only
 * tree) is passed over quietly, a chosen one with a warning. */
static cg_cache *open_cache(const cg_analyze_opts *o, const char *const *paths, cg_report *report)
{
    const char *nc = getenv("CGLINT_NO_CACHE");
    if (o->no_cache || (nc && *nc && strcmp(nc, "0") != 0)) return NULL;
    /* bytes that are not the files on disk (an editor's buffers, --stdin-filename,
     * the language server's file list): the index, keyed by what is on disk,
     * would answer for the wrong text */
    if (o->files || cg_source_has_provider()) return NULL;
    const char *dir = o->cache_dir;
    const char *env = getenv("CGLINT_CACHE_DIR");
    if (!dir && env && *env) dir = env;
    char *made = NULL;
    if (!dir) {
        struct stat st;
        char *abs = cg_path_abs(paths[0]);
        char *start = stat(paths[0], &st) == 0 && S_ISDIR(st.st_mode) ? cg_xstrdup(abs) : cg_path_dirname(abs);
        char *root = cg_project_root(start);
        if (!root) root = cg_path_abs(".");
        size_t l = strlen(root) + 16;
        made = cg_xmalloc(l);
        snprintf(made, l, "%s/.cglint_cache", strcmp(root, "/") ? root : "");
        free(abs);
        free(start);
        free(root);
        dir = made;
    }
    char err[1024];
    cg_cache *c = cg_cache_open(dir, err, sizeof err);
    if (!c && !made) cg_report_notice(report, CG_WARN, NULL, 0, 0, "%s; running without the cache", err);
    free(made);
    return c;
}

int cg_analyze(const cg_analyze_opts *o, cg_report *report)
{
    char cwd[PATH_MAX];
    if (!report->root) report->root = cg_xstrdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
    static const char *const dot[] = { "." };
    cg_file *files = NULL;
    size_t n = 0;
    if (o->files) {
        files = cg_xcalloc(o->nfiles ? o->nfiles : 1, sizeof *files);
        for (size_t i = 0; i < o->nfiles; i++) {
            files[n] = o->files[i];
            files[n].path = cg_xstrdup(o->files[i].path);
            files[n].directives = 0;
            n++;
        }
    } else if (cg_analyze_files(o, report, &files, &n) < 0) {
        return -1;
    }

    /* the front ends, one after the other, into one report */
    cg_cache *cache = o->floor ? NULL : open_cache(o, o->npaths ? o->paths : dot, report);
    size_t mine[NFRONTENDS] = { 0 }, any = 0;   /* reported files of each front end */
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < NFRONTENDS && files[i].report; f++)
            if (files[i].lang == frontends[f].lang) { mine[f]++; any++; }
    for (size_t f = 0; f < NFRONTENDS; f++) {
        if (o->floor ? !mine[f] || o->floor > frontends[f].max_floor : !mine[f] && (any || !frontends[f].is_default))
            continue;
        frontends[f].run(o, cache, files, n, o->floor, report);
    }
    if (o->floor) {
        cg_walk_free(files, n);
        return 0;
    }
    cg_cache_close(cache);

    cg_ruleset *rules = cg_xcalloc(n ? n : 1, sizeof *rules);
    char err[1024];
    int rc = select_findings(o, report, files, n, rules, err, sizeof err);
    if (rc < 0) {
        cg_report_notice(report, CG_ERROR, NULL, 0, 0, "%s", err);
    } else if (!o->no_suppressions) {
        cg_suppress_apply(report, files, n, rules);
    }
    free(rules);
    if (rc == 0 && o->baseline) {
        /* entries of files this run did not report on are not "fixed" */
        cg_map reported;
        cg_map_init(&reported);
        char **abs = cg_xcalloc(n ? n : 1, sizeof *abs);
        for (size_t i = 0; i < n; i++)
            if (files[i].report) {
                abs[i] = cg_path_abs(files[i].path);
                cg_map_put(&reported, abs[i], strlen(abs[i]), (void *)1);
            }
        if (cg_baseline_apply(report, o->baseline, baseline_analysed, &reported, err, sizeof err) < 0) {
            cg_report_notice(report, CG_ERROR, NULL, 0, 0, "%s", err);
            rc = -1;
        }
        for (size_t i = 0; i < n; i++) free(abs[i]);
        free(abs);
        cg_map_free(&reported);
    }
    cg_walk_free(files, n);
    cg_report_sort(report);
    return rc;
}

void cg_clang_version(char *buf, size_t n)
{
    cg_cu_clang_version(buf, n);
}
