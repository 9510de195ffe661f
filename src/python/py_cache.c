/* py_cache.c - the Python front end and the project index (workflow/cache.h).
 *
 * What a run's findings depend on, and so what the memo's manifest holds:
 *   - the modules, by path, dotted name and sys.path root (the key);
 *   - for every module the analysis parsed (or failed to read or parse):
 *     its bytes, by digest;
 *   - for every other module: its bytes too, by digest: the analysis looks
 *     for the callers of the functions a capture reaches in the text of
 *     every module (their arguments flow into the capture), so any edit
 *     may change the findings.
 * The analysis is deterministic in these inputs (the same modules are
 * parsed in the same order), so an entry that checks out is what a cold run
 * would report, byte for byte.
 *
 * Digests come from the file index: an unchanged stat costs no read.  On a
 * miss the analysis reads every file (each one's call names are wanted). */
#include "py_int.h"
#include "py_cache.h"
#include "workflow/cache.h"
#include "core/path.h"
#include "core/pool.h"
#include "core/source.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct py_cache_state {
    cg_cache *c;
    cg_digest key;
    char **abs;
    struct stat *st;
    unsigned char *have_st;
    size_t f0, n0, analysed0;
    /* verification of a memo entry */
    const cg_digest *want_digest;
    int mismatch;
} py_cache_state;

static void digest_key(py_project *p, py_cache_state *s)
{
    cg_keyhash k;
    cg_keyhash_init(&k, "py-memo-3");
    cg_keyhash_digest(&k, cg_cache_identity());
    cg_keyhash_u64(&k, p->opts->max_file_size);
    cg_keyhash_u64(&k, p->nmods);
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        cg_keyhash_str(&k, m->file->path);
        cg_keyhash_str(&k, m->name);
        cg_keyhash_str(&k, m->root);
        cg_keyhash_str(&k, m->package);
        cg_keyhash_u64(&k, (uint64_t)m->is_init);
    }
    s->key = k.d;
}

/* The digest of module i's raw bytes, if its stat is still the one taken
 * before it was read (else the bytes analysed are not known: -1). */
static int current_digest(py_cache_state *s, size_t i, cg_digest *out)
{
    struct stat now;
    if (!s->have_st[i] || stat(s->abs[i], &now) != 0) return -1;
    const struct stat *was = &s->st[i];
    if (now.st_size != was->st_size || now.st_ino != was->st_ino || now.st_mtim.tv_sec != was->st_mtim.tv_sec ||
        now.st_mtim.tv_nsec != was->st_mtim.tv_nsec || now.st_ctim.tv_sec != was->st_ctim.tv_sec ||
        now.st_ctim.tv_nsec != was->st_ctim.tv_nsec)
        return -1;
    return cg_cache_file_digest(s->c, s->abs[i], out);
}

static void stat_one(py_project *p, py_cache_state *s, size_t i)
{
    if (!s->abs[i]) s->abs[i] = cg_path_abs(p->mods[i].file->path);
    s->have_st[i] = s->abs[i] && stat(s->abs[i], &s->st[i]) == 0 && S_ISREG(s->st[i].st_mode);
}

static void verify_one(void *arg, size_t i)
{
    py_project *p = arg;
    py_cache_state *s = p->cache;
    if (__atomic_load_n(&s->mismatch, __ATOMIC_RELAXED)) return;
    stat_one(p, s, i);
    cg_digest d;
    if (current_digest(s, i, &d) != 0 || !cg_digest_eq(d, s->want_digest[i])) __atomic_store_n(&s->mismatch, 1, __ATOMIC_RELAXED);
}

static void state_free(py_cache_state *s, size_t n)
{
    if (!s) return;
    for (size_t i = 0; i < n; i++) free(s->abs[i]);
    free(s->abs);
    free(s->st);
    free(s->have_st);
    free(s);
}

int py_cache_begin(py_project *p)
{
    if (!p->opts->index || p->opts->focus || p->report->rules || getenv("CGLINT_TRACE_PARSE")) return 0;
    py_cache_state *s = calloc(1, sizeof *s);
    size_t n = p->nmods ? p->nmods : 1;
    if (s) {
        s->abs = calloc(n, sizeof *s->abs);
        s->st = calloc(n, sizeof *s->st);
        s->have_st = calloc(n, 1);
    }
    if (!s || !s->abs || !s->st || !s->have_st) { state_free(s, 0); return 0; }
    s->c = p->opts->index;
    p->cache = s;
    s->f0 = p->report->nfindings;
    s->n0 = p->report->nnotices;
    s->analysed0 = p->report->files_analysed;
    digest_key(p, s);

    size_t len = 0;
    char *blob = cg_cache_get(s->c, "py", s->key, &len);
    if (!blob) {
        if (getenv("CGLINT_TRACE_CACHE")) fprintf(stderr, "cglint: cache: python miss (no entry)\n");
        return 0;
    }
    cg_rd rd = { .p = blob, .n = len };
    int hit = 0;
    uint64_t nm = cg_rd_u64(&rd);
    cg_digest *want_digest = calloc(n, sizeof *want_digest);
    unsigned char *dirs = calloc(n, 1);
    if (nm == p->nmods && want_digest && dirs) {
        for (size_t i = 0; i < p->nmods && !rd.bad; i++) {
            cg_rd_bytes(&rd, &want_digest[i], sizeof want_digest[i]);
            dirs[i] = (unsigned char)cg_rd_u64(&rd);
        }
        if (!rd.bad) {
            s->want_digest = want_digest;
            cg_pool_for(p->nmods, p->opts->jobs, verify_one, p);
            if (!s->mismatch && cg_cache_decode_report(&rd, p->report) == 0) {
                for (size_t i = 0; i < p->nmods; i++) p->mods[i].file->directives = dirs[i];
                hit = 1;
            }
        }
    }
    free(want_digest);
    free(dirs);
    free(blob);
    /* CGLINT_TRACE_CACHE=1: whether the memo answered (for tests) */
    if (getenv("CGLINT_TRACE_CACHE")) fprintf(stderr, "cglint: cache: python %s\n", hit ? "hit" : "miss");
    if (hit) {
        state_free(s, p->nmods);
        p->cache = NULL;
    }
    return hit;
}

void py_cache_before_read(py_project *p, size_t i)
{
    py_cache_state *s = p->cache;
    if (s && !s->have_st[i]) stat_one(p, s, i);
}

void py_cache_end(py_project *p)
{
    py_cache_state *s = p->cache;
    if (!s) return;
    cg_buf b = { 0 };
    int ok = 1;
    cg_buf_u64(&b, p->nmods);
    for (size_t i = 0; i < p->nmods && ok; i++) {
        py_module *m = &p->mods[i];
        /* every module by digest, parsed or not: the callers of a reached
         * function are searched in every file's text (value flow) */
        cg_digest d;
        ok = current_digest(s, i, &d) == 0;
        cg_buf_bytes(&b, &d, sizeof d);
        cg_buf_u64(&b, (uint64_t)m->file->directives);
    }
    if (ok) {
        cg_cache_encode_report(&b, p->report, s->f0, s->n0, 0, p->report->files_analysed - s->analysed0);
        if (!b.bad) cg_cache_put(s->c, "py", s->key, b.p, b.n);
    }
    free(b.p);
    state_free(s, p->nmods);
    p->cache = NULL;
}

void py_cache_abandon(py_project *p)
{
    state_free(p->cache, p->nmods);
    p->cache = NULL;
}
