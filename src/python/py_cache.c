/* py_cache.c - the Python front end and the project index (workflow/cache.h).
 *
 * What a run's findings depend on, and so what the memo's manifest holds:
 *   - the modules, by path, dotted name and sys.path root (the key);
 *   - for every module the analysis parsed (or failed to read or parse):
 *     its bytes, by digest ("exact" records);
 *   - for every other module, only what the analysis asked of it: it was
 *     read, did not mention a capture API, and answered the Bloom queries
 *     of the callers search (py_module_may_call/_import: the callers of a
 *     function a capture reaches are searched for in every file's names).
 *     The manifest keeps the bits those queries read (asked_call,
 *     asked_import) and, per module, a digest of its filters masked by them
 *     ("summary" records), beside its bytes' digest.
 * The analysis is deterministic in these inputs (the same modules are
 * parsed in the same order), so an entry that checks out is what a cold run
 * would report, byte for byte.
 *
 * Digests come from the file index: an unchanged stat costs no read.  A
 * summary module whose bytes changed is read again (one file, the edit a
 * pre-commit run names): if it still reads, still mentions no capture API
 * and its masked filters are the same, the entry holds, and is written back
 * with the new digest.  On a miss the analysis reads every file (each one's
 * call names are wanted). */
#include "py_int.h"
#include "py_cache.h"
#include "workflow/cache.h"
#include "workflow/suppress.h"
#include "core/path.h"
#include "core/pool.h"
#include "core/source.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { REC_EXACT = 0, REC_SUMMARY = 1 };

typedef struct py_cache_state {
    cg_cache *c;
    cg_digest key;
    char **abs;
    struct stat *st;
    unsigned char *have_st;
    size_t f0, n0, analysed0;
    /* verification of a memo entry */
    const cg_digest *want_digest, *want_summary;
    const unsigned char *want_kind;
    const uint64_t *asked;        /* 64 words of call bits, then 32 of import bits */
    cg_digest *now_digest;        /* summary modules whose bytes changed: their new digest */
    unsigned char *now_dirs, *changed;
    int mismatch;
} py_cache_state;

/* A module's filters, masked by the bits the analysis asked about. */
static cg_digest summary_of(const uint64_t *call, const uint64_t *import, const uint64_t *asked)
{
    uint64_t w[96];
    for (int i = 0; i < 64; i++) w[i] = call[i] & asked[i];
    for (int i = 0; i < 32; i++) w[64 + i] = import[i] & asked[64 + i];
    return cg_digest_bytes(w, sizeof w, 0x73756d);
}

static void digest_key(py_project *p, py_cache_state *s)
{
    cg_keyhash k;
    cg_keyhash_init(&k, "py-memo-4");
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
    return cg_cache_file_digest_st(s->c, s->abs[i], &now, out);
}

static void stat_one(py_project *p, py_cache_state *s, size_t i)
{
    const cg_file *f = p->mods[i].file;
    if (!s->abs[i]) s->abs[i] = cg_path_abs(f->path);
    /* the walk's stat was taken before any read of the file: as good */
    if (f->have_st) s->st[i] = f->st;
    s->have_st[i] = s->abs[i] && (f->have_st || stat(s->abs[i], &s->st[i]) == 0) && S_ISREG(s->st[i].st_mode);
}

/* A summary module whose bytes changed: does the analysis see the same? */
static int summary_holds(py_project *p, py_cache_state *s, size_t i)
{
    cg_source src;
    char err[256];
    if (cg_source_load(&src, p->mods[i].file->path, p->opts->max_file_size, err, sizeof err) != CG_SRC_OK) return 0;
    int ok = !cg_py_mentions_capture(src.text, src.len);
    if (ok) {
        cg_py_names nm;
        cg_py_names_of(src.text, src.len, &nm);
        ok = cg_digest_eq(summary_of(nm.call, nm.import, s->asked), s->want_summary[i]);
        s->now_dirs[i] = cg_suppress_maybe(src.text, src.len) ? 2 : 1;
        /* the digest of the bytes just judged (the stat is re-checked: an
         * edit racing this run is a miss) */
        ok = ok && current_digest(s, i, &s->now_digest[i]) == 0;
    }
    cg_source_free(&src);
    return ok;
}

static void verify_one(void *arg, size_t i)
{
    py_project *p = arg;
    py_cache_state *s = p->cache;
    if (__atomic_load_n(&s->mismatch, __ATOMIC_RELAXED)) return;
    stat_one(p, s, i);
    cg_digest d;
    int have = current_digest(s, i, &d) == 0;
    if (have && cg_digest_eq(d, s->want_digest[i])) return;
    if (have && s->want_kind[i] == REC_SUMMARY && summary_holds(p, s, i)) {
        s->changed[i] = 1;
        return;
    }
    __atomic_store_n(&s->mismatch, 1, __ATOMIC_RELAXED);
}

static void state_free(py_cache_state *s, size_t n)
{
    if (!s) return;
    for (size_t i = 0; i < n; i++) free(s->abs[i]);
    free(s->abs);
    free(s->st);
    free(s->have_st);
    free(s->now_digest);
    free(s->now_dirs);
    free(s->changed);
    free(s);
}

/* The manifest: the module count, the bits asked, then per module its
 * digest, directives, record kind and summary digest (zero for exact). */
static void put_manifest(cg_buf *b, size_t nmods, const uint64_t *asked)
{
    cg_buf_u64(b, nmods);
    cg_buf_bytes(b, asked, 96 * sizeof *asked);
}

static void put_record(cg_buf *b, cg_digest d, unsigned dirs, unsigned kind, cg_digest summary)
{
    cg_buf_bytes(b, &d, sizeof d);
    cg_buf_u64(b, dirs);
    cg_buf_u64(b, kind);
    cg_buf_bytes(b, &summary, sizeof summary);
}

/* The entry held with some summary modules edited: write it back with their
 * new digests, so that the next run answers from stats alone. */
static void rewrite(py_project *p, py_cache_state *s, const cg_digest *want_digest, const unsigned char *dirs,
                    const cg_digest *want_summary, const char *blob, size_t len, size_t report_at)
{
    cg_buf b = { 0 };
    put_manifest(&b, p->nmods, s->asked);
    for (size_t i = 0; i < p->nmods; i++)
        put_record(&b, s->changed[i] ? s->now_digest[i] : want_digest[i], s->changed[i] ? s->now_dirs[i] : dirs[i],
                   s->want_kind[i], want_summary[i]);
    cg_buf_bytes(&b, blob + report_at, len - report_at);
    if (!b.bad) cg_cache_put(s->c, "py", s->key, b.p, b.n);
    free(b.p);
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
    size_t nchanged = 0;
    uint64_t nm = cg_rd_u64(&rd);
    uint64_t asked[96];
    /* (the buffers are sized by the project; failing to get them is a miss) */
    cg_digest *want_digest = calloc(n, sizeof *want_digest), *want_summary = calloc(n, sizeof *want_summary);
    unsigned char *dirs = calloc(n, 1), *kind = calloc(n, 1);
    s->now_digest = calloc(n, sizeof *s->now_digest);
    s->now_dirs = calloc(n, 1);
    s->changed = calloc(n, 1);
    cg_rd_bytes(&rd, asked, sizeof asked);
    if (nm == p->nmods && !rd.bad && want_digest && want_summary && dirs && kind && s->now_digest && s->now_dirs &&
        s->changed) {
        for (size_t i = 0; i < p->nmods && !rd.bad; i++) {
            cg_rd_bytes(&rd, &want_digest[i], sizeof want_digest[i]);
            dirs[i] = (unsigned char)cg_rd_u64(&rd);
            kind[i] = (unsigned char)cg_rd_u64(&rd);
            cg_rd_bytes(&rd, &want_summary[i], sizeof want_summary[i]);
        }
        if (!rd.bad) {
            s->want_digest = want_digest;
            s->want_summary = want_summary;
            s->want_kind = kind;
            s->asked = asked;
            size_t report_at = rd.off;
            cg_pool_for(p->nmods, p->opts->jobs, verify_one, p);
            if (!s->mismatch && cg_cache_decode_report(&rd, p->report) == 0) {
                for (size_t i = 0; i < p->nmods; i++) {
                    p->mods[i].file->directives = s->changed[i] ? s->now_dirs[i] : dirs[i];
                    nchanged += s->changed[i];
                }
                if (nchanged) rewrite(p, s, want_digest, dirs, want_summary, blob, len, report_at);
                hit = 1;
            }
        }
    }
    free(want_digest);
    free(want_summary);
    free(dirs);
    free(kind);
    free(blob);
    /* CGLINT_TRACE_CACHE=1: whether the memo answered (for tests) */
    if (getenv("CGLINT_TRACE_CACHE")) {
        if (hit && nchanged)
            fprintf(stderr, "cglint: cache: python hit (%zu file%s changed, none that the analysis reads)\n", nchanged,
                    nchanged == 1 ? "" : "s");
        else
            fprintf(stderr, "cglint: cache: python %s\n", hit ? "hit" : "miss");
    }
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
    put_manifest(&b, p->nmods, p->asked);
    for (size_t i = 0; i < p->nmods && ok; i++) {
        py_module *m = &p->mods[i];
        /* a module read in phase 1 and never parsed (no capture API in it,
         * no call reached it) mattered only through its masked filters */
        int summary = m->state == 0 && !m->has_marker;
        cg_digest d, z = { 0, 0 };
        ok = current_digest(s, i, &d) == 0;
        put_record(&b, d, m->file->directives, summary ? REC_SUMMARY : REC_EXACT,
                   summary ? summary_of(m->call_names, m->import_names, p->asked) : z);
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
