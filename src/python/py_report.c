/* py_report.c - the one way a Python finding reaches the report.
 *
 * Every check reports through py_report(): it places the finding (a node,
 * or a location such as a capture site), attaches the capture site and the
 * call path that reached it, builds the mechanical fix when the finding has
 * one, and, in a torch.compile(mode="reduce-overhead") region, turns a
 * capture hazard into what it costs there (a graph break, CG901, or skipped
 * cudagraphs, CG902) or drops it.  Everything it hands to cg_report_add()
 * is copied by the report; what it allocates lives in the analysis arena. */
#include "py_check.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *py_snip(const py_ctx *ctx, py_module *m, TSNode n)
{
    size_t len;
    const char *t = py_text(m, n, &len);
    return cg_snippet_code(ctx->arena, t, len, 60, 1);
}

int py_ev_kw(const py_event *ev, const char *name)
{
    for (int i = 0; i < ev->nkw; i++)
        if (cg_eq(ev->kwname[i], name)) return i;
    return -1;
}

int py_is_gpu_tensor(const py_val *v) { return v->kind == PY_V_TENSOR && v->dev != PY_DEV_CPU; }

const py_val *py_alt_of_kind(const py_val *v, int kind)
{
    for (; v; v = v->alt)
        if (v->kind == kind) return v;
    return NULL;
}

int py_region_is_compiled(const py_region *r) { return r && cg_eq(r->kind, "reduce-overhead"); }

/* Under torch.compile(mode="reduce-overhead") a hazard is not a failed
 * capture but a graph break (CG901) or a reason to skip cudagraphs (CG902):
 * each page's `compiled-as:` says which (rules/CG*.md).  Returns the rule to
 * report, or -1 for hazards that do not apply there. */
static int compiled_rule(int rule) { return cg_rules[rule].compiled_as; }

/* The region a finding made now belongs to, or NULL: none is reported. */
static const py_region *reporting_region(const py_ctx *ctx)
{
    if (ctx->quiet) return NULL;
    if (ctx->active) return ctx->region;
    if (ctx->phase == PY_PH_AFTER) return ctx->after;
    return NULL;
}

/* A constant written out: True, False, None, a number or a plain string
 * (with a sign).  Replacing one changes only what the rule is about;
 * replacing a name or an expression may undo what the author meant to vary
 * (`cache_enabled=cache_enabled`), so that fix is unsafe, as ruff has it. */
static int is_literal(TSNode v)
{
    v = py_unparen(v);
    if (IS(v, unary_operator)) v = py_named_child(v, 0);
    if (IS(v, string)) {
        for (uint32_t i = 0; i < py_named_child_count(v); i++)
            if (IS(py_named_child(v, i), interpolation)) return 0;   /* an f-string */
        return 1;
    }
    return IS(v, true_) || IS(v, false_) || IS(v, none) || IS(v, integer) || IS(v, float_);
}

/* The edit that makes keyword `kw` of call node `call` (in m) equal
 * `value`: its value replaced, or `kw=value` added after the last argument
 * (inside empty parentheses).  *literal: 1 when the edit inserts the keyword
 * or replaces a literal, 0 when it replaces a variable or an expression.
 * -1 when there is nothing to do. */
static int call_kw_edit(const py_ctx *ctx, py_module *m, TSNode call, const char *kw, const char *value,
                        cg_edit *e, int *literal)
{
    memset(e, 0, sizeof *e);
    *literal = 1;
    call = py_unparen(call);
    if (py_is_null(call) || !IS(call, call)) return -1;
    TSNode args = py_field(call, PY.f_arguments);
    if (py_is_null(args) || !IS(args, argument_list)) return -1;
    uint32_t n = py_named_child_count(args);
    TSNode last = args;
    int have = 0, found = 0;
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = py_named_child(args, i);
        if (IS(c, comment)) continue;
        last = c;
        have = 1;
        if (IS(c, keyword_argument) && py_text_eq(m, py_field(c, PY.f_name), kw)) {
            TSNode v = py_field(c, PY.f_value);
            if (py_text_eq(m, v, value)) return -1;     /* already the safe value */
            e->start = py_start_byte(v);
            e->end = py_end_byte(v);
            e->text = cg_arena_strdup(ctx->arena, value);
            *literal = is_literal(v);
            found = 1;
        }
    }
    if (!found) {
        /* after **kwargs a keyword would be a duplicate if kwargs held it: leave it */
        if (have && IS(last, dictionary_splat)) return -1;
        if (have) {
            e->start = e->end = py_end_byte(last);
            e->text = cg_arena_printf(ctx->arena, ", %s=%s", kw, value);
        } else {
            e->start = e->end = py_start_byte(args) + 1;   /* after '(' */
            e->text = cg_arena_printf(ctx->arena, "%s=%s", kw, value);
        }
    }
    e->old_text = cg_arena_strndup(ctx->arena, m->src.text + e->start, e->end - e->start);
    e->file_digest = cg_source_digest(&m->src);
    /* lines and code-point columns of both ends */
    uint32_t sl = 1, el;
    while (sl < m->src.nlines && m->src.line_start[sl] <= e->start) sl++;
    el = sl;
    while (el < m->src.nlines && m->src.line_start[el] <= e->end) el++;
    e->line = sl;
    e->col = cg_source_column(&m->src, sl, e->start - m->src.line_start[sl - 1]);
    e->end_line = el;
    e->end_col = cg_source_column(&m->src, el, e->end - m->src.line_start[el - 1]);
    return 0;
}

/* Under reduce-overhead: the rule f becomes there, with its message in buf
 * (size n) when it changes; -1 when it is not reported at all. */
static int compiled_finding(const py_ctx *ctx, const py_region *r, const py_finding *f, char *buf, size_t n)
{
    /* with capture_scalar_outputs=True Dynamo traces .item() without a break */
    if (f->rule == CG_R_CG101 && r->mod && (r->mod->text_facts & PY_MT_SCALAR_OUTPUTS)) return -1;
    int to = compiled_rule(f->rule);
    if (to < 0 || to == f->rule) return to;
    const char *what = f->mod && !py_is_null(f->node) ? py_snip(ctx, f->mod, f->node) : "this";
    if (to == CG_R_CG901)
        snprintf(buf, n,
                 "`%s` breaks the torch.compile graph of this reduce-overhead function (%s): "
                 "it runs as several CUDA graphs with eager code between them, slower", what,
                 cg_rules[f->rule].name);
    else
        snprintf(buf, n,
                 "`%s` puts CPU work in this reduce-overhead function (%s): inductor skips "
                 "CUDA graphs for it (\"skipping cudagraphs due to cpu device\")", what,
                 cg_rules[f->rule].name);
    return to;
}

void py_report(const py_ctx *ctx, const py_finding *f, const char *fmt, ...)
{
    const py_region *r = reporting_region(ctx);
    if (!r) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);

    cg_finding out;
    memset(&out, 0, sizeof out);
    out.rule = f->rule;
    out.message = msg;
    out.fix = (char *)f->fix;
    if (f->loc) {
        out.loc = *f->loc;
        out.line_text = (char *)f->line;
        /* Setup findings (CG701, CG703, CG705, CG708) sit on the capture
         * site: their own line's text is the snippet and, for the baseline
         * and SARIF, the fingerprint (with no text they all hashed alike). */
        if (!out.line_text && r->mod && out.loc.path && r->mod->file &&
            strcmp(out.loc.path, r->mod->file->path) == 0)
            out.line_text = (char *)cg_source_line_text(&r->mod->src, out.loc.line);
    } else {
        out.loc = py_loc(f->mod, f->node);
        out.line_text = (char *)cg_source_line_text(&f->mod->src, out.loc.line);
    }
    /* the mechanical fix: an edit in the finding's own file */
    cg_edit edit;
    int literal = 1;
    if (f->kw && f->kw_mod && out.loc.path && strcmp(out.loc.path, f->kw_mod->file->path) == 0 &&
        call_kw_edit(ctx, f->kw_mod, f->kw_call, f->kw, f->kw_value, &edit, &literal) == 0) {
        out.edits = &edit;
        out.nedits = 1;
        out.fix_safe = f->kw_safe && literal;
        if (literal)
            out.fix_title = cg_arena_printf(ctx->arena, "Pass `%s=%s`.", f->kw, f->kw_value);
        else
            out.fix_title = cg_arena_printf(ctx->arena, "Pass `%s=%s` instead of `%s` (unsafe: it replaces a "
                                            "variable, which may be meant to vary).", f->kw, f->kw_value,
                                            edit.old_text);
    }
    char compiled_msg[1200];
    if (py_region_is_compiled(r) && !f->region_level) {
        int to = compiled_finding(ctx, r, f, compiled_msg, sizeof compiled_msg);
        if (to < 0) return;
        if (to != f->rule) {
            /* the fix was for the capture rule, not the graph break */
            out.rule = to;
            out.message = compiled_msg;
            out.fix = NULL;
            out.edits = NULL;
            out.nedits = 0;
            out.fix_safe = 0;
            out.fix_title = NULL;
        }
    }
    out.level = cg_rules[out.rule].severity;
    out.has_capture = 1;
    out.capture = r->site;
    out.capture_kind = (char *)r->kind;
    if (ctx->active && !f->region_level) {
        out.path = (cg_step *)ctx->path.step;
        out.npath = (size_t)ctx->path.n;
    }
    cg_report_add(ctx->out, &out);   /* the analysis's own, merged in order (py_analyze.c) */
}
