/* fix.c - see fix.h.
 *
 * The unified diff is built from the edits themselves rather than by a
 * general diff algorithm: the lines an edit cluster touches are the changed
 * lines, three lines of context around them, clusters closer than that
 * merged into one hunk.  That is exactly what `diff -u` would print for
 * such local changes, and `patch -p1` / `git apply` take it. */
#include "fix.h"
#include "core/alloc.h"
#include "core/file.h"
#include "core/source.h"
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CONTEXT 3

typedef struct take { const cg_edit *e; size_t finding; } take;

static int cmp_take(const void *pa, const void *pb)
{
    const take *a = pa, *b = pb;
    if (a->e->start != b->e->start) return a->e->start < b->e->start ? -1 : 1;
    if (a->e->end != b->e->end) return a->e->end < b->e->end ? -1 : 1;
    return a->finding < b->finding ? -1 : a->finding > b->finding;
}

static int same_edit(const cg_edit *a, const cg_edit *b)
{
    return a->start == b->start && a->end == b->end && strcmp(a->text, b->text) == 0;
}

/* Text with the edits applied (sorted, not overlapping).  Malloc'ed. */
static char *apply_edits(const char *text, size_t len, const take *t, size_t n, size_t *out_len)
{
    size_t total = len;
    for (size_t i = 0; i < n; i++) total += strlen(t[i].e->text);
    char *out = cg_xmalloc(total + 1), *o = out;
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(o, text + pos, t[i].e->start - pos);
        o += t[i].e->start - pos;
        size_t tl = strlen(t[i].e->text);
        memcpy(o, t[i].e->text, tl);
        o += tl;
        pos = t[i].e->end;
    }
    memcpy(o, text + pos, len - pos);
    o += len - pos;
    *o = 0;
    *out_len = (size_t)(o - out);
    return out;
}

/* 1-based line of byte offset `off`. */
static uint32_t line_of(const cg_source *s, uint32_t off)
{
    uint32_t lo = 0, hi = s->nlines;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (s->line_start[mid] <= off) lo = mid; else hi = mid;
    }
    return lo + 1;
}

/* Start byte of line l (1-based); one past the last line: the end. */
static size_t line_begin(const cg_source *s, uint32_t l)
{
    return l <= s->nlines ? s->line_start[l - 1] : s->len;
}

/* Print the lines of buf[from, to) with a prefix, marking a missing final newline. */
static void diff_lines(FILE *out, char prefix, const char *buf, size_t from, size_t to)
{
    size_t p = from;
    while (p < to) {
        const char *nl = memchr(buf + p, '\n', to - p);
        size_t e = nl ? (size_t)(nl - buf) + 1 : to;
        fputc(prefix, out);
        fwrite(buf + p, 1, e - p, out);
        if (!nl) fputs("\n\\ No newline at end of file\n", out);
        p = e;
    }
}

static size_t count_lines(const char *buf, size_t from, size_t to)
{
    size_t n = 0;
    for (size_t p = from; p < to; p++) n += buf[p] == '\n';
    if (to > from && buf[to - 1] != '\n') n++;
    return n;
}

/* The hunk body for edits t[i, j): context, then for each group of edits
 * on the same lines the old lines and the new ones.  Returns the new line
 * count of the hunk. */
static size_t hunk_body(FILE *out, const cg_source *src, const take *t, size_t i, size_t j, uint32_t a, uint32_t b)
{
    size_t pos = line_begin(src, a), end = line_begin(src, b + 1), newlines = 0;
    size_t k = i;
    while (k < j) {
        uint32_t g1 = line_of(src, t[k].e->start), g2 = line_of(src, t[k].e->end);
        size_t l = k + 1;
        while (l < j && line_of(src, t[l].e->start) <= g2) {
            uint32_t e2 = line_of(src, t[l].e->end);
            if (e2 > g2) g2 = e2;
            l++;
        }
        size_t ts = line_begin(src, g1), te = line_begin(src, g2 + 1);
        diff_lines(out, ' ', src->text, pos, ts);
        newlines += count_lines(src->text, pos, ts);
        take *rel = cg_xmalloc((l - k) * sizeof *rel);
        cg_edit *shifted = cg_xmalloc((l - k) * sizeof *shifted);
        for (size_t x = k; x < l; x++) {
            shifted[x - k] = *t[x].e;
            shifted[x - k].start -= (uint32_t)ts;
            shifted[x - k].end -= (uint32_t)ts;
            rel[x - k] = (take){ &shifted[x - k], t[x].finding };
        }
        size_t nlen;
        char *newtxt = apply_edits(src->text + ts, te - ts, rel, l - k, &nlen);
        diff_lines(out, '-', src->text, ts, te);
        diff_lines(out, '+', newtxt, 0, nlen);
        newlines += count_lines(newtxt, 0, nlen);
        free(newtxt);
        free(rel);
        free(shifted);
        pos = te;
        k = l;
    }
    diff_lines(out, ' ', src->text, pos, end);
    newlines += count_lines(src->text, pos, end);
    return newlines;
}

static void print_diff_utf8(FILE *out, const char *path, const cg_source *src, const take *t, size_t n);

/* The diff in the file's own encoding (a PEP 263 file), so that patch(1)
 * applies it to the file's bytes. */
static void print_diff(FILE *out, const char *path, const cg_source *src, const take *t, size_t n)
{
    if (!src->encoding) { print_diff_utf8(out, path, src, t, n); return; }
    char *body = NULL;
    size_t body_len = 0, elen;
    FILE *mem = open_memstream(&body, &body_len);
    if (!mem) { fputs("cglint: out of memory\n", stderr); abort(); }
    print_diff_utf8(mem, path, src, t, n);
    fclose(mem);
    char *enc = cg_source_encode(src, body, body_len, &elen);
    if (enc) fwrite(enc, 1, elen, out);
    else fwrite(body, 1, body_len, out);
    free(enc);
    free(body);
}

/* Write the fixed file: the edits applied to its own bytes (lone CRs kept),
 * in its own encoding, with its BOM; its mode, owner and hard links kept, a
 * symbolic link followed; a read-only file refused. */
static int write_fixed(const char *path, const cg_source *src, const take *t, size_t n, char *err, size_t errlen)
{
    char *raw = cg_source_raw(src);
    if (!raw) { snprintf(err, errlen, "out of memory"); return -1; }
    size_t nlen, elen;
    char *fixed = apply_edits(raw, src->len, t, n, &nlen);
    free(raw);
    char *enc = cg_source_encode(src, fixed, nlen, &elen);
    free(fixed);
    if (!enc) {
        snprintf(err, errlen, "the result has characters that the file's declared encoding '%s' cannot hold",
                 src->encoding);
        return -1;
    }
    size_t bom = src->had_bom ? 3 : 0;
    /* raw malloc: sized by the file; failing refuses this file's fixes with a message */
    char *out = malloc(bom + elen + 1);
    if (!out) { free(enc); snprintf(err, errlen, "out of memory"); return -1; }
    memcpy(out, "\xEF\xBB\xBF", bom);
    memcpy(out + bom, enc, elen);
    free(enc);
    int rc = cg_file_write(path, out, bom + elen, 0666, CG_FILE_KEEP | CG_FILE_REFUSE_RO, err, errlen);
    free(out);
    return rc;
}

static void print_diff_utf8(FILE *out, const char *path, const cg_source *src, const take *t, size_t n)
{
    fprintf(out, "--- a/%s\n+++ b/%s\n", path, path);
    long delta = 0;
    size_t i = 0;
    while (i < n) {
        /* a hunk: edits whose touched lines are within twice the context */
        uint32_t t1 = line_of(src, t[i].e->start), t2 = line_of(src, t[i].e->end);
        size_t j = i + 1;
        while (j < n && line_of(src, t[j].e->start) <= t2 + 2 * CONTEXT) {
            uint32_t e2 = line_of(src, t[j].e->end);
            if (e2 > t2) t2 = e2;
            j++;
        }
        uint32_t a = t1 > CONTEXT ? t1 - CONTEXT : 1;
        uint32_t b = t2 + CONTEXT <= src->nlines ? t2 + CONTEXT : src->nlines;
        size_t old_count = count_lines(src->text, line_begin(src, a), line_begin(src, b + 1));
        char *body = NULL;
        size_t body_len = 0;
        FILE *mem = open_memstream(&body, &body_len);
        if (!mem) { fputs("cglint: out of memory\n", stderr); abort(); }
        size_t new_count = hunk_body(mem, src, t, i, j, a, b);
        fclose(mem);
        fprintf(out, "@@ -%u,%zu +%ld,%zu @@\n", a, old_count, (long)a + delta, new_count);
        fwrite(body, 1, body_len, out);
        free(body);
        delta += (long)new_count - (long)old_count;
        i = j;
    }
}

void cg_fix_apply(cg_report *r, const cg_fix_opts *o, cg_fix_result *out)
{
    memset(out, 0, sizeof *out);
    cg_report_sort(r);
    unsigned char *fixed = cg_xcalloc(r->nfindings ? r->nfindings : 1, 1);
    size_t i = 0;
    while (i < r->nfindings) {
        const char *path = r->findings[i].loc.path;
        size_t j = i;
        while (j < r->nfindings && r->findings[j].loc.path && path && strcmp(r->findings[j].loc.path, path) == 0) j++;
        if (j == i) j = i + 1;
        /* the file's fixable edits */
        take *t = NULL;
        size_t nt = 0;
        for (size_t k = i; k < j; k++) {
            const cg_finding *f = &r->findings[k];
            if (!f->nedits || (!f->fix_safe && !o->unsafe)) continue;
            t = cg_xrealloc(t, (nt + f->nedits) * sizeof *t);
            for (size_t e = 0; e < f->nedits; e++) t[nt++] = (take){ &f->edits[e], k };
        }
        if (!nt || !path) { free(t); i = j; continue; }
        if (nt > 1) qsort(t, nt, sizeof *t, cmp_take);
        /* drop overlaps and duplicates; a duplicate's finding is fixed too */
        size_t m = 0;
        for (size_t k = 0; k < nt; k++) {
            if (m && same_edit(t[m - 1].e, t[k].e)) { fixed[t[k].finding] = 2; continue; }
            if (m && t[k].e->start < t[m - 1].e->end) continue;
            if (m && t[k].e->start == t[m - 1].e->end && t[k].e->start == t[k].e->end &&
                t[m - 1].e->start == t[m - 1].e->end) continue;   /* two insertions at one place */
            t[m++] = t[k];
        }
        nt = m;
        cg_source src;
        char err[512];
        if (cg_source_load(&src, path, 0, err, sizeof err) != CG_SRC_OK) {
            cg_report_notice(r, CG_WARN, path, 0, 0, "fix not applied: %s", err);
            free(t);
            i = j;
            continue;
        }
        int stale = 0;
        for (size_t k = 0; k < nt && !stale; k++) {
            const cg_edit *e = t[k].e;
            size_t ol = strlen(e->old_text);
            stale = e->end > src.len || e->end - e->start != ol || memcmp(src.text + e->start, e->old_text, ol) != 0;
            /* the file as a whole, when the edit knows it: an insertion has no
             * old text, and an edit's old text may also be found at an offset
             * that moved */
            if (!stale && e->file_digest) stale = e->file_digest != cg_source_digest(&src);
            /* and where the edit begins: still the line and column it was made for */
            if (!stale && e->line) {
                uint32_t l = line_of(&src, e->start);
                stale = l != e->line || cg_source_column(&src, l, e->start - src.line_start[l - 1]) != e->col;
            }
        }
        if (stale) {
            cg_report_notice(r, CG_WARN, path, 0, 0, "fix not applied: the file changed since it was analysed");
            for (size_t k = i; k < j; k++) if (fixed[k] == 2) fixed[k] = 0;
            cg_source_free(&src);
            free(t);
            i = j;
            continue;
        }
        size_t nlen;
        char *newtext = apply_edits(src.text, src.len, t, nt, &nlen);
        int refuse = 0;
        cg_syntax_check_fn check = o->checker ? o->checker(path) : NULL;
        if (check) {
            long before = check(src.text, src.len), after = check(newtext, nlen);
            if (before < 0 || after < 0 || after > before) {
                cg_report_notice(r, CG_WARN, path, 0, 0,
                                 "fix not applied: the result would have %ld syntax error%s where the file has %ld",
                                 after, after == 1 ? "" : "s", before);
                refuse = 1;
            }
        }
        if (!refuse && (nlen != src.len || memcmp(newtext, src.text, nlen) != 0)) {
            int ok = 1;
            if (o->diff) print_diff(o->diff, path, &src, t, nt);
            if (o->write && write_fixed(path, &src, t, nt, err, sizeof err) != 0) {
                cg_report_notice(r, CG_ERROR, path, 0, 0, "fix not written: %s", err);
                ok = 0;
            }
            if (ok) {
                out->files++;
                for (size_t k = 0; k < nt; k++) fixed[t[k].finding] = 1;
            }
        }
        if (refuse) for (size_t k = i; k < j; k++) if (fixed[k] == 2) fixed[k] = 0;
        free(newtext);
        cg_source_free(&src);
        free(t);
        i = j;
    }
    size_t w = 0;
    for (size_t k = 0; k < r->nfindings; k++) {
        if (fixed[k]) {
            out->findings++;
            if (o->write) { cg_finding_free(&r->findings[k]); continue; }
        }
        r->findings[w++] = r->findings[k];
    }
    r->nfindings = w;
    free(fixed);
}
