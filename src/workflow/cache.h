/* cache.h - the persistent project index in `.cglint_cache/` (like
 * `.ruff_cache/`, ccache's manifests).
 *
 * Two stores, both private to one build of cglint (the version, the rule
 * table, the grammar and the binary itself make the identity; another
 * build ignores what this one wrote):
 *
 *   - the file index: per absolute path, what a file's stat said (device,
 *     inode, size, mtime, ctime), its content digest and the front end's
 *     facts about its bytes (for Python: does it mention a capture API).
 *     An unchanged stat answers without reading the file; a changed stat
 *     means reading it again, and the digest says whether it really changed.
 *   - memo entries: a front end's findings and notices for one project,
 *     keyed by a digest of everything it was given (the files and the
 *     options), with a manifest of what the analysis read (the digests of
 *     the files it parsed, the facts of the others).  A later run whose
 *     inputs check out against the manifest answers from the entry.
 *
 * Every entry carries its identity, key and a digest of its payload: a
 * truncated, corrupt or foreign entry is ignored (and rewritten by the next
 * run).  Writes go to a temporary file and are renamed into place, so
 * concurrent runs see either the old entry or the new one.  The directory is
 * created with a `.gitignore` holding `*` and a CACHEDIR.TAG.  No failure
 * here fails a run: without a usable directory the run is a cold one. */
#ifndef CG_CACHE_H
#define CG_CACHE_H
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "core/report.h"

typedef struct cg_digest { uint64_t lo, hi; } cg_digest;

/* A 128-bit digest of bytes (not cryptographic; seeded). */
cg_digest cg_digest_bytes(const void *p, size_t n, uint64_t seed);
static inline int cg_digest_eq(cg_digest a, cg_digest b) { return a.lo == b.lo && a.hi == b.hi; }

/* Incremental digest of keys: strings, integers, digests. */
typedef struct cg_keyhash { cg_digest d; } cg_keyhash;
void cg_keyhash_init(cg_keyhash *k, const char *what);
void cg_keyhash_str(cg_keyhash *k, const char *s);      /* NULL differs from "" */
void cg_keyhash_u64(cg_keyhash *k, uint64_t v);
void cg_keyhash_digest(cg_keyhash *k, cg_digest d);

typedef struct cg_cache cg_cache;

/* Open `dir` (created with its parents if need be, a .gitignore
 * and a CACHEDIR.TAG).  NULL with one sentence in err when it cannot be
 * used. */
cg_cache *cg_cache_open(const char *dir, char *err, size_t errlen);
/* Writes the file index back if it changed, frees everything. */
void cg_cache_close(cg_cache *c);
const char *cg_cache_dir(const cg_cache *c);
/* This build's identity (what every entry is stamped with). */
cg_digest cg_cache_identity(void);

/* ---- the file index ---------------------------------------------------- */
enum {
    CG_FACT_KNOWN = 1u << 31,  /* facts were computed for these bytes */
};
typedef struct cg_cache_entry {
    int have_digest;
    cg_digest digest;          /* of the raw bytes */
    uint32_t facts;            /* front end's; 0 when not computed */
} cg_cache_entry;

/* The entry of `abs_path` when `st` matches what was recorded (device,
 * inode, size, mtime, ctime): 1 and *out filled; else 0.  Thread-safe. */
int cg_cache_lookup(cg_cache *c, const char *abs_path, const struct stat *st, cg_cache_entry *out);
/* Record what is known now about the file whose stat is `st`.  A digest or
 * facts already recorded for the same stat are kept when not given (0).
 * Thread-safe. */
void cg_cache_record(cg_cache *c, const char *abs_path, const struct stat *st,
                     const cg_digest *digest, uint32_t facts);
/* Digest of a file's raw bytes, through the index when its stat is
 * unchanged.  0, or -1 when it cannot be read. */
int cg_cache_file_digest(cg_cache *c, const char *path, cg_digest *out);
/* The same with the file's stat just taken by the caller. */
int cg_cache_file_digest_st(cg_cache *c, const char *path, const struct stat *st, cg_digest *out);

/* ---- memo entries ------------------------------------------------------ */
/* The payload stored under (kind, key): malloc'ed, *len bytes; NULL when
 * there is none or it does not check out. */
void *cg_cache_get(cg_cache *c, const char *kind, cg_digest key, size_t *len);
/* Store a payload (temporary file, rename).  Failures are silent. */
void cg_cache_put(cg_cache *c, const char *kind, cg_digest key, const void *data, size_t len);

/* ---- payload encoding -------------------------------------------------- */
typedef struct cg_buf { char *p; size_t n, cap; int bad; } cg_buf;
void cg_buf_u64(cg_buf *b, uint64_t v);
void cg_buf_str(cg_buf *b, const char *s);           /* NULL is kept as NULL */
void cg_buf_bytes(cg_buf *b, const void *p, size_t n);
typedef struct cg_rd { const char *p; size_t n, off; int bad; } cg_rd;
uint64_t cg_rd_u64(cg_rd *r);
char *cg_rd_str(cg_rd *r);                           /* malloc'ed or NULL; check r->bad */
int cg_rd_bytes(cg_rd *r, void *out, size_t n);

/* What a front end added to a report: findings [f0, end), notices [n0, end),
 * and the counters.  Decoding adds the same findings and notices in the same
 * order (cg_report_add copies them as a cold run's would be). */
void cg_cache_encode_report(cg_buf *b, const cg_report *r, size_t f0, size_t n0,
                            size_t files_seen, size_t files_analysed);
int cg_cache_decode_report(cg_rd *rd, cg_report *r);
#endif
