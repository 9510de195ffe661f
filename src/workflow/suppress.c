/* suppress.c - see suppress.h.
 *
 * Comments are found with a small lexer over the whole file, so a `#` inside
 * a string (or a docstring) is not a comment: Python strings of every
 * quoting, C/C++ strings, character literals and block comments are
 * skipped.  Within a comment, each `#` (or `//`) may start a directive, so
 * `# noqa: E501  # cglint: ignore[CG101]` holds two. */
#include "suppress.h"
#include "core/alloc.h"
#include "core/hash.h"
#include "core/source.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct scan_ctx {
    cg_directive *d;
    size_t n, cap;
    const char *text;
    const uint32_t *line_start;
} scan_ctx;

static cg_directive *scan_push(scan_ctx *s)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->d = cg_xrealloc(s->d, s->cap * sizeof *s->d);
    }
    cg_directive *d = &s->d[s->n++];
    memset(d, 0, sizeof *d);
    return d;
}

static int is_code_char(char c) { return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.'; }

/* Codes of a list between p and end: taken when `ours` (a CG code) or when
 * all_ours (a cglint: directive, where every code must be ours). */
static void parse_codes(cg_directive *d, const char *p, const char *end, int all_ours)
{
    while (p < end) {
        while (p < end && (*p == ',' || *p == ' ' || *p == '\t')) p++;
        const char *s = p;
        while (p < end && is_code_char(*p)) p++;
        if (p == s) { if (p < end) p++; continue; }
        size_t n = (size_t)(p - s);
        int ours = n >= 2 && strncmp(s, "CG", 2) == 0;
        if (!ours && !all_ours) continue;
        char code[32];
        snprintf(code, sizeof code, "%.*s", (int)(n < 31 ? n : 31), s);
        int idx = cg_rule_index(code);
        if (idx < 0 || strcmp(code, cg_rules[idx].id) != 0) {
            /* every unknown code of the list, not only the first */
            size_t o = strlen(d->problem);
            if (!o || d->unknown_code) {
                snprintf(d->problem + o, sizeof d->problem - o, "%s`%s` is not a cglint rule code%s",
                         o ? ", " : "", code, idx >= 0 ? " (codes are upper-case)" : "");
                d->unknown_code = 1;
            }
            continue;
        }
        if (d->ncodes < CG_SUP_MAX_CODES) d->codes[d->ncodes++] = idx;
    }
}

/* A directive may start at p (just after a comment marker).  `lim` is the end
 * of the comment. */
static void parse_directive(scan_ctx *s, uint32_t line, const char *marker, const char *p, const char *lim)
{
    while (p < lim && (*p == ' ' || *p == '\t')) p++;
    const char *ls = s->text + s->line_start[line - 1];
    if ((size_t)(lim - p) >= 7 && strncmp(p, "cglint:", 7) == 0) {
        cg_directive *d = scan_push(s);
        d->line = line;
        d->byte_col = (uint32_t)(marker - ls);
        d->form = "cglint";
        const char *q = p + 7;
        while (q < lim && (*q == ' ' || *q == '\t')) q++;
        const char *w = q;
        while (q < lim && (isalnum((unsigned char)*q) || *q == '-' || *q == '_')) q++;
        size_t wl = (size_t)(q - w);
        d->byte_end = (uint32_t)(q - ls);
        if (wl == 6 && strncmp(w, "ignore", 6) == 0) d->scope = CG_SUP_LINE;
        else if (wl == 16 && strncmp(w, "ignore-next-line", 16) == 0) d->scope = CG_SUP_NEXT_LINE;
        else if (wl == 11 && strncmp(w, "ignore-file", 11) == 0) d->scope = CG_SUP_FILE;
        else {
            snprintf(d->problem, sizeof d->problem,
                     "unknown directive `cglint: %.*s` (expected ignore, ignore-next-line or ignore-file)",
                     (int)(wl > 40 ? 40 : wl), w);
            d->ncodes = -1;
            return;
        }
        if (q >= lim || *q != '[') {
            snprintf(d->problem, sizeof d->problem,
                     "`cglint: %.*s` must name the rules it suppresses, as in `cglint: %.*s[CG101]`",
                     (int)wl, w, (int)wl, w);
            d->ncodes = -1;
            return;
        }
        const char *close = memchr(q, ']', (size_t)(lim - q));
        if (!close) {
            snprintf(d->problem, sizeof d->problem, "`cglint: %.*s[` has no closing `]`", (int)wl, w);
            d->ncodes = -1;
            return;
        }
        parse_codes(d, q + 1, close, 1);
        d->byte_end = (uint32_t)(close + 1 - ls);
        if (d->ncodes == 0) {
            if (!d->problem[0])
                snprintf(d->problem, sizeof d->problem, "`cglint: %.*s[]` names no rule", (int)wl, w);
            d->ncodes = -1;
        }
        return;
    }
    if ((size_t)(lim - p) >= 4 && strncasecmp(p, "noqa", 4) == 0) {
        const char *q = p + 4;
        if (q >= lim || *q != ':') return;          /* bare noqa: other tools' */
        q++;
        const char *e = q;
        while (e < lim && (*e == ' ' || *e == '\t' || *e == ',' || is_code_char(*e))) e++;
        while (e > q && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == ',')) e--;
        cg_directive d = {0};
        parse_codes(&d, q, e, 0);
        if (!d.ncodes && !d.problem[0]) return;      /* no CG code: not ours */
        cg_directive *dd = scan_push(s);
        *dd = d;
        dd->scope = CG_SUP_LINE;
        dd->line = line;
        dd->byte_col = (uint32_t)(marker - ls);
        dd->byte_end = (uint32_t)(e - ls);
        dd->form = "noqa";
        return;
    }
    if ((size_t)(lim - p) >= 6 && strncmp(p, "NOLINT", 6) == 0) {
        const char *q = p + 6;
        int next = 0, begin = 0, end = 0;
        if ((size_t)(lim - q) >= 8 && strncmp(q, "NEXTLINE", 8) == 0) { next = 1; q += 8; }
        else if ((size_t)(lim - q) >= 5 && strncmp(q, "BEGIN", 5) == 0) { begin = 1; q += 5; }
        else if ((size_t)(lim - q) >= 3 && strncmp(q, "END", 3) == 0) { end = 1; q += 3; }
        if (q >= lim || *q != '(') return;           /* bare NOLINT(BEGIN/END): clang-tidy's */
        const char *close = memchr(q, ')', (size_t)(lim - q));
        if (!close) return;
        cg_directive d = {0};
        parse_codes(&d, q + 1, close, 0);
        if (!d.ncodes && !d.problem[0]) return;
        cg_directive *dd = scan_push(s);
        *dd = d;
        dd->scope = next ? CG_SUP_NEXT_LINE : begin ? CG_SUP_RANGE : end ? CG_SUP_RANGE_END : CG_SUP_LINE;
        dd->line = line;
        dd->byte_col = (uint32_t)(marker - ls);
        dd->byte_end = (uint32_t)(close + 1 - ls);
        dd->form = next ? "NOLINTNEXTLINE" : begin ? "NOLINTBEGIN" : end ? "NOLINTEND" : "NOLINT";
    }
}

/* A comment from `start` (its marker) to `end` on line `line`. */
static void scan_comment(scan_ctx *s, uint32_t line, const char *start, const char *end, int c_style)
{
    size_t ml = c_style ? 2 : 1;
    for (const char *p = start; p + ml <= end; p++) {
        if (c_style ? (p[0] == '/' && p[1] == '/') : (p[0] == '#')) {
            const char *m = p;
            while (p + ml < end && (c_style ? (p[ml] == '/') : (p[ml] == '#'))) p++;   /* ## or /// */
            parse_directive(s, line, m, p + ml, end);
        }
    }
}

static int same_codes(const cg_directive *a, const cg_directive *b)
{
    if (a->ncodes != b->ncodes) return 0;
    for (int k = 0; k < a->ncodes; k++)
        if (a->codes[k] != b->codes[k]) return 0;
    return 1;
}

/* Each NOLINTBEGIN(codes) ends at the next unmatched NOLINTEND with the same
 * codes (clang-tidy's rule); a BEGIN or END left over is a problem and
 * suppresses nothing. */
static void pair_ranges(cg_directive *d, size_t n)
{
    unsigned char *matched = cg_xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (d[i].scope != CG_SUP_RANGE || d[i].ncodes <= 0) continue;
        size_t j = i + 1;
        for (; j < n; j++)
            if (d[j].scope == CG_SUP_RANGE_END && !matched[j] && same_codes(&d[i], &d[j])) break;
        if (j < n) {
            matched[j] = 1;
            d[i].end_line = d[j].line;
        } else {
            snprintf(d[i].problem, sizeof d[i].problem,
                     "`NOLINTBEGIN` has no matching `NOLINTEND` with the same codes after it, and suppresses nothing");
            d[i].ncodes = -1;
        }
    }
    for (size_t j = 0; j < n; j++)
        if (d[j].scope == CG_SUP_RANGE_END && d[j].ncodes > 0 && !matched[j]) {
            snprintf(d[j].problem, sizeof d[j].problem,
                     "`NOLINTEND` has no `NOLINTBEGIN` with the same codes before it");
            d[j].ncodes = -1;
        }
    free(matched);
}

size_t cg_suppress_scan(const char *text, size_t len, const char *comment, cg_directive **out)
{
    int c_style = strcmp(comment, "//") == 0;
    /* line starts */
    size_t nl = 1;
    for (size_t i = 0; i < len; i++) nl += text[i] == '\n';
    uint32_t *ls = cg_xmalloc(nl * sizeof *ls);
    size_t k = 0;
    ls[k++] = 0;
    for (size_t i = 0; i < len; i++) if (text[i] == '\n') ls[k++] = (uint32_t)(i + 1);
    scan_ctx s = { .text = text, .line_start = ls };
    uint32_t line = 1;
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        if (c == '\n') { line++; i++; continue; }
        if ((!c_style && c == '#') || (c_style && c == '/' && i + 1 < len && text[i + 1] == '/')) {
            size_t e = i;
            while (e < len && text[e] != '\n' && text[e] != '\r') e++;
            scan_comment(&s, line, text + i, text + e, c_style);
            i = e;
            continue;
        }
        if (c_style && c == '/' && i + 1 < len && text[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(text[i] == '*' && text[i + 1] == '/')) { if (text[i] == '\n') line++; i++; }
            i += 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            int triple = !c_style && i + 2 < len && text[i + 1] == c && text[i + 2] == c;
            i += triple ? 3 : 1;
            while (i < len) {
                if (text[i] == '\\' && i + 1 < len) { if (text[i + 1] == '\n') line++; i += 2; continue; }
                if (text[i] == '\n') {
                    line++;
                    if (!triple) { i++; break; }     /* unterminated: ends at the line */
                    i++;
                    continue;
                }
                if (text[i] == c) {
                    if (!triple) { i++; break; }
                    if (i + 2 < len && text[i + 1] == c && text[i + 2] == c) { i += 3; break; }
                }
                i++;
            }
            continue;
        }
        i++;
    }
    free(ls);
    pair_ranges(s.d, s.n);
    *out = s.d;
    return s.n;
}

int cg_suppress_maybe(const char *text, size_t len)
{
    /* only the '#' comments are read (one byte in 550 of Megatron-LM is a
     * '#'): four searches of every byte were 2% of a cold run */
    const char *end = text + len;
    for (const char *p = text; (p = memchr(p, '#', (size_t)(end - p))) != NULL;) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e) e = end;
        for (const char *q = p + 1; q < e; q++) {
            size_t left = (size_t)(e - q);
            if ((*q == 'c' && left >= 7 && memcmp(q, "cglint:", 7) == 0) ||
                ((*q == 'n' || *q == 'N') && left >= 4 && strncasecmp(q, "noqa", 4) == 0) ||
                (*q == 'N' && left >= 6 && memcmp(q, "NOLINT", 6) == 0))
                return 1;
        }
        p = e;
    }
    return 0;
}

/* ---- applying ---------------------------------------------------------------------- */

static int dir_covers(const cg_directive *d, uint32_t line)
{
    if (d->ncodes <= 0) return 0;
    switch (d->scope) {
    case CG_SUP_LINE: return d->line == line;
    case CG_SUP_NEXT_LINE: return d->line + 1 == line;
    case CG_SUP_FILE: return 1;
    case CG_SUP_RANGE: return d->line <= line && line <= d->end_line;
    case CG_SUP_RANGE_END: return 0;
    }
    return 0;
}

/* Mark and say whether some directive suppresses `rule` at `line`. */
static int suppressed(cg_directive *d, size_t nd, int rule, uint32_t line)
{
    int hit = 0;
    for (size_t i = 0; i < nd; i++) {
        if (!dir_covers(&d[i], line)) continue;
        for (int k = 0; k < d[i].ncodes; k++)
            if (d[i].codes[k] == rule) { d[i].used[k] = 1; hit = 1; }
    }
    return hit;
}

static void add_cg001(cg_report *r, const cg_source *src, const cg_file *f, const cg_directive *d,
                      const char *message)
{
    size_t ll;
    const char *lt = cg_source_line(src, d->line, &ll);
    char *line_text = strndup(lt, ll);
    cg_finding x;
    memset(&x, 0, sizeof x);
    x.rule = CG_R_CG001;
    x.level = cg_rules[CG_R_CG001].severity;
    x.loc.path = f->path;
    x.loc.line = x.loc.end_line = d->line;
    x.loc.col = cg_source_column(src, d->line, d->byte_col);
    x.loc.end_col = cg_source_column(src, d->line, d->byte_end > d->byte_col ? d->byte_end : d->byte_col + 1);
    x.message = (char *)message;
    x.line_text = line_text;
    cg_report_add(r, &x);
    free(line_text);
}

static const char *scope_words(cg_sup_scope s)
{
    return s == CG_SUP_LINE ? "on this line" : s == CG_SUP_NEXT_LINE ? "on the next line"
         : s == CG_SUP_RANGE ? "before its NOLINTEND" : "in this file";
}

void cg_suppress_apply(cg_report *r, const cg_file *files, size_t n, const cg_ruleset *rules)
{
    if (!r->nfindings && !n) return;
    cg_map by_path;
    cg_map_init(&by_path);
    for (size_t i = 0; i < n; i++) cg_map_put(&by_path, files[i].path, strlen(files[i].path), (void *)(i + 1));
    /* which files have findings */
    unsigned char *has = cg_xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < r->nfindings; i++) {
        const char *p = r->findings[i].loc.path;
        size_t idx = p ? (size_t)cg_map_get(&by_path, p, strlen(p)) : 0;
        if (idx) has[idx - 1] = 1;
    }
    unsigned char *drop = cg_xcalloc(r->nfindings ? r->nfindings : 1, 1);
    size_t nfound = r->nfindings;
    typedef struct { size_t file; cg_source src; cg_directive *d; size_t nd; } scanned;
    scanned *sc = NULL;
    size_t nsc = 0;
    for (size_t i = 0; i < n; i++) {
        if (!files[i].report || files[i].directives == 1) continue;
        if (!has[i] && files[i].directives != 2 && files[i].directives != 0) continue;
        cg_source src;
        char err[256];
        if (cg_source_load(&src, files[i].path, 0, err, sizeof err) != CG_SRC_OK) continue;
        cg_directive *d = NULL;
        const char *marker = files[i].lang == CG_LANG_PY ? "#" : "//";
        size_t nd = cg_suppress_scan(src.text, src.len, marker, &d);
        if (!nd) { free(d); cg_source_free(&src); continue; }
        sc = cg_xrealloc(sc, (nsc + 1) * sizeof *sc);
        sc[nsc++] = (scanned){ i, src, d, nd };
    }
    for (size_t k = 0; k < nsc; k++) {
        scanned *s = &sc[k];
        for (size_t i = 0; i < nfound; i++) {
            cg_finding *f = &r->findings[i];
            if (!f->loc.path || strcmp(f->loc.path, files[s->file].path) != 0) continue;
            if (suppressed(s->d, s->nd, f->rule, f->loc.line)) drop[i] = 1;
        }
    }
    size_t w = 0;
    for (size_t i = 0; i < nfound; i++) {
        if (drop[i]) cg_finding_free(&r->findings[i]);
        else r->findings[w++] = r->findings[i];
    }
    r->nfindings = w;

    /* CG001: what is wrong with the directives themselves */
    for (size_t k = 0; k < nsc; k++) {
        scanned *s = &sc[k];
        const cg_file *f = &files[s->file];
        const cg_ruleset *rs = &rules[s->file];
        if (!rs->on[CG_R_CG001]) continue;
        for (size_t j = 0; j < s->nd; j++) {
            cg_directive *d = &s->d[j];
            char msg[512];
            msg[0] = 0;
            if (d->problem[0] && !(d->unknown_code && d->ncodes > 0)) {
                snprintf(msg, sizeof msg, "%s: %s",
                         d->unknown_code ? "unknown code in suppression" : "malformed suppression", d->problem);
            } else if (d->scope != CG_SUP_RANGE_END) {   /* an END's codes are its BEGIN's */
                char list[256] = "";
                size_t o = 0;
                int nunused = 0;
                for (int c = 0; c < d->ncodes; c++) {
                    if (d->used[c] || d->codes[c] == CG_R_CG001 || !rs->on[d->codes[c]]) continue;
                    o += (size_t)snprintf(list + o, sizeof list - (o < sizeof list ? o : sizeof list),
                                          "%s%s", nunused ? ", " : "", cg_rules[d->codes[c]].id);
                    nunused++;
                }
                /* a list may hold unknown codes and unused ones: one finding says both */
                size_t m = 0;
                if (d->problem[0])
                    m = (size_t)snprintf(msg, sizeof msg, "unknown code in suppression: %s", d->problem);
                if (nunused && m < sizeof msg)
                    snprintf(msg + m, sizeof msg - m, "%sunused suppression: %s %s not reported %s", m ? "; " : "",
                             list, nunused == 1 ? "is" : "are", scope_words(d->scope));
            }
            if (!msg[0]) continue;
            if (suppressed(s->d, s->nd, CG_R_CG001, d->line)) continue;
            add_cg001(r, &s->src, f, d, msg);
        }
    }
    for (size_t k = 0; k < nsc; k++) {
        free(sc[k].d);
        cg_source_free(&sc[k].src);
    }
    free(sc);
    free(drop);
    free(has);
    cg_map_free(&by_path);
}
