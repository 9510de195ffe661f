/* source.h - one input file in memory, validated, with a line index.
 *
 * Loading is where bad input is caught: missing, unreadable, not a regular
 * file, too large, binary (NUL byte), not UTF-8.  A failed load fills `err`
 * with one clear sentence (no path: the caller prefixes it) and returns a
 * negative code; nothing is allocated then. */
#ifndef CG_SOURCE_H
#define CG_SOURCE_H
#include <stddef.h>
#include <stdint.h>
#include "file.h"

typedef struct cg_source {
    char *path;          /* display path, owned */
    char *text;          /* file bytes after a UTF-8 BOM, NUL-terminated, owned */
    size_t len;          /* bytes in text */
    uint32_t *line_start;/* byte offset in text of each line, owned */
    uint32_t nlines;
    int had_bom;
    int crlf;            /* at least one CRLF line ending seen */
    int replaced;        /* CG_SRC_LENIENT_UTF8: bytes replaced by '?' */
    uint32_t *lone_cr;   /* offsets of lone CRs (old Mac line ends), turned into LF in
                            `text` (same length: offsets are kept), owned, or NULL */
    size_t nlone_cr;
    char *encoding;      /* the PEP 263 encoding `text` was decoded from, or NULL for
                            UTF-8, owned */
    uint32_t *cont_before; /* UTF-8 continuation bytes before each CG_SRC_BLOCK bytes
                              of text (column lookups); NULL for ASCII, owned */
    uint64_t digest;     /* cg_source_digest's cache; 0 until computed */
    char **line_copy;    /* cg_source_line_text's copies, per line; NULL until asked */
} cg_source;
#define CG_SRC_BLOCK 64

enum {
    CG_SRC_OK = 0,
    CG_SRC_EOPEN = -1,    /* missing, unreadable, dangling link, loop */
    CG_SRC_ENOTREG = -2,  /* a directory, FIFO, device... */
    CG_SRC_ETOOBIG = -3,
    CG_SRC_EBINARY = -4,
    CG_SRC_EENCODING = -5,
    CG_SRC_EREAD = -6,
};

/* Read and validate `path`.  max_size 0 means no limit.  Returns CG_SRC_OK or a
 * negative code with a message in err. */
int cg_source_load(cg_source *out, const char *path, size_t max_size,
                   char *err, size_t errlen);

enum {
    CG_SRC_C = 1 << 0,            /* messages say C/C++ source, not Python source */
    CG_SRC_LENIENT_UTF8 = 1 << 1, /* invalid UTF-8 is not an error: each such byte
                                     becomes '?' in `text` (offsets unchanged); for
                                     languages whose parser reads the file itself */
    CG_SRC_NO_LINES = 1 << 2,     /* no line index yet (nlines 0): a file read only to
                                     be scanned; cg_source_index_lines adds it */
};
/* cg_source_load with CG_SRC_* flags. */
int cg_source_load_ex(cg_source *out, const char *path, size_t max_size, unsigned flags,
                      char *err, size_t errlen);
/* Bytes that are not on disk yet: an editor's unsaved buffers (`cglint
 * server`), a buffer piped in (`--stdin-filename`).  When a provider is set,
 * cg_source_load* asks it first, with the path as the caller has it; it
 * returns the bytes (borrowed: they must stay put until the load returns)
 * and their length, or NULL to read the disk.  One provider per process,
 * set before a run starts and cleared (NULL) after; the lookup itself must
 * be thread-safe (front ends load files on all cores). */
typedef const char *(*cg_source_provider_fn)(void *ctx, const char *path, size_t *len);
void cg_source_set_provider(cg_source_provider_fn fn, void *ctx);
/* The provider's bytes for `path`, or NULL when it has none (or none is set). */
const char *cg_source_provided(const char *path, size_t *len);
/* Is a provider set (a run over bytes that may not be the files on disk)? */
int cg_source_has_provider(void);
/* Take ownership of a buffer already in memory (tests); validates like load. */
int cg_source_from_buffer(cg_source *out, const char *path, const char *buf,
                          size_t len, char *err, size_t errlen);
void cg_source_free(cg_source *self);
/* The line index of a source loaded with CG_SRC_NO_LINES (a no-op when it
 * has one).  Returns -1 when out of memory. */
int cg_source_index_lines(cg_source *self);

/* Line `line` (1-based) without its line terminator; *len gets its length.
 * Returns "" for a line out of range. */
const char *cg_source_line(const cg_source *self, uint32_t line, size_t *len);
/* Line `line` (1-based) as a NUL-terminated string, without its terminator:
 * one copy per line, made on first use and kept until cg_source_free (many
 * findings on one long line share it).  Thread-safe.  "" out of range; NULL
 * when out of memory. */
const char *cg_source_line_text(const cg_source *self, uint32_t line);
/* 1-based column in Unicode code points of byte offset `byte_col` (0-based)
 * within line `line` (1-based).  Constant time (a table of code points per
 * 64 bytes), however long the line. */
uint32_t cg_source_column(const cg_source *self, uint32_t line, uint32_t byte_col);
/* A hash of `text`, never 0: what --fix compares to know that the file is
 * still the one that was analysed.  Computed once (thread-safe). */
uint64_t cg_source_digest(const cg_source *self);
/* A malloc'ed copy of `text` with its lone CRs restored (same offsets). */
char *cg_source_raw(const cg_source *self);
/* UTF-8 text (len bytes) in the file's own encoding, malloc'ed, its length in
 * *outlen; NULL when a character has no form in that encoding. */
char *cg_source_encode(const cg_source *self, const char *text, size_t len, size_t *outlen);
/* Check UTF-8; returns the byte offset of the first invalid sequence or -1. */
long cg_utf8_invalid_at(const char *s, size_t len);
#endif
