/* cu_report.c - the one report builder of the C/C++/CUDA front end.
 *
 * Every finding goes through cu_report() or cu_report_place(): the rule's
 * severity and fix unless the check gives its own, the place with its line
 * text, the capture site and kind of the event's region, and the call path
 * from the capture site (the event's, or that of the earlier place a
 * finding is about).  Also here: how a node's place reads in a finding or a
 * message (cu_cg_loc, cu_loc_str, cu_snip), and the notes the walk gives
 * about calls it did not follow.
 *
 * It reads the context's project, arena and nothing else; it calls no
 * evaluator code (checks -> report -> core). */
#include "cu_eval.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/str.h"

#define CU_STR_(x) #x
#define CU_STR(x) CU_STR_(x)

/* ---- places and snippets ------------------------------------------------------------------ */
/* The end of the identifier that starts at t[i] (i itself when none does). */
static size_t ident_end(const char *t, size_t len, size_t i)
{
    while (i < len && (t[i] == '_' || (t[i] >= '0' && t[i] <= '9') || ((t[i] | 32) >= 'a' && (t[i] | 32) <= 'z'))) i++;
    return i;
}

cg_loc cu_cg_loc(const cu_project *p, const cu_loc *l)
{
    cg_loc r = { 0 };
    if (l->file < 0 || (size_t)l->file >= p->nfiles) return r;
    const cu_file *f = &p->files[l->file];
    r.path = f->path;
    r.line = l->line;
    r.col = l->line ? cg_source_column(&f->src, l->line, l->col ? l->col - 1 : 0) : 0;
    if (l->end_line) {
        r.end_line = l->end_line;
        r.end_col = cg_source_column(&f->src, l->end_line, l->end_col ? l->end_col - 1 : 0);
    } else {
        /* no end: the identifier that starts there, or one character */
        size_t len;
        const char *t = cg_source_line(&f->src, l->line, &len);
        size_t i = l->col ? l->col - 1 : 0, k = ident_end(t, len, i);
        if (k == i && k < len) k++;
        r.end_line = l->line;
        r.end_col = cg_source_column(&f->src, l->line, (uint32_t)k);
    }
    if (r.end_line == r.line && r.end_col <= r.col) r.end_col = r.col + 1;
    return r;
}

cg_loc cu_node_loc(const cu_ctx *ctx, const cu_node *n) { return cu_cg_loc(ctx->p, &n->loc); }

const char *cu_loc_str(const cu_ctx *ctx, const cu_loc *l)
{
    cg_loc g = cu_cg_loc(ctx->p, l);
    return cg_arena_printf(ctx->arena, "%s:%u:%u", g.path ? g.path : "?", g.line, g.col);
}

const char *cu_snip(const cu_ctx *ctx, const cu_node *n)
{
    if (!n || n->loc.file < 0) return "?";
    const cu_file *f = &ctx->p->files[n->loc.file];
    size_t len;
    const char *t = cg_source_line(&f->src, n->loc.line, &len);
    size_t s = n->loc.col ? n->loc.col - 1 : 0;
    if (s > len) s = len;
    size_t e = len;
    if (n->loc.end_line == n->loc.line && n->loc.end_col > n->loc.col) e = n->loc.end_col - 1;
    else if (!n->loc.end_line) e = ident_end(t, len, s);
    if (e > len) e = len;
    /* a call over several lines: quoted on one line, balanced, without comments */
    if (n->loc.end_line > n->loc.line && n->loc.end_line <= f->src.nlines && n->loc.line >= 1) {
        size_t from = f->src.line_start[n->loc.line - 1] + s;
        size_t to = f->src.line_start[n->loc.end_line - 1] + (n->loc.end_col ? n->loc.end_col - 1 : 0);
        if (from < to && to <= f->src.len) return cg_snippet_code(ctx->arena, f->src.text + from, to - from, 60, 0);
    }
    const char *r = cg_snippet(ctx->arena, t + s, e - s, 60);
    /* a node over several lines: the rest of its first one, marked as cut */
    if (n->loc.end_line > n->loc.line && e - s <= 60) r = cg_arena_printf(ctx->arena, "%s...", r);
    return r;
}

const char *cu_strf(const cu_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    va_end(ap);
    if (!msg) { fputs("cglint: out of memory\n", stderr); abort(); }
    const char *r = cg_arena_strdup(ctx->arena, msg);
    free(msg);
    return r;
}

/* ---- findings ------------------------------------------------------------------------------- */
static void vreport(const cu_ctx *ctx, const cu_event *ev, const cu_node *at, const cg_step *path, int npath,
                    int rule, int level, const char *fix, const char *fmt, va_list ap)
{
    const cu_region *r = ev->region;
    if (!r || !at || at->loc.file < 0) return;
    /* the whole message: one cut short could end inside a UTF-8 sequence */
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    if (!msg) { fputs("cglint: out of memory\n", stderr); abort(); }
    cg_finding f;
    memset(&f, 0, sizeof f);
    f.rule = rule;
    f.level = level < 0 ? cg_rules[rule].severity : (cg_severity)level;
    f.loc = cu_cg_loc(ctx->p, &at->loc);
    f.message = msg;
    f.fix = (char *)(fix ? fix : cg_rules[rule].fix_cu);
    size_t ll;
    const char *lt = cg_source_line(&ctx->p->files[at->loc.file].src, f.loc.line, &ll);
    f.line_text = cg_arena_strndup(ctx->arena, lt, ll);
    f.has_capture = 1;
    f.capture = cu_cg_loc(ctx->p, &r->site);
    f.capture_kind = (char *)r->kind;
    f.path = (cg_step *)path;
    f.npath = (size_t)npath;
    cg_report_add(ctx->p->report, &f);
    free(msg);
}

void cu_report(const cu_ctx *ctx, const cu_event *ev, const cu_node *at, int rule, int level,
               const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(ctx, ev, at, ev->path, ev->npath, rule, level, fix, fmt, ap);
    va_end(ap);
}

void cu_report_place(const cu_ctx *ctx, const cu_event *ev, const cu_place *pl, int rule, int level,
                     const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(ctx, ev, pl->at, pl->path, pl->npath, rule, level, fix, fmt, ap);
    va_end(ap);
}

/* ---- notes ---------------------------------------------------------------------------------- */
/* Calls the walk did not follow because of one of its bounds: findings past
 * them may be missing, which a note says (once per run, naming the first). */
void cu_report_cuts(const cu_ctx *ctx)
{
    const struct { const cu_node *at; const char *what; } cuts[] = {
        { ctx->cut_depth, "call chains more than " CU_STR(CU_MAX_DEPTH) " calls deep are not followed further" },
        { ctx->cut_walks, "a function called from captures more than " CU_STR(CU_MAX_ACTIVE_WALKS)
                          " times (with different arguments) is not walked again" },
        { ctx->cut_nest, "a call is not followed where the bodies of the call chain together nest more than "
                         CU_STR(CU_MAX_TOTAL_NEST) " levels deep" },
    };
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        if (!cuts[i].at) continue;
        cg_loc l = cu_cg_loc(ctx->p, &cuts[i].at->loc);
        cg_report_notice(ctx->p->report, CG_NOTE, NULL, 0, 0,
                         "%s (first: %s:%u:%u); findings past that point may be missing",
                         cuts[i].what, l.path ? l.path : "?", l.line, l.col);
    }
}
