/* source.c - loading and validating one input file (see source.h). */
#include "source.h"
#include "core/alloc.h"
#include "file.h"
#include "hash.h"
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <strings.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

long cg_utf8_invalid_at(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        /* ASCII fast path, 8 bytes at a time */
        while (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL) break;
            i += 8;
        }
        if (i >= len) break;
        unsigned c = p[i];
        if (c < 0x80) { i++; continue; }
        size_t n;
        unsigned min;
        if ((c & 0xE0) == 0xC0) { n = 1; min = 0x80; c &= 0x1F; }
        else if ((c & 0xF0) == 0xE0) { n = 2; min = 0x800; c &= 0x0F; }
        else if ((c & 0xF8) == 0xF0) { n = 3; min = 0x10000; c &= 0x07; }
        else return (long)i;
        for (size_t k = 1; k <= n; k++) {
            if (i + k >= len || (p[i + k] & 0xC0) != 0x80) return (long)i;
            c = (c << 6) | (p[i + k] & 0x3F);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return (long)i;
        i += n + 1;
    }
    return -1;
}

/* Line and column (1-based, the column in code points) of byte offset off. */
static void line_col_of(const char *s, size_t off, size_t *line, size_t *col)
{
    size_t l = 1, c = 1;
    for (size_t i = 0; i < off; i++) {
        if (s[i] == '\n') { l++; c = 1; }
        else if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
    }
    *line = l; *col = c;
}

static int index_lines(cg_source *self)
{
    size_t cap = 64, n = 0;
    /* raw malloc here and below: sized by the input; failing makes this file unreadable (a notice) */
    uint32_t *ls = malloc(cap * sizeof *ls);
    if (!ls) return -1;
    ls[n++] = 0;
    const char *p = self->text, *end = self->text + self->len;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        if (p > self->text && p[-1] == '\r') self->crlf = 1;
        p++;
        if (n == cap) {
            cap *= 2;
            uint32_t *g = realloc(ls, cap * sizeof *ls);
            if (!g) { free(ls); return -1; }
            ls = g;
        }
        ls[n++] = (uint32_t)(p - self->text);
    }
    self->line_start = ls;
    self->nlines = (uint32_t)n;
    /* UTF-8 continuation bytes before each block of CG_SRC_BLOCK bytes, for
     * cg_source_column in constant time; none for an ASCII file */
    const unsigned char *t = (const unsigned char *)self->text;
    size_t i = 0;
    while (i < self->len && t[i] < 0x80) i++;
    if (i < self->len) {
        size_t nb = self->len / CG_SRC_BLOCK + 1;
        uint32_t *cb = malloc(nb * sizeof *cb);
        if (!cb) return -1;
        uint32_t c = 0;
        for (size_t b = 0; b < nb; b++) {
            cb[b] = c;
            size_t e = (b + 1) * CG_SRC_BLOCK < self->len ? (b + 1) * CG_SRC_BLOCK : self->len;
            for (size_t k = b * CG_SRC_BLOCK; k < e; k++) c += (t[k] & 0xC0) == 0x80;
        }
        self->cont_before = cb;
    }
    return 0;
}

/* Lone CRs (old Mac line ends, which Python accepts) become LF in place:
 * the same length, so every offset stays; their offsets are kept so that a
 * file written back (--fix) keeps its line ends. */
static int normalise_cr(cg_source *self)
{
    char *t = self->text, *end = t + self->len, *p = t;
    size_t cap = 0;
    while ((p = memchr(p, '\r', (size_t)(end - p))) != NULL) {
        if (p + 1 < end && p[1] == '\n') { p += 2; continue; }
        if (self->nlone_cr == cap) {
            cap = cap ? cap * 2 : 64;
            uint32_t *g = realloc(self->lone_cr, cap * sizeof *g);
            if (!g) return -1;
            self->lone_cr = g;
        }
        self->lone_cr[self->nlone_cr++] = (uint32_t)(p - t);
        *p++ = '\n';
    }
    return 0;
}

/* PEP 263: an encoding declared in a comment on line 1 or 2
 * (`# -*- coding: latin-1 -*-`).  Copies the name into enc; 0 when none. */
static int coding_cookie(const char *buf, size_t len, char *enc, size_t enclen)
{
    size_t pos = 0;
    for (int line = 0; line < 2 && pos < len; line++) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len;
        const char *l = buf + pos, *e = buf + end;
        const char *hash = memchr(l, '#', (size_t)(e - l));
        if (hash) {
            const char *c = memmem(hash, (size_t)(e - hash), "coding", 6);
            if (c && c + 6 < e && (c[6] == ':' || c[6] == '=')) {
                const char *v = c + 7;
                while (v < e && (*v == ' ' || *v == '\t')) v++;
                size_t n = 0;
                while (v + n < e && n + 1 < enclen &&
                       (isalnum((unsigned char)v[n]) || v[n] == '-' || v[n] == '_' || v[n] == '.'))
                    n++;
                if (n) { memcpy(enc, v, n); enc[n] = 0; return 1; }
            }
        } else {
            /* the cookie must be on a comment-only line; code ends the search */
            const char *p = l;
            while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f')) p++;
            if (p < e) return 0;
        }
        pos = end + 1;
    }
    return 0;
}

/* Re-encode buf between a Python codec name and UTF-8 with iconv
 * (to_utf8: from `enc`; else to it).  Returns a new malloc'ed,
 * NUL-terminated buffer and its length, or NULL. */
static char *recode(const char *buf, size_t len, const char *enc, int to_utf8, size_t *outlen)
{
    /* Python's codec names to iconv's: "latin-1" -> "LATIN1", "iso_8859_15" -> "ISO-8859-15" */
    char name[64];
    size_t k = 0;
    int latin = strncasecmp(enc, "latin", 5) == 0;
    for (const char *p = enc; *p && k + 1 < sizeof name; p++) {
        if (latin && (*p == '-' || *p == '_')) continue;
        name[k++] = *p == '_' ? '-' : (char)toupper((unsigned char)*p);
    }
    name[k] = 0;
    iconv_t cd = to_utf8 ? iconv_open("UTF-8", name) : iconv_open(name, "UTF-8");
    if (cd == (iconv_t)-1) return NULL;
    size_t cap = len * 4 + 16, left = cap;
    /* raw malloc: sized by the input (see index_lines) */
    char *out = malloc(cap + 1), *o = out;
    char *in = (char *)buf;
    size_t inleft = len;
    if (!out || iconv(cd, &in, &inleft, &o, &left) == (size_t)-1 ||
        iconv(cd, NULL, NULL, &o, &left) == (size_t)-1) {
        free(out);
        iconv_close(cd);
        return NULL;
    }
    iconv_close(cd);
    *outlen = cap - left;
    out[*outlen] = 0;
    return out;
}

/* Validate and take `buf` (malloc'ed, NUL-terminated, len bytes). */
static int adopt(cg_source *out, const char *path, char *buf, size_t len, unsigned flags,
                 char *err, size_t errlen)
{
    const void *nul = memchr(buf, 0, len);
    if (nul) {
        snprintf(err, errlen, "binary file (NUL byte at offset %zu), not %s source; skipped",
                 (size_t)((const char *)nul - buf), (flags & CG_SRC_C) ? "C/C++" : "Python");
        free(buf);
        return CG_SRC_EBINARY;
    }
    size_t skip = 0;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) skip = 3;
    long bad = cg_utf8_invalid_at(buf + skip, len - skip);
    char enc[64];
    const char *decoded_from = NULL;
    if (bad >= 0 && !skip && coding_cookie(buf, len, enc, sizeof enc) &&
        strcasecmp(enc, "utf-8") != 0 && strcasecmp(enc, "utf8") != 0) {
        /* a declared legacy encoding (latin-1, cp1252, koi8-r...): read it as Python does */
        size_t n;
        char *u = recode(buf, len, enc, 1, &n);
        if (!u) {
            snprintf(err, errlen, "declares encoding '%s' (PEP 263), but its bytes could not be decoded "
                     "from it; skipped", enc);
            free(buf);
            return CG_SRC_EENCODING;
        }
        free(buf);
        buf = u;
        len = n;
        bad = cg_utf8_invalid_at(buf, len);
        decoded_from = enc;
    }
    int replaced = 0;
    while (bad >= 0 && (flags & CG_SRC_LENIENT_UTF8)) {
        buf[skip + (size_t)bad] = '?';
        replaced++;
        long next = cg_utf8_invalid_at(buf + skip + bad, len - skip - (size_t)bad);
        bad = next < 0 ? -1 : bad + next;
    }
    if (bad >= 0) {
        size_t line, col;
        line_col_of(buf + skip, (size_t)bad, &line, &col);
        snprintf(err, errlen,
                 "not valid UTF-8 (byte 0x%02x at line %zu, column %zu); source must be UTF-8; skipped",
                 (unsigned char)buf[skip + (size_t)bad], line, col);
        free(buf);
        return CG_SRC_EENCODING;
    }
    memset(out, 0, sizeof *out);
    if (skip) memmove(buf, buf + skip, len - skip + 1);
    out->had_bom = skip != 0;
    out->replaced = replaced;
    out->text = buf;
    out->len = len - skip;
    out->path = cg_xstrdup(path);
    out->encoding = decoded_from ? cg_xstrdup(decoded_from) : NULL;
    if (!out->path || (decoded_from && !out->encoding) || normalise_cr(out) < 0 ||
        (!(flags & CG_SRC_NO_LINES) && index_lines(out) < 0)) {
        cg_source_free(out);
        snprintf(err, errlen, "out of memory");
        return CG_SRC_EREAD;
    }
    return CG_SRC_OK;
}

int cg_source_from_buffer(cg_source *out, const char *path, const char *buf, size_t len,
                          char *err, size_t errlen)
{
    /* raw malloc: sized by the input; failing is this file's error */
    char *copy = malloc(len + 1);
    if (!copy) { snprintf(err, errlen, "out of memory"); return CG_SRC_EREAD; }
    memcpy(copy, buf, len);
    copy[len] = 0;
    return adopt(out, path, copy, len, 0, err, errlen);
}

int cg_source_load(cg_source *out, const char *path, size_t max_size, char *err, size_t errlen)
{
    return cg_source_load_ex(out, path, max_size, 0, err, errlen);
}

static cg_source_provider_fn provider;
static void *provider_ctx;

void cg_source_set_provider(cg_source_provider_fn fn, void *ctx)
{
    provider = fn;
    provider_ctx = ctx;
}

int cg_source_has_provider(void) { return provider != NULL; }

const char *cg_source_provided(const char *path, size_t *len)
{
    return provider ? provider(provider_ctx, path, len) : NULL;
}

int cg_source_load_ex(cg_source *out, const char *path, size_t max_size, unsigned flags,
                      char *err, size_t errlen)
{
    size_t plen;
    const char *mem = cg_source_provided(path, &plen);
    if (mem) {
        if (max_size && plen > max_size) {
            char have[32], limit[32];
            cg_format_size(have, sizeof have, plen);
            cg_format_size(limit, sizeof limit, max_size);
            snprintf(err, errlen, "file is %s, over the %s limit; skipped (raise it with --max-file-size)",
                     have, limit);
            return CG_SRC_ETOOBIG;
        }
        /* raw malloc: sized by the input; failing is this file's error */
        char *copy = malloc(plen + 1);
        if (!copy) { snprintf(err, errlen, "out of memory"); return CG_SRC_EREAD; }
        memcpy(copy, mem, plen);
        copy[plen] = 0;
        return adopt(out, path, copy, plen, flags, err, errlen);
    }
    /* only a regular file, never blocking: a FIFO named foo.py must not hang the run */
    char ferr[256];
    size_t len = 0;
    char *buf = cg_file_read(path, max_size, &len, ferr, sizeof ferr);
    if (!buf) {
        int e = errno;
        int code = e == EFBIG ? CG_SRC_ETOOBIG
                 : strncmp(ferr, "not a regular file", 18) == 0 ? CG_SRC_ENOTREG
                 : strncmp(ferr, "read error", 10) == 0 || e == ENOMEM ? CG_SRC_EREAD
                 : CG_SRC_EOPEN;
        snprintf(err, errlen, "%s%s; skipped", ferr, code == CG_SRC_ETOOBIG ? " (raise it with --max-file-size)" : "");
        return code;
    }
    return adopt(out, path, buf, len, flags, err, errlen);
}

int cg_source_index_lines(cg_source *self)
{
    return self->line_start ? 0 : index_lines(self);
}

void cg_source_free(cg_source *self)
{
    if (!self) return;
    free(self->path);
    free(self->text);
    free(self->line_start);
    free(self->cont_before);
    free(self->lone_cr);
    free(self->encoding);
    if (self->line_copy) {
        for (uint32_t i = 0; i < self->nlines; i++) free(self->line_copy[i]);
        free(self->line_copy);
    }
    memset(self, 0, sizeof *self);
}

const char *cg_source_line(const cg_source *self, uint32_t line, size_t *len)
{
    if (line < 1 || line > self->nlines) { *len = 0; return ""; }
    size_t s = self->line_start[line - 1];
    size_t e = line < self->nlines ? self->line_start[line] : self->len;
    while (e > s && (self->text[e - 1] == '\n' || self->text[e - 1] == '\r')) e--;
    *len = e - s;
    return self->text + s;
}

const char *cg_source_line_text(const cg_source *self, uint32_t line)
{
    if (line < 1 || line > self->nlines) return "";
    cg_source *s = (cg_source *)self;
    char **tab = __atomic_load_n(&s->line_copy, __ATOMIC_ACQUIRE);
    if (!tab) {
        /* raw calloc: sized by the input; NULL: the caller goes on without the line */
        char **fresh = calloc(s->nlines, sizeof *fresh), **expected = NULL;
        if (!fresh) return NULL;
        if (__atomic_compare_exchange_n(&s->line_copy, &expected, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            tab = fresh;
        } else {
            free(fresh);
            tab = expected;
        }
    }
    char *t = __atomic_load_n(&tab[line - 1], __ATOMIC_ACQUIRE);
    if (t) return t;
    size_t len;
    const char *l = cg_source_line(self, line, &len);
    char *copy = strndup(l, len), *expected = NULL;
    if (!copy) return NULL;
    if (__atomic_compare_exchange_n(&tab[line - 1], &expected, copy, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return copy;
    free(copy);
    return expected;
}

/* UTF-8 continuation bytes in text[0, off). */
static size_t cont_upto(const cg_source *self, size_t off)
{
    size_t b = off / CG_SRC_BLOCK, n = self->cont_before[b];
    const unsigned char *t = (const unsigned char *)self->text;
    for (size_t k = b * CG_SRC_BLOCK; k < off; k++) n += (t[k] & 0xC0) == 0x80;
    return n;
}

uint32_t cg_source_column(const cg_source *self, uint32_t line, uint32_t byte_col)
{
    size_t len;
    const char *s = cg_source_line(self, line, &len);
    size_t in = byte_col < len ? byte_col : len;
    size_t col = 1 + in;
    if (self->cont_before && in) {
        size_t at = (size_t)(s - self->text);
        col -= cont_upto(self, at + in) - cont_upto(self, at);
    }
    if (byte_col > len) col += byte_col - len;
    return col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
}

uint64_t cg_source_digest(const cg_source *self)
{
    uint64_t h = __atomic_load_n(&((cg_source *)self)->digest, __ATOMIC_RELAXED);
    if (!h) {
        h = cg_hash_bytes(self->text, self->len) | 1;   /* never 0: 0 means not computed */
        __atomic_store_n(&((cg_source *)self)->digest, h, __ATOMIC_RELAXED);
    }
    return h;
}

char *cg_source_raw(const cg_source *self)
{
    /* raw malloc here and below: sized by the input; NULL is the caller's to handle */
    char *copy = malloc(self->len + 1);
    if (!copy) return NULL;
    memcpy(copy, self->text, self->len + 1);
    for (size_t i = 0; i < self->nlone_cr; i++) copy[self->lone_cr[i]] = '\r';
    return copy;
}

char *cg_source_encode(const cg_source *self, const char *text, size_t len, size_t *outlen)
{
    if (!self->encoding) {
        char *copy = malloc(len + 1);
        if (!copy) return NULL;
        memcpy(copy, text, len);
        copy[len] = 0;
        *outlen = len;
        return copy;
    }
    return recode(text, len, self->encoding, 0, outlen);
}
