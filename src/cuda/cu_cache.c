/* cu_cache.c - the C/C++/CUDA front end and the project index (workflow/cache.h).
 *
 * A memo of the whole front end's findings and notices, keyed by its files
 * (path, language, reported or context) and every option and variable that
 * changes their flags.  Its manifest holds the digest of every C/C++/CUDA
 * file handed to the front end, and of every file libclang read for them
 * outside that set: the headers of the toolkit, the system and other
 * projects, as clang_getInclusions lists them, and the compile database.
 * A run whose files all check out (by stat through the index, else by
 * digest) answers from the memo; anything else is a cold run, which writes
 * the memo again. */
#include "cu_eval.h"
#include "cu_cache.h"
#include "workflow/cache.h"
#include "core/hash.h"
#include "core/path.h"
#include "cu_clang.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what libclang read, collected from the parsing threads ------------------ */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static cg_map g_read;          /* absolute path -> (void *)1; keys owned below */
static char **g_keys;
static size_t g_nkeys, g_capkeys;
static int g_on;

static void note_locked(const char *path)
{
    if (!path || !*path) return;
    /* realpath: clang's names hold "..", and below a symbolic link a lexical
     * ".." goes elsewhere */
    char *abs = realpath(path, NULL);
    if (!abs) abs = cg_path_abs(path);
    if (!abs) return;
    size_t l = strlen(abs);
    if (cg_map_get(&g_read, abs, l)) { free(abs); return; }
    if (g_nkeys == g_capkeys) {
        g_capkeys = g_capkeys ? g_capkeys * 2 : 256;
        char **k = realloc(g_keys, g_capkeys * sizeof *k);
        if (!k) { free(abs); return; }
        g_keys = k;
    }
    g_keys[g_nkeys++] = abs;
    cg_map_put(&g_read, abs, l, (void *)1);
}

void cu_cache_note_path(const char *path)
{
    pthread_mutex_lock(&g_lock);
    if (g_on) note_locked(path);
    pthread_mutex_unlock(&g_lock);
}

static void inclusion(CXFile file, CXSourceLocation *stack, unsigned n, CXClientData data)
{
    (void)stack;
    (void)n;
    (void)data;
    CXString s = clang_getFileName(file);
    note_locked(clang_getCString(s));
    clang_disposeString(s);
}

void cu_cache_note_tu(CXTranslationUnit tu)
{
    pthread_mutex_lock(&g_lock);
    if (g_on && tu) clang_getInclusions(tu, inclusion, NULL);
    pthread_mutex_unlock(&g_lock);
}

static void collector_reset(int on)
{
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_nkeys; i++) free(g_keys[i]);
    free(g_keys);
    g_keys = NULL;
    g_nkeys = g_capkeys = 0;
    cg_map_free(&g_read);
    cg_map_init(&g_read);
    g_on = on;
    pthread_mutex_unlock(&g_lock);
}

/* ---- the memo ---------------------------------------------------------------- */
struct cu_cache_state {
    cg_cache *c;
    cg_digest key;
    size_t f0, n0, seen0, analysed0;
};

static void key_strs(cg_keyhash *k, const char *const *v, size_t n)
{
    cg_keyhash_u64(k, n);
    for (size_t i = 0; i < n; i++) cg_keyhash_str(k, v[i]);
}

static cg_digest memo_key(const cu_project *p)
{
    const cg_cu_opts *o = p->opts;
    cg_keyhash k;
    cg_keyhash_init(&k, "cu-memo-1");
    cg_keyhash_digest(&k, cg_cache_identity());
    cg_keyhash_u64(&k, o->max_file_size);
    cg_keyhash_u64(&k, (uint64_t)o->mode);
    cg_keyhash_str(&k, o->cuda_path);
    cg_keyhash_str(&k, o->compile_commands);
    key_strs(&k, o->roots, o->nroots);
    cg_keyhash_u64(&k, (uint64_t)o->parse_all);
    key_strs(&k, o->include_dirs, o->ninclude_dirs);
    key_strs(&k, o->defines, o->ndefines);
    cg_keyhash_str(&k, o->std);
    static const char *const env[] = { "CUDA_PATH", "CUDA_HOME", "CPATH", "C_INCLUDE_PATH",
        "CPLUS_INCLUDE_PATH", "CGLINT_CU_NAMED_ROUNDS", "CGLINT_CU_NO_PCH", NULL };
    for (int i = 0; env[i]; i++) cg_keyhash_str(&k, getenv(env[i]));
    char *cwd = cg_path_abs(".");
    cg_keyhash_str(&k, cwd);
    free(cwd);
    cg_keyhash_u64(&k, p->nfiles);
    for (size_t i = 0; i < p->nfiles; i++) {
        cg_keyhash_str(&k, p->files[i].path);
        cg_keyhash_u64(&k, (uint64_t)p->files[i].file->report);
    }
    return k.d;
}

static int trace(void) { return getenv("CGLINT_TRACE_CACHE") != NULL; }

/* Do the files of the manifest still hold what they held? */
static int manifest_ok(cg_cache *c, cg_rd *rd)
{
    uint64_t n = cg_rd_u64(rd);
    for (uint64_t i = 0; i < n && !rd->bad; i++) {
        char *path = cg_rd_str(rd);
        cg_digest want, now;
        cg_rd_bytes(rd, &want, sizeof want);
        int same = path && !rd->bad && cg_cache_file_digest(c, path, &now) == 0 && cg_digest_eq(want, now);
        if (!same && trace()) fprintf(stderr, "cglint: cache: changed: %s\n", path ? path : "?");
        free(path);
        if (!same) return 0;
    }
    return !rd->bad;
}

int cu_cache_begin(cu_project *p, cg_cache *c, cu_cache_state **out)
{
    *out = NULL;
    if (!c || p->report->rules) return 0;
    cu_cache_state *s = calloc(1, sizeof *s);
    if (!s) return 0;
    s->c = c;
    s->key = memo_key(p);
    s->f0 = p->report->nfindings;
    s->n0 = p->report->nnotices;
    s->analysed0 = p->report->files_analysed;
    size_t len = 0;
    char *blob = cg_cache_get(c, "cu", s->key, &len);
    int hit = 0;
    if (blob) {
        cg_rd rd = { .p = blob, .n = len };
        hit = manifest_ok(c, &rd) && cg_cache_decode_report(&rd, p->report) == 0;
        free(blob);
    }
    if (trace()) fprintf(stderr, "cglint: cache: cuda %s\n", hit ? "hit" : "miss");
    if (hit) { free(s); return 1; }
    *out = s;
    collector_reset(1);
    return 0;
}

void cu_cache_end(cu_project *p, cu_cache_state *s)
{
    if (!s) return;
    pthread_mutex_lock(&g_lock);
    g_on = 0;
    pthread_mutex_unlock(&g_lock);
    /* the front end's own files, then what libclang read beyond them */
    for (size_t i = 0; i < p->nfiles; i++) note_locked(p->files[i].path);
    cg_buf b = { 0 };
    int ok = 1;
    /* the run's own temporary files (the PCH's source) are not inputs */
    char *tmp = p->tmpdir ? realpath(p->tmpdir, NULL) : NULL;
    size_t tl = tmp ? strlen(tmp) : 0, n = 0;
    for (size_t i = 0; i < g_nkeys; i++)
        if (!(tmp && strncmp(g_keys[i], tmp, tl) == 0 && g_keys[i][tl] == '/')) g_keys[n++] = g_keys[i];
        else free(g_keys[i]);
    g_nkeys = n;
    free(tmp);
    cg_buf_u64(&b, g_nkeys);
    for (size_t i = 0; i < g_nkeys && ok; i++) {
        cg_digest d;
        ok = cg_cache_file_digest(s->c, g_keys[i], &d) == 0;
        if (!ok && trace()) fprintf(stderr, "cglint: cache: cannot digest %s\n", g_keys[i]);
        cg_buf_str(&b, g_keys[i]);
        cg_buf_bytes(&b, &d, sizeof d);
    }
    if (ok) {
        cg_cache_encode_report(&b, p->report, s->f0, s->n0, 0, p->report->files_analysed - s->analysed0);
        if (!b.bad) cg_cache_put(s->c, "cu", s->key, b.p, b.n);
    }
    free(b.p);
    collector_reset(0);
    free(s);
}
