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
 * call names are wanted).
 *
 * Partial runs.  When files the analysis read changed (a pre-commit run
 * naming an edited model file), the entry still answers for the capture
 * files whose analyses did not depend on them.  Each capture file is
 * analysed alone (py_analyze.c), and the entry keeps per analysis the
 * modules it loaded, its Bloom queries (the callers search's) and its
 * findings; per module its filters, whether it mentions
 * a capture API and was loaded before the analyses (preloaded: capture files
 * and their imports), the imports of capture files, and the attribute
 * counts of preloaded modules.  An analysis is run again when a changed
 * module is its capture file or one it loaded, when a changed module answers
 * one of its Bloom queries differently than before (a module it did not load
 * mattered to it only through those answers), or when it read the attribute
 * counts and a changed preloaded module's counts changed.  A run
 * falls back to a full one whenever the set of capture files or of
 * preloaded modules could change, a changed file cannot be read, or a
 * notice (a read or parse error) concerns a file involved: the findings are
 * always those of a cold run. */
#include "py_int.h"
#include "py_cache.h"
#include "workflow/cache.h"
#include "workflow/suppress.h"
#include "core/alloc.h"
#include "core/arena.h"
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
    /* a partial run: modules whose bytes changed in a way the analysis sees
     * (hard), their new filters (also for the changed summary modules) */
    unsigned char *hard;
    cg_py_names *now_names;
    size_t nhard, max_hard;
    /* what the entry's extension said of unchanged modules, for the next entry */
    size_t **targets, *ntargets;  /* per capture file: its imports' modules */
    cg_map *counts;               /* per preloaded module: attribute counts (name -> count) */
    unsigned char *had_counts;
    unsigned char *notice_at;     /* per module: a notice names it (kept from the entry) */
    size_t nrun, partial_analysed;
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
    cg_keyhash_init(&k, "py-memo-6");
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
        s->now_names[i] = nm;
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
    /* nothing was read since the walk's stat: the digest of that stat (a
     * second stat here was 1,344 system calls of a warm Megatron-LM run) */
    int have = s->have_st[i] && cg_cache_file_digest_st(s->c, s->abs[i], &s->st[i], &d) == 0;
    if (have && cg_digest_eq(d, s->want_digest[i])) return;
    if (have && s->want_kind[i] == REC_SUMMARY && summary_holds(p, s, i)) {
        s->changed[i] = 1;
        return;
    }
    /* a change the analysis sees: a partial run may still answer, for a few */
    if (have && __atomic_add_fetch(&s->nhard, 1, __ATOMIC_RELAXED) <= s->max_hard) {
        s->hard[i] = 1;
        s->now_digest[i] = d;
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
    free(s->hard);
    free(s->now_names);
    if (s->targets) for (size_t i = 0; i < n; i++) free(s->targets[i]);
    free(s->targets);
    free(s->ntargets);
    if (s->counts) for (size_t i = 0; i < n; i++) if (s->had_counts[i]) cg_map_free(&s->counts[i]);
    free(s->counts);
    free(s->had_counts);
    free(s->notice_at);
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

/* ---- the extension: what a partial run needs ------------------------------------
 * After the global report: a magic word, then per module its flags and
 * filters (fixed size: a rewrite patches them in place), per capture file
 * the modules its imports name, per preloaded module its attribute counts,
 * then the analyses. */
enum { EXT_MAGIC = 0x3158595043ull, EXT_MOD = 8 + 96 * 8 };
enum { MF_MARKER = 1, MF_PRELOADED = 2 };

/* The modules a capture file's imports name (py_project.c's prefetch_imports
 * loads those): the module must be indexed. */
static size_t *import_targets(py_project *p, py_module *m, size_t *n)
{
    size_t cap = 16, k = 0;
    size_t *t = cg_xcalloc(cap, sizeof *t);
    for (size_t i = 0; m->state == 1 && i < m->imports.cap; i++) {
        if (!m->imports.keys[i]) continue;
        py_module *d = py_import_module(p, ((py_import *)m->imports.vals[i])->target, m);
        if (!d) continue;
        size_t at = (size_t)(d - p->mods), j;
        for (j = 0; j < k && t[j] != at; j++) {}
        if (j < k) continue;
        if (k == cap) t = cg_xrealloc(t, (cap *= 2) * sizeof *t);
        t[k++] = at;
    }
    /* sorted: the lists are compared */
    for (size_t a = 1; a < k; a++)
        for (size_t b = a; b > 0 && t[b - 1] > t[b]; b--) { size_t x = t[b]; t[b] = t[b - 1]; t[b - 1] = x; }
    *n = k;
    return t;
}

static void put_counts(cg_buf *b, const cg_map *c)
{
    cg_buf_u64(b, c ? c->count : 0);
    for (size_t i = 0; c && i < c->cap; i++)
        if (c->keys[i]) {
            cg_buf_u64(b, c->klen[i]);
            cg_buf_bytes(b, c->keys[i], c->klen[i]);
            cg_buf_u64(b, (uintptr_t)c->vals[i]);
        }
}

static void put_extension(cg_buf *b, py_project *p, py_cache_state *s)
{
    cg_buf_u64(b, EXT_MAGIC);
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        cg_buf_u64(b, (m->has_marker ? MF_MARKER : 0) | (m->preloaded ? MF_PRELOADED : 0));
        cg_buf_bytes(b, m->call_names, sizeof m->call_names);
        cg_buf_bytes(b, m->import_names, sizeof m->import_names);
    }
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        if (!m->has_marker) continue;
        size_t n = 0, *t = NULL;
        int own = m->state == 1 && (!p->partial || s->hard[i]);
        if (own) t = import_targets(p, m, &n);
        else if (s->targets && s->targets[i]) { t = s->targets[i]; n = s->ntargets[i]; }
        cg_buf_u64(b, n);
        for (size_t k = 0; k < n; k++) cg_buf_u64(b, t[k]);
        if (own) free(t);
    }
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        if (!m->preloaded) continue;
        int own = m->state == 1 && (!p->partial || s->hard[i]);
        put_counts(b, own ? &m->attr_counts : s->had_counts && s->had_counts[i] ? &s->counts[i] : NULL);
    }
    cg_buf_u64(b, p->nan);
    for (size_t i = 0; i < p->nan; i++) {
        py_analysis *a = &p->an[i];
        cg_buf_u64(b, a->root);
        cg_buf_u64(b, a->nseen);
        for (size_t k = 0; k < a->nseen; k++) cg_buf_u64(b, a->seen[k]);
        cg_buf_u64(b, a->nqueries);
        for (size_t k = 0; k < a->nqueries; k++) cg_buf_str(b, a->queries[k]);
        cg_buf_bytes(b, a->asked, sizeof a->asked);
        cg_buf_u64(b, (uint64_t)a->attr_queries);
        cg_cache_encode_report(b, &a->out, 0, 0, 0, 0);
    }
}

/* The entry held with some summary modules edited: write it back with their
 * new digests (and filters), so that the next run answers from stats alone. */
static void rewrite(py_project *p, py_cache_state *s, const cg_digest *want_digest, const unsigned char *dirs,
                    const cg_digest *want_summary, const char *blob, size_t len, size_t report_at, size_t ext_at)
{
    cg_buf b = { 0 };
    put_manifest(&b, p->nmods, s->asked);
    for (size_t i = 0; i < p->nmods; i++)
        put_record(&b, s->changed[i] ? s->now_digest[i] : want_digest[i], s->changed[i] ? s->now_dirs[i] : dirs[i],
                   s->want_kind[i], want_summary[i]);
    size_t at = b.n;
    cg_buf_bytes(&b, blob + report_at, len - report_at);
    if (ext_at && !b.bad)
        for (size_t i = 0; i < p->nmods; i++)
            if (s->changed[i]) {
                char *q = b.p + at + (ext_at - report_at) + 8 + i * EXT_MOD + 8;
                memcpy(q, s->now_names[i].call, sizeof s->now_names[i].call);
                memcpy(q + sizeof s->now_names[i].call, s->now_names[i].import, sizeof s->now_names[i].import);
            }
    if (!b.bad) cg_cache_put(s->c, "py", s->key, b.p, b.n);
    free(b.p);
}

/* ---- a partial run ---------------------------------------------------------------- */
typedef struct ext {
    uint64_t *flags;
    uint64_t (*names)[96];
    py_analysis *an;
    size_t nan;
} ext;

static void ext_free(ext *e, size_t nmods)
{
    (void)nmods;
    free(e->flags);
    free(e->names);
    if (e->an) for (size_t i = 0; i < e->nan; i++) py_analysis_free(&e->an[i]);
    free(e->an);
}

static size_t *rd_list(cg_rd *rd, size_t nmods, size_t *n)
{
    uint64_t k = cg_rd_u64(rd);
    if (rd->bad || k > nmods) { rd->bad = 1; *n = 0; return NULL; }
    size_t *v = cg_xcalloc(k ? (size_t)k : 1, sizeof *v);
    for (uint64_t i = 0; i < k; i++) {
        v[i] = (size_t)cg_rd_u64(rd);
        if (v[i] >= nmods) rd->bad = 1;
    }
    *n = (size_t)k;
    return v;
}

static int read_counts(cg_rd *rd, cg_map *m, cg_arena *a)
{
    cg_map_init(m);
    uint64_t n = cg_rd_u64(rd);
    for (uint64_t i = 0; i < n && !rd->bad; i++) {
        uint64_t kl = cg_rd_u64(rd);
        if (rd->bad || kl > rd->n - rd->off) { rd->bad = 1; break; }
        const char *k = cg_arena_strndup(a, rd->p + rd->off, (size_t)kl);   /* the next entry needs it */
        rd->off += (size_t)kl;
        cg_map_put(m, k, (size_t)kl, (void *)(uintptr_t)cg_rd_u64(rd));
    }
    return rd->bad ? -1 : 0;
}

static int read_extension(cg_rd *rd, py_project *p, py_cache_state *s, ext *e)
{
    size_t n = p->nmods;
    if (cg_rd_u64(rd) != EXT_MAGIC || rd->bad) return -1;
    e->flags = cg_xcalloc(n ? n : 1, sizeof *e->flags);
    e->names = cg_xcalloc(n ? n : 1, sizeof *e->names);
    for (size_t i = 0; i < n && !rd->bad; i++) {
        e->flags[i] = cg_rd_u64(rd);
        cg_rd_bytes(rd, e->names[i], sizeof e->names[i]);
    }
    s->targets = cg_xcalloc(n ? n : 1, sizeof *s->targets);
    s->ntargets = cg_xcalloc(n ? n : 1, sizeof *s->ntargets);
    for (size_t i = 0; i < n && !rd->bad; i++)
        if (e->flags[i] & MF_MARKER) s->targets[i] = rd_list(rd, n, &s->ntargets[i]);
    s->counts = cg_xcalloc(n ? n : 1, sizeof *s->counts);
    s->had_counts = cg_xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n && !rd->bad; i++)
        if (e->flags[i] & MF_PRELOADED) {
            s->had_counts[i] = 1;
            read_counts(rd, &s->counts[i], p->arena);
        }
    uint64_t na = cg_rd_u64(rd);
    if (rd->bad || na > n) return -1;
    e->an = cg_xcalloc(na ? (size_t)na : 1, sizeof *e->an);
    for (size_t i = 0; i < na && !rd->bad; i++) {
        py_analysis *a = &e->an[i];
        e->nan = i + 1;
        cg_report_init(&a->out, p->report->rules);
        a->root = (size_t)cg_rd_u64(rd);
        if (a->root >= n) rd->bad = 1;
        a->seen = rd_list(rd, n, &a->nseen);
        uint64_t nq = cg_rd_u64(rd);
        if (rd->bad || nq > rd->n) { rd->bad = 1; break; }
        a->queries = cg_xcalloc(nq ? (size_t)nq : 1, sizeof *a->queries);
        for (uint64_t k = 0; k < nq && !rd->bad; k++) {
            a->queries[k] = cg_rd_str(rd);
            a->nqueries = (size_t)k + 1;
            if (!a->queries[k]) rd->bad = 1;
        }
        cg_rd_bytes(rd, a->asked, sizeof a->asked);
        a->attr_queries = (int)cg_rd_u64(rd);
        if (!rd->bad && cg_cache_decode_report(rd, &a->out) != 0) rd->bad = 1;
    }
    return rd->bad ? -1 : 0;
}

static int counts_equal(const cg_map *a, const cg_map *b)
{
    if (a->count != b->count) return 0;
    for (size_t i = 0; i < a->cap; i++)
        if (a->keys[i] && cg_map_get(b, a->keys[i], a->klen[i]) != a->vals[i]) return 0;
    return 1;
}

/* Does one of a's queries get a different answer from filters w than from was? */
static int answers_differ(const py_analysis *a, const uint64_t *was, const uint64_t *w)
{
    for (size_t k = 0; k < a->nqueries; k++) {
        const char *q = a->queries[k];
        size_t l = strlen(q + 1);
        int before = q[0] == 'c' ? py_bloom_has(was, 4096, q + 1, l) : py_bloom_has(was + 64, 2048, q + 1, l);
        int now = q[0] == 'c' ? py_bloom_has(w, 4096, q + 1, l) : py_bloom_has(w + 64, 2048, q + 1, l);
        if (before != now) return 1;
    }
    return 0;
}

static const char *why;   /* CGLINT_TRACE_CACHE: why a partial run was not possible (one run at a time) */

/* The changed modules, read: what they say must keep the capture files. */
static int read_changed(py_project *p, py_cache_state *s, const ext *e)
{
    why = "a changed file";
    for (size_t i = 0; i < p->nmods; i++) {
        if (!s->hard[i]) continue;
        py_module *m = &p->mods[i];
        char err[256];
        if (cg_source_load(&m->src, m->file->path, p->opts->max_file_size, err, sizeof err) != CG_SRC_OK) return -1;
        cg_py_names_of(m->src.text, m->src.len, &s->now_names[i]);
        s->now_dirs[i] = cg_suppress_maybe(m->src.text, m->src.len) ? 2 : 1;
        if (!!cg_py_mentions_capture(m->src.text, m->src.len) != !!(e->flags[i] & MF_MARKER)) {
            why = "a file began or stopped mentioning a capture API";
            return -1;
        }
    }
    return 0;
}

/* The project as the full run saw it: filters, markers, preloaded modules, directives. */
static void apply_extension(py_project *p, py_cache_state *s, const ext *e, const unsigned char *dirs)
{
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        int changed = s->hard[i] || s->changed[i];
        memcpy(m->call_names, changed ? s->now_names[i].call : e->names[i], sizeof m->call_names);
        memcpy(m->import_names, changed ? s->now_names[i].import : e->names[i] + 64, sizeof m->import_names);
        m->has_marker = (e->flags[i] & MF_MARKER) != 0;
        m->preloaded = (e->flags[i] & MF_PRELOADED) != 0;
        m->file->directives = changed ? s->now_dirs[i] : dirs[i];
    }
}

/* The modules notices name; a notice about a changed file: a full run says what it says now. */
static int mark_notices(py_project *p, py_cache_state *s, const cg_report *kept)
{
    s->notice_at = cg_xcalloc(p->nmods ? p->nmods : 1, 1);
    for (size_t k = 0; k < kept->nnotices; k++) {
        const char *path = kept->notices[k].path;
        for (size_t i = 0; path && i < p->nmods; i++) {
            if (strcmp(p->mods[i].file->path, path) != 0) continue;
            s->notice_at[i] = 1;
            if (s->hard[i] || s->changed[i]) { why = "a notice about a changed file"; return -1; }
        }
    }
    return 0;
}

/* Changed capture files and preloaded modules (and imports of capture files):
 * indexed now; the preloaded modules must be the same.  *counts_changed: a
 * changed preloaded module's attribute counts changed. */
static int check_preloaded(py_project *p, py_cache_state *s, int *counts_changed)
{
    why = "the imports of a capture file changed";
    unsigned char *target = cg_xcalloc(p->nmods ? p->nmods : 1, 1);
    for (size_t j = 0; j < p->nmods; j++)
        for (size_t k = 0; s->targets[j] && k < s->ntargets[j]; k++) target[s->targets[j][k]] = 1;
    int rc = 0;
    for (size_t i = 0; i < p->nmods && rc == 0; i++) {
        py_module *m = &p->mods[i];
        if (!s->hard[i] || (!m->has_marker && !m->preloaded && !target[i])) continue;
        int loaded = py_module_ensure(p, m) == 0;
        if (loaded != (m->preloaded != 0)) rc = -1;
        if (rc == 0 && m->has_marker) {
            size_t nt;
            size_t *t = import_targets(p, m, &nt);
            int same = nt == s->ntargets[i];
            for (size_t k = 0; same && k < nt; k++) same = t[k] == s->targets[i][k];
            free(t);
            if (!same) rc = -1;
        }
        if (rc == 0 && m->preloaded && !(s->had_counts[i] && counts_equal(&m->attr_counts, &s->counts[i])))
            *counts_changed = 1;
    }
    free(target);
    return rc;
}

/* The attribute counts the analyses see: the preloaded modules'. */
static void base_counts(py_project *p, py_cache_state *s)
{
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        if (!m->preloaded) continue;
        if (s->hard[i]) { py_index_merge_counts(p, m); continue; }
        cg_map *c = &s->counts[i];
        for (size_t k = 0; k < c->cap; k++)
            if (c->keys[k]) {
                uintptr_t have = (uintptr_t)cg_map_get(&p->attr_assigns, c->keys[k], c->klen[k]);
                cg_map_put(&p->attr_assigns, c->keys[k], c->klen[k], (void *)(have + (uintptr_t)c->vals[k]));
            }
    }
}

/* Can a change reach analysis an? */
static int must_run(py_project *p, py_cache_state *s, const ext *e, const py_analysis *an, int counts_changed)
{
    if (s->hard[an->root] || (an->attr_queries & 2) || ((an->attr_queries & 1) && counts_changed)) return 1;
    for (size_t k = 0; k < an->nseen; k++)
        if (s->hard[an->seen[k]] || s->changed[an->seen[k]]) return 1;
    for (size_t i = 0; i < p->nmods; i++) {
        if (!s->hard[i] && !s->changed[i]) continue;
        /* a module it did not load mattered to it only through its answers */
        uint64_t w[96];
        memcpy(w, p->mods[i].call_names, 64 * sizeof *w);
        memcpy(w + 64, p->mods[i].import_names, 32 * sizeof *w);
        if (answers_differ(an, e->names[i], w)) return 1;
    }
    return 0;
}

/* The analyses to run again, their records emptied; -1 when one loads a module a notice names. */
static int choose_runs(py_project *p, py_cache_state *s, ext *e, int counts_changed)
{
    s->nrun = 0;
    for (size_t a = 0; a < e->nan; a++) {
        py_analysis *an = &e->an[a];
        an->run = must_run(p, s, e, an, counts_changed);
        if (!an->run) continue;
        s->nrun++;
        /* a notice about a module it loaded may not be said again, or may be said twice */
        for (size_t k = 0; k < an->nseen; k++)
            if (s->notice_at[an->seen[k]]) { why = "a notice about a module a re-run analysis loads"; return -1; }
        for (size_t k = 0; k < an->nqueries; k++) free(an->queries[k]);
        free(an->seen);
        free(an->queries);
        an->seen = NULL;
        an->queries = NULL;
        an->nseen = an->nqueries = 0;
        memset(an->asked, 0, sizeof an->asked);
        an->attr_queries = 0;
        cg_report_free(&an->out);   /* its findings are the new analysis's */
        cg_report_init(&an->out, p->report->rules);
    }
    return 0;
}

/* Set the project up to analyse only the capture files a change can affect.
 * Returns 0 (p->an and p->partial set, the kept notices in the report, the
 * kept findings in p->an), or -1: a full run is needed (py_cache_begin
 * undoes what this did). */
static int partial_setup(py_project *p, py_cache_state *s, cg_rd *rd, const unsigned char *dirs)
{
    ext e = { 0 };
    cg_report kept;
    cg_report_init(&kept, NULL);
    int counts_changed = 0, ok = 0;
    why = "no extension";
    if (cg_cache_decode_report(rd, &kept) == 0 && read_extension(rd, p, s, &e) == 0 && read_changed(p, s, &e) == 0) {
        apply_extension(p, s, &e, dirs);
        ok = mark_notices(p, s, &kept) == 0 && check_preloaded(p, s, &counts_changed) == 0;
        if (ok) base_counts(p, s);
        ok = ok && choose_runs(p, s, &e, counts_changed) == 0;
    }
    if (ok) {
        /* the run: kept notices and counts now, findings merged after the analyses */
        for (size_t k = 0; k < kept.nnotices; k++) {
            const cg_notice *nt = &kept.notices[k];
            cg_report_notice(p->report, nt->level, nt->path, nt->line, nt->col, "%s", nt->message ? nt->message : "");
        }
        p->report->files_seen += kept.files_seen;
        s->partial_analysed = kept.files_analysed;   /* the count (py_cache_end): the full run's */
        p->an = e.an;
        p->nan = e.nan;
        e.an = NULL;
        p->partial = 1;
    }
    ext_free(&e, p->nmods);
    cg_report_free(&kept);
    return ok ? 0 : -1;
}

/* After a partial attempt that failed: the project as phase 1 expects it. */
static void undo_partial(py_project *p, py_cache_state *s)
{
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        if (m->state != 0) py_index_release(m), m->state = 0;
        cg_source_free(&m->src);
        m->has_marker = m->preloaded = 0;
    }
    cg_map_free(&p->attr_assigns);
    cg_map_init(&p->attr_assigns);
    /* and what it said of them (a parse error) is said by the full run */
    pthread_mutex_lock(&p->report->lock);
    for (size_t i = s->n0; i < p->report->nnotices; i++) {
        free(p->report->notices[i].path);
        free(p->report->notices[i].message);
    }
    if (p->report->nnotices > s->n0) p->report->nnotices = s->n0;
    pthread_mutex_unlock(&p->report->lock);
    p->report->files_analysed = s->analysed0;
}

static void trace_said(py_project *p, py_cache_state *s, int hit, int partial, size_t nchanged)
{
    if (!getenv("CGLINT_TRACE_CACHE")) return;
    if (hit && nchanged)
        fprintf(stderr, "cglint: cache: python hit (%zu file%s changed, none that the analysis reads)\n", nchanged,
                nchanged == 1 ? "" : "s");
    else if (partial)
        fprintf(stderr, "cglint: cache: python partial (%zu of %zu capture files analysed again)\n", s->nrun, p->nan);
    else if (s->nhard && !s->mismatch)
        fprintf(stderr, "cglint: cache: python miss (%s)\n", why ? why : "?");
    else
        fprintf(stderr, "cglint: cache: python %s\n", hit ? "hit" : "miss");
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
    int hit = 0, partial = 0;
    size_t nchanged = 0;
    uint64_t nm = cg_rd_u64(&rd);
    uint64_t asked[96];
    /* (the buffers are sized by the project; failing to get them is a miss) */
    cg_digest *want_digest = calloc(n, sizeof *want_digest), *want_summary = calloc(n, sizeof *want_summary);
    unsigned char *dirs = calloc(n, 1), *kind = calloc(n, 1);
    s->now_digest = calloc(n, sizeof *s->now_digest);
    s->now_dirs = calloc(n, 1);
    s->changed = calloc(n, 1);
    s->hard = calloc(n, 1);
    s->now_names = calloc(n, sizeof *s->now_names);
    /* a partial run for a few changed files (pre-commit's edits), not for a checkout */
    s->max_hard = p->nmods / 50 > 16 ? p->nmods / 50 : 16;
    cg_rd_bytes(&rd, asked, sizeof asked);
    if (nm == p->nmods && !rd.bad && want_digest && want_summary && dirs && kind && s->now_digest && s->now_dirs &&
        s->changed && s->hard && s->now_names) {
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
            uint64_t rlen = cg_rd_u64(&rd);
            size_t ext_at = !rd.bad && rlen <= rd.n - rd.off ? rd.off + (size_t)rlen : 0;
            if (!s->mismatch && !s->nhard && cg_cache_decode_report(&rd, p->report) == 0) {
                for (size_t i = 0; i < p->nmods; i++) {
                    p->mods[i].file->directives = s->changed[i] ? s->now_dirs[i] : dirs[i];
                    nchanged += s->changed[i];
                }
                if (nchanged) rewrite(p, s, want_digest, dirs, want_summary, blob, len, report_at, ext_at);
                hit = 1;
            } else if (!s->mismatch && ext_at && partial_setup(p, s, &rd, dirs) == 0) {
                partial = 1;
            }
        }
    }
    free(want_digest);
    free(want_summary);
    free(dirs);
    free(kind);
    free(blob);
    s->want_digest = s->want_summary = NULL;
    s->want_kind = NULL;
    s->asked = NULL;
    /* CGLINT_TRACE_CACHE=1: whether the memo answered (for tests) */
    trace_said(p, s, hit, partial, nchanged);
    if (hit) {
        state_free(s, p->nmods);
        p->cache = NULL;
    } else if (!partial) {
        undo_partial(p, s);   /* the modules read for the attempt are read again by phase 1 */
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
    size_t n = p->nmods;
    /* a partial run counted the capture files it parsed again */
    if (p->partial) p->report->files_analysed = s->analysed0 + s->partial_analysed;
    /* which modules the run parsed: a partial run's are the full run's
     * (preloaded, or loaded by an analysis, or named by a notice) */
    unsigned char *parsed = cg_xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) {
        py_module *m = &p->mods[i];
        parsed[i] = p->partial ? (m->preloaded || m->has_marker || (s->notice_at && s->notice_at[i]))
                               : (m->state != 0 || m->has_marker);
    }
    uint64_t asked[96];
    memcpy(asked, p->asked, sizeof asked);
    if (p->partial) {
        memset(asked, 0, sizeof asked);
        for (size_t a = 0; a < p->nan; a++) {
            for (int w = 0; w < 96; w++) asked[w] |= p->an[a].asked[w];
            for (size_t k = 0; k < p->an[a].nseen; k++) parsed[p->an[a].seen[k]] = 1;
        }
        for (size_t i = 0; i < n; i++)   /* a read error a fresh analysis met */
            if (p->mods[i].state < 0) parsed[i] = 1;
    }
    cg_buf b = { 0 };
    int ok = 1;
    put_manifest(&b, n, asked);
    for (size_t i = 0; i < n && ok; i++) {
        py_module *m = &p->mods[i];
        /* a module read in phase 1 and never parsed (no capture API in it,
         * no call reached it) mattered only through its masked filters */
        int summary = !parsed[i];
        cg_digest d, z = { 0, 0 };
        ok = current_digest(s, i, &d) == 0;
        put_record(&b, d, m->file->directives, summary ? REC_SUMMARY : REC_EXACT,
                   summary ? summary_of(m->call_names, m->import_names, asked) : z);
    }
    free(parsed);
    if (ok) {
        size_t len_at = b.n;
        cg_buf_u64(&b, 0);   /* the report's length, filled in below */
        size_t r0 = b.n;
        cg_cache_encode_report(&b, p->report, s->f0, s->n0, 0, p->report->files_analysed - s->analysed0);
        if (!b.bad) {
            uint64_t rl = b.n - r0;
            memcpy(b.p + len_at, &rl, sizeof rl);
        }
        put_extension(&b, p, s);
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
