/* test_core.c - behaviour tests for the core library (cglint_core):
 * source loading and validation, the UTF-8 checker, rule selection, the hash
 * map, the arena, file discovery and the report.
 *
 * Every test builds its own input (buffers in memory, or files in a fresh
 * mkdtemp directory removed afterwards) and checks results that a wrong
 * implementation would get wrong.
 *
 * Tests whose name starts with "bug_" check documented behaviour that the
 * current code gets wrong; they are expected to fail until src/ is fixed
 * (see the comment above each for the file and function at fault). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/arena.h"
#include "workflow/cache.h"
#include "core/hash.h"
#include "core/report.h"
#include "core/rules.h"
#include "core/source.h"
#include "workflow/walk.h"

/* ---- helpers ---------------------------------------------------------------- */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    remove(path);
    return 0;
}

static void rm_rf(const char *dir)
{
    nftw(dir, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

/* A fresh temporary directory per test, in *state. */
static int tmp_setup(void **state)
{
    const char *base = getenv("TMPDIR");
    char *tmpl = NULL;
    if (asprintf(&tmpl, "%s/cglint_core.XXXXXX", base && *base ? base : "/tmp") < 0) return -1;
    if (!mkdtemp(tmpl)) { free(tmpl); return -1; }
    *state = tmpl;
    return 0;
}

static int tmp_teardown(void **state)
{
    char *dir = *state;
    if (dir) { rm_rf(dir); free(dir); }
    return 0;
}

static char *join(const char *a, const char *b)
{
    char *s = NULL;
    assert_true(asprintf(&s, "%s/%s", a, b) >= 0);
    return s;
}

static void write_file(const char *dir, const char *rel, const char *data, size_t len)
{
    char *p = join(dir, rel);
    /* make parent directories */
    for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    if (len) assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
    free(p);
}

static void write_str(const char *dir, const char *rel, const char *text)
{
    write_file(dir, rel, text, strlen(text));
}

static void make_dir(const char *dir, const char *rel)
{
    char *p = join(dir, rel);
    assert_int_equal(mkdir(p, 0755), 0);
    free(p);
}

static void make_link(const char *dir, const char *rel, const char *target)
{
    char *p = join(dir, rel);
    assert_int_equal(symlink(target, p), 0);
    free(p);
}

static int load_buf(cg_source *s, const char *buf, size_t len, char *err, size_t errlen)
{
    err[0] = 0;
    return cg_source_from_buffer(s, "t.py", buf, len, err, errlen);
}

static int load_path(cg_source *s, const char *dir, const char *rel, size_t max, char *err, size_t errlen)
{
    char *p = join(dir, rel);
    err[0] = 0;
    int rc = cg_source_load(s, p, max, err, errlen);
    free(p);
    return rc;
}

#define assert_contains(hay, needle) \
    do { \
        const char *h_ = (hay), *n_ = (needle); \
        if (!h_ || !strstr(h_, n_)) fail_msg("expected \"%s\" in \"%s\"", n_, h_ ? h_ : "(null)"); \
    } while (0)

/* ---- cg_source_from_buffer / cg_source_load -------------------------------- */

static void test_source_nul_byte(void **state)
{
    (void)state;
    cg_source s;
    char err[256];
    static const char buf[] = "import torch\nx = 1\0\ny = 2\n";
    assert_int_equal(load_buf(&s, buf, sizeof buf - 1, err, sizeof err), CG_SRC_EBINARY);
    assert_contains(err, "offset 18");
    /* a NUL as the very first byte */
    assert_int_equal(load_buf(&s, "\0abc", 4, err, sizeof err), CG_SRC_EBINARY);
    assert_contains(err, "offset 0");
}

static void expect_encoding(const char *buf, size_t len, const char *where)
{
    cg_source s;
    char err[256];
    int rc = load_buf(&s, buf, len, err, sizeof err);
    if (rc != CG_SRC_EENCODING) fail_msg("expected CG_SRC_EENCODING for %s, got %d (%s)", where, rc, err);
    assert_contains(err, where);
}

static void test_source_invalid_utf8(void **state)
{
    (void)state;
    /* a lone continuation byte */
    expect_encoding("ab\x80\n", 4, "line 1, column 3");
    /* overlong encoding of NUL */
    expect_encoding("x = 1\n\xC0\x80\n", 8, "line 2, column 1");
    /* a UTF-16 surrogate (U+D800) */
    expect_encoding("a\nb\n  \xED\xA0\x80", 9, "line 3, column 3");
    /* a sequence cut short by the end of the file */
    expect_encoding("ok\n\xE4\xB8", 5, "line 2, column 1");
    /* the byte is named */
    cg_source s;
    char err[256];
    assert_int_equal(load_buf(&s, "ab\x80", 3, err, sizeof err), CG_SRC_EENCODING);
    assert_contains(err, "0x80");
    /* after a BOM: positions are counted in the text after it */
    expect_encoding("\xEF\xBB\xBFq\xFF", 5, "line 1, column 2");
}

/* Columns count code points everywhere in cglint (docs/json-schema.md,
 * report.h).  src/core/source.c line_col_of() counts bytes instead, so an
 * invalid byte after non-ASCII text is reported at the wrong column: for
 * "é\x80" the message says column 3, the invalid byte is at column 2. */
static void source_invalid_utf8_column_counts_code_points(void **state)
{
    (void)state;
    expect_encoding("\xC3\xA9\x80", 3, "line 1, column 2");
    expect_encoding("s = \"\xE4\xB8\xAD\xF0\x9F\x98\x80\"\xFF", 14, "line 1, column 9");
}

static void test_source_valid_multibyte(void **state)
{
    (void)state;
    cg_source s;
    char err[256];
    /* é (2 bytes), 中 (3 bytes), 😀 (4 bytes), U+10FFFF, U+E000, U+D7FF */
    static const char buf[] = "s = \"\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80\"\n"
                              "t = \"\xF4\x8F\xBF\xBF\xEE\x80\x80\xED\x9F\xBF\"\n";
    assert_int_equal(load_buf(&s, buf, sizeof buf - 1, err, sizeof err), CG_SRC_OK);
    assert_int_equal(s.len, sizeof buf - 1);
    assert_memory_equal(s.text, buf, sizeof buf - 1);
    assert_int_equal(s.text[s.len], 0);
    assert_int_equal(s.had_bom, 0);
    assert_int_equal(s.crlf, 0);
    assert_string_equal(s.path, "t.py");
    size_t len;
    const char *l1 = cg_source_line(&s, 1, &len);
    assert_int_equal(len, 15);
    assert_memory_equal(l1, buf, 15);
    cg_source_free(&s);
}

/* PEP 263: a declared legacy encoding is decoded as Python decodes it. */
static void test_source_coding_cookie(void **state)
{
    (void)state;
    cg_source src;
    char err[256];
    const char latin[] = "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n";
    assert_int_equal(cg_source_from_buffer(&src, "l.py", latin, sizeof latin - 1, err, sizeof err), CG_SRC_OK);
    assert_non_null(strstr(src.text, "caf\xc3\xa9"));
    assert_int_equal(cg_source_column(&src, 2, 10), 10);
    cg_source_free(&src);
    /* on line 2, after a shebang */
    const char koi[] = "#!/usr/bin/env python\n# vim: set fileencoding=koi8-r :\nx = '\xf0'\n";
    assert_int_equal(cg_source_from_buffer(&src, "k.py", koi, sizeof koi - 1, err, sizeof err), CG_SRC_OK);
    assert_null(memchr(src.text, 0xf0, src.len));   /* re-encoded: no raw KOI8 byte left */
    cg_source_free(&src);
    /* declared, but the bytes do not decode: one clear error naming it */
    const char bad[] = "# coding: ascii\nx = '\xe9'\n";
    assert_int_equal(cg_source_from_buffer(&src, "a.py", bad, sizeof bad - 1, err, sizeof err), CG_SRC_EENCODING);
    assert_non_null(strstr(err, "'ascii'"));
    /* a cookie after code does not count */
    const char late[] = "import os\nimport sys\n# coding: latin-1\nx = '\xe9'\n";
    assert_int_equal(cg_source_from_buffer(&src, "b.py", late, sizeof late - 1, err, sizeof err), CG_SRC_EENCODING);
}

static void test_source_bom_stripped(void **state)
{
    (void)state;
    cg_source s;
    char err[256];
    static const char buf[] = "\xEF\xBB\xBFimport torch\nx = 1\n";
    assert_int_equal(load_buf(&s, buf, sizeof buf - 1, err, sizeof err), CG_SRC_OK);
    assert_int_equal(s.had_bom, 1);
    assert_int_equal(s.len, sizeof buf - 1 - 3);
    assert_string_equal(s.text, "import torch\nx = 1\n");
    size_t len;
    const char *l1 = cg_source_line(&s, 1, &len);
    assert_int_equal(len, 12);
    assert_memory_equal(l1, "import torch", 12);
    /* columns on the first line are not shifted by the BOM */
    assert_int_equal(cg_source_column(&s, 1, 7), 8);
    cg_source_free(&s);

    /* a BOM-only file is an empty source */
    assert_int_equal(load_buf(&s, "\xEF\xBB\xBF", 3, err, sizeof err), CG_SRC_OK);
    assert_int_equal(s.had_bom, 1);
    assert_int_equal(s.len, 0);
    assert_string_equal(s.text, "");
    cg_source_free(&s);

    /* BOM bytes later in the file are not stripped (U+FEFF is valid UTF-8) */
    assert_int_equal(load_buf(&s, "a\xEF\xBB\xBF", 4, err, sizeof err), CG_SRC_OK);
    assert_int_equal(s.had_bom, 0);
    assert_int_equal(s.len, 4);
    cg_source_free(&s);
}

static void test_source_crlf_lines(void **state)
{
    (void)state;
    cg_source s;
    char err[256];
    static const char buf[] = "import torch\r\nx = 1\r\n\r\nlast";
    assert_int_equal(load_buf(&s, buf, sizeof buf - 1, err, sizeof err), CG_SRC_OK);
    assert_int_equal(s.crlf, 1);
    assert_int_equal(s.nlines, 4);
    size_t len;
    const char *l;
    l = cg_source_line(&s, 1, &len);
    assert_int_equal(len, 12);
    assert_memory_equal(l, "import torch", 12);
    l = cg_source_line(&s, 2, &len);
    assert_int_equal(len, 5);
    assert_memory_equal(l, "x = 1", 5);
    l = cg_source_line(&s, 3, &len);
    assert_int_equal(len, 0);
    l = cg_source_line(&s, 4, &len);
    assert_int_equal(len, 4);
    assert_memory_equal(l, "last", 4);
    /* out of range: "" */
    l = cg_source_line(&s, 5, &len);
    assert_int_equal(len, 0);
    assert_string_equal(l, "");
    l = cg_source_line(&s, 0, &len);
    assert_int_equal(len, 0);
    cg_source_free(&s);

    /* LF only: no crlf flag; a lone \r is not a CRLF ending but a line end of
     * its own (Python's universal newlines), turned into \n in place */
    assert_int_equal(load_buf(&s, "a\nb\rc\n", 6, err, sizeof err), CG_SRC_OK);
    assert_int_equal(s.crlf, 0);
    assert_int_equal(s.nlines, 4);
    assert_int_equal(s.len, 6);
    assert_int_equal(s.nlone_cr, 1);
    assert_int_equal(s.lone_cr[0], 3);
    l = cg_source_line(&s, 3, &len);
    assert_int_equal(len, 1);
    assert_memory_equal(l, "c", 1);
    char *raw = cg_source_raw(&s);
    assert_memory_equal(raw, "a\nb\rc\n", 6);
    free(raw);
    cg_source_free(&s);

    /* a CRLF anywhere sets the flag */
    assert_int_equal(load_buf(&s, "a\nb\r\nc\n", 7, err, sizeof err), CG_SRC_OK);
    assert_int_equal(s.crlf, 1);
    l = cg_source_line(&s, 2, &len);
    assert_int_equal(len, 1);
    assert_memory_equal(l, "b", 1);
    cg_source_free(&s);
}

static void test_source_column_code_points(void **state)
{
    (void)state;
    cg_source s;
    char err[256];
    /* line 2: "é中😀x" - bytes 0..1 é, 2..4 中, 5..8 😀, 9 x */
    static const char buf[] = "abc\n\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80x = 1\r\n";
    assert_int_equal(load_buf(&s, buf, sizeof buf - 1, err, sizeof err), CG_SRC_OK);
    assert_int_equal(cg_source_column(&s, 1, 0), 1);
    assert_int_equal(cg_source_column(&s, 1, 2), 3);
    assert_int_equal(cg_source_column(&s, 2, 0), 1);
    assert_int_equal(cg_source_column(&s, 2, 2), 2);
    assert_int_equal(cg_source_column(&s, 2, 5), 3);
    assert_int_equal(cg_source_column(&s, 2, 9), 4);
    assert_int_equal(cg_source_column(&s, 2, 10), 5);
    /* the end of the line (exclusive end column of a span reaching it) */
    assert_int_equal(cg_source_column(&s, 2, 14), 9);
    cg_source_free(&s);
}

/* Columns come from a table of code points per 64 bytes (constant time on a
 * long line with many findings): the same as counting from the line start,
 * on lines that cross many blocks, whatever the mix of sequence lengths. */
static void test_source_column_long_lines(void **state)
{
    (void)state;
    static const char *const pieces[] = { "a", "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "  " };
    char *buf = malloc(40000);
    size_t n = 0;
    unsigned seed = 7;
    for (int line = 0; line < 5; line++) {
        for (int i = 0; i < 1500 + line * 300; i++) {
            seed = seed * 1103515245u + 12345u;
            const char *p = pieces[(seed >> 16) % 5];
            memcpy(buf + n, p, strlen(p));
            n += strlen(p);
        }
        buf[n++] = '\n';
    }
    cg_source s;
    char err[256];
    assert_int_equal(load_buf(&s, buf, n, err, sizeof err), CG_SRC_OK);
    for (uint32_t l = 1; l <= 5; l++) {
        size_t len;
        const char *t = cg_source_line(&s, l, &len);
        uint32_t naive = 1;
        for (size_t b = 0; b <= len + 3; b++) {
            assert_int_equal(cg_source_column(&s, l, (uint32_t)b), naive);
            if (b < len) naive += ((unsigned char)t[b] & 0xC0) != 0x80;
            else naive++;
        }
    }
    cg_source_free(&s);
    free(buf);
}

static void test_source_load_regular(void **state)
{
    const char *dir = *state;
    write_str(dir, "ok.py", "import torch\n");
    cg_source s;
    char err[256];
    char *p = join(dir, "ok.py");
    assert_int_equal(cg_source_load(&s, p, 0, err, sizeof err), CG_SRC_OK);
    assert_string_equal(s.path, p);
    assert_string_equal(s.text, "import torch\n");
    assert_int_equal(s.len, 13);
    cg_source_free(&s);
    free(p);
    /* an empty file is fine */
    write_file(dir, "empty.py", "", 0);
    assert_int_equal(load_path(&s, dir, "empty.py", 0, err, sizeof err), CG_SRC_OK);
    assert_int_equal(s.len, 0);
    cg_source_free(&s);
    /* a NUL and bad UTF-8 are caught when loading from disk too */
    write_file(dir, "bin.py", "ab\0c", 4);
    assert_int_equal(load_path(&s, dir, "bin.py", 0, err, sizeof err), CG_SRC_EBINARY);
    assert_contains(err, "offset 2");
    write_str(dir, "lat.py", "# caf\xE9\n");
    assert_int_equal(load_path(&s, dir, "lat.py", 0, err, sizeof err), CG_SRC_EENCODING);
    assert_contains(err, "line 1, column 6");
}

static void test_source_too_big(void **state)
{
    const char *dir = *state;
    write_str(dir, "eleven.py", "x = 123456\n");   /* 11 bytes */
    cg_source s;
    char err[256];
    assert_int_equal(load_path(&s, dir, "eleven.py", 10, err, sizeof err), CG_SRC_ETOOBIG);
    assert_contains(err, "limit");
    /* exactly the limit is allowed; 0 means no limit */
    assert_int_equal(load_path(&s, dir, "eleven.py", 11, err, sizeof err), CG_SRC_OK);
    cg_source_free(&s);
    assert_int_equal(load_path(&s, dir, "eleven.py", 0, err, sizeof err), CG_SRC_OK);
    cg_source_free(&s);
}

/* src/core/source.c cg_source_load(): the ETOOBIG message prints both sizes
 * as "%.1f MiB", so any limit under 52 KiB reads "file is 0.0 MiB, over the
 * 0.0 MiB limit": the numbers say nothing.  A clear message gives sizes the
 * user can act on (bytes or KiB for small values). */
static void source_too_big_message_has_readable_sizes(void **state)
{
    const char *dir = *state;
    write_str(dir, "eleven.py", "x = 123456\n");   /* 11 bytes */
    cg_source s;
    char err[256];
    assert_int_equal(load_path(&s, dir, "eleven.py", 10, err, sizeof err), CG_SRC_ETOOBIG);
    if (strstr(err, "0.0 MiB")) fail_msg("unreadable sizes in: %s", err);
    assert_contains(err, "11");
    assert_contains(err, "10");
}

static void test_source_not_regular(void **state)
{
    const char *dir = *state;
    cg_source s;
    char err[256];
    make_dir(dir, "pkg.py");
    assert_int_equal(load_path(&s, dir, "pkg.py", 0, err, sizeof err), CG_SRC_ENOTREG);
    assert_contains(err, "directory");

    char *fifo = join(dir, "pipe.py");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    alarm(10);  /* a blocking open would hang: fail by SIGALRM instead */
    err[0] = 0;
    assert_int_equal(cg_source_load(&s, fifo, 0, err, sizeof err), CG_SRC_ENOTREG);
    alarm(0);
    assert_contains(err, "FIFO");
    free(fifo);
}

static void test_source_open_errors(void **state)
{
    const char *dir = *state;
    cg_source s;
    char err[256];
    assert_int_equal(load_path(&s, dir, "missing.py", 0, err, sizeof err), CG_SRC_EOPEN);
    assert_contains(err, "No such file");

    make_link(dir, "dangling.py", "nowhere.py");
    assert_int_equal(load_path(&s, dir, "dangling.py", 0, err, sizeof err), CG_SRC_EOPEN);
    assert_contains(err, "broken symbolic link");

    make_link(dir, "a.py", "b.py");
    make_link(dir, "b.py", "a.py");
    assert_int_equal(load_path(&s, dir, "a.py", 0, err, sizeof err), CG_SRC_EOPEN);
    assert_contains(err, "symbolic link loop");

    /* a good symlink is followed */
    write_str(dir, "real.py", "x = 1\n");
    make_link(dir, "alias.py", "real.py");
    assert_int_equal(load_path(&s, dir, "alias.py", 0, err, sizeof err), CG_SRC_OK);
    assert_string_equal(s.text, "x = 1\n");
    cg_source_free(&s);
}

/* ---- cg_utf8_invalid_at ----------------------------------------------------- */

static void test_utf8_invalid_at(void **state)
{
    (void)state;
#define U(lit) cg_utf8_invalid_at(lit, sizeof lit - 1)
    assert_int_equal(cg_utf8_invalid_at("", 0), -1);
    assert_int_equal(U("plain ascii text, longer than eight bytes"), -1);
    assert_int_equal(U("\0embedded NUL is valid UTF-8"), -1);
    /* the 8-byte ASCII fast path must not skip a bad byte at any position */
    for (size_t pos = 0; pos < 20; pos++) {
        char b[21];
        memset(b, 'a', 20);
        b[pos] = (char)0x80;
        assert_int_equal(cg_utf8_invalid_at(b, 20), (long)pos);
    }
    /* boundaries of each length */
    assert_int_equal(U("\xC2\x80"), -1);           /* U+0080 */
    assert_int_equal(U("\xDF\xBF"), -1);           /* U+07FF */
    assert_int_equal(U("\xE0\xA0\x80"), -1);       /* U+0800 */
    assert_int_equal(U("\xEF\xBF\xBF"), -1);       /* U+FFFF */
    assert_int_equal(U("\xF0\x90\x80\x80"), -1);   /* U+10000 */
    assert_int_equal(U("\xF4\x8F\xBF\xBF"), -1);   /* U+10FFFF */
    assert_int_equal(U("\xED\x9F\xBF"), -1);       /* U+D7FF */
    assert_int_equal(U("\xEE\x80\x80"), -1);       /* U+E000 */
    /* overlong forms */
    assert_int_equal(U("\xC0\x80"), 0);
    assert_int_equal(U("\xC1\xBF"), 0);
    assert_int_equal(U("\xE0\x9F\xBF"), 0);
    assert_int_equal(U("\xF0\x8F\xBF\xBF"), 0);
    /* surrogates */
    assert_int_equal(U("\xED\xA0\x80"), 0);
    assert_int_equal(U("\xED\xBF\xBF"), 0);
    /* beyond U+10FFFF and bytes that never start a sequence */
    assert_int_equal(U("\xF4\x90\x80\x80"), 0);
    assert_int_equal(U("\xF5\x80\x80\x80"), 0);
    assert_int_equal(U("\xF8\x88\x80\x80\x80"), 0);
    assert_int_equal(U("\xFE"), 0);
    assert_int_equal(U("\xFF"), 0);
    assert_int_equal(U("abc\x80"), 3);
    /* truncated at the end, by the length argument too */
    assert_int_equal(U("ab\xC3"), 2);
    assert_int_equal(U("ab\xE4\xB8"), 2);
    assert_int_equal(U("ab\xF0\x9F\x98"), 2);
    assert_int_equal(cg_utf8_invalid_at("\xC3\xA9", 1), 0);
    assert_int_equal(cg_utf8_invalid_at("x\xF0\x9F\x98\x80", 4), 1);
    /* a continuation byte replaced by ASCII */
    assert_int_equal(U("\xE4\x41\x80"), 0);
    assert_int_equal(U("ok \xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80 \xC3("), 15);
#undef U
}

/* ---- rules ------------------------------------------------------------------ */

static size_t count_on(const cg_ruleset *rs)
{
    size_t n = 0;
    for (size_t i = 0; i < cg_rule_count; i++) n += rs->on[i] != 0;
    return n;
}

static size_t count_prefix(const char *prefix)
{
    size_t n = 0;
    for (size_t i = 0; i < cg_rule_count; i++) n += strncmp(cg_rules[i].id, prefix, strlen(prefix)) == 0;
    return n;
}

/* every rule that is on starts with prefix, and every such rule is on */
static void assert_exactly_prefix(const cg_ruleset *rs, const char *prefix)
{
    for (size_t i = 0; i < cg_rule_count; i++) {
        int want = strncmp(cg_rules[i].id, prefix, strlen(prefix)) == 0;
        if (!!rs->on[i] != want)
            fail_msg("rule %s is %s, expected %s for prefix %s", cg_rules[i].id,
                     rs->on[i] ? "on" : "off", want ? "on" : "off", prefix);
    }
}

static void test_rules_catalog(void **state)
{
    (void)state;
    assert_true(cg_rule_count > 0);
    assert_true(count_prefix("CG1") > 0);
    assert_true(count_prefix("CG3") > 0);
    int i = cg_rule_index("CG101");
    assert_true(i >= 0);
    assert_string_equal(cg_rules[i].id, "CG101");
    assert_int_equal(cg_rule_index("cg101"), i);
    assert_int_equal(cg_rule_index("CG999"), -1);
    assert_int_equal(cg_rule_index("CG10"), -1);
    assert_int_equal(cg_rule_index(""), -1);
    assert_string_equal(cg_severity_name(CG_SEV_ERROR), "error");
    assert_string_equal(cg_severity_name(CG_SEV_WARNING), "warning");
    assert_string_equal(cg_severity_name(CG_SEV_NOTE), "note");
}

static void test_rules_select(void **state)
{
    (void)state;
    cg_ruleset rs;
    char bad[64];

    cg_ruleset_all(&rs);
    assert_int_equal(count_on(&rs), cg_rule_count);

    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_select(&rs, "CG1", 1, bad, sizeof bad), 0);
    assert_exactly_prefix(&rs, "CG1");

    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_select(&rs, "CG101", 1, bad, sizeof bad), 0);
    assert_exactly_prefix(&rs, "CG101");
    assert_int_equal(count_on(&rs), 1);

    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_select(&rs, "cg3", 1, bad, sizeof bad), 0);
    assert_exactly_prefix(&rs, "CG3");

    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_select(&rs, "CG101", 1, bad, sizeof bad), 0);
    assert_int_equal(cg_ruleset_select(&rs, "ALL", 1, bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), cg_rule_count);
    assert_int_equal(cg_ruleset_select(&rs, "all", 1, bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), cg_rule_count);

    /* a list, with spaces */
    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_select(&rs, "CG101, CG3", 1, bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), 1 + count_prefix("CG3"));
    assert_true(rs.on[cg_rule_index("CG101")]);

    /* a later --select (first = 0) adds to the selection */
    assert_int_equal(cg_ruleset_select(&rs, "CG4", 0, bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), 1 + count_prefix("CG3") + count_prefix("CG4"));

    /* malformed: rejected and named */
    cg_ruleset_all(&rs);
    strcpy(bad, "?");
    assert_int_equal(cg_ruleset_select(&rs, "XX1", 1, bad, sizeof bad), -1);
    assert_string_equal(bad, "XX1");
    strcpy(bad, "?");
    assert_int_equal(cg_ruleset_select(&rs, "CG101,bogus", 1, bad, sizeof bad), -1);
    assert_string_equal(bad, "bogus");
    strcpy(bad, "?");
    assert_int_equal(cg_ruleset_select(&rs, "CG1x", 1, bad, sizeof bad), -1);
    assert_string_equal(bad, "CG1x");
    strcpy(bad, "?");
    assert_int_equal(cg_ruleset_select(&rs, "CG1011", 1, bad, sizeof bad), -1);
    assert_string_equal(bad, "CG1011");

    /* well-formed but absent: accepted, selects nothing */
    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_select(&rs, "CG99", 1, bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), 0);
    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_select(&rs, "CG999", 1, bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), 0);
}

static void test_rules_ignore(void **state)
{
    (void)state;
    cg_ruleset rs;
    char bad[64];
    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_ignore(&rs, "CG1", bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), cg_rule_count - count_prefix("CG1"));
    for (size_t i = 0; i < cg_rule_count; i++)
        if (strncmp(cg_rules[i].id, "CG1", 3) == 0) assert_false(rs.on[i]);
        else assert_true(rs.on[i]);

    assert_int_equal(cg_ruleset_ignore(&rs, "cg301", bad, sizeof bad), 0);
    assert_false(rs.on[cg_rule_index("CG301")]);
    assert_int_equal(count_on(&rs), cg_rule_count - count_prefix("CG1") - 1);

    /* select then ignore inside it */
    assert_int_equal(cg_ruleset_select(&rs, "CG1", 1, bad, sizeof bad), 0);
    assert_int_equal(cg_ruleset_ignore(&rs, "CG101", bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), count_prefix("CG1") - 1);

    assert_int_equal(cg_ruleset_ignore(&rs, "ALL", bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), 0);

    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_ignore(&rs, "CG99", bad, sizeof bad), 0);
    assert_int_equal(count_on(&rs), cg_rule_count);
    assert_int_equal(cg_ruleset_ignore(&rs, "XX1", bad, sizeof bad), -1);
    assert_string_equal(bad, "XX1");
}

/* ---- cg_map ----------------------------------------------------------------- */

static void test_map_basic(void **state)
{
    (void)state;
    cg_map m;
    cg_map_init(&m);
    assert_null(cg_map_get(&m, "x", 1));   /* empty map */
    int a = 1, b = 2, c = 3;
    cg_map_put(&m, "alpha", 5, &a);
    cg_map_put(&m, "alphabet", 8, &b);
    assert_ptr_equal(cg_map_get(&m, "alpha", 5), &a);
    assert_ptr_equal(cg_map_get(&m, "alphabet", 8), &b);
    /* the length counts, not the terminator */
    assert_ptr_equal(cg_map_get(&m, "alphabet", 5), &a);
    assert_null(cg_map_get(&m, "alph", 4));
    assert_null(cg_map_get(&m, "beta", 4));
    assert_int_equal(m.count, 2);
    /* replace: same count, new value */
    cg_map_put(&m, "alpha", 5, &c);
    assert_ptr_equal(cg_map_get(&m, "alpha", 5), &c);
    assert_int_equal(m.count, 2);
    /* the empty key is a key */
    cg_map_put(&m, "", 0, &a);
    assert_ptr_equal(cg_map_get(&m, "", 0), &a);
    assert_int_equal(m.count, 3);
    cg_map_free(&m);
    assert_int_equal(m.count, 0);
    assert_null(cg_map_get(&m, "alpha", 5));
}

static void test_map_grow(void **state)
{
    (void)state;
    enum { N = 5000 };
    static char keys[N][16];
    cg_map m;
    cg_map_init(&m);
    for (size_t i = 0; i < N; i++) {
        snprintf(keys[i], sizeof keys[i], "key%zu", i);
        cg_map_put(&m, keys[i], strlen(keys[i]), (void *)(uintptr_t)(i + 1));
        if (i == 999) {
            assert_int_equal(m.count, 1000);
            for (size_t k = 0; k < 1000; k++)
                assert_int_equal((uintptr_t)cg_map_get(&m, keys[k], strlen(keys[k])), k + 1);
        }
    }
    assert_int_equal(m.count, N);
    assert_true(m.cap >= N);
    for (size_t i = 0; i < N; i++)
        assert_int_equal((uintptr_t)cg_map_get(&m, keys[i], strlen(keys[i])), i + 1);
    /* replace every other key after growth */
    for (size_t i = 0; i < N; i += 2)
        cg_map_put(&m, keys[i], strlen(keys[i]), (void *)(uintptr_t)(i + 100000));
    assert_int_equal(m.count, N);
    for (size_t i = 0; i < N; i++)
        assert_int_equal((uintptr_t)cg_map_get(&m, keys[i], strlen(keys[i])),
                         i % 2 ? i + 1 : i + 100000);
    assert_null(cg_map_get(&m, "key5000", 7));
    assert_null(cg_map_get(&m, "nokey", 5));
    cg_map_free(&m);
    /* hashing: deterministic, sensitive to every byte */
    assert_int_equal(cg_hash_bytes("abc", 3), cg_hash_bytes("abc", 3));
    assert_true(cg_hash_bytes("abc", 3) != cg_hash_bytes("abd", 3));
    assert_true(cg_hash_bytes("abc", 3) != cg_hash_bytes("abc", 2));
}

/* ---- cg_arena --------------------------------------------------------------- */

static void arena_checks(void)
{
    cg_arena *a = cg_arena_new();
    assert_non_null(a);
    static const size_t sizes[] = {1, 3, 15, 16, 17, 31, 100, 1000, 20000, 70000, 5, 200000, 7, 64 * 1024, 2};
    unsigned char *blocks[sizeof sizes / sizeof *sizes];
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        unsigned char *p = cg_arena_alloc(a, sizes[i]);
        assert_non_null(p);
        if ((uintptr_t)p % 16) fail_msg("allocation %zu of %zu bytes is not 16-aligned: %p", i, sizes[i], (void *)p);
        for (size_t k = 0; k < sizes[i]; k++)
            if (p[k]) fail_msg("allocation %zu not zeroed at %zu", i, k);
        memset(p, (int)(i + 1), sizes[i]);
        blocks[i] = p;
    }
    /* nothing overlaps: every block still holds its own pattern */
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t k = 0; k < sizes[i]; k++)
            if (blocks[i][k] != (unsigned char)(i + 1)) fail_msg("block %zu overwritten at %zu", i, k);

    char *s = cg_arena_strndup(a, "hello world", 5);
    assert_string_equal(s, "hello");
    assert_int_equal((uintptr_t)s % 16, 0);
    char *t = cg_arena_strndup(a, "ab\0cd", 5);   /* copies n bytes, terminates */
    assert_memory_equal(t, "ab\0cd", 6);
    char *u = cg_arena_strdup(a, "");
    assert_string_equal(u, "");
    char *v = cg_arena_printf(a, "%s-%d", "x", 42);
    assert_string_equal(v, "x-42");
    assert_string_equal(s, "hello");

    void **items = NULL;
    size_t n = 0, cap = 0;
    for (uintptr_t i = 0; i < 100; i++) cg_arena_push(a, &items, &n, &cap, (void *)(i + 1));
    assert_int_equal(n, 100);
    assert_true(cap >= 100);
    for (uintptr_t i = 0; i < 100; i++) assert_int_equal((uintptr_t)items[i], i + 1);
    cg_arena_free(a);
    cg_arena_free(NULL);
}

static void test_arena(void **state)
{
    (void)state;
    unsetenv("CGLINT_ARENA_MALLOC");
    arena_checks();
}

static void test_arena_passthrough(void **state)
{
    (void)state;
    setenv("CGLINT_ARENA_MALLOC", "1", 1);
    arena_checks();
    unsetenv("CGLINT_ARENA_MALLOC");
}

/* ---- cg_walk ---------------------------------------------------------------- */

typedef struct {
    cg_report report;
    cg_file *files;
    size_t n;
} walked;

static void walk_paths(walked *w, const char *const *paths, size_t npaths,
                       const char *const *exclude, size_t nexclude)
{
    cg_report_init(&w->report, NULL);
    cg_walk_opts o = { .exclude = exclude, .nexclude = nexclude };
    w->files = NULL;
    w->n = 0;
    assert_int_equal(cg_walk(paths, npaths, &o, &w->report, &w->files, &w->n), 0);
}

static void walk_done(walked *w)
{
    cg_walk_free(w->files, w->n);
    cg_report_free(&w->report);
}

/* The files found, relative to dir, one per line. */
static char *walk_list(const walked *w, const char *dir)
{
    size_t dl = strlen(dir);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    for (size_t i = 0; i < w->n; i++) {
        const char *p = w->files[i].path;
        if (strncmp(p, dir, dl) == 0 && p[dl] == '/') p += dl + 1;
        fprintf(f, "%s\n", p);
    }
    fclose(f);
    return out;
}

static void assert_walk(const walked *w, const char *dir, const char *expected)
{
    char *got = walk_list(w, dir);
    if (strcmp(got, expected) != 0) fail_msg("walk found:\n%s\nexpected:\n%s", got, expected);
    free(got);
}

static const cg_notice *find_notice(const cg_report *r, cg_level level, const char *path_suffix,
                                    const char *text)
{
    for (size_t i = 0; i < r->nnotices; i++) {
        const cg_notice *n = &r->notices[i];
        if (n->level != level) continue;
        if (path_suffix) {
            size_t pl = n->path ? strlen(n->path) : 0, sl = strlen(path_suffix);
            if (!n->path || pl < sl || strcmp(n->path + pl - sl, path_suffix) != 0) continue;
        }
        if (text && !strstr(n->message, text)) continue;
        return n;
    }
    return NULL;
}

static void make_tree(const char *dir)
{
    static const char *const files[] = {
        "a.py", "b.txt", "notes.md", "mod.pyi", "zeta.py", "Alpha.py",
        "sub/c.py", "sub/deeper/d.py", "tests/t.py", "tests/unit/u.py",
        ".git/hooks/x.py", ".venv/lib/x.py", "venv/lib/x.py", "__pycache__/x.py",
        "build/x.py", "node_modules/pkg/x.py",
        "myenv/pyvenv.cfg", "myenv/lib/x.py", "cmk/CMakeCache.txt", "cmk/x.py",
        ".hidden/x.py",
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) write_str(dir, files[i], "x = 1\n");
}

static void test_walk_picks_and_skips(void **state)
{
    const char *dir = *state;
    make_tree(dir);
    walked w;
    const char *paths[] = { dir };
    walk_paths(&w, paths, 1, NULL, 0);
    /* strcmp order: upper case before lower case */
    assert_walk(&w, dir,
                "Alpha.py\n"
                "a.py\n"
                "sub/c.py\n"
                "sub/deeper/d.py\n"
                "tests/t.py\n"
                "tests/unit/u.py\n"
                "zeta.py\n");
    for (size_t i = 0; i < w.n; i++) {
        assert_int_equal(w.files[i].lang, CG_LANG_PY);
        assert_int_equal(w.files[i].is_explicit, 0);
    }
    assert_int_equal(cg_report_errors(&w.report), 0);
    walk_done(&w);
}

static void test_walk_sorted(void **state)
{
    const char *dir = *state;
    /* created in an order unlike the sorted one */
    static const char *const files[] = { "m/z.py", "b.py", "m/a.py", "a/b/c.py", "a.py", "a_b.py", "a-b.py" };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) write_str(dir, files[i], "x = 1\n");
    walked w;
    char *m = join(dir, "m"), *a = join(dir, "a");
    const char *paths[] = { m, dir, a };
    walk_paths(&w, paths, 3, NULL, 0);
    for (size_t i = 1; i < w.n; i++)
        if (strcmp(w.files[i - 1].path, w.files[i].path) >= 0)
            fail_msg("not sorted or not unique: %s then %s", w.files[i - 1].path, w.files[i].path);
    assert_int_equal(w.n, 7);
    walk_done(&w);
    free(m); free(a);
}

static void test_walk_explicit_file(void **state)
{
    const char *dir = *state;
    make_tree(dir);
    walked w;
    char *txt = join(dir, "b.txt"), *pyi = join(dir, "mod.pyi"), *hidden = join(dir, ".venv/lib/x.py");
    const char *paths[] = { txt, pyi, hidden };
    walk_paths(&w, paths, 3, NULL, 0);
    assert_walk(&w, dir, ".venv/lib/x.py\nb.txt\nmod.pyi\n");
    for (size_t i = 0; i < w.n; i++) {
        assert_int_equal(w.files[i].lang, CG_LANG_PY);
        assert_int_equal(w.files[i].is_explicit, 1);
    }
    walk_done(&w);
    free(txt); free(pyi); free(hidden);

    /* a directory named explicitly is walked even when its name would be skipped */
    char *build = join(dir, "build");
    const char *paths2[] = { build };
    walk_paths(&w, paths2, 1, NULL, 0);
    assert_walk(&w, dir, "build/x.py\n");
    walk_done(&w);
    free(build);

    assert_int_equal(cg_lang_of("x.py"), CG_LANG_PY);
    assert_int_equal(cg_lang_of("dir/x.py"), CG_LANG_PY);
    assert_int_equal(cg_lang_of("x.pyc"), CG_LANG_NONE);
    assert_int_equal(cg_lang_of("x.py.bak"), CG_LANG_NONE);
    assert_int_equal(cg_lang_of("dir.py/x"), CG_LANG_NONE);
    assert_int_equal(cg_lang_of("README"), CG_LANG_NONE);
}

static void test_walk_exclude(void **state)
{
    const char *dir = *state;
    make_tree(dir);
    walked w;
    const char *paths[] = { dir };

    const char *ex1[] = { "tests/*" };
    walk_paths(&w, paths, 1, ex1, 1);
    assert_walk(&w, dir, "Alpha.py\na.py\nsub/c.py\nsub/deeper/d.py\nzeta.py\n");
    walk_done(&w);

    const char *ex2[] = { "a.py" };   /* a basename */
    walk_paths(&w, paths, 1, ex2, 1);
    assert_walk(&w, dir, "Alpha.py\nsub/c.py\nsub/deeper/d.py\ntests/t.py\ntests/unit/u.py\nzeta.py\n");
    walk_done(&w);

    const char *ex3[] = { "sub" };    /* a directory name */
    walk_paths(&w, paths, 1, ex3, 1);
    assert_walk(&w, dir, "Alpha.py\na.py\ntests/t.py\ntests/unit/u.py\nzeta.py\n");
    walk_done(&w);

    const char *ex4[] = { "deeper", "*eta.py", "unit" };  /* several */
    walk_paths(&w, paths, 1, ex4, 3);
    assert_walk(&w, dir, "Alpha.py\na.py\nsub/c.py\ntests/t.py\n");
    walk_done(&w);

    /* no accidental substring matches: "ub" is not "sub", "est" not "tests" */
    const char *ex5[] = { "ub", "est" };
    walk_paths(&w, paths, 1, ex5, 2);
    assert_int_equal(w.n, 7);
    walk_done(&w);

    cg_walk_opts o = { .exclude = ex1, .nexclude = 1 };
    assert_true(cg_walk_excluded(&o, "tests/x.py"));
    assert_true(cg_walk_excluded(&o, "./tests/x.py"));
    assert_true(cg_walk_excluded(&o, "proj/tests/x.py"));
    assert_false(cg_walk_excluded(&o, "mytests/x.py"));
    assert_false(cg_walk_excluded(&o, "x.py"));
    assert_false(cg_walk_excluded(NULL, "tests/x.py"));
}

static void test_walk_symlink_dir_loop(void **state)
{
    const char *dir = *state;
    write_str(dir, "d/a.py", "x = 1\n");
    make_link(dir, "d/loop", ".");        /* d/loop -> d */
    make_link(dir, "d/up", "..");         /* d/up -> the root */
    write_str(dir, "top.py", "x = 1\n");
    walked w;
    const char *paths[] = { dir };
    alarm(20);   /* an endless walk fails by SIGALRM */
    walk_paths(&w, paths, 1, NULL, 0);
    alarm(0);
    assert_walk(&w, dir, "d/a.py\ntop.py\n");
    if (!find_notice(&w.report, CG_WARN, "d/loop", "already walked"))
        fail_msg("no warning about the d/loop symlink");
    assert_int_equal(cg_report_errors(&w.report), 0);
    walk_done(&w);
}

static void test_walk_dangling_and_missing(void **state)
{
    const char *dir = *state;
    write_str(dir, "ok.py", "x = 1\n");
    make_link(dir, "x.py", "nowhere.py");
    make_link(dir, "notpython", "nowhere");   /* not ours: no notice */
    make_link(dir, "la.py", "lb.py");
    make_link(dir, "lb.py", "la.py");
    walked w;
    char *missing = join(dir, "missing_dir");
    const char *paths[] = { dir, missing };
    walk_paths(&w, paths, 2, NULL, 0);
    assert_walk(&w, dir, "ok.py\n");
    if (!find_notice(&w.report, CG_ERROR, "/x.py", "broken symbolic link"))
        fail_msg("no error about the dangling x.py");
    if (!find_notice(&w.report, CG_ERROR, "/la.py", "symbolic link loop"))
        fail_msg("no error about the la.py link loop");
    if (!find_notice(&w.report, CG_ERROR, "missing_dir", NULL))
        fail_msg("no error about the missing path");
    assert_null(find_notice(&w.report, CG_ERROR, "notpython", NULL));
    assert_int_equal(cg_report_errors(&w.report), 4);
    walk_done(&w);
    free(missing);
}

static void test_walk_dedupe(void **state)
{
    const char *dir = *state;
    write_str(dir, "a.py", "x = 1\n");
    write_str(dir, "b.py", "x = 1\n");
    walked w;
    char *a = join(dir, "a.py");
    char *slash = NULL;
    assert_true(asprintf(&slash, "%s/", dir) >= 0);
    /* a file twice */
    const char *p1[] = { a, a };
    walk_paths(&w, p1, 2, NULL, 0);
    assert_walk(&w, dir, "a.py\n");
    assert_int_equal(w.files[0].is_explicit, 1);
    walk_done(&w);
    /* a directory twice, once with a trailing slash, and a file inside it */
    const char *p2[] = { dir, a, slash, dir };
    walk_paths(&w, p2, 4, NULL, 0);
    assert_walk(&w, dir, "a.py\nb.py\n");
    assert_int_equal(w.files[0].is_explicit, 1);   /* named explicitly once */
    assert_int_equal(w.files[1].is_explicit, 0);
    walk_done(&w);
    free(a); free(slash);
}

/* src/workflow/walk.c cg_walk(): duplicates are dropped by comparing path
 * strings, so one file named as "DIR/./a.py" and "DIR/a.py" (or "./a.py"
 * and "a.py" on the command line) is listed twice, analysed twice and every
 * finding in it is reported twice.  walk.h promises "no duplicates". */
static void walk_dedupe_same_file_spelled_differently(void **state)
{
    const char *dir = *state;
    write_str(dir, "a.py", "x = 1\n");
    walked w;
    char *a = join(dir, "a.py"), *dota = join(dir, "./a.py");
    const char *p[] = { a, dota };
    walk_paths(&w, p, 2, NULL, 0);
    if (w.n != 1) fail_msg("the same file is listed %zu times: %s and %s", w.n,
                           w.files[0].path, w.n > 1 ? w.files[1].path : "");
    walk_done(&w);
    free(a); free(dota);
}

/* ---- cg_report -------------------------------------------------------------- */

static cg_finding mk(const char *rule, const char *path, uint32_t line, uint32_t col, uint32_t end_col)
{
    cg_finding f;
    memset(&f, 0, sizeof f);
    f.rule = cg_rule_index(rule);
    if (f.rule < 0) fail_msg("no rule %s", rule);
    f.level = cg_rules[f.rule].severity;
    f.loc = (cg_loc){ path, line, col, line, end_col };
    f.message = (char *)"message";
    return f;
}

/* The project index writes a source line once for all the findings on it
 * (16k findings on one 300 KB line once made a 4.7 GB memo entry), and reads
 * back what it wrote. */
static void test_cache_report_shares_lines(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init(&r, NULL);
    size_t ll = 100000;
    char *line = malloc(ll + 1);
    assert_non_null(line);
    memset(line, 'x', ll);
    line[ll] = 0;
    for (uint32_t i = 0; i < 100; i++) {
        cg_finding f = mk("CG101", "a.py", 1, i + 1, i + 2);
        f.message = (char *)"m";
        f.line_text = line;
        cg_report_add(&r, &f);
    }
    assert_int_equal(r.nfindings, 100);
    cg_buf b = { 0 };
    cg_cache_encode_report(&b, &r, 0, 0, 0, 0);
    assert_false(b.bad);
    assert_true(b.n < 2 * ll);
    cg_report back;
    cg_report_init(&back, NULL);
    cg_rd rd = { .p = b.p, .n = b.n };
    assert_int_equal(cg_cache_decode_report(&rd, &back), 0);
    assert_int_equal(back.nfindings, 100);
    assert_string_equal(back.findings[99].line_text, line);
    assert_int_equal(back.findings[99].loc.col, 100);
    /* a reference to a line never written is a bad entry, not a crash */
    cg_buf bad = { 0 };
    cg_buf_u64(&bad, 0);
    cg_buf_u64(&bad, 0);
    cg_buf_u64(&bad, 1);
    cg_buf_u64(&bad, 0);
    cg_buf_u64(&bad, 2);
    cg_report none;
    cg_report_init(&none, NULL);
    cg_rd rd2 = { .p = bad.p, .n = bad.n };
    assert_int_equal(cg_cache_decode_report(&rd2, &none), -1);
    assert_int_equal(none.nfindings, 0);
    free(bad.p);
    cg_report_free(&none);
    free(b.p);
    free(line);
    cg_report_free(&back);
    cg_report_free(&r);
}

static void test_report_add_dedupe(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init(&r, NULL);
    char msg[32] = "first";
    char path[32] = "a.py";
    cg_finding f = mk("CG101", path, 3, 5, 9);
    f.message = msg;
    cg_report_add(&r, &f);
    /* strings are copied: the caller's buffers may change */
    strcpy(msg, "changed");
    strcpy(path, "z.py");
    assert_int_equal(r.nfindings, 1);
    assert_string_equal(r.findings[0].message, "first");
    assert_string_equal(r.findings[0].loc.path, "a.py");
    assert_string_equal(r.findings[0].line_text, "");

    /* the identical span again (another call path): dropped */
    cg_finding g = mk("CG101", "a.py", 3, 5, 9);
    g.message = (char *)"second";
    cg_report_add(&r, &g);
    assert_int_equal(r.nfindings, 1);
    assert_string_equal(r.findings[0].message, "first");

    /* differing in rule, column, end or path: kept */
    cg_finding h;
    h = mk("CG102", "a.py", 3, 5, 9); cg_report_add(&r, &h);
    h = mk("CG101", "a.py", 3, 6, 9); cg_report_add(&r, &h);
    h = mk("CG101", "a.py", 3, 5, 10); cg_report_add(&r, &h);
    h = mk("CG101", "b.py", 3, 5, 9); cg_report_add(&r, &h);
    h = mk("CG101", "a.py", 4, 5, 9); cg_report_add(&r, &h);
    assert_int_equal(r.nfindings, 6);

    /* a call path is deep-copied */
    cg_step steps[2] = { { (char *)"A.f", { "a.py", 1, 1, 1, 4 } }, { (char *)"B.g", { "b.py", 2, 2, 2, 5 } } };
    cg_finding p = mk("CG104", "c.py", 7, 1, 2);
    p.path = steps;
    p.npath = 2;
    p.has_capture = 1;
    p.capture = (cg_loc){ "c.py", 1, 1, 1, 10 };
    p.capture_kind = (char *)"torch.cuda.graph";
    cg_report_add(&r, &p);
    assert_int_equal(r.nfindings, 7);
    const cg_finding *q = &r.findings[6];
    assert_int_equal(q->npath, 2);
    assert_ptr_not_equal(q->path, steps);
    assert_string_equal(q->path[1].function, "B.g");
    assert_string_equal(q->path[1].loc.path, "b.py");
    assert_string_equal(q->capture.path, "c.py");
    assert_string_equal(q->capture_kind, "torch.cuda.graph");

    /* a rule index out of range is dropped */
    cg_finding bad = mk("CG101", "a.py", 9, 9, 9);
    bad.rule = (int)cg_rule_count;
    cg_report_add(&r, &bad);
    bad.rule = -1;
    cg_report_add(&r, &bad);
    assert_int_equal(r.nfindings, 7);
    cg_report_free(&r);
}

static void test_report_add_selection(void **state)
{
    (void)state;
    cg_ruleset rs;
    char bad[64];
    cg_ruleset_all(&rs);
    assert_int_equal(cg_ruleset_select(&rs, "CG3", 1, bad, sizeof bad), 0);
    assert_int_equal(cg_ruleset_ignore(&rs, "CG304", bad, sizeof bad), 0);
    cg_report r;
    cg_report_init(&r, &rs);
    cg_finding f;
    f = mk("CG101", "a.py", 1, 1, 2); cg_report_add(&r, &f);
    f = mk("CG304", "a.py", 2, 1, 2); cg_report_add(&r, &f);
    f = mk("CG301", "a.py", 3, 1, 2); cg_report_add(&r, &f);
    f = mk("CG402", "a.py", 4, 1, 2); cg_report_add(&r, &f);
    assert_int_equal(r.nfindings, 1);
    assert_int_equal(r.findings[0].rule, cg_rule_index("CG301"));
    cg_report_free(&r);
}

static void test_report_sort(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init(&r, NULL);
    cg_finding f;
    f = mk("CG301", "b.py", 2, 1, 5); cg_report_add(&r, &f);
    f = mk("CG101", "b.py", 10, 3, 5); cg_report_add(&r, &f);
    f = mk("CG101", "b.py", 2, 7, 9); cg_report_add(&r, &f);
    f = mk("CG104", "a.py", 99, 1, 5); cg_report_add(&r, &f);
    f = mk("CG101", "b.py", 2, 1, 5); cg_report_add(&r, &f);
    f = mk("CG101", "a/z.py", 1, 1, 2); cg_report_add(&r, &f);
    f = mk("CG101", "b.py", 9, 30, 35); cg_report_add(&r, &f);
    cg_report_notice(&r, CG_ERROR, "z.py", 0, 0, "zz");
    cg_report_notice(&r, CG_WARN, "b.py", 5, 1, "b5");
    cg_report_notice(&r, CG_ERROR, "b.py", 2, 1, "b2");
    cg_report_notice(&r, CG_NOTE, NULL, 0, 0, "run-wide %d", 7);
    cg_report_sort(&r);
    static const struct { const char *path; uint32_t line, col; const char *rule; } want[] = {
        { "a.py", 99, 1, "CG104" }, { "a/z.py", 1, 1, "CG101" }, { "b.py", 2, 1, "CG101" },
        { "b.py", 2, 1, "CG301" }, { "b.py", 2, 7, "CG101" }, { "b.py", 9, 30, "CG101" },
        { "b.py", 10, 3, "CG101" },
    };
    assert_int_equal(r.nfindings, sizeof want / sizeof *want);
    for (size_t i = 0; i < r.nfindings; i++) {
        const cg_finding *g = &r.findings[i];
        if (strcmp(g->loc.path, want[i].path) || g->loc.line != want[i].line ||
            g->loc.col != want[i].col || strcmp(cg_rules[g->rule].id, want[i].rule))
            fail_msg("finding %zu is %s:%u:%u %s, expected %s:%u:%u %s", i, g->loc.path,
                     g->loc.line, g->loc.col, cg_rules[g->rule].id, want[i].path, want[i].line,
                     want[i].col, want[i].rule);
    }
    assert_int_equal(r.nnotices, 4);
    assert_null(r.notices[0].path);                 /* run-wide first */
    assert_string_equal(r.notices[0].message, "run-wide 7");
    assert_string_equal(r.notices[1].message, "b2");
    assert_string_equal(r.notices[2].message, "b5");
    assert_string_equal(r.notices[3].message, "zz");
    assert_int_equal(cg_report_errors(&r), 2);
    cg_report_free(&r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_nul_byte),
        cmocka_unit_test(test_source_invalid_utf8),
        cmocka_unit_test(source_invalid_utf8_column_counts_code_points),
        cmocka_unit_test(test_source_valid_multibyte),
        cmocka_unit_test(test_source_bom_stripped),
        cmocka_unit_test(test_source_coding_cookie),
        cmocka_unit_test(test_source_crlf_lines),
        cmocka_unit_test(test_source_column_code_points),
        cmocka_unit_test(test_source_column_long_lines),
        cmocka_unit_test_setup_teardown(test_source_load_regular, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_source_too_big, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(source_too_big_message_has_readable_sizes, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_source_not_regular, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_source_open_errors, tmp_setup, tmp_teardown),
        cmocka_unit_test(test_utf8_invalid_at),
        cmocka_unit_test(test_rules_catalog),
        cmocka_unit_test(test_rules_select),
        cmocka_unit_test(test_rules_ignore),
        cmocka_unit_test(test_map_basic),
        cmocka_unit_test(test_map_grow),
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_arena_passthrough),
        cmocka_unit_test_setup_teardown(test_walk_picks_and_skips, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_walk_sorted, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_walk_explicit_file, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_walk_exclude, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_walk_symlink_dir_loop, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_walk_dangling_and_missing, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_walk_dedupe, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(walk_dedupe_same_file_spelled_differently, tmp_setup, tmp_teardown),
        cmocka_unit_test(test_report_add_dedupe),
        cmocka_unit_test(test_cache_report_shares_lines),
        cmocka_unit_test(test_report_add_selection),
        cmocka_unit_test(test_report_sort),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
