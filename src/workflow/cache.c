/* cache.c - see cache.h.
 *
 * Files in the cache directory:
 *   .gitignore, CACHEDIR.TAG   made once, never read back
 *   index                      the file index (one file, rewritten whole)
 *   memo/<kind>-<key>          one payload each
 * Every file starts with a header: magic, the build identity, the key (the
 * index has none), the payload length and the payload's digest. */

#include "cache.h"
#include "core/alloc.h"
#include "core/hash.h"
#include "core/path.h"
#include "core/rules.h"
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- digests ----------------------------------------------------------- */
static inline uint64_t mix(uint64_t a, uint64_t b)
{
    __uint128_t m = (__uint128_t)a * b;
    return (uint64_t)m ^ (uint64_t)(m >> 64);
}

static inline uint64_t rd64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Two independent 64-bit lanes of a wyhash-like multiply-xor over 16-byte
 * blocks: about 8 GB/s, enough that digesting a tree costs less than
 * reading it. */
cg_digest cg_digest_bytes(const void *data, size_t n, uint64_t seed)
{
    static const uint64_t K0 = 0xa0761d6478bd642fULL, K1 = 0xe7037ed1a0b428dbULL,
                          K2 = 0x8ebc6af09c88c6e3ULL, K3 = 0x589965cc75374cc3ULL;
    const unsigned char *p = data;
    uint64_t a = seed ^ K0 ^ n, b = (seed * K3) ^ K1 ^ (n << 1);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint64_t x = rd64(p + i), y = rd64(p + i + 8);
        a = mix(a ^ x ^ K1, y ^ K2) + b;
        b = mix(b ^ y ^ K3, x ^ K0) ^ a;
    }
    unsigned char tail[16] = { 0 };
    memcpy(tail, p + i, n - i);
    uint64_t x = rd64(tail), y = rd64(tail + 8);
    a = mix(a ^ x ^ K1, y ^ K2 ^ (uint64_t)(n - i));
    b = mix(b ^ y ^ K3, x ^ K0) ^ a;
    cg_digest d = { mix(a ^ K2, b ^ K1), mix(b ^ K0, a ^ K3) };
    return d;
}

void cg_keyhash_init(cg_keyhash *k, const char *what)
{
    k->d = cg_digest_bytes(what, strlen(what), 0x636778);
}

static void kh_feed(cg_keyhash *k, const void *p, size_t n, uint64_t tag)
{
    cg_digest x = cg_digest_bytes(p, n, tag);
    unsigned char buf[32];
    memcpy(buf, &k->d, 16);
    memcpy(buf + 16, &x, 16);
    k->d = cg_digest_bytes(buf, sizeof buf, 0x6b6579);
}

void cg_keyhash_str(cg_keyhash *k, const char *s)
{
    if (s) kh_feed(k, s, strlen(s), 1);
    else kh_feed(k, "", 0, 2);
}

void cg_keyhash_u64(cg_keyhash *k, uint64_t v) { kh_feed(k, &v, sizeof v, 3); }
void cg_keyhash_digest(cg_keyhash *k, cg_digest d) { kh_feed(k, &d, sizeof d, 4); }

/* ---- identity ---------------------------------------------------------- */
static int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    cg_keyhash *k = arg;
    const char *name = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
    struct stat st;
    cg_keyhash_str(k, name);
    if (stat(name, &st) == 0) {
        cg_keyhash_u64(k, (uint64_t)st.st_size);
        cg_keyhash_u64(k, (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec);
        cg_keyhash_u64(k, (uint64_t)st.st_ino);
    }
    return 0;
}

static cg_digest g_identity;
static pthread_once_t g_identity_once = PTHREAD_ONCE_INIT;

/* The version, the rule table, and the binary with every shared object it
 * loaded (the grammar, tree-sitter, libclang): a rebuild or an upgrade of
 * any of them is another identity. */
static void make_identity(void)
{
    cg_keyhash k;
    cg_keyhash_init(&k, "cglint-cache-1");
#ifdef CGLINT_VERSION
    cg_keyhash_str(&k, CGLINT_VERSION);
#endif
    for (size_t i = 0; i < cg_rule_count; i++) {
        cg_keyhash_str(&k, cg_rules[i].id);
        cg_keyhash_str(&k, cg_rules[i].name);
        cg_keyhash_u64(&k, (uint64_t)cg_rules[i].severity);
        cg_keyhash_str(&k, cg_rules[i].languages);
        cg_keyhash_str(&k, cg_rules[i].fix);
        cg_keyhash_str(&k, cg_rules[i].fix_cu);
    }
    dl_iterate_phdr(add_object, &k);
    g_identity = k.d;
}

cg_digest cg_cache_identity(void)
{
    pthread_once(&g_identity_once, make_identity);
    return g_identity;
}

/* ---- the store --------------------------------------------------------- */
typedef struct rec {
    uint64_t dev, ino, size, mtime, ctime;
    cg_digest digest;
    uint32_t have_digest;
    uint32_t facts;
} rec;

struct cg_cache {
    char *dir;
    pthread_mutex_t lock;
    cg_map index;           /* abs path -> rec * */
    char **keys;            /* owned key strings */
    rec **recs;
    size_t n, cap;
    int dirty;
};

static const char MAGIC[8] = { 'c', 'g', 'l', 'c', 'a', 'c', 'h', '1' };
enum { HDR = 8 + 16 + 16 + 8 + 16 };

static int write_small(const char *path, const char *text)
{
    if (access(path, F_OK) == 0) return 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return errno == EEXIST ? 0 : -1;
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    close(fd);
    return ok ? 0 : -1;
}

/* data -> temporary file beside `path` -> rename */
static int write_atomic(const char *dir, const char *path, const void *data, size_t len)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s/.tmp-%ld-%lx", dir, (long)getpid(), (unsigned long)pthread_self());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { close(fd); unlink(tmp); return -1; }
        p += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) { unlink(tmp); return -1; }
    return 0;
}

static void *read_all(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)1 << 30) { close(fd); return NULL; }
    size_t n = (size_t)st.st_size, got = 0;
    /* raw malloc/realloc in the index's reader and writer: an entry that cannot be read
     * or written is a miss (the index is only a speed-up), never the run's failure */
    char *buf = malloc(n + 1);
    while (buf && got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf || got != n) { free(buf); return NULL; }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* The payload of a file with header (magic, identity, key, length, digest),
 * or NULL when any of it does not check out. */
static void *unwrap(char *buf, size_t n, cg_digest key, size_t *len)
{
    if (!buf || n < HDR || memcmp(buf, MAGIC, 8) != 0) return NULL;
    cg_digest id = cg_cache_identity(), k, d;
    uint64_t plen;
    memcpy(&k, buf + 24, 16);
    memcpy(&plen, buf + 40, 8);
    memcpy(&d, buf + 48, 16);
    if (memcmp(buf + 8, &id, 16) != 0 || !cg_digest_eq(k, key) || plen != n - HDR) return NULL;
    if (!cg_digest_eq(d, cg_digest_bytes(buf + HDR, (size_t)plen, 0x70))) return NULL;
    *len = (size_t)plen;
    return buf + HDR;
}

static char *wrap(cg_digest key, const void *data, size_t len, size_t *out)
{
    /* raw malloc: an entry that cannot be made is not written (a miss next time) */
    char *buf = malloc(HDR + len);
    if (!buf) return NULL;
    cg_digest id = cg_cache_identity(), d = cg_digest_bytes(data, len, 0x70);
    uint64_t plen = len;
    memcpy(buf, MAGIC, 8);
    memcpy(buf + 8, &id, 16);
    memcpy(buf + 24, &key, 16);
    memcpy(buf + 40, &plen, 8);
    memcpy(buf + 48, &d, 16);
    if (len) memcpy(buf + HDR, data, len);
    *out = HDR + len;
    return buf;
}

static rec *index_put(cg_cache *c, const char *path, size_t pl)
{
    rec *r = cg_map_get(&c->index, path, pl);
    if (r) return r;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 1024;
        c->keys = cg_xrealloc(c->keys, c->cap * sizeof *c->keys);
        rec **rr = cg_xrealloc(c->recs, c->cap * sizeof *rr);
        c->recs = rr;
    }
    char *key = cg_xmalloc(pl + 1);
    r = cg_xcalloc(1, sizeof *r);
    memcpy(key, path, pl);
    key[pl] = 0;
    c->keys[c->n] = key;
    c->recs[c->n++] = r;
    cg_map_put(&c->index, key, pl, r);
    return r;
}

static const cg_digest INDEX_KEY = { 0x696e646578ull, 0 };

static void load_index(cg_cache *c)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/index", c->dir);
    size_t n = 0, plen = 0;
    char *buf = read_all(path, &n);
    const char *p = unwrap(buf, n, INDEX_KEY, &plen);
    if (p) {
        cg_rd rd = { .p = p, .n = plen };
        uint64_t count = cg_rd_u64(&rd);
        for (uint64_t i = 0; i < count && !rd.bad; i++) {
            uint64_t pl = cg_rd_u64(&rd);
            if (rd.bad || pl > rd.n - rd.off) { rd.bad = 1; break; }
            const char *name = rd.p + rd.off;
            rd.off += pl;
            rec tmp;
            if (cg_rd_bytes(&rd, &tmp, sizeof tmp) != 0) break;
            *index_put(c, name, (size_t)pl) = tmp;
        }
    }
    free(buf);
}

static void save_index(cg_cache *c)
{
    cg_buf b = { 0 };
    cg_buf_u64(&b, c->n);
    for (size_t i = 0; i < c->n; i++) {
        size_t pl = strlen(c->keys[i]);
        cg_buf_u64(&b, pl);
        cg_buf_bytes(&b, c->keys[i], pl);
        cg_buf_bytes(&b, c->recs[i], sizeof(rec));
    }
    size_t len = 0;
    char *w = b.bad ? NULL : wrap(INDEX_KEY, b.p, b.n, &len);
    char path[4200];
    snprintf(path, sizeof path, "%s/index", c->dir);
    if (w) write_atomic(c->dir, path, w, len);
    free(w);
    free(b.p);
}

cg_cache *cg_cache_open(const char *dir, char *err, size_t errlen)
{
    /* its parents too (mkdir -p) */
    char up[4200];
    snprintf(up, sizeof up, "%s", dir);
    for (char *q = up + 1; *q; q++)
        if (*q == '/') {
            *q = 0;
            mkdir(up, 0755);
            *q = '/';
        }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create the cache directory %s: %s", dir, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "the cache directory %s is not a directory", dir);
        return NULL;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/memo", dir);
    if ((mkdir(path, 0755) != 0 && errno != EEXIST) || access(dir, W_OK) != 0) {
        snprintf(err, errlen, "cannot write to the cache directory %s: %s", dir, strerror(errno ? errno : EACCES));
        return NULL;
    }
    snprintf(path, sizeof path, "%s/.gitignore", dir);
    write_small(path, "# Automatically created by cglint.\n*\n");
    snprintf(path, sizeof path, "%s/CACHEDIR.TAG", dir);
    write_small(path, "Signature: 8a477f597d28d172789f06886806bc55\n"
                      "# This file is a cache directory tag created by cglint.\n"
                      "# For information about cache directory tags see https://bford.info/cachedir/\n");
    cg_cache *c = cg_xcalloc(1, sizeof *c);
    c->dir = cg_xstrdup(dir);
    pthread_mutex_init(&c->lock, NULL);
    cg_map_init(&c->index);
    load_index(c);
    return c;
}

void cg_cache_close(cg_cache *c)
{
    if (!c) return;
    if (c->dirty) save_index(c);
    for (size_t i = 0; i < c->n; i++) { free(c->keys[i]); free(c->recs[i]); }
    free(c->keys);
    free(c->recs);
    cg_map_free(&c->index);
    pthread_mutex_destroy(&c->lock);
    free(c->dir);
    free(c);
}

const char *cg_cache_dir(const cg_cache *c) { return c->dir; }

static uint64_t ns(struct timespec t) { return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec; }

static int same_stat(const rec *r, const struct stat *st)
{
    return r->dev == (uint64_t)st->st_dev && r->ino == (uint64_t)st->st_ino && r->size == (uint64_t)st->st_size &&
           r->mtime == ns(st->st_mtim) && r->ctime == ns(st->st_ctim);
}

int cg_cache_lookup(cg_cache *c, const char *abs_path, const struct stat *st, cg_cache_entry *out)
{
    if (!c) return 0;
    int ok = 0;
    pthread_mutex_lock(&c->lock);
    rec *r = cg_map_get(&c->index, abs_path, strlen(abs_path));
    if (r && same_stat(r, st)) {
        out->have_digest = (int)r->have_digest;
        out->digest = r->digest;
        out->facts = r->facts;
        ok = 1;
    }
    pthread_mutex_unlock(&c->lock);
    return ok;
}

void cg_cache_record(cg_cache *c, const char *abs_path, const struct stat *st,
                     const cg_digest *digest, uint32_t facts)
{
    if (!c) return;
    /* A file changed less than a timestamp step ago could change again and
     * keep its stat (git's "racy" case): not recorded.  The step is the
     * kernel's tick on file systems with nanosecond times (100 ms is far
     * above it), two seconds where the times have whole seconds (FAT, old
     * NFS). */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t step = st->st_mtim.tv_nsec == 0 && st->st_ctim.tv_nsec == 0 ? 2000000000ull : 100000000ull;
    if (ns(now) < ns(st->st_mtim) + step || ns(now) < ns(st->st_ctim) + step) return;
    pthread_mutex_lock(&c->lock);
    rec *r = index_put(c, abs_path, strlen(abs_path));
    if (!same_stat(r, st)) {
        memset(r, 0, sizeof *r);
        r->dev = (uint64_t)st->st_dev;
        r->ino = (uint64_t)st->st_ino;
        r->size = (uint64_t)st->st_size;
        r->mtime = ns(st->st_mtim);
        r->ctime = ns(st->st_ctim);
        c->dirty = 1;
    }
    if (digest && (!r->have_digest || !cg_digest_eq(r->digest, *digest))) {
        r->digest = *digest;
        r->have_digest = 1;
        c->dirty = 1;
    }
    if (facts && r->facts != facts) {
        r->facts = facts;
        c->dirty = 1;
    }
    pthread_mutex_unlock(&c->lock);
}

static int file_digest(cg_cache *c, const char *path, const struct stat *given, cg_digest *out)
{
    /* keyed by the lexical absolute path, not realpath()'s (a readlink and
     * an lstat per component of every file: most of a warm run's system
     * time): the entry is checked against the stat of `path` itself, so two
     * spellings of one file, or one spelling of two files through a
     * symbolic link and "..", cost a re-read, never a wrong digest */
    char *abs = path[0] == '/' ? strdup(path) : cg_path_abs(path);   /* NULL: a miss */
    if (!abs) return -1;
    struct stat st;
    cg_cache_entry e;
    int rc = -1;
    if (given) st = *given;
    if ((given || stat(path, &st) == 0) && S_ISREG(st.st_mode)) {
        if (cg_cache_lookup(c, abs, &st, &e) && e.have_digest) {
            *out = e.digest;
            rc = 0;
        } else {
            size_t n = 0;
            char *buf = read_all(path, &n);
            if (buf) {
                *out = cg_digest_bytes(buf, n, 0);
                cg_cache_record(c, abs, &st, out, 0);
                rc = 0;
            }
            free(buf);
        }
    }
    free(abs);
    return rc;
}

int cg_cache_file_digest(cg_cache *c, const char *path, cg_digest *out)
{
    return file_digest(c, path, NULL, out);
}

int cg_cache_file_digest_st(cg_cache *c, const char *path, const struct stat *st, cg_digest *out)
{
    return file_digest(c, path, st, out);
}

static void memo_path(cg_cache *c, const char *kind, cg_digest key, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s/memo/%s-%016llx%016llx", c->dir, kind, (unsigned long long)key.hi,
             (unsigned long long)key.lo);
}

void *cg_cache_get(cg_cache *c, const char *kind, cg_digest key, size_t *len)
{
    if (!c) return NULL;
    char path[4200];
    memo_path(c, kind, key, path, sizeof path);
    size_t n = 0, plen = 0;
    char *buf = read_all(path, &n);
    const char *p = unwrap(buf, n, key, &plen);
    if (!p) { free(buf); return NULL; }
    memmove(buf, p, plen);
    *len = plen;
    return buf;
}

void cg_cache_put(cg_cache *c, const char *kind, cg_digest key, const void *data, size_t len)
{
    if (!c) return;
    char path[4200], dir[4200];
    memo_path(c, kind, key, path, sizeof path);
    snprintf(dir, sizeof dir, "%s/memo", c->dir);
    size_t n = 0;
    char *w = wrap(key, data, len, &n);
    if (w) write_atomic(dir, path, w, n);
    free(w);
}

/* ---- encoding ---------------------------------------------------------- */
void cg_buf_bytes(cg_buf *b, const void *p, size_t n)
{
    if (b->bad) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        /* raw realloc: a buffer that cannot grow marks the entry bad: not written */
        char *q = realloc(b->p, cap);
        if (!q) { b->bad = 1; return; }
        b->p = q;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}

void cg_buf_u64(cg_buf *b, uint64_t v) { cg_buf_bytes(b, &v, sizeof v); }

void cg_buf_str(cg_buf *b, const char *s)
{
    if (!s) { cg_buf_u64(b, UINT64_MAX); return; }
    size_t n = strlen(s);
    cg_buf_u64(b, n);
    cg_buf_bytes(b, s, n);
}

int cg_rd_bytes(cg_rd *r, void *out, size_t n)
{
    if (r->bad || n > r->n - r->off) { r->bad = 1; return -1; }
    memcpy(out, r->p + r->off, n);
    r->off += n;
    return 0;
}

uint64_t cg_rd_u64(cg_rd *r)
{
    uint64_t v = 0;
    cg_rd_bytes(r, &v, sizeof v);
    return v;
}

char *cg_rd_str(cg_rd *r)
{
    uint64_t n = cg_rd_u64(r);
    if (r->bad || n == UINT64_MAX) return NULL;
    if (n > r->n - r->off) { r->bad = 1; return NULL; }
    /* raw malloc: a string that cannot be read marks the entry bad: a miss */
    char *s = malloc((size_t)n + 1);
    if (!s) { r->bad = 1; return NULL; }
    memcpy(s, r->p + r->off, (size_t)n);
    s[n] = 0;
    r->off += (size_t)n;
    return s;
}

static void put_loc(cg_buf *b, const cg_loc *l)
{
    cg_buf_str(b, l->path);
    cg_buf_u64(b, l->line);
    cg_buf_u64(b, l->col);
    cg_buf_u64(b, l->end_line);
    cg_buf_u64(b, l->end_col);
}

static void get_loc(cg_rd *r, cg_loc *l)
{
    l->path = cg_rd_str(r);
    l->line = (uint32_t)cg_rd_u64(r);
    l->col = (uint32_t)cg_rd_u64(r);
    l->end_line = (uint32_t)cg_rd_u64(r);
    l->end_col = (uint32_t)cg_rd_u64(r);
}

void cg_cache_encode_report(cg_buf *b, const cg_report *r, size_t f0, size_t n0,
                            size_t files_seen, size_t files_analysed)
{
    cg_buf_u64(b, files_seen);
    cg_buf_u64(b, files_analysed);
    cg_buf_u64(b, r->nfindings - f0);
    /* a source line is written once and referred to after: the report shares
     * one copy per line among its findings (16k findings on one 300 KB line
     * made a 4.7 GB entry) */
    cg_map lines;
    cg_map_init(&lines);
    /* raw calloc/strdup: without them lines are written once per finding, as before sharing */
    char **keys = calloc(r->nfindings - f0 + 1, sizeof *keys);
    size_t nlines = 0;
    for (size_t i = f0; i < r->nfindings; i++) {
        const cg_finding *f = &r->findings[i];
        cg_buf_u64(b, (uint64_t)f->rule);
        cg_buf_u64(b, (uint64_t)f->level);
        put_loc(b, &f->loc);
        cg_buf_str(b, f->message);
        cg_buf_str(b, f->fix);
        char key[32];
        int kl = snprintf(key, sizeof key, "%p", (const void *)f->line_text);
        uintptr_t at = f->line_text && keys ? (uintptr_t)cg_map_get(&lines, key, (size_t)kl) : 0;
        if (at) {
            cg_buf_u64(b, at);                /* the at-th line written before */
        } else {
            cg_buf_u64(b, 0);
            cg_buf_str(b, f->line_text);
            if (f->line_text && keys && (keys[nlines] = strdup(key))) {
                nlines++;
                cg_map_put(&lines, keys[nlines - 1], (size_t)kl, (void *)(uintptr_t)nlines);
            }
        }
        cg_buf_u64(b, (uint64_t)f->has_capture);
        put_loc(b, &f->capture);
        cg_buf_str(b, f->capture_kind);
        cg_buf_u64(b, f->npath);
        for (size_t k = 0; k < f->npath; k++) {
            cg_buf_str(b, f->path[k].function);
            put_loc(b, &f->path[k].loc);
        }
        cg_buf_u64(b, f->nedits);
        for (size_t k = 0; k < f->nedits; k++) {
            const cg_edit *e = &f->edits[k];
            cg_buf_u64(b, e->start);
            cg_buf_u64(b, e->end);
            cg_buf_u64(b, e->line);
            cg_buf_u64(b, e->col);
            cg_buf_u64(b, e->end_line);
            cg_buf_u64(b, e->end_col);
            cg_buf_str(b, e->text);
            cg_buf_str(b, e->old_text);
            cg_buf_u64(b, e->file_digest);
        }
        cg_buf_u64(b, (uint64_t)f->fix_safe);
        cg_buf_str(b, f->fix_title);
        cg_buf_u64(b, (uint64_t)f->verdict);
        cg_buf_str(b, f->evidence);
    }
    cg_map_free(&lines);
    for (size_t i = 0; i < nlines; i++) free(keys[i]);
    free(keys);
    cg_buf_u64(b, r->nnotices - n0);
    for (size_t i = n0; i < r->nnotices; i++) {
        const cg_notice *no = &r->notices[i];
        cg_buf_u64(b, (uint64_t)no->level);
        cg_buf_str(b, no->path);
        cg_buf_u64(b, no->line);
        cg_buf_u64(b, no->col);
        cg_buf_str(b, no->message);
    }
}

static void free_decoded(cg_finding *f)
{
    free((char *)f->loc.path);
    free(f->message);
    free(f->fix);
    free((char *)f->capture.path);
    free(f->capture_kind);
    for (size_t k = 0; k < f->npath; k++) { free(f->path[k].function); free((char *)f->path[k].loc.path); }
    free(f->path);
    for (size_t k = 0; k < f->nedits; k++) { free(f->edits[k].text); free(f->edits[k].old_text); }
    free(f->edits);
    free(f->fix_title);
    free(f->evidence);
}

/* Decoding is done twice: once to check the whole payload (nothing is added
 * from a bad one), once to add. */
static int decode(cg_rd *rd, cg_report *r, int add)
{
    size_t seen = (size_t)cg_rd_u64(rd), analysed = (size_t)cg_rd_u64(rd);
    uint64_t nf = cg_rd_u64(rd);
    char **lines = NULL;    /* the source lines written so far (line_text refers to them) */
    size_t nlines = 0;
    for (uint64_t i = 0; i < nf && !rd->bad; i++) {
        cg_finding f;
        memset(&f, 0, sizeof f);
        f.rule = (int)cg_rd_u64(rd);
        f.level = (cg_severity)cg_rd_u64(rd);
        get_loc(rd, &f.loc);
        f.message = cg_rd_str(rd);
        f.fix = cg_rd_str(rd);
        uint64_t at = cg_rd_u64(rd);
        if (at == 0) {
            f.line_text = cg_rd_str(rd);
            if (f.line_text) {
                /* raw realloc: a line that cannot be kept marks the entry bad: a miss */
                char **g = realloc(lines, (nlines + 1) * sizeof *g);
                if (g) { lines = g; lines[nlines++] = f.line_text; }
                else { free(f.line_text); f.line_text = NULL; rd->bad = 1; }
            }
        } else if (at <= nlines) {
            f.line_text = lines[at - 1];
        } else {
            rd->bad = 1;
        }
        f.has_capture = (int)cg_rd_u64(rd);
        get_loc(rd, &f.capture);
        f.capture_kind = cg_rd_str(rd);
        uint64_t np = cg_rd_u64(rd);
        if (np > rd->n) rd->bad = 1;
        if (!rd->bad && np) {
            f.path = cg_xcalloc((size_t)np, sizeof *f.path);
            f.npath = (size_t)np;
            for (size_t k = 0; k < f.npath && !rd->bad; k++) {
                f.path[k].function = cg_rd_str(rd);
                get_loc(rd, &f.path[k].loc);
            }
        }
        uint64_t ne = rd->bad ? 0 : cg_rd_u64(rd);
        if (ne > rd->n) rd->bad = 1;
        if (!rd->bad && ne) {
            f.edits = cg_xcalloc((size_t)ne, sizeof *f.edits);
            f.nedits = (size_t)ne;
            for (size_t k = 0; k < f.nedits && !rd->bad; k++) {
                cg_edit *e = &f.edits[k];
                e->start = (uint32_t)cg_rd_u64(rd);
                e->end = (uint32_t)cg_rd_u64(rd);
                e->line = (uint32_t)cg_rd_u64(rd);
                e->col = (uint32_t)cg_rd_u64(rd);
                e->end_line = (uint32_t)cg_rd_u64(rd);
                e->end_col = (uint32_t)cg_rd_u64(rd);
                e->text = cg_rd_str(rd);
                e->old_text = cg_rd_str(rd);
                e->file_digest = cg_rd_u64(rd);
            }
        }
        f.fix_safe = (int)cg_rd_u64(rd);
        f.fix_title = cg_rd_str(rd);
        f.verdict = (cg_verdict)cg_rd_u64(rd);
        f.evidence = cg_rd_str(rd);
        if (f.rule < 0 || (size_t)f.rule >= cg_rule_count) rd->bad = 1;
        if (add && !rd->bad) cg_report_add(r, &f);
        free_decoded(&f);
    }
    for (size_t i = 0; i < nlines; i++) free(lines[i]);
    free(lines);
    uint64_t nn = rd->bad ? 0 : cg_rd_u64(rd);
    for (uint64_t i = 0; i < nn && !rd->bad; i++) {
        cg_level level = (cg_level)cg_rd_u64(rd);
        char *path = cg_rd_str(rd);
        uint32_t line = (uint32_t)cg_rd_u64(rd), col = (uint32_t)cg_rd_u64(rd);
        char *msg = cg_rd_str(rd);
        if (add && !rd->bad) cg_report_notice(r, level, path, line, col, "%s", msg ? msg : "");
        free(path);
        free(msg);
    }
    if (add && !rd->bad) {
        r->files_seen += seen;
        r->files_analysed += analysed;
    }
    return rd->bad ? -1 : 0;
}

int cg_cache_decode_report(cg_rd *rd, cg_report *r)
{
    cg_rd check = *rd;
    if (decode(&check, r, 0) != 0) return -1;
    decode(rd, r, 1);
    return rd->bad ? -1 : 0;
}
