/* text.c - the human format, shaped like rustc's and clang's diagnostics:
 *
 *   path:line:col: error: message [CG101]
 *      |
 *   42 |         n = loss.item()
 *      |             ^^^^^^^^^^^
 *      = note: reached from the capture at path:30:5 (torch.cuda.graph) via A -> B
 *      = help: fix
 *
 * Columns in the model are Unicode code points, so the caret line is built by
 * walking the source line one code point at a time; tabs before the span are
 * copied into the padding (a terminal expands both lines' tabs to the same
 * stops, which spaces would not).  Colour is opt-in and, when off, no escape
 * byte is ever written, so output piped to files or editors stays clean. */
#include "emit.h"
#include "core/hash.h"
#include "core/source.h"
#include <stdlib.h>
#include <string.h>

#define SGR_RESET "\x1b[0m"
#define SGR_BOLD "\x1b[1m"

/* Where a long line was last walked to: findings are sorted by line and
 * column, so the next finding on the same line walks on from there instead
 * of from the line's start (16,000 findings on one generated line cost one
 * walk of it, not 16,000). */
typedef struct {
    const char *line;   /* the report's copy: findings on one line share it */
    size_t len;
    size_t at;          /* byte offset of code point `col` */
    uint32_t col;       /* 1-based */
    uint32_t width;     /* the line's code points, once counted; 0: not yet */
} text_walk;

/* The file a finding is in, for the context lines around its line: read
 * once per file (findings are sorted by path), and used only when its line
 * still reads as the finding's line_text (the file may have changed since,
 * or be absent: a findings file from another machine). */
typedef struct {
    const char *path;   /* the findings' string of the file loaded (or tried) */
    cg_source src;
    int ok;
} text_file;

typedef struct {
    FILE *out;
    int color;
    text_walk walk;     /* to the span's column */
    text_walk from;     /* to a long line's window start, which also only moves right */
    const char *root;   /* the report's root, for relative paths */
    text_file file;
} text_ctx;

/* Lines shown above and below the finding's line, as ruff shows them. */
#define TEXT_CONTEXT 2

/* A long line is shown as a window of this many code points around the
 * finding, with "…" where it is cut; the window starts this many code points
 * before the span. */
#define TEXT_LINE_MAX 240
#define TEXT_LEAD 60

static const char *severity_sgr(cg_severity sev)
{
    switch (sev) {
    case CG_SEV_ERROR: return "\x1b[1;31m";
    case CG_SEV_WARNING: return "\x1b[1;33m";
    default: return "\x1b[1;36m";
    }
}

/* Byte length of the UTF-8 sequence at s (at most n bytes); an invalid or
 * truncated sequence counts as one byte, so malformed input still advances. */
static size_t text_utf8_len(const unsigned char *s, size_t n)
{
    size_t len;
    if (s[0] < 0x80) return 1;
    else if (s[0] >= 0xc2 && s[0] <= 0xdf) len = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef) len = 3;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4) len = 4;
    else return 1;
    if (len > n) return 1;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80) return 1;
    return len;
}

void cg_emit_escaped(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    for (size_t i = 0; i < n;) {
        size_t k = text_utf8_len(p + i, n - i);
        /* C0 controls, DEL, C1 controls (U+0080-U+009F) and bytes that are
         * not UTF-8: a terminal must never receive them from a file name */
        int bad = (k == 1 && (p[i] < 0x20 || p[i] == 0x7f || p[i] >= 0x80)) || (k == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0);
        if (bad) {
            for (size_t b = 0; b < k; b++) fprintf(out, "\\x%02x", p[i + b]);
        } else {
            fwrite(p + i, 1, k, out);
        }
        i += k;
    }
}

/* Writes s wrapped in an SGR sequence when colour is on. */
static void text_styled(const text_ctx *c, const char *sgr, const char *s)
{
    if (c->color) fprintf(c->out, "%s", sgr);
    cg_emit_escaped(c->out, s);
    if (c->color) fputs(SGR_RESET, c->out);
}

static int text_digits(uint32_t v)
{
    int d = 1;
    while (v >= 10) { v /= 10; d++; }
    return d;
}

/* The byte offset of code point `col` (1-based) of the line, or the line's
 * length when it has fewer; *reached gets the column found there. */
static size_t text_offset(text_walk *w, const char *line, uint32_t col, uint32_t *reached)
{
    if (w->line != line) {
        w->line = line;
        w->len = strlen(line);
        w->at = 0;
        w->col = 1;
        w->width = 0;
    }
    if (col < w->col) { w->at = 0; w->col = 1; }
    while (w->col < col && w->at < w->len) {
        w->at += text_utf8_len((const unsigned char *)line + w->at, w->len - w->at);
        w->col++;
    }
    *reached = w->col;
    return w->at;
}

/* Code points of line[from, to). */
static uint32_t text_width(const char *line, size_t from, size_t to)
{
    uint32_t n = 0;
    for (size_t i = from; i < to; n++) i += text_utf8_len((const unsigned char *)line + i, to - i);
    return n;
}

/* Write line[from, to) with control characters shown as their Unicode
 * pictures (U+2400...), one code point each, so the caret line still lines
 * up; a tab stays a tab. */
static void text_line_bytes(FILE *out, const char *line, size_t from, size_t to)
{
    const unsigned char *p = (const unsigned char *)line;
    for (size_t i = from; i < to;) {
        size_t k = text_utf8_len(p + i, to - i);
        if (k == 1 && p[i] != '\t' && (p[i] < 0x20 || p[i] == 0x7f)) {
            unsigned cp = p[i] == 0x7f ? 0x2421 : 0x2400 + p[i];
            fputc(0xe0 | (cp >> 12), out);
            fputc(0x80 | ((cp >> 6) & 0x3f), out);
            fputc(0x80 | (cp & 0x3f), out);
        } else if ((k == 1 && p[i] >= 0x80) || (k == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0)) {
            fputs("\xef\xbf\xbd", out);   /* U+FFFD */
        } else {
            fwrite(p + i, 1, k, out);
        }
        i += k;
    }
}

static const cg_source *text_source(text_ctx *c, const cg_finding *f);
static void text_context(FILE *out, const cg_source *src, const cg_finding *f, int gutter, int before);
static uint32_t text_context_last(const cg_source *src, uint32_t line);

/* Where the code of a line ends from byte `at`: before a trailing comment
 * (`#` in Python, `//` otherwise, outside strings) and trailing blanks.  The
 * carets of a span that goes on below stop there: they mark the expression,
 * not the comment after its first line. */
static size_t text_code_end(const char *line, size_t at, size_t len, const char *path)
{
    size_t pl = path ? strlen(path) : 0;
    int py = pl > 3 && strcmp(path + pl - 3, ".py") == 0;
    char q = 0;
    size_t end = len;
    for (size_t i = at; i < len; i++) {
        char ch = line[i];
        if (q) {
            if (ch == '\\') i++;
            else if (ch == q) q = 0;
            continue;
        }
        if (ch == '"' || ch == '\'') q = ch;
        else if ((py && ch == '#') || (!py && ch == '/' && i + 1 < len && line[i + 1] == '/')) { end = i; break; }
    }
    while (end > at && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r')) end--;
    return end;
}

/* The snippet: the line (or a window of a long one) and the caret line
 * under the span.  A column past the line's end (a finding from an older
 * version of the file, or a hand-made findings file) is clamped to just
 * after its end; the carets never run past the shown text by more than one. */
static void text_snippet(text_ctx *c, const cg_finding *f, int gutter)
{
    FILE *out = c->out;
    const char *line = f->line_text;
    uint32_t col = f->loc.col ? f->loc.col : 1, reached;
    size_t at = text_offset(&c->walk, line, col, &reached);
    size_t len = c->walk.len;
    if (reached < col) col = reached;   /* past the end: clamped */
    /* the window */
    size_t from = 0, to = len;
    int cut_left = 0, cut_right = 0;
    if (len > TEXT_LINE_MAX && !c->walk.width) c->walk.width = text_width(line, 0, len) + 1;   /* once a line */
    if (len > TEXT_LINE_MAX && c->walk.width - 1 > TEXT_LINE_MAX) {
        uint32_t r2;
        if (col > TEXT_LEAD + 1) {
            from = text_offset(&c->from, line, col - TEXT_LEAD, &r2);
            cut_left = 1;
        }
        size_t shown = 0;
        to = from;
        while (to < len && shown < TEXT_LINE_MAX) {
            to += text_utf8_len((const unsigned char *)line + to, len - to);
            shown++;
        }
        cut_right = to < len;
    }
    const cg_source *src = text_source(c, f);
    fprintf(out, "%*s |\n", gutter, "");
    text_context(out, src, f, gutter, 1);
    fprintf(out, "%*u | ", gutter, (unsigned)f->loc.line);
    if (cut_left) fputs("\xe2\x80\xa6", out);
    text_line_bytes(out, line, from, to);
    if (cut_right) fputs("\xe2\x80\xa6", out);
    fputc('\n', out);
    fprintf(out, "%*s | ", gutter, "");
    if (cut_left) fputc(' ', out);
    for (size_t i = from; i < at && i < to;) {
        fputc(line[i] == '\t' ? '\t' : ' ', out);
        i += text_utf8_len((const unsigned char *)line + i, len - i);
    }
    /* carets: the span's width on its first line, within what is shown (and
     * one column past the line's end, where its line break is) */
    uint32_t avail = at < to ? text_width(line, at, to) : 0, n;
    if (f->loc.end_line > f->loc.line) {
        size_t ce = text_code_end(line, at, len, f->loc.path);
        n = at < to ? text_width(line, at, ce < to ? ce : to) : 0;
    }
    else n = f->loc.end_col > f->loc.col ? f->loc.end_col - f->loc.col : 0;
    if (n > avail + !cut_right) n = avail + !cut_right;
    if (!n) n = 1;     /* an empty span (an insertion point) is still visible */
    if (c->color) fputs(severity_sgr(f->level), out);
    for (uint32_t i = 0; i < n; i++) fputc('^', out);
    if (c->color) fputs(SGR_RESET, out);
    fputc('\n', out);
    text_context(out, src, f, gutter, 0);
}

static const cg_source *text_source(text_ctx *c, const cg_finding *f)
{
    const char *path = f->loc.path;
    if (!path) return NULL;
    if (c->file.path != path && !(c->file.path && strcmp(c->file.path, path) == 0)) {
        if (c->file.ok) cg_source_free(&c->file.src);
        c->file.ok = 0;
        c->file.path = path;
        char err[256];
        c->file.ok = cg_source_load(&c->file.src, path, 64u << 20, err, sizeof err) == CG_SRC_OK;
        if (!c->file.ok && path[0] != '/' && c->root) {
            char *full = NULL;
            if (asprintf(&full, "%s/%s", c->root, path) > 0) {
                c->file.ok = cg_source_load(&c->file.src, full, 64u << 20, err, sizeof err) == CG_SRC_OK;
                free(full);
            }
        }
    }
    if (!c->file.ok || !f->line_text) return NULL;
    size_t n;
    const char *l = cg_source_line(&c->file.src, f->loc.line, &n);
    if (!l || strlen(f->line_text) != n || memcmp(l, f->line_text, n) != 0) return NULL;
    return &c->file.src;
}

/* One context line: number, bar, text (a long one cut with "…"). */
static void text_context_line(FILE *out, const cg_source *src, uint32_t line, int gutter)
{
    size_t n;
    const char *l = cg_source_line(src, line, &n);
    if (!l) return;
    size_t to = 0, shown = 0;
    while (to < n && shown < TEXT_LINE_MAX) {
        to += text_utf8_len((const unsigned char *)l + to, n - to);
        shown++;
    }
    if (n) fprintf(out, "%*u | ", gutter, (unsigned)line);
    else fprintf(out, "%*u |", gutter, (unsigned)line);
    text_line_bytes(out, l, 0, to);
    if (to < n) fputs("\xe2\x80\xa6", out);
    fputc('\n', out);
}

static int text_blank(const cg_source *src, uint32_t line)
{
    size_t n;
    const char *l = cg_source_line(src, line, &n);
    for (size_t i = 0; l && i < n; i++)
        if (l[i] != ' ' && l[i] != '\t' && l[i] != '\r') return 0;
    return 1;
}

/* The last context line shown below `line`. */
static uint32_t text_context_last(const cg_source *src, uint32_t line)
{
    uint32_t nlines = (uint32_t)src->nlines;
    uint32_t last = line + TEXT_CONTEXT <= nlines ? line + TEXT_CONTEXT : nlines;
    while (last > line && text_blank(src, last)) last--;
    return last > line ? last : line;
}

/* The context lines around the finding's line: `before` says which side.
 * Blank lines at the outer edge are left out. */
static void text_context(FILE *out, const cg_source *src, const cg_finding *f, int gutter, int before)
{
    if (!src) return;
    uint32_t line = f->loc.line;
    if (before) {
        uint32_t first = line > TEXT_CONTEXT ? line - TEXT_CONTEXT : 1;
        while (first < line && text_blank(src, first)) first++;
        for (uint32_t l = first; l < line; l++) text_context_line(out, src, l, gutter);
    } else {
        uint32_t last = text_context_last(src, line);
        for (uint32_t l = line + 1; l <= last; l++) text_context_line(out, src, l, gutter);
    }
}

/* help: lines in one style, whoever wrote the text: a sentence, capitalised
 * and ended with a full stop ("pass `x`" -> "Pass `x`."). */
static void text_help(FILE *out, const char *fix)
{
    size_t n = strlen(fix);
    while (n && (fix[n - 1] == ' ' || fix[n - 1] == '\n')) n--;
    char *s = strndup(fix, n);
    if (!s) return;
    if (s[0] >= 'a' && s[0] <= 'z') s[0] = (char)(s[0] - 'a' + 'A');
    cg_emit_escaped(out, s);
    if (n && !strchr(".!?:", s[n - 1])) fputc('.', out);
    free(s);
}

static void text_capture_note(FILE *out, const cg_finding *f, int gutter)
{
    const cg_loc *cap = &f->capture;
    fprintf(out, "%*s = note: %s the capture at ", gutter, "", f->npath ? "reached from" : "inside");
    cg_emit_escaped(out, cap->path ? cap->path : "?");
    fprintf(out, ":%u:%u", (unsigned)cap->line, (unsigned)cap->col);
    if (f->capture_kind && *f->capture_kind) {
        fputs(" (", out);
        cg_emit_escaped(out, f->capture_kind);
        fputc(')', out);
    }
    for (size_t k = 0; k < f->npath; k++) {
        fputs(k ? " -> " : " via ", out);
        cg_emit_escaped(out, f->path[k].function ? f->path[k].function : "?");
    }
    fputc('\n', out);
}

static void text_finding(text_ctx *c, const cg_finding *f)
{
    FILE *out = c->out;
    const cg_rule *rule = &cg_rules[f->rule];
    char where[64];
    /* wide enough for the context lines' numbers below it */
    const cg_source *src = f->line_text && *f->line_text && f->loc.line ? text_source(c, f) : NULL;
    uint32_t last = src ? text_context_last(src, f->loc.line) : f->loc.line;
    int gutter = text_digits(last > f->loc.line ? last : f->loc.line);

    /* Header: clang's "path:line:col: severity: message", rule id last like
     * ruff, so the message reads first.  Names and messages come from files
     * and file names: control bytes in them are escaped, never sent. */
    if (c->color) fputs(SGR_BOLD, out);
    cg_emit_escaped(out, f->loc.path ? f->loc.path : "?");
    snprintf(where, sizeof where, ":%u:%u:", (unsigned)f->loc.line, (unsigned)f->loc.col);
    fputs(where, out);
    if (c->color) fputs(SGR_RESET, out);
    fputc(' ', out);
    text_styled(c, severity_sgr(f->level), cg_severity_name(f->level));
    fputs(": ", out);
    cg_emit_escaped(out, f->message ? f->message : "");
    fputc(' ', out);
    snprintf(where, sizeof where, "[%s]", rule->id);
    text_styled(c, SGR_BOLD, where);
    fputc('\n', out);

    if (f->line_text && *f->line_text && f->loc.line) text_snippet(c, f, gutter);
    if (f->has_capture) text_capture_note(out, f, gutter);
    const char *fix = f->fix && *f->fix ? f->fix : rule->fix;
    if (fix && *fix) {
        fprintf(out, "%*s = help: ", gutter, "");
        text_help(out, fix);
        fprintf(out, "%s\n", !f->nedits ? "" : f->fix_safe ? " (fixable with --fix)" : " (fixable with --fix --unsafe-fixes)");
    }
    if (f->verdict != CG_VERDICT_NONE) {
        fprintf(out, "%*s = verdict: ", gutter, "");
        text_styled(c, f->verdict == CG_VERDICT_CONFIRMED || f->verdict == CG_VERDICT_RUNTIME
                           ? severity_sgr(CG_SEV_ERROR) : SGR_BOLD,
                    cg_verdict_name(f->verdict));
        if (f->evidence && *f->evidence) {
            fputs(": ", out);
            cg_emit_escaped(out, f->evidence);
        }
        fputc('\n', out);
    }
}

/* `cglint run`: the program's status, each capture region, the verdicts. */
static void text_run(FILE *out, const cg_report *r)
{
    const cg_run_info *ri = r->run;
    fputs("Program:", out);
    for (size_t i = 0; i < ri->argc; i++) {
        fputc(' ', out);
        cg_emit_escaped(out, ri->argv[i]);
    }
    if (ri->signal) fprintf(out, " was killed by signal %d", ri->signal);
    else fprintf(out, " exited with status %d", ri->exit_code);
    fprintf(out, " (%zu process%s observed", ri->processes, ri->processes == 1 ? "" : "es");
    if (ri->gpu) fprintf(out, "; %s", ri->gpu);
    if (ri->torch) fprintf(out, ", PyTorch %s", ri->torch);
    if (ri->cuda) fprintf(out, ", CUDA %s", ri->cuda);
    fputs(").\n", out);
    if (ri->nregions) {
        fputs("Capture regions:\n", out);
        for (size_t i = 0; i < ri->nregions; i++) {
            const cg_region_stat *g = &ri->regions[i];
            fputs("  ", out);
            cg_emit_escaped(out, g->site.path ? g->site.path : "?");
            fprintf(out, ":%u (", (unsigned)g->site.line);
            cg_emit_escaped(out, g->kind ? g->kind : "capture");
            fprintf(out, "): %lu capture%s", g->captures, g->captures == 1 ? "" : "s");
            if (g->failed) fprintf(out, " (%lu failed)", g->failed);
            fprintf(out, ", %lu replay%s", g->replays, g->replays == 1 ? "" : "s");
            if (g->nodes >= 0) fprintf(out, ", %ld graph node%s", g->nodes, g->nodes == 1 ? "" : "s");
            if (g->mean_replay_ms >= 0) fprintf(out, ", mean replay %.3f ms", g->mean_replay_ms);
            if (g->eager_step_ms >= 0) {
                fputs(", the step run eagerly (", out);
                cg_emit_escaped(out, g->eager_step ? g->eager_step : "?");
                fprintf(out, ") %.3f ms", g->eager_step_ms);
                if (g->mean_replay_ms > 0) fprintf(out, ": replays %.1fx faster", g->eager_step_ms / g->mean_replay_ms);
            }
            for (size_t k = 0; k < g->nranks; k++)
            {
                fprintf(out, "%s rank %d: %lu capture%s", k ? ";" : "; by rank:", g->ranks[k].rank,
                        g->ranks[k].captures, g->ranks[k].captures == 1 ? "" : "s");
                if (g->ranks[k].failed) fprintf(out, " (%lu failed)", g->ranks[k].failed);
                fprintf(out, ", %lu replay%s", g->ranks[k].replays, g->ranks[k].replays == 1 ? "" : "s");
            }
            fputs(".\n", out);
        }
    }
    fputs("Verdicts:", out);
    int first = 1;
    for (int v = CG_VERDICT_CONFIRMED; v < CG_VERDICT_COUNT; v++) {
        size_t n = cg_report_count_verdict(r, (cg_verdict)v);
        fprintf(out, "%s %zu %s", first ? "" : ",", n, cg_verdict_name((cg_verdict)v));
        first = 0;
    }
    fputs(".\n", out);
}

static size_t text_distinct_files(const cg_report *r)
{
    /* A set of paths; the keys are the findings' own strings, which outlive it. */
    cg_map seen;
    cg_map_init(&seen);
    for (size_t i = 0; i < r->nfindings; i++) {
        const char *p = r->findings[i].loc.path ? r->findings[i].loc.path : "";
        cg_map_put(&seen, p, strlen(p), (void *)1);
    }
    size_t files = seen.count;
    cg_map_free(&seen);
    return files;
}

/* "1 error" / "2 errors". */
static void text_count(FILE *out, size_t n, const char *word, int *first)
{
    if (!n) return;
    fprintf(out, "%s%zu %s%s", *first ? "" : ", ", n, word, n == 1 ? "" : "s");
    *first = 0;
}

/* Inputs that could not be analysed are said in the summary too: "No
 * findings" alone would read as a clean bill when files were skipped. */
static void text_skipped(FILE *out, const cg_report *r)
{
    size_t n = cg_report_errors(r);
    if (n) fprintf(out, " %zu input%s could not be analysed (see the messages above).", n, n == 1 ? "" : "s");
}

static void text_summary(FILE *out, const cg_report *r)
{
    if (!r->nfindings) {
        fputs("No findings.", out);
        text_skipped(out, r);
        fputc('\n', out);
        return;
    }
    size_t by_level[3] = {0, 0, 0};
    for (size_t i = 0; i < r->nfindings; i++) {
        cg_severity s = r->findings[i].level;
        by_level[s == CG_SEV_ERROR ? 2 : s == CG_SEV_WARNING ? 1 : 0]++;
    }
    size_t files = text_distinct_files(r);
    int first = 1;
    fprintf(out, "Found %zu finding%s (", r->nfindings, r->nfindings == 1 ? "" : "s");
    text_count(out, by_level[2], "error", &first);
    text_count(out, by_level[1], "warning", &first);
    text_count(out, by_level[0], "note", &first);
    fprintf(out, ") in %zu file%s.", files, files == 1 ? "" : "s");
    size_t fixable = 0, unsafe = 0;
    for (size_t i = 0; i < r->nfindings; i++) {
        fixable += r->findings[i].nedits && r->findings[i].fix_safe;
        unsafe += r->findings[i].nedits && !r->findings[i].fix_safe;
    }
    if (fixable && unsafe) fprintf(out, " %zu fixable with --fix (%zu more with --unsafe-fixes).", fixable, unsafe);
    else if (fixable) fprintf(out, " %zu fixable with --fix.", fixable);
    else if (unsafe) fprintf(out, " %zu fixable with --fix --unsafe-fixes.", unsafe);
    text_skipped(out, r);
    fputc('\n', out);
}

typedef struct {
    size_t rule;
    size_t count;
} text_stat;

static int text_stat_cmp(const void *pa, const void *pb)
{
    const text_stat *a = pa, *b = pb;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return strcmp(cg_rules[a->rule].id, cg_rules[b->rule].id);
}

static int text_statistics(FILE *out, const cg_report *r)
{
    text_stat *st = calloc(cg_rule_count ? cg_rule_count : 1, sizeof *st);
    if (!st) return -1;
    for (size_t i = 0; i < cg_rule_count; i++) st[i].rule = i;
    for (size_t i = 0; i < r->nfindings; i++) st[r->findings[i].rule].count++;
    if (cg_rule_count > 1) qsort(st, cg_rule_count, sizeof *st, text_stat_cmp);
    for (size_t i = 0; i < cg_rule_count && st[i].count; i++)
        fprintf(out, "%5zu  %s  %s\n", st[i].count, cg_rules[st[i].rule].id,
                cg_rules[st[i].rule].name);
    free(st);
    return 0;
}

int cg_emit_text(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    text_ctx c = {out, o->color, {0}, {0}, r->root, {0}};
    int printed = 0;   /* anything above the summary, which a blank line then separates */
    if (o->statistics) {
        if (text_statistics(out, r) < 0) return -1;
        printed = r->nfindings > 0;
    } else {
        for (size_t i = 0; i < r->nfindings; i++) {
            if (i) fputc('\n', out);
            text_finding(&c, &r->findings[i]);
        }
        printed = r->nfindings > 0;
    }
    if (c.file.ok) cg_source_free(&c.file.src);
    if (!o->quiet) {
        if (printed) fputc('\n', out);
        if (r->run) text_run(out, r);
        text_summary(out, r);
    }
    return ferror(out) ? -1 : 0;
}
