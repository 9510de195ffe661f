/* project.c - see project.h. */
#include "project.h"
#include "driver.h"
#include "core/file.h"
#include "core/hash.h"
#include "core/path.h"
#include "core/source.h"
#include "python/py.h"
#include "cuda/cu.h"
#include <dirent.h>
#include <unistd.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define MAX_FILE (8u << 20)

/* bytes of one file: read from disk, or an editor's buffer; and what the
 * focused analysis needs to know of them without reading them again */
typedef struct entry {
    char *path;
    char *text;
    size_t len;
    int captures;             /* mentions a capture API (cg_py_mentions_capture) */
    cg_py_names names;        /* the names it calls and imports (callers' arguments flow) */
    char **reached_from;      /* disk entries only: capture files whose walks used this file */
    size_t nreached, capreached;
} entry;

struct cg_project {
    char *root;
    cg_configs *configs;
    int jobs;
    cg_file *files;           /* the walk, absolute paths, sorted */
    size_t nfiles;
    cg_map disk;              /* path -> entry: Python files as last read */
    cg_map buffers;           /* path -> entry: open buffers (text NULL: closed) */
    entry **entries;          /* every entry of both maps, for freeing */
    size_t nentries, capentries;
    cg_py_cache *trees;
    int warm;                 /* the reach of every capture file is known */
    char *pch_dir;            /* the toolkit's precompiled headers, kept across analyses */
    const char *focus;        /* the file being analysed (cg_py_focus.scan) */
    const entry *focus_entry;
};

static entry *entry_new(cg_project *p, const char *path)
{
    if (p->nentries == p->capentries) {
        size_t cap = p->capentries ? p->capentries * 2 : 1024;
        entry **g = realloc(p->entries, cap * sizeof *g);
        if (!g) return NULL;
        p->entries = g;
        p->capentries = cap;
    }
    entry *e = calloc(1, sizeof *e);
    if (!e || !(e->path = strdup(path))) { free(e); return NULL; }
    p->entries[p->nentries++] = e;
    return e;
}

/* The entry of `path` in `map`, made when missing. */
static entry *entry_of(cg_project *p, cg_map *map, const char *path)
{
    entry *e = cg_map_get(map, path, strlen(path));
    if (e) return e;
    e = entry_new(p, path);
    if (e) cg_map_put(map, e->path, strlen(e->path), e);
    return e;
}

static void set_facts(entry *e)
{
    e->captures = e->text && cg_py_mentions_capture(e->text, e->len);
    if (e->text) cg_py_names_of(e->text, e->len, &e->names);
}

/* cg_py_focus.names: a file the focused analysis does not read is still
 * searched for calls into the buffer's functions, as a whole run does. The
 * maps only change between analyses, so concurrent lookups are safe. */
static const cg_py_names *names(void *ctx, const char *path)
{
    cg_project *p = ctx;
    size_t n = strlen(path);
    const entry *e = cg_map_get(&p->buffers, path, n);
    if (!e || !e->text) e = cg_map_get(&p->disk, path, n);
    return e && e->text ? &e->names : NULL;
}

static void read_disk(cg_project *p, const char *path)
{
    char err[256];
    size_t len = 0;
    char *text = cg_file_read(path, MAX_FILE, &len, err, sizeof err);
    entry *e = entry_of(p, &p->disk, path);
    if (!e) { free(text); return; }
    free(e->text);
    e->text = text;   /* NULL: unreadable now; the front end reads it and says why */
    e->len = text ? len : 0;
    set_facts(e);
}

/* ---- the focus: which capture files reach which files ----------------------------- */
static void reach(void *ctx, const char *from, const char *to)
{
    cg_project *p = ctx;
    entry *e = cg_map_get(&p->disk, to, strlen(to));
    if (!e || strcmp(from, to) == 0) return;
    for (size_t i = 0; i < e->nreached; i++)
        if (strcmp(e->reached_from[i], from) == 0) return;
    if (e->nreached == e->capreached) {
        size_t cap = e->capreached ? e->capreached * 2 : 4;
        char **g = realloc(e->reached_from, cap * sizeof *g);
        if (!g) return;
        e->reached_from = g;
        e->capreached = cap;
    }
    /* the key of the capture file's own entry: it lives as long as the project */
    entry *f = cg_map_get(&p->disk, from, strlen(from));
    if (f) e->reached_from[e->nreached++] = f->path;
}

static void forget_reach(cg_project *p)
{
    for (size_t i = 0; i < p->nentries; i++) p->entries[i]->nreached = 0;
}

/* Read at once: a capture file whose walks reached the focus file before,
 * or one whose buffer differs from what that walk saw (its captures may be
 * new).  Everything else is read only if a call reaches it. */
static int scan(void *ctx, const char *path)
{
    cg_project *p = ctx;
    size_t n = strlen(path);
    entry *b = cg_map_get(&p->buffers, path, n);
    if (b && b->text) {
        entry *d = cg_map_get(&p->disk, path, n);
        if (b->captures && (!d || d->len != b->len || memcmp(d->text, b->text, b->len) != 0)) return 1;
    }
    const entry *f = p->focus_entry;
    for (size_t i = 0; f && i < f->nreached; i++)
        if (strcmp(f->reached_from[i], path) == 0) return 1;
    return 0;
}

static const char *provide_disk(void *ctx, const char *path, size_t *len)
{
    cg_project *p = ctx;
    entry *e = cg_map_get(&p->disk, path, strlen(path));
    if (!e || !e->text) return NULL;
    *len = e->len;
    return e->text;
}

/* core/source.h's provider: a buffer, else the bytes read at open or save.
 * The maps only change between analyses, so concurrent lookups are safe. */
static const char *provide(void *ctx, const char *path, size_t *len)
{
    cg_project *p = ctx;
    size_t n = strlen(path);
    entry *e = cg_map_get(&p->buffers, path, n);
    if (!e || !e->text) e = cg_map_get(&p->disk, path, n);
    if (!e || !e->text) return NULL;
    *len = e->len;
    return e->text;
}

cg_project *cg_project_open(const char *root, cg_configs *configs, int jobs, cg_report *notices)
{
    cg_project *p = calloc(1, sizeof *p);
    if (!p || !(p->root = strdup(root))) { free(p); return NULL; }
    p->configs = configs;
    p->jobs = jobs;
    cg_map_init(&p->disk);
    cg_map_init(&p->buffers);
    p->trees = cg_py_cache_new();
    /* a C/C++ buffer's every analysis would otherwise precompile cuda_runtime.h again */
    const char *tmp = getenv("TMPDIR");
    char *dir = NULL;
    if (asprintf(&dir, "%s/cglint-server-XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0) dir = NULL;
    if (dir && mkdtemp(dir)) {
        p->pch_dir = dir;
        cg_cu_keep(dir);
    } else {
        free(dir);
    }
    const char *paths[] = { root };
    cg_analyze_opts o = { .paths = paths, .npaths = 1, .configs = configs, .respect_gitignore = -1,
                      .max_file_size = MAX_FILE, .jobs = jobs };
    if (cg_analyze_files(&o, notices, &p->files, &p->nfiles) < 0) {
        p->files = NULL;
        p->nfiles = 0;
    }
    for (size_t i = 0; i < p->nfiles; i++)
        if (p->files[i].lang == CG_LANG_PY) read_disk(p, p->files[i].path);
    return p;
}

void cg_project_free(cg_project *p)
{
    if (!p) return;
    cg_walk_free(p->files, p->nfiles);
    for (size_t i = 0; i < p->nentries; i++) {
        free(p->entries[i]->path);
        free(p->entries[i]->text);
        free(p->entries[i]->reached_from);
        free(p->entries[i]);
    }
    free(p->entries);
    cg_map_free(&p->disk);
    cg_map_free(&p->buffers);
    cg_py_cache_free(p->trees);
    if (p->pch_dir) {
        cg_cu_keep(NULL);
        DIR *d = opendir(p->pch_dir);
        for (struct dirent *de; d && (de = readdir(d));) {
            if (de->d_name[0] == '.') continue;
            char *f = NULL;
            if (asprintf(&f, "%s/%s", p->pch_dir, de->d_name) >= 0) unlink(f);
            free(f);
        }
        if (d) closedir(d);
        rmdir(p->pch_dir);
        free(p->pch_dir);
    }
    free(p->root);
    free(p);
}

void cg_project_set_buffer(cg_project *p, const char *path, const char *text, size_t len)
{
    entry *e = text ? entry_of(p, &p->buffers, path) : cg_map_get(&p->buffers, path, strlen(path));
    if (!e) return;
    free(e->text);
    e->text = NULL;
    e->len = 0;
    if (!text) return;
    if ((e->text = malloc(len + 1))) {
        memcpy(e->text, text, len);
        e->text[len] = 0;
        e->len = len;
    }
    set_facts(e);
}

const char *cg_project_buffer(const cg_project *p, const char *path, size_t *len)
{
    entry *e = cg_map_get(&p->buffers, path, strlen(path));
    if (!e || !e->text) return NULL;
    *len = e->len;
    return e->text;
}

static long file_index(const cg_project *p, const char *path)
{
    size_t lo = 0, hi = p->nfiles;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(p->files[mid].path, path);
        if (c == 0) return (long)mid;
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return -1;
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(((const cg_file *)a)->path, ((const cg_file *)b)->path);
}

void cg_project_saved(cg_project *p, const char *path)
{
    cg_lang lang = cg_lang_of(path);
    if (lang == CG_LANG_PY) read_disk(p, path);
    p->warm = 0;   /* what its captures reach may have changed: learnt again before the next analysis */
    if (lang == CG_LANG_NONE || file_index(p, path) >= 0 || !cg_path_under(path, p->root)) return;
    /* a new file of the project */
    cg_file *g = realloc(p->files, (p->nfiles + 1) * sizeof *g);
    char *copy = strdup(path);
    if (!g || !copy) { free(copy); if (g) p->files = g; return; }
    p->files = g;
    p->files[p->nfiles++] = (cg_file){ .path = copy, .lang = lang };
    qsort(p->files, p->nfiles, sizeof *p->files, cmp_file);
}

void cg_project_rescan(cg_project *p, const char *const *changed, size_t n, cg_report *notices)
{
    const char *paths[] = { p->root };
    cg_analyze_opts o = { .paths = paths, .npaths = 1, .configs = p->configs, .respect_gitignore = -1,
                      .max_file_size = MAX_FILE, .jobs = p->jobs };
    cg_file *files = NULL;
    size_t nfiles = 0;
    if (cg_analyze_files(&o, notices, &files, &nfiles) < 0) return;   /* the old walk stands */
    cg_file *old = p->files;
    size_t nold = p->nfiles;
    p->files = files;
    p->nfiles = nfiles;
    /* both lists are sorted: a merge finds who came and who went */
    size_t i = 0, j = 0;
    while (i < nold || j < nfiles) {
        int c = i == nold ? 1 : j == nfiles ? -1 : strcmp(old[i].path, files[j].path);
        if (c < 0) {            /* gone: its bytes no longer stand for it */
            entry *e = cg_map_get(&p->disk, old[i].path, strlen(old[i].path));
            if (e) { free(e->text); e->text = NULL; e->len = 0; }
            i++;
        } else if (c > 0) {     /* new */
            if (files[j].lang == CG_LANG_PY) read_disk(p, files[j].path);
            j++;
        } else { i++; j++; }
    }
    for (size_t k = 0; k < n; k++)
        if (cg_lang_of(changed[k]) == CG_LANG_PY && file_index(p, changed[k]) >= 0) read_disk(p, changed[k]);
    cg_walk_free(old, nold);
    p->warm = 0;
}

void cg_project_warm(cg_project *p)
{
    cg_report scratch;
    cg_report_init(&scratch, NULL);
    cg_file *files = malloc((p->nfiles ? p->nfiles : 1) * sizeof *files);
    size_t n = 0;
    for (size_t i = 0; files && i < p->nfiles; i++)
        if (p->files[i].lang == CG_LANG_PY) {
            files[n] = p->files[i];
            files[n].report = 0;       /* parse what captures reach; report nothing */
            files[n++].is_explicit = 0;
        }
    if (n) {
        /* the whole project from the files on disk (buffers are not the
         * project until saved), learning what each capture file reaches */
        forget_reach(p);
        cg_py_focus fo = { .reach = reach, .ctx = p };
        cg_analyze_opts o = { .files = files, .nfiles = n, .configs = p->configs, .respect_gitignore = -1,
                          .max_file_size = MAX_FILE, .jobs = p->jobs, .py_cache = p->trees,
                          .no_suppressions = 1, .py_focus = &fo };
        cg_source_set_provider(provide_disk, p);
        cg_analyze(&o, &scratch);
        cg_source_set_provider(NULL, NULL);
    }
    p->warm = 1;
    free(files);
    cg_report_free(&scratch);
}

int cg_project_analyze(cg_project *p, const char *path, cg_report *out)
{
    cg_lang lang = cg_lang_of(path);
    if (lang == CG_LANG_NONE) lang = CG_LANG_PY;   /* as a named file of another name */
    const char *paths[] = { path };
    cg_analyze_opts o = { .paths = paths, .npaths = 1, .configs = p->configs, .respect_gitignore = -1,
                      .max_file_size = MAX_FILE, .jobs = p->jobs, .context = 1, .py_cache = p->trees };
    cg_file *files = NULL;
    if (lang == CG_LANG_PY && cg_path_under(path, p->root)) {
        /* the project as read at open (and saves since), this file reported */
        files = malloc((p->nfiles + 1) * sizeof *files);
        if (!files) return -1;
        long at = file_index(p, path);
        size_t n = 0;
        for (size_t i = 0; i < p->nfiles; i++) {
            if (p->files[i].lang != CG_LANG_PY) continue;
            files[n] = p->files[i];
            files[n].report = files[n].is_explicit = (long)i == at;
            n++;
        }
        if (at < 0) files[n++] = (cg_file){ .path = (char *)path, .lang = lang, .is_explicit = 1, .report = 1 };
        o.files = files;
        o.nfiles = n;
        /* focused: this file, and the capture files that reached it (learnt
         * from the whole project when it was opened or last saved) */
        if (!p->warm) cg_project_warm(p);
        p->focus = path;
        p->focus_entry = cg_map_get(&p->disk, path, strlen(path));
    }
    cg_py_focus fo = { .scan = scan, .names = names, .ctx = p };
    if (files) o.py_focus = &fo;
    /* C/C++ (analysed as a named file is, clang-tidy's way) and files outside
     * the project: a run naming the file, its buffer standing for it */
    cg_source_set_provider(provide, p);
    int rc = cg_analyze(&o, out);
    cg_source_set_provider(NULL, NULL);
    p->focus = NULL;
    p->focus_entry = NULL;
    free(files);
    return rc;
}

size_t cg_project_files(const cg_project *p) { return p->nfiles; }
size_t cg_project_trees(const cg_project *p) { return cg_py_cache_size(p->trees); }
