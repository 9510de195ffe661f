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
#include <stdlib.h>
#include <string.h>

#define SGR_RESET "\x1b[0m"
#define SGR_BOLD "\x1b[1m"

typedef struct {
    FILE *out;
    int color;
} text_ctx;

static const char *severity_sgr(cg_severity sev)
{
    switch (sev) {
    case CG_SEV_ERROR: return "\x1b[1;31m";
    case CG_SEV_WARNING: return "\x1b[1;33m";
    default: return "\x1b[1;36m";
    }
}

/* Writes s wrapped in an SGR sequence when colour is on. */
static void text_styled(const text_ctx *c, const char *sgr, const char *s)
{
    if (c->color) fprintf(c->out, "%s%s%s", sgr, s, SGR_RESET);
    else fputs(s, c->out);
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

static uint32_t text_count_codepoints(const char *s)
{
    uint32_t n = 0;
    size_t len = strlen(s);
    for (size_t i = 0; i < len; n++) i += text_utf8_len((const unsigned char *)s + i, len - i);
    return n;
}

static int text_digits(uint32_t v)
{
    int d = 1;
    while (v >= 10) { v /= 10; d++; }
    return d;
}

/* The padding before the caret: one space per code point before the span's
 * first column, except that tabs stay tabs. */
static void text_caret_padding(FILE *out, const char *line, uint32_t col)
{
    size_t len = strlen(line), i = 0;
    for (uint32_t cp = 1; cp < col; cp++) {
        if (i < len) {
            fputc(line[i] == '\t' ? '\t' : ' ', out);
            i += text_utf8_len((const unsigned char *)line + i, len - i);
        } else {
            fputc(' ', out);   /* a span just past the end of the line */
        }
    }
}

/* How many carets: the span's width on one line; a span that continues on
 * later lines is underlined to the end of its first line.  Never zero, so an
 * empty span (an insertion point) is still visible. */
static uint32_t text_caret_count(const cg_loc *l, const char *line)
{
    uint32_t col = l->col ? l->col : 1, n = 0;
    if (l->end_line > l->line) {
        uint32_t width = text_count_codepoints(line);
        n = width >= col ? width - col + 1 : 0;
    } else if (l->end_col > col) {
        n = l->end_col - col;
    }
    return n ? n : 1;
}

static void text_snippet(const text_ctx *c, const cg_finding *f, int gutter)
{
    FILE *out = c->out;
    uint32_t col = f->loc.col ? f->loc.col : 1;
    fprintf(out, "%*s |\n", gutter, "");
    fprintf(out, "%*u | %s\n", gutter, (unsigned)f->loc.line, f->line_text);
    fprintf(out, "%*s | ", gutter, "");
    text_caret_padding(out, f->line_text, col);
    uint32_t n = text_caret_count(&f->loc, f->line_text);
    if (c->color) fputs(severity_sgr(f->level), out);
    for (uint32_t i = 0; i < n; i++) fputc('^', out);
    if (c->color) fputs(SGR_RESET, out);
    fputc('\n', out);
}

static void text_capture_note(FILE *out, const cg_finding *f, int gutter)
{
    const cg_loc *cap = &f->capture;
    fprintf(out, "%*s = note: %s the capture at %s:%u:%u", gutter, "",
            f->npath ? "reached from" : "inside", cap->path ? cap->path : "?",
            (unsigned)cap->line, (unsigned)cap->col);
    if (f->capture_kind && *f->capture_kind) fprintf(out, " (%s)", f->capture_kind);
    for (size_t k = 0; k < f->npath; k++)
        fprintf(out, "%s%s", k ? " -> " : " via ", f->path[k].function ? f->path[k].function : "?");
    fputc('\n', out);
}

static void text_finding(const text_ctx *c, const cg_finding *f)
{
    FILE *out = c->out;
    const cg_rule *rule = &cg_rules[f->rule];
    char where[64];
    int gutter = text_digits(f->loc.line);

    /* Header: clang's "path:line:col: severity: message", rule id last like
     * ruff, so the message reads first. */
    if (c->color) fputs(SGR_BOLD, out);
    fputs(f->loc.path ? f->loc.path : "?", out);
    snprintf(where, sizeof where, ":%u:%u:", (unsigned)f->loc.line, (unsigned)f->loc.col);
    fputs(where, out);
    if (c->color) fputs(SGR_RESET, out);
    fputc(' ', out);
    text_styled(c, severity_sgr(f->level), cg_severity_name(f->level));
    fprintf(out, ": %s ", f->message ? f->message : "");
    snprintf(where, sizeof where, "[%s]", rule->id);
    text_styled(c, SGR_BOLD, where);
    fputc('\n', out);

    if (f->line_text && *f->line_text && f->loc.line) text_snippet(c, f, gutter);
    if (f->has_capture) text_capture_note(out, f, gutter);
    const char *fix = f->fix && *f->fix ? f->fix : rule->fix;
    if (fix && *fix)
        fprintf(out, "%*s = help: %s%s\n", gutter, "", fix,
                !f->nedits ? "" : f->fix_safe ? " (fixable with --fix)" : " (fixable with --fix --unsafe-fixes)");
    if (f->verdict != CG_VERDICT_NONE) {
        fprintf(out, "%*s = verdict: ", gutter, "");
        text_styled(c, f->verdict == CG_VERDICT_CONFIRMED || f->verdict == CG_VERDICT_RUNTIME
                           ? severity_sgr(CG_SEV_ERROR) : SGR_BOLD,
                    cg_verdict_name(f->verdict));
        if (f->evidence && *f->evidence) fprintf(out, ": %s", f->evidence);
        fputc('\n', out);
    }
}

/* `cglint run`: the program's status, each capture region, the verdicts. */
static void text_run(FILE *out, const cg_report *r)
{
    const cg_run_info *ri = r->run;
    fputs("Program:", out);
    for (size_t i = 0; i < ri->argc; i++) fprintf(out, " %s", ri->argv[i]);
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
            fprintf(out, "  %s:%u (%s): %lu capture%s", g->site.path ? g->site.path : "?",
                    (unsigned)g->site.line, g->kind ? g->kind : "capture", g->captures,
                    g->captures == 1 ? "" : "s");
            if (g->failed) fprintf(out, " (%lu failed)", g->failed);
            fprintf(out, ", %lu replay%s", g->replays, g->replays == 1 ? "" : "s");
            if (g->nodes >= 0) fprintf(out, ", %ld graph node%s", g->nodes, g->nodes == 1 ? "" : "s");
            if (g->mean_replay_ms >= 0) fprintf(out, ", mean replay %.3f ms", g->mean_replay_ms);
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
    qsort(st, cg_rule_count, sizeof *st, text_stat_cmp);
    for (size_t i = 0; i < cg_rule_count && st[i].count; i++)
        fprintf(out, "%5zu  %s  %s\n", st[i].count, cg_rules[st[i].rule].id,
                cg_rules[st[i].rule].name);
    free(st);
    return 0;
}

int cg_emit_text(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    text_ctx c = {out, o->color};
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
    if (!o->quiet) {
        if (printed) fputc('\n', out);
        if (r->run) text_run(out, r);
        text_summary(out, r);
    }
    return ferror(out) ? -1 : 0;
}
