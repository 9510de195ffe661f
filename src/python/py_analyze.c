/* py_analyze.c - capture regions, reachability and the abstract evaluator.
 *
 * How regions are modelled
 *   Every function (and module body) of a file that mentions a capture API is
 *   walked once "outside" capture: statements are evaluated for the types they
 *   give names, nothing is reported and calls are not followed.  When the walk
 *   meets `with torch.cuda.graph(...)`, `g.capture_begin()` or
 *   `torch.cuda.make_graphed_callables(...)` it switches to capture context
 *   ("active"): from then on constructs raise events that the rules in
 *   checks.c turn into findings, and calls into the project's own functions
 *   and methods are followed, with the call path kept for the report.
 *   `g.capture_end()` or the end of the `with` body switches back.
 *
 * How reachability works
 *   A call is resolved through the abstract value of its callee: a project
 *   function, a class (its __init__), an instance (its forward/__call__), a
 *   bound method, an nn.ModuleList/Sequential of project classes.  Instances
 *   come from constructor calls and from what a class stores in self
 *   attributes (py_index.c).  Modules of other files are parsed on demand, so
 *   files no capture reaches cost only their read.  A callee is analysed once
 *   per combination of argument kinds (memo), recursion stops at the stack.
 *
 * Precision
 *   When the evaluator cannot tell what a value is it says PY_V_UNKNOWN, and the
 *   rules stay silent on unknowns except for methods only tensors have.  Code
 *   under `if not torch.cuda.is_current_stream_capturing():` is not walked in
 *   capture context; code under the positive guard is. */
#include "py_eval.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CALL_DEPTH 20

typedef struct py_frame {
    py_func *fn;
    py_module *mod;
    cg_map env;              /* name -> py_val* */
    cg_map globals_declared; /* names in `global` statements */
    py_val self;             /* PY_V_INSTANCE of the method's class, or unknown */
    const char *self_name;
    size_t self_len;
    py_val ret;
    int has_ret;
    int stream_ctx;          /* inside `with torch.cuda.stream(...)` in this function */
    int built_module;        /* a model/callable was constructed here before the capture */
    int warm;                /* ...and run (a loop, a side stream, a call) before it */
    int eager_backward;      /* backward() or DDP(...) on the default stream before the capture */
    cg_loc eager_loc;
    char *eager_line;
    int pin_loader_loop;     /* inside `for batch in DataLoader(pin_memory=True)` */
} py_frame;

static py_val eval(py_ctx *ctx, py_frame *fr, TSNode n);
static int exec_block(py_ctx *ctx, py_frame *fr, TSNode block);
static py_val call_function(py_ctx *ctx, py_frame *caller, TSNode callnode, py_func *f,
                            const py_val *self, const py_val *args, int nargs, int params_are_tensors);

/* ---- values ------------------------------------------------------------------ */
static py_val vk(int kind) { py_val v; memset(&v, 0, sizeof v); v.kind = (uint8_t)kind; return v; }
static py_val vtensor(int dev) { py_val v = vk(PY_V_TENSOR); v.dev = (uint8_t)dev; return v; }
static py_val vext(const char *q) { py_val v = vk(PY_V_EXT); v.qual = q; return v; }

int py_is_gpu_tensor(const py_val *v) { return v->kind == PY_V_TENSOR && v->dev != PY_DEV_CPU; }

int py_is_non_tensor(const py_val *v)
{
    switch (v->kind) {
    case PY_V_UNKNOWN: case PY_V_TENSOR: case PY_V_INSTANCE: case PY_V_EXTOBJ: return 0;
    default: return 1;
    }
}

static int text_is(py_module *m, TSNode n, const char *s) { return py_text_eq(m, n, s); }

/* ---- reporting ----------------------------------------------------------------- */
const char *py_snip(py_ctx *ctx, py_module *m, TSNode n)
{
    size_t len;
    const char *t = py_text(m, n, &len);
    return cg_snippet(ctx->arena, t, len, 60);
}

int py_region_is_compiled(const py_region *r) { return r && cg_eq(r->kind, "reduce-overhead"); }

int py_func_mentions(const py_func *f, const char *needle)
{
    uint32_t b = py_start_byte(f->node), e = py_end_byte(f->node);
    return memmem(f->mod->src.text + b, e - b, needle, strlen(needle)) != NULL;
}

/* Under torch.compile(mode="reduce-overhead") a hazard is not a failed
 * capture but a graph break (CG901) or a reason to skip cudagraphs (CG902).
 * Returns the rule to report, or -1 for hazards that do not apply there. */
static int compiled_rule(int rule)
{
    switch (rule) {
    case CG_R_CG101: case CG_R_CG107: case CG_R_CG108: case CG_R_CG201: case CG_R_CG202:
    case CG_R_CG203: case CG_R_CG301: case CG_R_CG104: case CG_R_CG105:
        return CG_R_CG901;
    case CG_R_CG102: case CG_R_CG103: case CG_R_CG305: case CG_R_CG503:
        return CG_R_CG902;
    case CG_R_CG901: case CG_R_CG902:
        return rule;
    default:
        return -1;
    }
}

static void report_finding(py_ctx *ctx, py_region *r, cg_loc loc, const char *line_text, int rule,
                           const char *fix, const char *msg, TSNode node, py_module *m,
                           const cg_edit *edit, int safe, const char *fix_title)
{
    char buf[1200];
    if (py_region_is_compiled(r)) {
        /* with capture_scalar_outputs=True Dynamo traces .item() without a break */
        if (rule == CG_R_CG101 && r->mod &&
            (memmem(r->mod->src.text, r->mod->src.len, "capture_scalar_outputs = True", 29) ||
             memmem(r->mod->src.text, r->mod->src.len, "capture_scalar_outputs=True", 27)))
            return;
        int to = compiled_rule(rule);
        if (to < 0) return;
        if (to != rule) {
            const char *what = m && !py_is_null(node) ? py_snip(ctx, m, node) : "this";
            if (to == CG_R_CG901)
                snprintf(buf, sizeof buf,
                         "`%s` breaks the torch.compile graph of this reduce-overhead function (%s): "
                         "it runs as several CUDA graphs with eager code between them, slower", what,
                         cg_rules[rule].name);
            else
                snprintf(buf, sizeof buf,
                         "`%s` puts CPU work in this reduce-overhead function (%s): inductor skips "
                         "CUDA graphs for it (\"skipping cudagraphs due to cpu device\")", what,
                         cg_rules[rule].name);
            msg = buf;
            fix = NULL;
            rule = to;
            edit = NULL;     /* the fix was for the capture rule, not the graph break */
        }
    }
    cg_finding f;
    memset(&f, 0, sizeof f);
    f.rule = rule;
    f.level = cg_rules[rule].severity;
    f.loc = loc;
    f.message = (char *)msg;
    f.fix = (char *)fix;
    f.line_text = (char *)line_text;
    f.has_capture = 1;
    f.capture = r->site;
    f.capture_kind = (char *)r->kind;
    f.path = ctx->active ? ctx->path.step : NULL;
    f.npath = ctx->active ? (size_t)ctx->path.n : 0;
    if (edit) {
        f.edits = (cg_edit *)edit;
        f.nedits = 1;
        f.fix_safe = safe;
        f.fix_title = (char *)fix_title;
    }
    cg_report_add(ctx->p->report, &f);
}

static py_region *reporting_region(py_ctx *ctx)
{
    if (ctx->quiet) return NULL;
    if (ctx->active) return ctx->region;
    if (ctx->phase == PY_PH_AFTER) return ctx->after;
    return NULL;
}

void py_report(py_ctx *ctx, py_module *m, TSNode node, int rule, const char *fix, const char *fmt, ...)
{
    py_region *r = reporting_region(ctx);
    if (!r) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cg_loc loc = py_loc(m, node);
    size_t ll;
    const char *lt = cg_source_line(&m->src, loc.line, &ll);
    report_finding(ctx, r, loc, cg_arena_strndup(ctx->arena, lt, ll), rule, fix, msg, node, m, NULL, 0, NULL);
}

void py_report_at(py_ctx *ctx, cg_loc loc, const char *line_text, int rule, const char *fix, const char *fmt, ...)
{
    py_region *r = reporting_region(ctx);
    if (!r) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    report_finding(ctx, r, loc, line_text, rule, fix, msg, (TSNode){0}, NULL, NULL, 0, NULL);
}

/* The edit that makes keyword `kw` of call node `call` (in m) equal
 * `value`: its value replaced, or `kw=value` added after the last argument
 * (inside empty parentheses).  -1 when there is nothing to do. */
static int call_kw_edit(py_ctx *ctx, py_module *m, TSNode call, const char *kw, const char *value, cg_edit *e)
{
    memset(e, 0, sizeof *e);
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

void py_report_at_kwfix(py_ctx *ctx, cg_loc loc, const char *line_text, int rule, py_module *m, TSNode call,
                        const char *kw, const char *value, int safe, const char *fix, const char *fmt, ...)
{
    py_region *r = reporting_region(ctx);
    if (!r) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cg_edit e;
    /* the edit must be in the finding's own file */
    int have = m && loc.path && strcmp(loc.path, m->file->path) == 0 &&
               call_kw_edit(ctx, m, call, kw, value, &e) == 0;
    const char *title = cg_arena_printf(ctx->arena, "Pass `%s=%s`.", kw, value);
    report_finding(ctx, r, loc, line_text, rule, fix, msg, (TSNode){0}, NULL, have ? &e : NULL, safe, title);
}

void py_report_kwfix(py_ctx *ctx, const py_event *ev, int rule, const char *kw, const char *value, int safe,
                     const char *fix, const char *fmt, ...)
{
    py_region *r = reporting_region(ctx);
    if (!r) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cg_edit e;
    int have = call_kw_edit(ctx, ev->mod, ev->node, kw, value, &e) == 0;
    const char *title = cg_arena_printf(ctx->arena, "Pass `%s=%s`.", kw, value);
    py_module *m = ev->mod;
    cg_loc loc = py_loc(m, ev->node);
    size_t ll;
    const char *lt = cg_source_line(&m->src, loc.line, &ll);
    report_finding(ctx, r, loc, cg_arena_strndup(ctx->arena, lt, ll), rule, fix, msg, ev->node, m,
                   have ? &e : NULL, safe, title);
}

int py_ev_kw(const py_event *ev, const char *name)
{
    for (int i = 0; i < ev->nkw; i++)
        if (cg_eq(ev->kwname[i], name)) return i;
    return -1;
}

static void emit(py_ctx *ctx, const py_event *ev)
{
    if (ctx->quiet) return;
    if (ctx->active || (ctx->phase == PY_PH_AFTER && ctx->after)) py_dispatch(ctx, ev);
}

/* ---- environment ------------------------------------------------------------------ */
static void bind(py_ctx *ctx, py_frame *fr, const char *name, size_t len, py_val v)
{
    py_val *slot = cg_map_get(&fr->env, name, len);
    if (!slot) {
        slot = cg_arena_alloc(ctx->arena, sizeof *slot);
        cg_map_put(&fr->env, cg_arena_strndup(ctx->arena, name, len), len, slot);
    }
    /* A number bound to a name is read through that name: the name's own
     * assignments decide CG304, unless it is a single alias (`lr = self.lr`). */
    if (v.kind == PY_V_NUMBER && (v.origin == PY_O_NONE || !fr->fn ||
                               py_count_local_assigns(fr->fn, name, len) > 1)) {
        v.origin = fr->fn && fr->fn->is_module_body ? PY_O_GLOBAL : PY_O_LOCAL;
        v.oname = cg_arena_strndup(ctx->arena, name, len);
        v.ofn = fr->fn;
        v.omod = fr->mod;
    }
    /* a name bound inside the capture, in the capturing function: a graph output */
    if (ctx->active && !ctx->quiet && ctx->region && fr->fn == ctx->region->fn && v.kind == PY_V_TENSOR) {
        slot->flags |= PY_VF_OUTPUT;
        char *k = cg_arena_strndup(ctx->arena, name, len);
        cg_map_put(&ctx->region->outputs, k, len, (void *)1);
    }
    *slot = v;
    if (ctx->active && ctx->region && fr->fn == ctx->region->fn && v.kind == PY_V_TENSOR) slot->flags |= PY_VF_OUTPUT;
}

/* A tensor the capture reads in its own function: a static input (CG504). */
static void note_input(py_ctx *ctx, py_frame *fr, TSNode n, const py_val *v)
{
    if (!ctx->active || ctx->quiet || !ctx->region || fr->fn != ctx->region->fn || v->kind != PY_V_TENSOR) return;
    if (v->flags & PY_VF_OUTPUT) return;
    size_t len;
    const char *t = py_text(fr->mod, n, &len);
    if (!cg_map_get(&ctx->region->inputs, t, len))
        cg_map_put(&ctx->region->inputs, cg_arena_strndup(ctx->arena, t, len), len, (void *)1);
}

static void frame_init(py_frame *fr, py_func *fn, py_module *mod)
{
    memset(fr, 0, sizeof *fr);
    fr->fn = fn;
    fr->mod = mod;
    cg_map_init(&fr->env);
    cg_map_init(&fr->globals_declared);
}

static void frame_free(py_frame *fr)
{
    cg_map_free(&fr->env);
    cg_map_free(&fr->globals_declared);
}

/* ---- external names: what calling them gives ----------------------------------------- */
static const char *const tensor_factories[] = {
    "torch.tensor", "torch.as_tensor", "torch.zeros", "torch.ones", "torch.empty", "torch.full",
    "torch.rand", "torch.randn", "torch.randint", "torch.randperm", "torch.arange",
    "torch.linspace", "torch.logspace", "torch.eye", "torch.from_numpy", "torch.empty_strided",
    "torch.range", "torch.normal", "torch.bernoulli", NULL };

int py_is_factory(const char *q);
int py_is_factory(const char *q)
{
    for (int i = 0; tensor_factories[i]; i++)
        if (cg_eq(q, tensor_factories[i])) return 1;
    return 0;
}

/* Functions whose positional arguments are sizes (CG203). */
static int takes_sizes(const char *qual, const char *method)
{
    static const char *const q[] = { "torch.zeros", "torch.ones", "torch.empty", "torch.rand",
        "torch.randn", "torch.arange", "torch.full", "torch.randint", "torch.randperm",
        "torch.eye", "torch.linspace", "builtins.range", NULL };
    static const char *const m[] = { "view", "reshape", "expand", "repeat", "narrow",
        "new_zeros", "new_ones", "new_empty", "new_full", "resize_", "split", "unflatten",
        "tile", "index_select", "topk", "kthvalue", NULL };
    if (qual) for (int i = 0; q[i]; i++) if (cg_eq(qual, q[i])) return 1;
    if (method) for (int i = 0; m[i]; i++) if (cg_eq(method, m[i])) return 1;
    return 0;
}

static int device_of_node(py_ctx *ctx, py_frame *fr, TSNode n, const py_val *v)
{
    n = py_unparen(n);
    if (IS(n, string)) {
        size_t len;
        const char *t = py_text(fr->mod, n, &len);
        if (len >= 5 && (memcmp(t + 1, "cuda", 4) == 0)) return PY_DEV_CUDA;
        if (len >= 4 && memcmp(t + 1, "cpu", 3) == 0) return PY_DEV_CPU;
        return PY_DEV_UNKNOWN;
    }
    if (IS(n, call)) {
        /* torch.device("cuda") */
        TSNode args = py_field(n, PY.f_arguments);
        if (!py_is_null(args) && py_named_child_count(args) > 0) {
            size_t len;
            const char *t = py_text(fr->mod, py_field(n, PY.f_function), &len);
            if (len >= 6 && memcmp(t + len - 6, "device", 6) == 0)
                return device_of_node(ctx, fr, py_named_child(args, 0), v);
        }
    }
    if (v && v->kind == PY_V_TENSOR) return v->dev;  /* device=x.device style handled by caller */
    return PY_DEV_UNKNOWN;
}

/* The identity of a stream or event: the name it is assigned to
 * (`side = torch.cuda.Stream()` -> "side", `self.s = ...` -> "self.s"), which
 * is stable however often the creating expression is evaluated and reads well
 * in messages; else the expression and its line. */
static const char *created_name(py_ctx *ctx, py_frame *fr, TSNode call, const char *what)
{
    TSNode parent = py_parent(call);
    if (!py_is_null(parent) && IS(parent, assignment) && py_eq(py_field(parent, PY.f_right), call)) {
        TSNode left = py_field(parent, PY.f_left);
        if (IS(left, identifier) || IS(left, attribute)) return py_snip(ctx, fr->mod, left);
    }
    return cg_arena_printf(ctx->arena, "%s at %s:%u", what, fr->mod->file->path, py_start_point(call).row + 1);
}

/* A call to an external function/class: its result. */
static py_val ext_call_result(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call)
{
    const char *q = ev->qual;
    if (cg_starts(q, "builtins.")) {
        const char *b = q + 9;
        if (cg_eq(b, "len") || cg_eq(b, "isinstance") || cg_eq(b, "hasattr") || cg_eq(b, "callable") ||
            cg_eq(b, "round") || cg_eq(b, "id") || cg_eq(b, "hash") || cg_eq(b, "divmod"))
            return vk(PY_V_NUMBER);
        if (cg_eq(b, "int") || cg_eq(b, "float") || cg_eq(b, "bool") || cg_eq(b, "abs")) {
            py_val r = vk(PY_V_NUMBER);
            if (ev->nargs > 0 && (ev->args[0].kind == PY_V_TENSOR || (ev->args[0].flags & PY_VF_HOSTSCALAR)))
                r.flags |= PY_VF_HOSTSCALAR;
            if (ev->nargs > 0 && cg_eq(b, "abs") && ev->args[0].kind == PY_V_TENSOR) return ev->args[0];
            return r;
        }
        if (cg_eq(b, "str") || cg_eq(b, "repr") || cg_eq(b, "format")) {
            py_val r = vk(PY_V_STR);
            for (int i = 0; i < ev->nargs; i++) if (ev->args[i].kind == PY_V_TENSOR) r.flags |= PY_VF_FMT_TENSOR;
            return r;
        }
        if (cg_eq(b, "list") || cg_eq(b, "sorted")) return vk(PY_V_LIST);
        if (cg_eq(b, "dict")) return vk(PY_V_DICT);
        if (cg_eq(b, "tuple")) return vk(PY_V_TUPLE);
        if (cg_eq(b, "set")) return vk(PY_V_SET);
        if (cg_eq(b, "print")) return vk(PY_V_NONE);
        if (cg_eq(b, "enumerate") && ev->nargs > 0) {
            /* keep what is enumerated: `for i, layer in enumerate(self.layers)` */
            py_val r = ev->args[0];
            r.flags |= PY_VF_ENUMERATE;
            return r;
        }
        if (cg_eq(b, "open")) { py_val r = vk(PY_V_EXTOBJ); r.qual = "builtins.file"; r.flags = PY_VF_HOST_IO; return r; }
        if (cg_eq(b, "range")) { py_val r = vk(PY_V_EXTOBJ); r.qual = "builtins.range"; return r; }
        if (cg_eq(b, "min") || cg_eq(b, "max") || cg_eq(b, "sum")) {
            int num = ev->nargs > 0;
            for (int i = 0; i < ev->nargs; i++) if (ev->args[i].kind != PY_V_NUMBER) num = 0;
            return num ? vk(PY_V_NUMBER) : vk(PY_V_UNKNOWN);
        }
        return vk(PY_V_UNKNOWN);
    }
    if (cg_eq(q, "torch.cuda.is_current_stream_capturing") || cg_eq(q, "torch.cuda.graphs.is_current_stream_capturing") ||
        cg_eq(q, "torch._C._cuda_isCurrentStreamCapturing")) {
        py_val r = vk(PY_V_GUARD);
        return r;
    }
    if (cg_eq(q, "torch.cuda.graph") || cg_eq(q, "torch.cuda.graphs.graph")) {
        py_val r = vk(PY_V_EXTOBJ);
        r.qual = "torch.cuda.graph";
        int tk = py_ev_kw(ev, "capture_error_mode");
        if (tk >= 0 && !text_is(fr->mod, ev->kwn[tk], "\"global\"") && !text_is(fr->mod, ev->kwn[tk], "'global'"))
            r.flags |= PY_VF_THREAD_LOCAL;   /* thread_local or relaxed: other threads may use CUDA */
        int k = py_ev_kw(ev, "stream");
        if (k >= 0) {
            const py_val *s = &ev->kw[k];
            r.stream = s->kind == PY_V_STREAM ? s->qual : py_snip(ctx, fr->mod, ev->kwn[k]);
            r.stream_default = s->kind == PY_V_STREAM && (s->flags & PY_VF_DEFAULT_STREAM);
        }
        return r;
    }
    if (cg_eq(q, "torch.cuda.stream") || cg_eq(q, "torch.cuda.StreamContext")) {
        py_val r = vk(PY_V_EXTOBJ);
        r.qual = "torch.cuda.stream";
        if (ev->nargs > 0) {
            const py_val *s = &ev->args[0];
            r.stream = s->kind == PY_V_STREAM ? s->qual : py_snip(ctx, fr->mod, ev->argn[0]);
            r.stream_default = s->kind == PY_V_STREAM && (s->flags & PY_VF_DEFAULT_STREAM);
            if (s->kind == PY_V_NONE) r.stream = NULL;
        }
        return r;
    }
    if (cg_eq(q, "torch.cuda.CUDAGraph") || cg_eq(q, "torch.cuda.graphs.CUDAGraph")) {
        py_val r = vk(PY_V_EXTOBJ); r.qual = "torch.cuda.CUDAGraph"; r.flags = PY_VF_GRAPH; return r;
    }
    if (cg_eq(q, "torch.cuda.Stream") || cg_eq(q, "torch.cuda.streams.Stream") || cg_eq(q, "torch.Stream")) {
        py_val r = vk(PY_V_STREAM);
        r.qual = created_name(ctx, fr, call, "torch.cuda.Stream()");
        return r;
    }
    if (cg_eq(q, "torch.cuda.current_stream")) {
        py_val r = vk(PY_V_STREAM);
        r.qual = ctx->cur_stream ? ctx->cur_stream : "<current>";
        if (!ctx->cur_stream) r.qual = "<default>", r.flags |= 0;
        return r;
    }
    if (cg_eq(q, "torch.cuda.default_stream")) {
        py_val r = vk(PY_V_STREAM); r.qual = "<default>"; r.flags = PY_VF_DEFAULT_STREAM; return r;
    }
    if (cg_eq(q, "torch.cuda.Event") || cg_eq(q, "torch.cuda.streams.Event") || cg_eq(q, "torch.Event")) {
        py_val r = vk(PY_V_EVENT);
        r.qual = created_name(ctx, fr, call, "torch.cuda.Event()");
        return r;
    }
    if (cg_eq(q, "torch.cuda.amp.GradScaler") || cg_eq(q, "torch.amp.GradScaler") || cg_eq(q, "torch.GradScaler") ||
        cg_eq(q, "torch.cuda.amp.grad_scaler.GradScaler") || cg_eq(q, "torch.amp.grad_scaler.GradScaler")) {
        py_val r = vk(PY_V_EXTOBJ); r.qual = "GradScaler"; r.flags = PY_VF_SCALER; return r;
    }
    if (cg_eq(q, "logging.getLogger") || cg_eq(q, "logging.Logger")) {
        py_val r = vk(PY_V_EXTOBJ); r.qual = "logging.Logger"; r.flags = PY_VF_LOGGER; return r;
    }
    if (cg_starts(q, "tqdm") || cg_starts(q, "torch.utils.tensorboard.SummaryWriter") ||
        cg_starts(q, "tensorboardX.SummaryWriter") || cg_eq(q, "torch.utils.tensorboard.writer.SummaryWriter")) {
        py_val r = vk(PY_V_EXTOBJ); r.qual = q; r.flags = PY_VF_HOST_IO; return r;
    }
    if (cg_eq(q, "torch.nn.ModuleList") || cg_eq(q, "torch.nn.Sequential")) {
        py_val r = vk(PY_V_MODLIST);
        r.qual = q;
        /* element classes: from the call's arguments (instances, or a list of them) */
        for (int i = 0; i < ev->nargs; i++) {
            const py_val *a = &ev->args[i];
            if (a->kind == PY_V_INSTANCE && r.nelems < 4) r.elems[r.nelems++] = a->cls;
            else if (a->kind == PY_V_MODLIST)
                for (int k = 0; k < a->nelems && r.nelems < 4; k++) r.elems[r.nelems++] = a->elems[k];
        }
        return r;
    }
    if (cg_eq(q, "torch.autocast") || cg_eq(q, "torch.cuda.amp.autocast") || cg_eq(q, "torch.amp.autocast") ||
        cg_eq(q, "torch.cuda.amp.autocast_mode.autocast") || cg_eq(q, "torch.amp.autocast_mode.autocast")) {
        py_val r = vk(PY_V_EXTOBJ);
        r.qual = "torch.autocast";
        int k = py_ev_kw(ev, "cache_enabled");
        int cache = !(k >= 0 && text_is(fr->mod, ev->kwn[k], "False"));
        /* torch.autocast("cpu") does not touch CUDA graphs */
        int dk = py_ev_kw(ev, "device_type");
        TSNode dn = dk >= 0 ? ev->kwn[dk] : ev->nargs > 0 ? ev->argn[0] : (TSNode){0};
        if (!py_is_null(dn) && device_of_node(ctx, fr, dn, NULL) == PY_DEV_CPU) cache = 0;
        if (cache) r.flags |= PY_VF_AUTOCAST;
        return r;
    }
    if (cg_eq(q, "torch.Generator")) {
        py_val r = vk(PY_V_EXTOBJ);
        r.qual = q;
        int k = py_ev_kw(ev, "device");
        TSNode dn = k >= 0 ? ev->kwn[k] : ev->nargs > 0 ? ev->argn[0] : (TSNode){0};
        if (!py_is_null(dn) && device_of_node(ctx, fr, dn, NULL) == PY_DEV_CUDA) r.flags |= PY_VF_CUDA_GEN;
        return r;
    }
    if (cg_eq(q, "torch.utils.data.DataLoader") || cg_eq(q, "torch.utils.data.dataloader.DataLoader")) {
        py_val r = vk(PY_V_EXTOBJ);
        r.qual = "torch.utils.data.DataLoader";
        int k = py_ev_kw(ev, "pin_memory");
        if (k >= 0 && text_is(fr->mod, ev->kwn[k], "True")) r.flags |= PY_VF_PINNED;
        return r;
    }
    if (cg_starts(q, "torch.optim.lr_scheduler.")) {
        py_val r = vk(PY_V_EXTOBJ); r.qual = q; r.flags = PY_VF_SCHEDULER;
        /* a scheduler over a capturable optimizer with a tensor lr updates it in place */
        if (ev->nargs > 0 && (ev->args[0].flags & PY_VF_TENSOR_LR) && (ev->args[0].flags & PY_VF_CAPTURABLE))
            r.flags |= PY_VF_TENSOR_LR;
        return r;
    }
    if (cg_starts(q, "torch.optim.")) {
        /* optimizers that refuse capture unless built with capturable=True */
        static const char *const capt[] = { "Adam", "AdamW", "Adamax", "ASGD", "NAdam", "RAdam",
            "Adadelta", "Rprop", "RMSprop", NULL };
        const char *last = strrchr(q, '.') + 1;
        py_val r = vk(PY_V_EXTOBJ);
        r.qual = q;
        for (int i = 0; capt[i]; i++) if (cg_eq(last, capt[i])) r.flags |= PY_VF_OPTIMIZER;
        /* where it is built, for CG605's fix */
        r.omod = fr->mod;
        r.cstart = py_start_byte(ev->node);
        r.cend = py_end_byte(ev->node);
        int k = py_ev_kw(ev, "capturable");
        if (k >= 0 && text_is(fr->mod, ev->kwn[k], "True")) r.flags |= PY_VF_CAPTURABLE;
        k = py_ev_kw(ev, "lr");
        if (k >= 0 && ev->kw[k].kind == PY_V_TENSOR) r.flags |= PY_VF_TENSOR_LR;
        if (last[0] >= 'A' && last[0] <= 'Z') return r;
        return vk(PY_V_UNKNOWN);
    }
    if (cg_starts(q, "math.") || cg_eq(q, "random.random") || cg_eq(q, "random.uniform") || cg_eq(q, "random.randint") ||
        cg_starts(q, "time.")) return vk(PY_V_NUMBER);
    if (cg_starts(q, "numpy.") || cg_eq(q, "numpy")) return vk(PY_V_NDARRAY);
    if (cg_starts(q, "torch.nn.functional.")) return vtensor(PY_DEV_UNKNOWN);
    if (cg_starts(q, "torch.nn.") || cg_starts(q, "torch.optim.")) {
        const char *last = strrchr(q, '.');
        if (last && last[1] >= 'A' && last[1] <= 'Z') { py_val r = vk(PY_V_EXTOBJ); r.qual = q; return r; }
        if (cg_starts(q, "torch.nn.utils.clip_grad")) return vtensor(PY_DEV_UNKNOWN);
        return vk(PY_V_UNKNOWN);
    }
    if (cg_starts(q, "torch.cuda.") || cg_starts(q, "torch.distributed.") || cg_starts(q, "torch.backends.") ||
        cg_starts(q, "torch.utils.") || cg_starts(q, "torch.autograd.") || cg_starts(q, "torch.compile") ||
        cg_starts(q, "torch.jit.") || cg_starts(q, "torch._dynamo."))
        return vk(PY_V_UNKNOWN);
    if (cg_eq(q, "torch.equal") || cg_eq(q, "torch.allclose") || cg_eq(q, "torch.is_tensor") ||
        cg_eq(q, "torch.is_floating_point") || cg_eq(q, "torch.numel") || cg_eq(q, "torch.is_grad_enabled"))
        return vk(PY_V_NUMBER);
    if (cg_eq(q, "torch.device") || cg_eq(q, "torch.Size") || cg_eq(q, "torch.dtype") || cg_eq(q, "torch.Generator") ||
        cg_eq(q, "torch.no_grad") || cg_eq(q, "torch.inference_mode") || cg_eq(q, "torch.autocast") ||
        cg_eq(q, "torch.enable_grad") || cg_eq(q, "torch.manual_seed") || cg_eq(q, "torch.set_default_device") ||
        cg_eq(q, "torch.save") || cg_eq(q, "torch.load") || cg_eq(q, "torch.get_default_dtype"))
        return vk(PY_V_UNKNOWN);
    if (cg_starts(q, "torch.") && !strchr(q + 6, '.') &&
        (cg_starts(q + 6, "is_") || cg_starts(q + 6, "get_") || cg_starts(q + 6, "are_") || cg_starts(q + 6, "has_") ||
         cg_starts(q + 6, "set_") || cg_starts(q + 6, "use_")))
        return vk(PY_V_NUMBER);   /* torch.is_autocast_enabled(), torch.get_default_dtype()...: host values */
    if (cg_starts(q, "torch.") && !strchr(q + 6, '.')) {
        /* torch.<op>: a tensor; factories say where */
        py_val r = vtensor(PY_DEV_UNKNOWN);
        if (py_is_factory(q)) {
            int k = py_ev_kw(ev, "device");
            if (k >= 0) {
                r.dev = (uint8_t)device_of_node(ctx, fr, ev->kwn[k], NULL);
                if (r.dev == PY_DEV_UNKNOWN && ev->kw[k].kind == PY_V_STR) r.dev = PY_DEV_UNKNOWN;
            } else if (cg_eq(q, "torch.from_numpy") || !ctx->p->default_device_set) {
                r.dev = PY_DEV_CPU;
            }
            if (cg_eq(q, "torch.from_numpy")) r.dev = PY_DEV_CPU;
            int pk = py_ev_kw(ev, "pin_memory");
            if (pk >= 0 && text_is(fr->mod, ev->kwn[pk], "True")) r.flags |= PY_VF_PINNED;
            int dk = py_ev_kw(ev, "dtype");
            if (dk >= 0 && text_is(fr->mod, ev->kwn[dk], "torch.bool")) r.flags |= PY_VF_BOOL;
        } else {
            for (int i = 0; i < ev->nargs; i++)
                if (ev->args[i].kind == PY_V_TENSOR && ev->args[i].dev == PY_DEV_CPU) r.dev = PY_DEV_CPU;
            if (cg_eq(q, "torch.isnan") || cg_eq(q, "torch.isinf") || cg_eq(q, "torch.isfinite") ||
                cg_starts(q, "torch.logical_") || cg_eq(q, "torch.eq") || cg_eq(q, "torch.ne") ||
                cg_eq(q, "torch.gt") || cg_eq(q, "torch.lt") || cg_eq(q, "torch.ge") || cg_eq(q, "torch.le") ||
                cg_eq(q, "torch.isclose"))
                r.flags |= PY_VF_BOOL;
        }
        return r;
    }
    return vk(PY_V_UNKNOWN);
}

/* A method called on a tensor (or a value that may be one): its result. */
static py_val tensor_method_result(py_ctx *ctx, py_frame *fr, const py_event *ev)
{
    const char *m = ev->method;
    const py_val *r = &ev->recv;
    int known = r->kind == PY_V_TENSOR;
    if (cg_eq(m, "item")) { py_val v = vk(PY_V_NUMBER); if (r->kind != PY_V_NDARRAY) v.flags = PY_VF_HOSTSCALAR; return v; }
    if (cg_eq(m, "tolist")) return vk(PY_V_LIST);
    if (cg_eq(m, "numpy")) return vk(PY_V_NDARRAY);
    if (r->kind == PY_V_NDARRAY) return vk(PY_V_NDARRAY);
    if (cg_eq(m, "dim") || cg_eq(m, "ndimension") || cg_eq(m, "numel") || cg_eq(m, "nelement") ||
        cg_eq(m, "element_size") || cg_eq(m, "data_ptr") || cg_eq(m, "get_device") || cg_eq(m, "is_contiguous") ||
        cg_eq(m, "is_floating_point") || cg_eq(m, "stride"))
        return vk(PY_V_NUMBER);
    if (cg_eq(m, "size")) return ev->nargs ? vk(PY_V_NUMBER) : vk(PY_V_TUPLE);
    if (cg_eq(m, "cpu")) return vtensor(PY_DEV_CPU);
    if (cg_eq(m, "cuda")) return vtensor(PY_DEV_CUDA);
    if (cg_eq(m, "pin_memory")) { py_val v = vtensor(PY_DEV_CPU); v.flags |= PY_VF_PINNED; return v; }
    if (cg_eq(m, "to")) {
        py_val v = vtensor(known ? r->dev : PY_DEV_UNKNOWN);
        if (ev->nargs > 0) {
            int d = device_of_node(ctx, fr, ev->argn[0], &ev->args[0]);
            if (d) v.dev = (uint8_t)d;
        }
        int k = py_ev_kw(ev, "device");
        if (k >= 0) { int d = device_of_node(ctx, fr, ev->kwn[k], NULL); if (d) v.dev = (uint8_t)d; }
        return v;
    }
    if (!known) return vk(PY_V_UNKNOWN);
    py_val v = vtensor(r->dev);
    if (cg_eq(m, "bool") || cg_eq(m, "isnan") || cg_eq(m, "isinf") || cg_eq(m, "isfinite") || cg_eq(m, "eq") ||
        cg_eq(m, "ne") || cg_eq(m, "gt") || cg_eq(m, "lt") || cg_eq(m, "ge") || cg_eq(m, "le") ||
        cg_starts(m, "logical_") || cg_eq(m, "any") || cg_eq(m, "all"))
        v.flags |= PY_VF_BOOL;
    if (cg_eq(m, "chunk") || cg_eq(m, "split") || cg_eq(m, "unbind") || cg_eq(m, "tensor_split")) v = vk(PY_V_TUPLE);
    return v;
}

/* ---- calls ----------------------------------------------------------------------- */
static const char *sym_qual(py_ctx *ctx, py_sym s)
{
    (void)ctx;
    return s.kind == PY_SYM_EXTERNAL ? s.qual : NULL;
}

static py_val val_of_global(py_ctx *ctx, py_module *m, const char *name, size_t len);

/* @torch.compiler.disable, @torch._dynamo.disable, TE's @no_torch_dynamo(...) */
static int func_skipped_by_dynamo(const py_func *f)
{
    TSNode parent = py_parent(f->node);
    if (py_is_null(parent) || !IS(parent, decorated_definition)) return 0;
    uint32_t n = py_named_child_count(parent);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = py_named_child(parent, i);
        size_t len;
        const char *t = py_text(f->mod, d, &len);
        if (IS(d, decorator) && (memmem(t, len, "no_torch_dynamo", 15) ||
                                 ((memmem(t, len, "dynamo", 6) || memmem(t, len, "compiler", 8)) &&
                                  memmem(t, len, "disable", 7))))
            return 1;
    }
    return 0;
}

/* @torch.compile / @torch.compile(...) on a def */
static int func_is_compiled(const py_func *f)
{
    TSNode parent = py_parent(f->node);
    if (py_is_null(parent) || !IS(parent, decorated_definition)) return 0;
    uint32_t n = py_named_child_count(parent);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = py_named_child(parent, i);
        size_t len;
        const char *t = py_text(f->mod, d, &len);
        if (IS(d, decorator) && memmem(t, len, "compile", 7)) return 1;
    }
    return 0;
}

static py_val val_of_sym(py_ctx *ctx, py_sym s, const char *name, size_t len)
{
    switch (s.kind) {
    case PY_SYM_FUNC: {
        py_val v = vk(PY_V_FUNC);
        v.fn = s.func;
        if (func_is_compiled(s.func)) v.flags |= PY_VF_COMPILED;
        return v;
    }
    case PY_SYM_CLASS: { py_val v = vk(PY_V_CLASS); v.cls = s.cls; return v; }
    case PY_SYM_MODULE: { py_val v = vk(PY_V_MODULE); v.mod = s.mod; return v; }
    case PY_SYM_EXTERNAL: return vext(s.qual);
    case PY_SYM_GLOBAL: return val_of_global(ctx, s.mod, name, len);
    default: return vk(PY_V_UNKNOWN);
    }
    (void)sym_qual;
}

/* The value of a module-level variable: its (last) right-hand side, evaluated
 * quietly in the module's scope, once per run.  The memo matters: a right-hand
 * side that names its own variable k times (`N = [N, N, N]`,
 * `opts = {} if opts is None else {**opts}`) would otherwise be re-evaluated
 * k^depth times; a name met again while its value is being computed is unknown. */
static py_val val_of_global(py_ctx *ctx, py_module *m, const char *name, size_t len)
{
    static py_val in_progress;
    char key[256];
    int kl = snprintf(key, sizeof key, "%p/%.*s", (void *)m, (int)(len < 200 ? len : 200), name);
    py_val *memo = cg_map_get(&ctx->globals, key, (size_t)kl);
    py_val v = vk(PY_V_UNKNOWN);
    if (memo && memo != &in_progress) return *memo;
    TSNode *rhs = cg_map_get(&m->global_values, name, len);
    if (!memo && rhs && ctx->depth < MAX_CALL_DEPTH) {
        const char *k = cg_arena_strndup(ctx->arena, key, (size_t)kl);
        cg_map_put(&ctx->globals, k, (size_t)kl, &in_progress);
        py_frame fr;
        frame_init(&fr, m->body, m);
        int q = ctx->quiet, a = ctx->active;
        ctx->quiet = 1;
        ctx->depth++;
        v = eval(ctx, &fr, *rhs);
        ctx->depth--;
        ctx->quiet = q;
        ctx->active = a;
        frame_free(&fr);
        if (v.kind == PY_V_NUMBER || v.kind == PY_V_UNKNOWN) {
            v.origin = PY_O_GLOBAL;
            v.oname = cg_arena_strndup(ctx->arena, name, len);
            v.omod = m;
        }
        py_val *save = cg_arena_alloc(ctx->arena, sizeof *save);
        *save = v;
        cg_map_put(&ctx->globals, k, (size_t)kl, save);
        return v;
    }
    if (v.kind == PY_V_NUMBER || v.kind == PY_V_UNKNOWN) {
        v.origin = PY_O_GLOBAL;
        v.oname = cg_arena_strndup(ctx->arena, name, len);
        v.omod = m;
    }
    return v;
}

/* The value stored in self.<name> of class c. */
static py_val val_of_attr(py_ctx *ctx, py_class *c, const py_val *self, const char *name)
{
    py_attr *a = py_class_attr(ctx->p, c, name);
    py_val v = vk(PY_V_UNKNOWN);
    if (a && !py_is_null(a->value) && ctx->depth < MAX_CALL_DEPTH) {
        py_frame fr;
        frame_init(&fr, a->value_fn, a->value_fn ? a->value_fn->mod : c->mod);
        fr.self = *self;
        const char *sn = "self";
        fr.self_name = sn;
        fr.self_len = 4;
        /* parameters with defaults give their default's kind: `scale=1.0` */
        if (a->value_fn) {
            TSNode params = py_field(a->value_fn->node, PY.f_parameters);
            uint32_t k = py_is_null(params) ? 0 : py_named_child_count(params);
            for (uint32_t i = 0; i < k; i++) {
                TSNode pn = py_named_child(params, i);
                if (i == 0 && IS(pn, identifier)) {
                    fr.self_name = py_text(fr.mod, pn, &fr.self_len);
                    continue;
                }
                if (IS(pn, default_parameter) || IS(pn, typed_default_parameter)) {
                    TSNode dn = py_field(pn, PY.f_value), nn = py_field(pn, PY.f_name);
                    if (IS(dn, integer) || IS(dn, float_)) {
                        size_t l;
                        const char *t = py_text(fr.mod, nn, &l);
                        bind(ctx, &fr, t, l, vk(PY_V_NUMBER));
                    }
                }
            }
        }
        int q = ctx->quiet;
        ctx->quiet = 1;
        ctx->depth++;
        v = eval(ctx, &fr, a->value);
        ctx->depth--;
        ctx->quiet = q;
        frame_free(&fr);
    }
    if (v.kind == PY_V_NUMBER || v.kind == PY_V_UNKNOWN) {
        v.origin = PY_O_SELF_ATTR;
        v.oname = cg_arena_strdup(ctx->arena, name);
        v.ocls = c;
    }
    return v;
}

/* Instance call: forward/__call__ of a project class. */
static py_val call_instance(py_ctx *ctx, py_frame *fr, TSNode call, py_class *c, const py_val *self,
                            const py_val *args, int nargs)
{
    py_func *f = NULL;
    if (!py_class_lookup_method_owner(ctx->p, c, "__call__", &f))
        py_class_lookup_method_owner(ctx->p, c, "forward", &f);
    if (f) return call_function(ctx, fr, call, f, self, args, nargs, strcmp(f->name, "forward") == 0);
    return c->is_nn_module ? vtensor(PY_DEV_UNKNOWN) : vk(PY_V_UNKNOWN);
}

static void start_region(py_ctx *ctx, py_frame *fr, TSNode site, const char *kind, const char *stream);
static void end_region(py_ctx *ctx);
static void region_begin_context(py_ctx *ctx, py_frame *fr);
static void scalar_math(py_ctx *ctx, py_frame *fr, TSNode num, const py_val *v);

/* Could this call, made before a capture, be the warm-up run?  Anything that
 * runs code counts (a model, a project function, an extension op); building
 * things and configuring them does not.  Generous on purpose: CG701 prefers
 * silence. */
static int is_warmup_call(const py_event *ev, const py_val *callee)
{
    static const char *const config[] = { "cuda", "to", "eval", "train", "half", "float", "bfloat16",
        "double", "requires_grad_", "zero_grad", "parameters", "named_parameters", "buffers", "modules",
        "wait_stream", "wait_event", "record", "record_event", "synchronize", "manual_seed", "seed",
        "append", "extend", "update", "items", "keys", "values", "get", "format", "join", "split",
        "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
        "load_state_dict", "state_dict", "fill_", "copy_", "zero_", "normal_", "uniform_", NULL };
    if (callee->kind == PY_V_INSTANCE || callee->kind == PY_V_FUNC || callee->kind == PY_V_MODLIST)
        return 1;
    if (callee->kind == PY_V_EXTOBJ) return cg_starts(callee->qual, "torch.nn.");
    if (ev->method) {
        for (int i = 0; config[i]; i++) if (cg_eq(ev->method, config[i])) return 0;
        return ev->recv.kind == PY_V_UNKNOWN || ev->recv.kind == PY_V_INSTANCE || ev->recv.kind == PY_V_EXTOBJ ||
               ev->recv.kind == PY_V_EXT || ev->recv.kind == PY_V_MODULE;
    }
    if (callee->kind == PY_V_EXT && callee->qual) {
        const char *q = callee->qual, *last = strrchr(q, '.');
        if (cg_starts(q, "builtins.") || cg_starts(q, "torch.cuda.") || cg_starts(q, "logging.") ||
            cg_starts(q, "typing.") || cg_starts(q, "os.") || cg_starts(q, "sys.") || py_is_factory(q))
            return 0;
        if (last && last[1] >= 'A' && last[1] <= 'Z') return 0;   /* a constructor */
        static const char *const setup[] = { "torch.no_grad", "torch.inference_mode", "torch.enable_grad",
            "torch.set_grad_enabled", "torch.autocast", "torch.compile", "torch.manual_seed", "torch.device",
            "torch.cat", "torch.stack", "torch.zeros_like", "torch.ones_like", "torch.empty_like", NULL };
        for (int i = 0; setup[i]; i++) if (cg_eq(q, setup[i])) return 0;
        if (cg_starts(q, "torch.is_") || cg_starts(q, "torch.get_") || cg_starts(q, "torch.set_")) return 0;
        return !cg_starts(q, "torch.") || cg_starts(q, "torch.nn.functional.") || strchr(q + 6, '.') == NULL;
    }
    return 0;
}

static py_val eval_call(py_ctx *ctx, py_frame *fr, TSNode call)
{
    py_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = PY_EV_CALL;
    ev.mod = fr->mod;
    ev.node = call;
    TSNode fn = py_unparen(py_field(call, PY.f_function));
    TSNode args = py_field(call, PY.f_arguments);
    py_val callee = vk(PY_V_UNKNOWN);
    if (IS(fn, attribute)) {
        TSNode obj = py_field(fn, PY.f_object), attr = py_field(fn, PY.f_attribute);
        py_val recv = eval(ctx, fr, obj);
        const char *mname = py_text_dup(fr->mod, attr);
        if (recv.kind == PY_V_EXT) {
            callee = vext(cg_arena_printf(ctx->arena, "%s.%s", recv.qual, mname));
        } else if (recv.kind == PY_V_MODULE) {
            if (py_module_ensure(ctx->p, recv.mod) == 0)
                callee = val_of_sym(ctx, py_resolve_member(ctx->p, recv.mod, mname, strlen(mname)), mname, strlen(mname));
            else
                callee = vk(PY_V_UNKNOWN);
        } else if (recv.kind == PY_V_INSTANCE) {
            py_func *m = NULL;
            if (py_class_lookup_method_owner(ctx->p, recv.cls, mname, &m)) {
                callee = vk(PY_V_FUNC);
                callee.fn = m;
                callee.cls = recv.cls;
            } else {
                py_val av = val_of_attr(ctx, recv.cls, &recv, mname);
                if (av.kind != PY_V_UNKNOWN) callee = av;
                else { ev.method = mname; ev.recv = recv; ev.recv_node = obj; }
            }
        } else if (recv.kind == PY_V_CLASS && cg_eq(mname, "__init__")) {
            callee = vk(PY_V_UNKNOWN);
        } else {
            ev.method = mname;
            ev.recv = recv;
            ev.recv_node = obj;
        }
        if (callee.kind == PY_V_FUNC && !callee.cls && recv.kind == PY_V_INSTANCE) callee.cls = recv.cls;
    } else if (IS(fn, identifier) && text_is(fr->mod, fn, "super")) {
        /* super().method(...): an instance of the first project base */
        py_val v = vk(PY_V_UNKNOWN);
        if (fr->self.kind == PY_V_INSTANCE) {
            py_class_resolve_bases(ctx->p, fr->fn && fr->fn->cls ? fr->fn->cls : fr->self.cls);
            py_class *c = fr->fn && fr->fn->cls ? fr->fn->cls : fr->self.cls;
            if (c && c->nbase > 0) { v = vk(PY_V_INSTANCE); v.cls = c->base[0]; }
        }
        return v;
    } else {
        callee = eval(ctx, fr, fn);
    }
    if (callee.kind == PY_V_EXT) ev.qual = callee.qual;
    ev.callee = callee;

    /* arguments */
    int sizes = takes_sizes(ev.qual, ev.method);
    int outer_size = ctx->size_arg;
    ev.size_arg = outer_size;
    if (!py_is_null(args) && IS(args, argument_list)) {
        uint32_t k = py_named_child_count(args);
        for (uint32_t i = 0; i < k; i++) {
            TSNode a = py_named_child(args, i);
            if (IS(a, comment)) continue;
            if (IS(a, keyword_argument)) {
                TSNode kn = py_field(a, PY.f_name), kv = py_field(a, PY.f_value);
                ctx->size_arg = sizes && (text_is(fr->mod, kn, "size") || text_is(fr->mod, kn, "end"));
                py_val v = eval(ctx, fr, kv);
                if (ev.nkw < PY_MAX_ARGS) {
                    ev.kwname[ev.nkw] = py_text_dup(fr->mod, kn);
                    ev.kw[ev.nkw] = v;
                    ev.kwn[ev.nkw] = kv;
                    ev.nkw++;
                }
            } else {
                ctx->size_arg = sizes && !IS(a, list_splat) && !IS(a, dictionary_splat);
                py_val v = eval(ctx, fr, a);
                if (ev.nargs < PY_MAX_ARGS) {
                    ev.args[ev.nargs] = v;
                    ev.argn[ev.nargs] = a;
                    ev.nargs++;
                }
            }
            if (ctx->size_arg && ctx->active && !ctx->quiet) {
                py_val *last = IS(a, keyword_argument) ? &ev.kw[ev.nkw - 1] : &ev.args[ev.nargs - 1];
                if ((last->flags & PY_VF_HOSTSCALAR) && IS(py_unparen(IS(a, keyword_argument) ? py_field(a, PY.f_value) : a), identifier)) {
                    py_event se;
                    memset(&se, 0, sizeof se);
                    se.kind = PY_EV_SIZE_USE;
                    se.mod = fr->mod;
                    se.node = IS(a, keyword_argument) ? py_field(a, PY.f_value) : a;
                    se.val = *last;
                    emit(ctx, &se);
                }
            }
            ctx->size_arg = 0;
        }
    } else if (!py_is_null(args)) {
        /* f(x for x in y) */
        ctx->size_arg = 0;
        py_val v = eval(ctx, fr, args);
        ev.args[0] = v;
        ev.argn[0] = args;
        ev.nargs = 1;
    }
    ctx->size_arg = outer_size;

    /* Python numbers handed to tensor math: torch.* functions and tensor
     * methods (in-place `p.add_(g, alpha=-lr)` too, on values of unknown kind) */
    if ((ev.qual && cg_starts(ev.qual, "torch.") && !cg_starts(ev.qual, "torch.cuda.") &&
         !cg_starts(ev.qual, "torch.distributed.") && !py_is_factory(ev.qual) && !cg_starts(ev.qual, "torch.nn.Module")) ||
        (ev.method && (ev.recv.kind == PY_V_TENSOR ||
                       (ev.recv.kind == PY_V_UNKNOWN && ev.method[0] && ev.method[strlen(ev.method) - 1] == '_' &&
                        ev.method[0] != '_')))) {
        for (int i = 0; i < ev.nargs; i++) scalar_math(ctx, fr, ev.argn[i], &ev.args[i]);
        for (int i = 0; i < ev.nkw; i++) scalar_math(ctx, fr, ev.kwn[i], &ev.kw[i]);
    }

    /* is the result sent straight to the GPU? (torch.tensor(x).cuda()) */
    TSNode parent = py_parent(call);
    if (!py_is_null(parent) && IS(parent, attribute)) {
        TSNode gp = py_parent(parent);
        TSNode pa = py_field(parent, PY.f_attribute);
        if (!py_is_null(gp) && IS(gp, call) &&
            (text_is(fr->mod, pa, "cuda") || text_is(fr->mod, pa, "to")))
            ev.chained_to_device = 1;
    }
    if (!py_is_null(parent) && IS(parent, argument_list)) {
        TSNode gp = py_parent(parent);
        if (!py_is_null(gp) && IS(gp, call)) {
            size_t l;
            const char *t = py_text(fr->mod, py_field(gp, PY.f_function), &l);
            if ((l == 5 && memcmp(t, "print", 5) == 0) || (l > 5 && (memmem(t, l, "log", 3) != NULL)))
                ev.consumed_by_print = 1;
        }
    }

    /* region boundaries */
    if (ev.method && (cg_eq(ev.method, "capture_begin") &&
                      (ev.recv.kind == PY_V_UNKNOWN || (ev.recv.flags & PY_VF_GRAPH)))) {
        if (!ctx->active && !ctx->quiet) {
            emit(ctx, &ev);
            start_region(ctx, fr, call, "capture_begin", NULL);
            int tk = py_ev_kw(&ev, "capture_error_mode");
            if (tk >= 0 && !py_text_eq(fr->mod, ev.kwn[tk], "\"global\"") &&
                !py_text_eq(fr->mod, ev.kwn[tk], "'global'"))
                ctx->region->thread_local = 1;
            region_begin_context(ctx, fr);
            py_event rb;
            memset(&rb, 0, sizeof rb);
            rb.kind = PY_EV_REGION_BEGIN;
            rb.mod = fr->mod;
            rb.node = call;
            rb.val.stream = ctx->region->streams.capture;
            /* Under a stream context here?  A function that handles streams any
             * other way (`ctx.__enter__()`, set_stream, a stream parameter) may
             * well capture on one: prefer silence. */
            rb.augmented = fr->stream_ctx;
            if (!rb.augmented && fr->fn && !fr->fn->is_module_body) {
                uint32_t b = py_start_byte(fr->fn->node), e = py_end_byte(fr->fn->node);
                const char *t = fr->mod->src.text + b;
                TSNode params = py_field(fr->fn->node, PY.f_parameters);
                size_t pl = 0;
                const char *pt = py_is_null(params) ? "" : py_text(fr->mod, params, &pl);
                if (memmem(t, e - b, "__enter__", 9) || memmem(t, e - b, "set_stream", 10) ||
                    memmem(pt, pl, "stream", 6))
                    rb.augmented = 1;
            }
            emit(ctx, &rb);
        }
        return vk(PY_V_NONE);
    }
    if (ev.method && cg_eq(ev.method, "capture_end") && (ev.recv.kind == PY_V_UNKNOWN || (ev.recv.flags & PY_VF_GRAPH))) {
        if (ctx->active && !ctx->quiet && ctx->region && cg_eq(ctx->region->kind, "capture_begin")) end_region(ctx);
        return vk(PY_V_NONE);
    }
    /* torch.compile: mode="reduce-overhead" (or options={"triton.cudagraphs": True})
     * captures the compiled function with CUDA graphs */
    if (ev.qual && (cg_eq(ev.qual, "torch.compile") || cg_eq(ev.qual, "torch._dynamo.optimize"))) {
        py_val target = ev.nargs > 0 ? ev.args[0] : vk(PY_V_UNKNOWN);
        int mk = py_ev_kw(&ev, "mode"), ok = py_ev_kw(&ev, "options");
        size_t ml = 0, ol = 0;
        const char *mt = mk >= 0 ? py_text(fr->mod, ev.kwn[mk], &ml) : "";
        const char *ot = ok >= 0 ? py_text(fr->mod, ev.kwn[ok], &ol) : "";
        int cudagraphs = memmem(mt, ml, "reduce-overhead", 15) ||
                         (memmem(ot, ol, "triton.cudagraphs", 17) && memmem(ot, ol, "True", 4));
        if (cudagraphs && !ctx->active && !ctx->quiet && (target.kind == PY_V_FUNC || target.kind == PY_V_INSTANCE)) {
            start_region(ctx, fr, call, "reduce-overhead", NULL);
            py_val targs[4] = { vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA) };
            if (target.kind == PY_V_INSTANCE) call_instance(ctx, fr, call, target.cls, &target, targs, 4);
            else call_function(ctx, fr, call, target.fn, NULL, targs, 4, 1);
            end_region(ctx);
            ctx->phase = PY_PH_OUTSIDE;
        }
        target.flags |= PY_VF_COMPILED;
        return target;
    }
    /* Megatron-LM's FullCudaGraphWrapper(fn, ...) captures fn */
    if (ev.qual && cg_ends_with(ev.qual, ".FullCudaGraphWrapper") && !ctx->active && !ctx->quiet && ev.nargs > 0 &&
        (ev.args[0].kind == PY_V_FUNC || ev.args[0].kind == PY_V_INSTANCE)) {
        start_region(ctx, fr, call, "FullCudaGraphWrapper", NULL);
        py_val targs[4] = { vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA) };
        if (ev.args[0].kind == PY_V_INSTANCE) call_instance(ctx, fr, call, ev.args[0].cls, &ev.args[0], targs, 4);
        else call_function(ctx, fr, call, ev.args[0].fn, NULL, targs, 4, 1);
        end_region(ctx);
        ctx->phase = PY_PH_OUTSIDE;
        return vk(PY_V_UNKNOWN);
    }
    if (ev.qual && (cg_eq(ev.qual, "torch.cuda.make_graphed_callables") ||
                    cg_eq(ev.qual, "torch.cuda.graphs.make_graphed_callables") ||
                    (cg_starts(ev.qual, "transformer_engine.") && cg_ends_with(ev.qual, ".make_graphed_callables"))) &&
        !ctx->active && !ctx->quiet) {
        if (ev.nargs > 0) {
            py_val c = ev.args[0];
            py_val items[8];
            int n = 0;
            if (c.kind == PY_V_TUPLE || c.kind == PY_V_LIST) {
                /* a tuple of callables: evaluate each element */
                TSNode tn = py_unparen(ev.argn[0]);
                uint32_t k = py_named_child_count(tn);
                for (uint32_t i = 0; i < k && n < 8; i++) {
                    int q = ctx->quiet; ctx->quiet = 1;
                    items[n++] = eval(ctx, fr, py_named_child(tn, i));
                    ctx->quiet = q;
                }
            } else items[n++] = c;
            for (int i = 0; i < n; i++) {
                start_region(ctx, fr, call, cg_starts(ev.qual, "transformer_engine.") ?
                             "te.make_graphed_callables" : "make_graphed_callables", NULL);
                region_begin_context(ctx, fr);
                if (i == 0) {
                    /* constraints on the call itself (CG704) are checked once, in capture context */
                    py_event mc = ev;
                    mc.kind = PY_EV_REGION_BEGIN;
                    mc.val = items[0];
                    emit(ctx, &mc);
                }
                py_val targs[4] = { vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA) };
                if (items[i].kind == PY_V_INSTANCE) call_instance(ctx, fr, call, items[i].cls, &items[i], targs, 4);
                else if (items[i].kind == PY_V_FUNC) call_function(ctx, fr, call, items[i].fn, NULL, targs, 4, 1);
                end_region(ctx);
                ctx->phase = PY_PH_OUTSIDE;
            }
        }
        return vk(PY_V_UNKNOWN);
    }

    emit(ctx, &ev);

    /* warm-up bookkeeping outside capture (CG701, CG702, CG706) */
    if (!ctx->active && !ctx->quiet) {
        if (is_warmup_call(&ev, &callee)) fr->warm = 1;
        if ((ev.method && cg_eq(ev.method, "backward") && !fr->stream_ctx && !fr->eager_backward) ||
            (ev.qual && cg_ends_with(ev.qual, "DistributedDataParallel") && !fr->stream_ctx && !fr->eager_backward)) {
            fr->eager_backward = 1;
            fr->eager_loc = py_loc(fr->mod, call);
            size_t ll;
            const char *lt = cg_source_line(&fr->mod->src, fr->eager_loc.line, &ll);
            fr->eager_line = cg_arena_strndup(ctx->arena, lt, ll);
        }
    }
    if (ctx->active && ctx->region) {
        if (ev.method && cg_eq(ev.method, "backward")) ctx->region->has_backward = 1;
        if (ev.method && cg_eq(ev.method, "step") && (ev.recv.kind == PY_V_EXTOBJ && cg_starts(ev.recv.qual, "torch.optim.")))
            ctx->region->steps_optimizer = 1;
        if (ev.method && cg_eq(ev.method, "step") && (ev.recv.flags & PY_VF_SCALER)) ctx->region->steps_optimizer = 1;
    }
    /* checkpoint(fn, *args) runs fn: follow it */
    if (ev.qual && (cg_eq(ev.qual, "torch.utils.checkpoint.checkpoint") || cg_eq(ev.qual, "torch.utils.checkpoint")) &&
        ev.nargs > 0 && ctx->active) {
        if (ev.args[0].kind == PY_V_FUNC) call_function(ctx, fr, call, ev.args[0].fn, NULL, ev.args + 1, ev.nargs - 1, 0);
        else if (ev.args[0].kind == PY_V_INSTANCE) call_instance(ctx, fr, call, ev.args[0].cls, &ev.args[0], ev.args + 1, ev.nargs - 1);
        return vtensor(PY_DEV_UNKNOWN);
    }

    /* the call's result, following project code in capture context */
    switch (callee.kind) {
    case PY_V_EXT: return ext_call_result(ctx, fr, &ev, call);
    case PY_V_FUNC: {
        py_val self = vk(PY_V_UNKNOWN);
        if (callee.cls) { self = vk(PY_V_INSTANCE); self.cls = callee.cls; }
        return call_function(ctx, fr, call, callee.fn, callee.cls ? &self : NULL, ev.args, ev.nargs, 0);
    }
    case PY_V_CLASS: {
        py_val inst = vk(PY_V_INSTANCE);
        inst.cls = callee.cls;
        py_func *init = NULL;
        if (ctx->active && py_class_lookup_method_owner(ctx->p, callee.cls, "__init__", &init))
            call_function(ctx, fr, call, init, &inst, ev.args, ev.nargs, 0);
        return inst;
    }
    case PY_V_INSTANCE: return call_instance(ctx, fr, call, callee.cls, &callee, ev.args, ev.nargs);
    case PY_V_MODLIST: {
        for (int i = 0; i < callee.nelems; i++) {
            py_val inst = vk(PY_V_INSTANCE);
            inst.cls = callee.elems[i];
            call_instance(ctx, fr, call, callee.elems[i], &inst, ev.args, ev.nargs);
        }
        return vtensor(PY_DEV_UNKNOWN);
    }
    case PY_V_EXTOBJ:
        if (cg_starts(callee.qual, "torch.nn.")) return vtensor(PY_DEV_UNKNOWN);
        return vk(PY_V_UNKNOWN);
    default: break;
    }
    if (ev.method) {
        const py_val *r = &ev.recv;
        if (r->kind == PY_V_TENSOR || r->kind == PY_V_UNKNOWN || r->kind == PY_V_NDARRAY) return tensor_method_result(ctx, fr, &ev);
        if (r->kind == PY_V_INSTANCE || r->kind == PY_V_MODLIST || (r->kind == PY_V_EXTOBJ && cg_starts(r->qual, "torch.nn."))) {
            if (cg_eq(ev.method, "cuda") || cg_eq(ev.method, "to") || cg_eq(ev.method, "eval") || cg_eq(ev.method, "train") ||
                cg_eq(ev.method, "half") || cg_eq(ev.method, "float") || cg_eq(ev.method, "bfloat16") ||
                cg_eq(ev.method, "requires_grad_") || cg_eq(ev.method, "cpu"))
                return *r;
        }
        if (r->kind == PY_V_STREAM && cg_eq(ev.method, "wait_stream")) return vk(PY_V_NONE);
        if (r->kind == PY_V_DICT && (cg_eq(ev.method, "items") || cg_eq(ev.method, "keys") || cg_eq(ev.method, "values")))
            return vk(PY_V_LIST);
    }
    return vk(PY_V_UNKNOWN);
}

/* Analyse f called with `args` in the current context; returns its result. */
static py_val call_function(py_ctx *ctx, py_frame *caller, TSNode callnode, py_func *f,
                            const py_val *self, const py_val *args, int nargs, int params_are_tensors)
{
    /* Outside capture a call is followed only quietly, for the type of its
     * result (`lr = lr_at(0)` is a float), and only a few levels deep. */
    int quiet_call = !ctx->active || ctx->quiet;
    if (quiet_call && ctx->depth > 6) return vk(PY_V_UNKNOWN);
    int saved_quiet = ctx->quiet;
    if (f->analyzing || ctx->depth >= MAX_CALL_DEPTH || cg_callpath_full(&ctx->path))
        return vk(PY_V_UNKNOWN);
    if (py_module_ensure(ctx->p, f->mod) != 0) return vk(PY_V_UNKNOWN);
    /* torch.compile does not trace a function it is told to skip */
    if (ctx->active && py_region_is_compiled(ctx->region) && func_skipped_by_dynamo(f)) return vk(PY_V_UNKNOWN);

    /* memo: one analysis per (function, argument kinds, region) */
    char key[64];
    int kl = snprintf(key, sizeof key, "%p/%p/%d/", (void *)f, (void *)ctx->region, quiet_call);
    for (int i = 0; i < nargs && i < 8 && kl < (int)sizeof key - 2; i++) key[kl++] = (char)('A' + args[i].kind);
    key[kl] = 0;
    py_val *memo = cg_map_get(&ctx->memo, key, (size_t)kl);
    if (memo) return *memo;

    py_frame fr;
    frame_init(&fr, f, f->mod);
    TSNode params = py_field(f->node, PY.f_parameters);
    uint32_t np = py_is_null(params) ? 0 : py_named_child_count(params);
    int ai = 0;
    for (uint32_t i = 0; i < np; i++) {
        TSNode pn = py_named_child(params, i);
        TSNode name = pn, type = (TSNode){0}, def = (TSNode){0};
        if (IS(pn, typed_parameter)) { name = py_named_child(pn, 0); type = py_field(pn, PY.f_type); }
        else if (IS(pn, default_parameter)) { name = py_field(pn, PY.f_name); def = py_field(pn, PY.f_value); }
        else if (IS(pn, typed_default_parameter)) { name = py_field(pn, PY.f_name); type = py_field(pn, PY.f_type); def = py_field(pn, PY.f_value); }
        if (!IS(name, identifier)) continue;   /* *args, **kwargs, / and * markers */
        size_t nl;
        const char *nt = py_text(f->mod, name, &nl);
        if (i == 0 && f->cls) {
            py_val sv = self ? *self : vk(PY_V_INSTANCE);
            if (!self) sv.cls = f->cls;
            fr.self = sv;
            fr.self_name = nt;
            fr.self_len = nl;
            bind(ctx, &fr, nt, nl, sv);
            continue;
        }
        /* What a parameter holds: the argument's kind when known; else, for
         * forward() and graphed callables, a tensor only when nothing says
         * otherwise (no default, no annotation or a Tensor one).  `mask=None`,
         * `kwargs: dict = None`, `flag: bool` are not tensors. */
        py_val v = vk(PY_V_UNKNOWN);
        int has_def = !py_is_null(def), has_type = !py_is_null(type);
        size_t tl = 0;
        const char *tt = has_type ? py_text(f->mod, type, &tl) : "";
        int ann_tensor = has_type && memmem(tt, tl, "Tensor", 6) != NULL;
        int tensor_shaped = !has_def && (!has_type || ann_tensor);
        if (ai < nargs) v = args[ai];
        else if (params_are_tensors && tensor_shaped) v = vtensor(PY_DEV_UNKNOWN);
        if (ai >= nargs && has_def && (IS(def, integer) || IS(def, float_))) v = vk(PY_V_NUMBER);
        if (v.kind == PY_V_UNKNOWN && ann_tensor) v = vtensor(PY_DEV_UNKNOWN);
        if (params_are_tensors && v.kind == PY_V_UNKNOWN && ai < nargs && tensor_shaped) v = vtensor(PY_DEV_UNKNOWN);
        /* the tensors a reduce-overhead function is given (CG902: mutated inputs) */
        if (ctx->active && ctx->path.n == 0 && py_region_is_compiled(ctx->region) && v.kind == PY_V_TENSOR)
            v.flags |= PY_VF_PARAM;
        bind(ctx, &fr, nt, nl, v);
        ai++;
    }

    cg_callpath_push(&ctx->path, f->qualname, py_loc(caller->mod, callnode));
    f->analyzing = 1;
    ctx->depth++;
    if (quiet_call) ctx->quiet = 1;
    int saved_loops = ctx->loops, saved_conds = ctx->conds_in_loop, saved_phase = ctx->phase;
    py_region *saved_after = ctx->after;
    if (!py_is_null(f->body)) exec_block(ctx, &fr, f->body);
    ctx->loops = saved_loops;
    ctx->conds_in_loop = saved_conds;
    ctx->phase = saved_phase;
    ctx->after = saved_after;
    ctx->quiet = saved_quiet;
    ctx->depth--;
    f->analyzing = 0;
    cg_callpath_pop(&ctx->path);
    py_val ret = fr.has_ret ? fr.ret : vk(PY_V_NONE);
    frame_free(&fr);
    py_val *save = cg_arena_alloc(ctx->arena, sizeof *save);
    *save = ret;
    cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, save);
    return ret;
}

/* ---- regions ------------------------------------------------------------------------ */
static void start_region(py_ctx *ctx, py_frame *fr, TSNode site, const char *kind, const char *stream)
{
    py_region *r = cg_arena_alloc(ctx->arena, sizeof *r);
    r->site = py_loc(fr->mod, site);
    r->site_node = site;
    r->mod = fr->mod;
    r->fn = fr->fn;
    cg_map_init(&r->inputs);
    cg_map_init(&r->outputs);
    r->kind = kind;
    /* capture_begin captures on the current stream; torch.cuda.graph on its own side stream */
    const char *capturing = stream;
    if (!capturing && cg_eq(kind, "capture_begin") && ctx->cur_stream) capturing = ctx->cur_stream;
    if (!capturing) capturing = cg_arena_printf(ctx->arena, "<capture@%u>", r->site.line);
    cg_streams_init(&r->streams, capturing);
    ctx->region = r;
    ctx->active = 1;
    ctx->phase = PY_PH_CAPTURE;
    ctx->cur_stream = r->streams.capture;
    /* every region's maps, freed with the analysis */
    if (ctx->nregions == ctx->capregions) {
        int cap = ctx->capregions ? 2 * ctx->capregions : 64;
        py_region **grown = realloc(ctx->regions, (size_t)cap * sizeof *grown);
        if (!grown) { perror("cglint"); exit(2); }
        ctx->regions = grown;
        ctx->capregions = cap;
    }
    ctx->regions[ctx->nregions++] = r;
}

/* What the function did before the capture decides CG601, CG701, CG702,
 * CG705, CG708: handed to the REGION_BEGIN checks through the context. */
static void region_begin_context(py_ctx *ctx, py_frame *fr)
{
    py_region *r = ctx->region;
    r->warm = fr->warm || !fr->built_module;
    /* re-capturing every iteration: the capture and a replay share a loop body
     * with no condition around the capture (one graph per bucket replays later) */
    r->in_loop = 0;
    if (ctx->loops > 0 && ctx->conds_in_loop == 0 && !py_is_null(ctx->loop_node)) {
        size_t len;
        const char *t = py_text(fr->mod, ctx->loop_node, &len);
        r->in_loop = memmem(t, len, ".replay(", 8) != NULL;
    }
    r->pin_loader_loop = fr->pin_loader_loop;
    r->eager_backward = fr->eager_backward;
    r->eager_loc = fr->eager_loc;
    r->eager_line = fr->eager_line;
    r->autocast = ctx->autocast;
    r->autocast_loc = ctx->autocast_loc;
    r->autocast_line = ctx->autocast_line;
    r->autocast_mod = ctx->autocast_mod;
    r->autocast_node = ctx->autocast_node;
}

static void end_region(py_ctx *ctx)
{
    if (!ctx->region) return;
    py_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = PY_EV_REGION_END;
    emit(ctx, &ev);
    ctx->active = 0;
    /* the rest of the capturing function is its aftermath: the replay loop */
    ctx->after = ctx->region;
    ctx->phase = PY_PH_AFTER;
    ctx->region = NULL;
    ctx->cur_stream = NULL;
}


/* ---- guards ---------------------------------------------------------------------------- */
/* +1: the condition is true whenever capture is under way; -1: false then; 0: can't tell. */
static int guard_polarity(py_ctx *ctx, py_frame *fr, TSNode c)
{
    c = py_unparen(c);
    if (IS(c, not_operator)) return -guard_polarity(ctx, fr, py_field(c, PY.f_argument));
    if (IS(c, boolean_operator)) {
        int l = guard_polarity(ctx, fr, py_field(c, PY.f_left));
        int r = guard_polarity(ctx, fr, py_field(c, PY.f_right));
        TSNode op = py_field(c, PY.f_operator);
        if (text_is(fr->mod, op, "and")) return (l == -1 || r == -1) ? -1 : (l == 1 && r == 1) ? 1 : 0;
        return (l == 1 || r == 1) ? 1 : (l == -1 && r == -1) ? -1 : 0;
    }
    if (IS(c, call) || IS(c, identifier)) {
        int q = ctx->quiet;
        ctx->quiet = 1;
        py_val v = IS(c, call) ? eval(ctx, fr, py_field(c, PY.f_function)) : eval(ctx, fr, c);
        ctx->quiet = q;
        /* torch.compiler.is_compiling(): true under reduce-overhead, false in a manual capture */
        if (IS(c, call) && ctx->region &&
            ((v.kind == PY_V_EXT && (cg_eq(v.qual, "torch.compiler.is_compiling") || cg_eq(v.qual, "torch._dynamo.is_compiling") ||
                                  cg_eq(v.qual, "torch.compiler.is_dynamo_compiling") ||
                                  cg_ends_with(v.qual, ".is_torchdynamo_compiling"))) ||
             (v.kind == PY_V_FUNC && (cg_eq(v.fn->name, "is_torchdynamo_compiling") || cg_eq(v.fn->name, "is_compiling")))))
            return py_region_is_compiled(ctx->region) ? 1 : -1;
        if (IS(c, call) && v.kind == PY_V_EXT &&
            (cg_eq(v.qual, "torch.cuda.is_current_stream_capturing") ||
             cg_eq(v.qual, "torch.cuda.graphs.is_current_stream_capturing") ||
             cg_eq(v.qual, "torch._C._cuda_isCurrentStreamCapturing")))
            return 1;
        if (IS(c, identifier) && v.kind == PY_V_GUARD) return 1;
    }
    if (IS(c, comparison_operator) && py_named_child_count(c) == 2) {
        /* capturing == False / is False */
        TSNode l = py_named_child(c, 0), r = py_named_child(c, 1);
        int g = guard_polarity(ctx, fr, l);
        if (g && (IS(r, false_) || IS(r, true_))) {
            size_t len;
            const char *t = py_text(fr->mod, c, &len);
            int neg = memmem(t, len, "!=", 2) || memmem(t, len, "is not", 6);
            int val = IS(r, true_) ? 1 : -1;
            return neg ? -g * val : g * val;
        }
    }
    return 0;
}

/* ---- expressions ------------------------------------------------------------------------ */
static void cond_event(py_ctx *ctx, py_frame *fr, TSNode n, py_val v)
{
    py_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = PY_EV_COND;
    ev.mod = fr->mod;
    ev.node = n;
    ev.val = v;
    emit(ctx, &ev);
}

/* Evaluate a condition: every operand Python converts to bool raises an event. */
static py_val eval_cond(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode u = py_unparen(n);
    if (IS(u, boolean_operator)) {
        eval_cond(ctx, fr, py_field(u, PY.f_left));
        eval_cond(ctx, fr, py_field(u, PY.f_right));
        return vk(PY_V_NUMBER);
    }
    if (IS(u, not_operator)) {
        eval_cond(ctx, fr, py_field(u, PY.f_argument));
        return vk(PY_V_NUMBER);
    }
    py_val v = eval(ctx, fr, u);
    cond_event(ctx, fr, u, v);
    return v;
}

static void scalar_math(py_ctx *ctx, py_frame *fr, TSNode num, const py_val *v)
{
    if (v->kind != PY_V_NUMBER || v->origin == PY_O_NONE || (v->flags & PY_VF_HOSTSCALAR)) return;
    py_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = PY_EV_SCALAR_MATH;
    ev.mod = fr->mod;
    ev.node = num;
    ev.val = *v;
    emit(ctx, &ev);
}

static py_val eval_binary(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode l = py_field(n, PY.f_left), r = py_field(n, PY.f_right);
    py_val a = eval(ctx, fr, l), b = eval(ctx, fr, r);
    if (a.kind == PY_V_TENSOR || b.kind == PY_V_TENSOR) {
        if (a.kind == PY_V_TENSOR) scalar_math(ctx, fr, r, &b);
        if (b.kind == PY_V_TENSOR) scalar_math(ctx, fr, l, &a);
        py_val t = a.kind == PY_V_TENSOR ? a : b;
        py_val out = vtensor(t.dev);
        TSNode op = py_field(n, PY.f_operator);
        if ((text_is(fr->mod, op, "&") || text_is(fr->mod, op, "|") || text_is(fr->mod, op, "^")) &&
            ((a.flags & PY_VF_BOOL) || (b.flags & PY_VF_BOOL)))
            out.flags |= PY_VF_BOOL;
        return out;
    }
    if (a.kind == PY_V_NDARRAY || b.kind == PY_V_NDARRAY) return vk(PY_V_NDARRAY);
    if (a.kind == PY_V_NUMBER && b.kind == PY_V_NUMBER) {
        py_val out = vk(PY_V_NUMBER);
        out.flags = (a.flags | b.flags) & PY_VF_HOSTSCALAR;
        /* keep an origin so `lr * 0.5` still names lr */
        if (a.origin) { out.origin = a.origin; out.oname = a.oname; out.ofn = a.ofn; out.ocls = a.ocls; out.omod = a.omod; }
        else if (b.origin) { out.origin = b.origin; out.oname = b.oname; out.ofn = b.ofn; out.ocls = b.ocls; out.omod = b.omod; }
        return out;
    }
    if (a.kind == PY_V_STR || b.kind == PY_V_STR) {
        /* "%s" % t formats a tensor */
        py_val out = vk(PY_V_STR);
        TSNode op = py_field(n, PY.f_operator);
        if (a.kind == PY_V_STR && text_is(fr->mod, op, "%") && (b.kind == PY_V_TENSOR)) out.flags |= PY_VF_FMT_TENSOR;
        return out;
    }
    if (a.kind == PY_V_LIST && b.kind == PY_V_LIST) return vk(PY_V_LIST);
    py_val out = vk(PY_V_UNKNOWN);
    out.flags = (a.flags | b.flags) & PY_VF_HOSTSCALAR;
    return out;
}

static py_val eval_attribute(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode obj = py_field(n, PY.f_object), attr = py_field(n, PY.f_attribute);
    py_val o = eval(ctx, fr, obj);
    size_t al;
    const char *a = py_text(fr->mod, attr, &al);
    switch (o.kind) {
    case PY_V_EXT: return vext(cg_arena_printf(ctx->arena, "%s.%.*s", o.qual, (int)al, a));
    case PY_V_MODULE:
        if (py_module_ensure(ctx->p, o.mod) != 0) return vk(PY_V_UNKNOWN);
        return val_of_sym(ctx, py_resolve_member(ctx->p, o.mod, a, al), a, al);
    case PY_V_INSTANCE: {
        char *name = cg_arena_strndup(ctx->arena, a, al);
        py_func *m = NULL;
        if (py_class_lookup_method_owner(ctx->p, o.cls, name, &m)) {
            py_val v = vk(PY_V_FUNC); v.fn = m; v.cls = o.cls; return v;
        }
        py_val av = val_of_attr(ctx, o.cls, &o, name);
        if (IS(obj, identifier) && fr->self_name && text_is(fr->mod, obj, "self")) note_input(ctx, fr, n, &av);
        return av;
    }
    case PY_V_TENSOR:
        if ((al == 1 && a[0] == 'T') || (al == 2 && memcmp(a, "mT", 2) == 0) ||
            (al == 4 && (memcmp(a, "data", 4) == 0 || memcmp(a, "grad", 4) == 0 || memcmp(a, "real", 4) == 0 ||
                         memcmp(a, "imag", 4) == 0)))
            return vtensor(o.dev);
        if (al == 5 && memcmp(a, "shape", 5) == 0) return vk(PY_V_TUPLE);
        return vk(PY_V_NUMBER);   /* dtype, device, ndim, is_cuda, requires_grad... host metadata */
    case PY_V_NDARRAY: return vk(PY_V_NDARRAY);
    default: return vk(PY_V_UNKNOWN);
    }
}

static void bind_target(py_ctx *ctx, py_frame *fr, TSNode t, py_val v);

static py_val eval_comprehension(py_ctx *ctx, py_frame *fr, TSNode n, int kind)
{
    /* bind each for_in_clause's target, then evaluate the body */
    uint32_t k = py_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(n, i);
        if (IS(c, for_in_clause)) {
            py_val it = eval(ctx, fr, py_field(c, PY.f_right));
            py_val el = vk(PY_V_UNKNOWN);
            if (it.kind == PY_V_MODLIST && it.nelems == 1) { el = vk(PY_V_INSTANCE); el.cls = it.elems[0]; }
            else if (it.kind == PY_V_EXTOBJ && cg_eq(it.qual, "builtins.range")) el = vk(PY_V_NUMBER);
            else if (it.kind == PY_V_TENSOR) el = vtensor(it.dev);
            bind_target(ctx, fr, py_field(c, PY.f_left), el);
        } else if (IS(c, if_clause)) {
            if (py_named_child_count(c)) eval_cond(ctx, fr, py_named_child(c, 0));
        }
    }
    TSNode body = py_field(n, PY.f_body);
    py_val b = py_is_null(body) ? vk(PY_V_UNKNOWN) : eval(ctx, fr, body);
    if (kind == PY_V_LIST && b.kind == PY_V_INSTANCE) {
        /* [Block() for _ in range(n)]: remember the element class for ModuleList */
        py_val l = vk(PY_V_MODLIST);
        l.elems[0] = b.cls;
        l.nelems = 1;
        return l;
    }
    return vk(kind);
}

static py_val eval_node(py_ctx *ctx, py_frame *fr, TSNode n);

/* Expression nesting is bounded: a file of 10 000 nested parentheses must
 * not exhaust the stack.  Past the bound the value is unknown (silence). */
static py_val eval(py_ctx *ctx, py_frame *fr, TSNode n)
{
    if (py_is_null(n) || ctx->edepth >= 300) return vk(PY_V_UNKNOWN);
    ctx->edepth++;
    py_val v = eval_node(ctx, fr, n);
    ctx->edepth--;
    return v;
}

static py_val eval_node(py_ctx *ctx, py_frame *fr, TSNode n)
{
    if (ctx->depth > 200) return vk(PY_V_UNKNOWN);
    TSSymbol s = py_symbol(n);
    if (s == PY.identifier) {
        size_t len;
        const char *t = py_text(fr->mod, n, &len);
        py_val *v = cg_map_get(&fr->env, t, len);
        if (v) { note_input(ctx, fr, n, v); return *v; }
        if (fr->self_name && len == fr->self_len && memcmp(t, fr->self_name, len) == 0) return fr->self;
        return val_of_sym(ctx, py_resolve_name(ctx->p, fr->mod, t, len), t, len);
    }
    if (s == PY.call) return eval_call(ctx, fr, n);
    if (s == PY.attribute) return eval_attribute(ctx, fr, n);
    if (s == PY.integer || s == PY.float_ || s == PY.true_ || s == PY.false_) return vk(PY_V_NUMBER);
    if (s == PY.none) return vk(PY_V_NONE);
    if (s == PY.string || s == PY.concatenated_string) {
        py_val out = vk(PY_V_STR);
        /* f-string interpolations */
        uint32_t k = py_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = py_named_child(n, i);
            if (IS(c, string)) { py_val sv = eval(ctx, fr, c); out.flags |= sv.flags & PY_VF_FMT_TENSOR; continue; }
            if (!IS(c, interpolation)) continue;
            TSNode e = py_field(c, PY.f_expression);
            py_val v = eval(ctx, fr, e);
            if (v.kind == PY_V_TENSOR) {
                out.flags |= PY_VF_FMT_TENSOR;
                py_event ev;
                memset(&ev, 0, sizeof ev);
                ev.kind = PY_EV_FORMAT;
                ev.mod = fr->mod;
                ev.node = c;
                ev.val = v;
                ev.recv_node = e;
                emit(ctx, &ev);
            }
        }
        return out;
    }
    if (s == PY.parenthesized_expression) {
        if (py_named_child_count(n) == 1) return eval(ctx, fr, py_named_child(n, 0));
        return vk(PY_V_UNKNOWN);
    }
    if (s == PY.binary_operator) return eval_binary(ctx, fr, n);
    if (s == PY.unary_operator) return eval(ctx, fr, py_field(n, PY.f_argument));
    if (s == PY.comparison_operator) {
        uint32_t k = py_named_child_count(n);
        int tensor = 0, dev = PY_DEV_UNKNOWN;
        py_val vals[8];
        TSNode nodes[8];
        int nv = 0;
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = py_named_child(n, i);
            py_val v = eval(ctx, fr, c);
            if (nv < 8) { vals[nv] = v; nodes[nv] = c; nv++; }
            if (v.kind == PY_V_TENSOR) { tensor = 1; dev = v.dev; }
        }
        if (tensor) {
            /* `x is None` compares identities, no tensor made */
            size_t len;
            const char *t = py_text(fr->mod, n, &len);
            if (memmem(t, len, " is ", 4) || memmem(t, len, " in ", 4)) return vk(PY_V_NUMBER);
            for (int i = 0; i < nv; i++) if (vals[i].kind != PY_V_TENSOR) scalar_math(ctx, fr, nodes[i], &vals[i]);
            py_val out = vtensor(dev);
            out.flags |= PY_VF_BOOL;
            return out;
        }
        return vk(PY_V_NUMBER);
    }
    if (s == PY.boolean_operator) {
        /* as an expression: the left operand is converted to bool */
        py_val l = eval(ctx, fr, py_field(n, PY.f_left));
        cond_event(ctx, fr, py_unparen(py_field(n, PY.f_left)), l);
        py_val r = eval(ctx, fr, py_field(n, PY.f_right));
        return l.kind == r.kind ? r : vk(PY_V_UNKNOWN);
    }
    if (s == PY.not_operator) {
        eval_cond(ctx, fr, py_field(n, PY.f_argument));
        return vk(PY_V_NUMBER);
    }
    if (s == PY.conditional_expression) {
        uint32_t k = py_named_child_count(n);
        if (k == 3) {
            py_val a = eval(ctx, fr, py_named_child(n, 0));
            eval_cond(ctx, fr, py_named_child(n, 1));
            py_val b = eval(ctx, fr, py_named_child(n, 2));
            return a.kind == b.kind ? a : vk(PY_V_UNKNOWN);
        }
        return vk(PY_V_UNKNOWN);
    }
    if (s == PY.subscript) {
        TSNode val = py_field(n, PY.f_value);
        py_val o = eval(ctx, fr, val);
        uint32_t k = py_named_child_count(n);
        py_val idx = vk(PY_V_UNKNOWN);
        TSNode idxn = {0};
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = py_named_child(n, i);
            if (py_eq(c, val) || IS(c, comment)) continue;
            if (IS(c, slice)) {
                uint32_t sk = py_named_child_count(c);
                for (uint32_t j = 0; j < sk; j++) {
                    int old = ctx->size_arg;
                    ctx->size_arg = o.kind == PY_V_TENSOR || o.kind == PY_V_UNKNOWN;
                    TSNode b = py_named_child(c, j);
                    py_val bv = eval(ctx, fr, b);
                    if (ctx->size_arg && (bv.flags & PY_VF_HOSTSCALAR) && IS(py_unparen(b), identifier)) {
                        py_event se;
                        memset(&se, 0, sizeof se);
                        se.kind = PY_EV_SIZE_USE;
                        se.mod = fr->mod;
                        se.node = b;
                        se.val = bv;
                        emit(ctx, &se);
                    }
                    ctx->size_arg = old;
                }
            } else {
                int old = ctx->size_arg;
                ctx->size_arg = 0;
                idx = eval(ctx, fr, c);
                idxn = c;
                ctx->size_arg = old;
            }
        }
        TSNode parent = py_parent(n);
        int is_store = !py_is_null(parent) &&
                       (IS(parent, assignment) || IS(parent, augmented_assignment)) &&
                       py_eq(py_field(parent, PY.f_left), n);
        if (!is_store && !py_is_null(idxn)) {
            py_event ev;
            memset(&ev, 0, sizeof ev);
            ev.kind = PY_EV_SUBSCRIPT;
            ev.mod = fr->mod;
            ev.node = n;
            ev.recv = o;
            ev.recv_node = val;
            ev.val = idx;
            ev.argn[0] = idxn;
            emit(ctx, &ev);
        }
        if (o.kind == PY_V_TENSOR) return vtensor(o.dev);
        if (o.kind == PY_V_NDARRAY) return vk(PY_V_NDARRAY);
        if (o.kind == PY_V_MODLIST && o.nelems == 1) { py_val v = vk(PY_V_INSTANCE); v.cls = o.elems[0]; return v; }
        if (o.kind == PY_V_MODLIST) return o;
        return vk(PY_V_UNKNOWN);
    }
    if (s == PY.list) {
        uint32_t k = py_named_child_count(n);
        py_val out = vk(PY_V_LIST);
        for (uint32_t i = 0; i < k; i++) {
            py_val v = eval(ctx, fr, py_named_child(n, i));
            if (v.kind == PY_V_INSTANCE && out.nelems < 4) out.elems[out.nelems++] = v.cls;
        }
        if (out.nelems) out.kind = PY_V_MODLIST;   /* [Block(), Block()]: for nn.ModuleList */
        return out;
    }
    if (s == PY.tuple || s == PY.expression_list || s == PY.set || s == PY.dictionary) {
        uint32_t k = py_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) eval(ctx, fr, py_named_child(n, i));
        return vk(s == PY.dictionary ? PY_V_DICT : s == PY.set ? PY_V_SET : PY_V_TUPLE);
    }
    if (s == PY.list_comprehension) return eval_comprehension(ctx, fr, n, PY_V_LIST);
    if (s == PY.set_comprehension) return eval_comprehension(ctx, fr, n, PY_V_SET);
    if (s == PY.dictionary_comprehension) return eval_comprehension(ctx, fr, n, PY_V_DICT);
    if (s == PY.generator_expression) return eval_comprehension(ctx, fr, n, PY_V_UNKNOWN);
    if (s == PY.named_expression) {
        py_val v = eval(ctx, fr, py_field(n, PY.f_value));
        bind_target(ctx, fr, py_field(n, PY.f_name), v);
        return v;
    }
    if (s == PY.keyword_argument) return eval(ctx, fr, py_field(n, PY.f_value));
    if (s == PY.list_splat || s == PY.dictionary_splat || s == PY.await_) {
        if (py_named_child_count(n)) eval(ctx, fr, py_named_child(n, 0));
        return vk(PY_V_UNKNOWN);
    }
    if (s == PY.lambda) return vk(PY_V_UNKNOWN);
    /* anything else: evaluate children for their events */
    uint32_t k = py_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) eval(ctx, fr, py_named_child(n, i));
    return vk(PY_V_UNKNOWN);
}

/* ---- statements -------------------------------------------------------------------------- */
static int is_global_name(py_frame *fr, const char *t, size_t len)
{
    if (cg_map_get(&fr->globals_declared, t, len)) return 1;
    return fr->fn && fr->fn->is_module_body;
}

static void store_event(py_ctx *ctx, py_frame *fr, TSNode target, py_val v, int augmented)
{
    py_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = PY_EV_STORE;
    ev.mod = fr->mod;
    ev.node = target;
    ev.val = v;
    ev.augmented = augmented;
    if (IS(target, identifier)) {
        size_t len;
        const char *t = py_text(fr->mod, target, &len);
        ev.target_kind = 0;
        ev.target_is_global = is_global_name(fr, t, len);
    } else if (IS(target, attribute) || IS(target, subscript)) {
        TSNode base = IS(target, attribute) ? py_field(target, PY.f_object) : py_field(target, PY.f_value);
        ev.target_kind = IS(target, attribute) ? 1 : 2;
        int q = ctx->quiet;
        ctx->quiet = 1;
        ev.target_base = eval(ctx, fr, base);
        ctx->quiet = q;
        ev.target_base_node = base;
        TSNode root = base;
        /* self.cache[k] = v: the container hangs off self */
        while (IS(root, attribute) || IS(root, subscript))
            root = IS(root, attribute) ? py_field(root, PY.f_object) : py_field(root, PY.f_value);
        if (!py_eq(root, base) && IS(root, identifier)) {
            size_t len;
            const char *t = py_text(fr->mod, root, &len);
            int is_self = fr->self_name && len == fr->self_len && memcmp(t, fr->self_name, len) == 0;
            py_val *local = cg_map_get(&fr->env, t, len);
            if (is_self) ev.target_is_global = 2;
            else if (!local || is_global_name(fr, t, len)) ev.target_is_global = 1;
        } else if (IS(base, identifier)) {
            size_t len;
            const char *t = py_text(fr->mod, base, &len);
            py_val *local = cg_map_get(&fr->env, t, len);
            int is_self = fr->self_name && len == fr->self_len && memcmp(t, fr->self_name, len) == 0;
            ev.target_is_global = is_self ? 2 : (!local || is_global_name(fr, t, len)) ? 1 : 0;
            if (local && local->kind == PY_V_INSTANCE && !is_self) ev.target_is_global = 0;
        }
        if (IS(target, subscript)) {
            /* evaluate the index for its events (a mask store is fine) */
            uint32_t k = py_named_child_count(target);
            for (uint32_t i = 0; i < k; i++) {
                TSNode c = py_named_child(target, i);
                if (!py_eq(c, base)) eval(ctx, fr, c);
            }
        }
    }
    emit(ctx, &ev);
}

static void bind_target(py_ctx *ctx, py_frame *fr, TSNode t, py_val v)
{
    if (py_is_null(t)) return;
    t = py_unparen(t);
    if (IS(t, identifier)) {
        size_t len;
        const char *s = py_text(fr->mod, t, &len);
        bind(ctx, fr, s, len, v);
    } else if (IS(t, pattern_list) || IS(t, tuple_pattern) || IS(t, expression_list) || IS(t, tuple) ||
               IS(t, list)) {
        uint32_t k = py_named_child_count(t);
        py_val e = v.kind == PY_V_TENSOR || v.kind == PY_V_TUPLE ? (v.kind == PY_V_TENSOR ? vtensor(v.dev) : vk(PY_V_UNKNOWN)) : vk(PY_V_UNKNOWN);
        for (uint32_t i = 0; i < k; i++) bind_target(ctx, fr, py_named_child(t, i), e);
    } else if (IS(t, list_splat_pattern) || IS(t, list_splat)) {
        if (py_named_child_count(t)) bind_target(ctx, fr, py_named_child(t, 0), vk(PY_V_LIST));
    }
}

static void store_target(py_ctx *ctx, py_frame *fr, TSNode t, py_val v, int aug, int many)
{
    if (IS(t, attribute) || IS(t, subscript) || (IS(t, identifier) && aug)) store_event(ctx, fr, t, v, aug);
    else if (IS(t, identifier) && (ctx->active || ctx->phase == PY_PH_AFTER)) store_event(ctx, fr, t, v, 0);
    if (!aug) bind_target(ctx, fr, t, many ? (v.kind == PY_V_TENSOR ? vtensor(v.dev) : vk(PY_V_UNKNOWN)) : v);
}

/* `left = right`, `left += right`, `a = b = ... = right` (tree-sitter nests a
 * chain on the right: it is walked in a loop, a 10k-long chain being legal
 * Python) and `x: T` with no right-hand side. */
static void exec_assignment(py_ctx *ctx, py_frame *fr, TSNode e)
{
    int aug = IS(e, augmented_assignment);
    TSNode right = py_field(e, PY.f_right);
    while (!aug && IS(right, assignment)) right = py_field(right, PY.f_right);
    py_val v = py_is_null(right) ? vk(PY_V_UNKNOWN) : eval(ctx, fr, right);
    /* a model built here, before any capture: it needs warm-up here too (CG701) */
    if (!ctx->active && !ctx->quiet && !fr->warm &&
        (v.kind == PY_V_INSTANCE || v.kind == PY_V_MODLIST ||
         (v.kind == PY_V_EXTOBJ && cg_starts(v.qual, "torch.nn.") && !(v.flags & PY_VF_OPTIMIZER))) &&
        IS(py_unparen(right), call))
        fr->built_module = 1;
    for (TSNode a = e;;) {
        TSNode left = py_field(a, PY.f_left);
        if (aug) {
            /* x += y reads x too */
            py_val old = eval(ctx, fr, left);
            if (old.kind == PY_V_TENSOR) { scalar_math(ctx, fr, right, &v); v = old; }
        }
        if (IS(left, pattern_list) || IS(left, tuple_pattern)) {
            uint32_t k = py_named_child_count(left);
            for (uint32_t i = 0; i < k; i++) store_target(ctx, fr, py_named_child(left, i), v, aug, k > 1);
        } else if (!py_is_null(left)) {
            store_target(ctx, fr, left, v, aug, 0);
        }
        TSNode next = py_field(a, PY.f_right);
        if (aug || !IS(next, assignment)) break;
        a = next;
    }
}

static void exec_stmt(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated);

static void exec_with(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated)
{
    TSNode clause = {0};
    uint32_t k = py_named_child_count(st);
    for (uint32_t i = 0; i < k; i++)
        if (IS(py_named_child(st, i), with_clause)) clause = py_named_child(st, i);
    int began = 0, stream_ctx = 0, autocast_ctx = 0;
    const char *saved_stream = ctx->cur_stream;
    if (!py_is_null(clause)) {
        uint32_t ni = py_named_child_count(clause);
        for (uint32_t i = 0; i < ni; i++) {
            TSNode item = py_named_child(clause, i);
            if (!IS(item, with_item)) continue;
            TSNode val = py_field(item, PY.f_value);
            TSNode alias = {0};
            /* `with X as y`: the as_pattern holds X and the target */
            if (!py_is_null(val) && strcmp(py_type(val), "as_pattern") == 0) {
                alias = py_named_child_count(val) > 1 ? py_named_child(val, 1) : alias;
                val = py_named_child(val, 0);
            }
            py_val v = eval(ctx, fr, val);
            if (!py_is_null(alias) && strcmp(py_type(alias), "as_pattern_target") == 0 &&
                py_named_child_count(alias))
                bind_target(ctx, fr, py_named_child(alias, 0), v);
            if (v.kind == PY_V_EXTOBJ && cg_eq(v.qual, "torch.cuda.graph") && !ctx->active && !ctx->quiet) {
                start_region(ctx, fr, st, "torch.cuda.graph", v.stream);
                if (v.flags & PY_VF_THREAD_LOCAL) ctx->region->thread_local = 1;
                region_begin_context(ctx, fr);
                began = 1;
                py_event rb;
                memset(&rb, 0, sizeof rb);
                rb.kind = PY_EV_REGION_BEGIN;
                rb.mod = fr->mod;
                rb.node = item;
                rb.val = v;
                rb.augmented = 1;   /* torch.cuda.graph picks its own side stream */
                emit(ctx, &rb);
            } else if (v.kind == PY_V_EXTOBJ && (v.flags & PY_VF_AUTOCAST)) {
                if (!ctx->autocast) {
                    ctx->autocast_loc = py_loc(fr->mod, item);
                    ctx->autocast_mod = fr->mod;
                    ctx->autocast_node = IS(item, with_item) ? py_field(item, PY.f_value) : item;
                    size_t ll;
                    const char *lt = cg_source_line(&fr->mod->src, ctx->autocast_loc.line, &ll);
                    ctx->autocast_line = cg_arena_strndup(ctx->arena, lt, ll);
                }
                ctx->autocast++;
                autocast_ctx++;
                py_event we;
                memset(&we, 0, sizeof we);
                we.kind = PY_EV_WITH;
                we.mod = fr->mod;
                we.node = item;
                we.val = v;
                emit(ctx, &we);
            } else if (v.kind == PY_V_EXTOBJ && cg_eq(v.qual, "torch.cuda.stream")) {
                fr->warm = 1;  /* a side stream before the capture: the usual warm-up */
                stream_ctx = 1;
                fr->stream_ctx++;
                if (v.stream) {
                    py_event se;
                    memset(&se, 0, sizeof se);
                    se.kind = PY_EV_STREAM_CTX;
                    se.mod = fr->mod;
                    se.node = item;
                    se.val = v;
                    emit(ctx, &se);
                    ctx->cur_stream = v.stream_default ? "<default>" : v.stream;
                }
            }
        }
    }
    TSNode body = py_field(st, PY.f_body);
    if (!py_is_null(body)) *terminated = exec_block(ctx, fr, body);
    ctx->autocast -= autocast_ctx;
    if (began && ctx->active) end_region(ctx);
    if (stream_ctx) { fr->stream_ctx--; ctx->cur_stream = saved_stream; }
    if (began) ctx->cur_stream = saved_stream;
}

static int block_terminates(TSNode block)
{
    uint32_t k = py_named_child_count(block);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(block, i);
        if (IS(c, return_statement) || IS(c, raise_statement)) return 1;
        if (strcmp(py_type(c), "continue_statement") == 0 || strcmp(py_type(c), "break_statement") == 0)
            return 1;
    }
    return 0;
}

static void exec_if_inner(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated);

static void exec_if(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated)
{
    ctx->conds_in_loop++;
    exec_if_inner(ctx, fr, st, terminated);
    ctx->conds_in_loop--;
}

static void exec_if_inner(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated)
{
    TSNode cond = py_field(st, PY.f_condition), cons = py_field(st, PY.f_consequence);
    int g = ctx->active ? guard_polarity(ctx, fr, cond) : 0;
    if (g == 1) {
        /* runs only while capturing */
        if (!py_is_null(cons)) exec_block(ctx, fr, cons);
        if (block_terminates(cons)) *terminated = 1;   /* the rest never runs under capture */
        return;
    }
    if (g == 0) {
        eval_cond(ctx, fr, cond);
        if (!py_is_null(cons)) exec_block(ctx, fr, cons);
    }
    /* g == -1: the consequence never runs under capture; alternatives do */
    uint32_t k = py_named_child_count(st);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(st, i);
        if (IS(c, elif_clause)) {
            if (g == 1) break;
            TSNode ec = py_field(c, PY.f_condition);
            int eg = ctx->active ? guard_polarity(ctx, fr, ec) : 0;
            if (eg == -1) continue;
            if (eg == 0) eval_cond(ctx, fr, ec);
            TSNode b = py_field(c, PY.f_consequence);
            if (!py_is_null(b)) exec_block(ctx, fr, b);
            if (eg == 1) return;
        } else if (IS(c, else_clause)) {
            TSNode b = py_field(c, PY.f_body);
            if (!py_is_null(b)) exec_block(ctx, fr, b);
        }
    }
}

static py_func *func_for_node(py_module *m, TSNode def)
{
    for (size_t i = 0; i < m->nall_funcs; i++)
        if (py_eq(m->all_funcs[i]->node, def)) return m->all_funcs[i];
    return NULL;
}

static void exec_stmt(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated)
{
    TSSymbol s = py_symbol(st);
    if (s == PY.expression_statement) {
        uint32_t k = py_named_child_count(st);
        for (uint32_t i = 0; i < k; i++) {
            TSNode e = py_named_child(st, i);
            if (IS(e, assignment) || IS(e, augmented_assignment)) exec_assignment(ctx, fr, e);
            else eval(ctx, fr, e);
        }
    } else if (s == PY.if_statement) {
        exec_if(ctx, fr, st, terminated);
    } else if (s == PY.with_statement) {
        exec_with(ctx, fr, st, terminated);
    } else if (s == PY.for_statement) {
        py_val it = eval(ctx, fr, py_field(st, PY.f_right));
        py_val el = vk(PY_V_UNKNOWN);
        TSNode left = py_field(st, PY.f_left);
        int enumerated = (it.flags & PY_VF_ENUMERATE) && (IS(left, pattern_list) || IS(left, tuple_pattern)) &&
                         py_named_child_count(left) == 2;
        it.flags &= ~(uint32_t)PY_VF_ENUMERATE;
        if (it.kind == PY_V_MODLIST && it.nelems == 1) { el = vk(PY_V_INSTANCE); el.cls = it.elems[0]; }
        else if (it.kind == PY_V_MODLIST) el = it;   /* several classes: a call reaches each */
        else if (it.kind == PY_V_EXTOBJ && cg_eq(it.qual, "builtins.range")) el = vk(PY_V_NUMBER);
        else if (it.kind == PY_V_TENSOR) el = vtensor(it.dev);
        if (enumerated) {
            bind_target(ctx, fr, py_named_child(left, 0), vk(PY_V_NUMBER));
            bind_target(ctx, fr, py_named_child(left, 1), el);
        } else {
            bind_target(ctx, fr, left, el);
        }
        TSNode body = py_field(st, PY.f_body);
        int saved_conds = ctx->conds_in_loop, saved_pin = fr->pin_loader_loop;
        if (it.kind == PY_V_EXTOBJ && cg_eq(it.qual, "torch.utils.data.DataLoader") && (it.flags & PY_VF_PINNED))
            fr->pin_loader_loop = 1;
        TSNode saved_loop = ctx->loop_node;
        ctx->loop_node = st;
        ctx->loops++;
        ctx->conds_in_loop = 0;
        if (!ctx->active) fr->warm = 1;   /* a loop before the capture: warm-up iterations */
        if (!py_is_null(body)) exec_block(ctx, fr, body);
        ctx->loops--;
        ctx->loop_node = saved_loop;
        ctx->conds_in_loop = saved_conds;
        fr->pin_loader_loop = saved_pin;
        TSNode alt = py_field(st, PY.f_alternative);
        if (!py_is_null(alt)) exec_block(ctx, fr, py_field(alt, PY.f_body));
    } else if (s == PY.while_statement) {
        eval_cond(ctx, fr, py_field(st, PY.f_condition));
        TSNode body = py_field(st, PY.f_body);
        int saved_conds = ctx->conds_in_loop;
        TSNode saved_loop = ctx->loop_node;
        ctx->loop_node = st;
        ctx->loops++;
        ctx->conds_in_loop = 0;
        if (!ctx->active) fr->warm = 1;
        if (!py_is_null(body)) exec_block(ctx, fr, body);
        ctx->loops--;
        ctx->loop_node = saved_loop;
        ctx->conds_in_loop = saved_conds;
    } else if (s == PY.try_statement) {
        uint32_t k = py_named_child_count(st);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = py_named_child(st, i);
            if (IS(c, block)) exec_block(ctx, fr, c);
            else {
                uint32_t kk = py_named_child_count(c);
                for (uint32_t j = 0; j < kk; j++)
                    if (IS(py_named_child(c, j), block)) exec_block(ctx, fr, py_named_child(c, j));
            }
        }
    } else if (s == PY.return_statement) {
        py_val v = py_named_child_count(st) ? eval(ctx, fr, py_named_child(st, 0)) : vk(PY_V_NONE);
        if (!fr->has_ret) fr->ret = v;
        else if (fr->ret.kind != v.kind) fr->ret = vk(PY_V_UNKNOWN);
        fr->has_ret = 1;
        *terminated = 1;
    } else if (s == PY.raise_statement) {
        *terminated = 1;
    } else if (s == PY.assert_statement) {
        if (py_named_child_count(st)) eval_cond(ctx, fr, py_named_child(st, 0));
    } else if (s == PY.global_statement) {
        uint32_t k = py_named_child_count(st);
        for (uint32_t i = 0; i < k; i++) {
            size_t len;
            const char *t = py_text(fr->mod, py_named_child(st, i), &len);
            cg_map_put(&fr->globals_declared, cg_arena_strndup(ctx->arena, t, len), len, (void *)1);
        }
    } else if (s == PY.function_definition || s == PY.decorated_definition) {
        TSNode def = s == PY.decorated_definition ? py_field(st, PY.f_definition) : st;
        if (!py_is_null(def) && IS(def, function_definition)) {
            py_func *f = func_for_node(fr->mod, def);
            if (f) {
                py_val v = vk(PY_V_FUNC);
                v.fn = f;
                size_t len;
                const char *t = py_text(fr->mod, py_field(def, PY.f_name), &len);
                bind(ctx, fr, t, len, v);
            }
        }
    } else if (s == PY.import_statement || s == PY.import_from_statement || s == PY.class_definition ||
               s == PY.pass_statement || s == PY.comment || s == PY.future_import_statement ||
               s == PY.nonlocal_statement) {
        /* nothing to evaluate */
    } else if (s == PY.delete_statement || s == PY.match_statement) {
        /* not modelled */
    } else if (s == PY.block) {
        *terminated = exec_block(ctx, fr, st);
    }
}

/* Returns 1 when the block ends the function (return/raise) for capture purposes. */
static int exec_block(py_ctx *ctx, py_frame *fr, TSNode block)
{
    if (++ctx->depth > 150) { ctx->depth--; return 0; }
    uint32_t k = py_named_child_count(block);
    int terminated = 0;
    for (uint32_t i = 0; i < k && !terminated; i++) {
        TSNode st = py_named_child(block, i);
        /* a simple statement tree-sitter could not parse is not evaluated:
         * its recovered tree is not the code the user wrote */
        if (py_has_error(st) && (IS(st, expression_statement) || IS(st, return_statement) ||
                                      IS(st, assert_statement) || IS(st, raise_statement) ||
                                      strcmp(py_type(st), "ERROR") == 0))
            continue;
        int was_active = ctx->active;
        exec_stmt(ctx, fr, st, &terminated);
        /* a capture that ended inside a statement (capture_end) leaves the rest outside */
        (void)was_active;
    }
    ctx->depth--;
    return terminated && ctx->active ? 1 : terminated;
}

/* ---- driving the analysis ---------------------------------------------------------------- */
/* Does the function's own text mention a capture API?  A cheap filter. */
static int func_mentions_capture(py_func *f)
{
    uint32_t s = py_start_byte(f->node), e = py_end_byte(f->node);
    const char *t = f->mod->src.text + s;
    size_t n = e - s;
    return memmem(t, n, "graph", 5) || memmem(t, n, "capture_begin", 13) ||
           memmem(t, n, "reduce-overhead", 15) || memmem(t, n, "cudagraphs", 10) || memmem(t, n, "CudaGraph", 9);
}

static void scan_function(py_ctx *ctx, py_func *f)
{
    py_frame fr;
    frame_init(&fr, f, f->mod);
    if (f->cls) {
        fr.self = vk(PY_V_INSTANCE);
        fr.self.cls = f->cls;
        const char *sn;
        size_t sl;
        TSNode params = py_field(f->node, PY.f_parameters);
        if (!py_is_null(params) && py_named_child_count(params) > 0 &&
            IS(py_named_child(params, 0), identifier)) {
            sn = py_text(f->mod, py_named_child(params, 0), &sl);
            fr.self_name = sn;
            fr.self_len = sl;
        }
    }
    ctx->active = 0;
    ctx->region = NULL;
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    ctx->cur_stream = NULL;
    cg_callpath_clear(&ctx->path);
    ctx->depth = 0;
    ctx->loops = ctx->conds_in_loop = ctx->autocast = 0;
    if (!py_is_null(f->body)) exec_block(ctx, &fr, f->body);
    if (ctx->active) end_region(ctx);   /* capture_begin with no capture_end in this function */
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    frame_free(&fr);
}

/* Captures that no statement spells out: a def decorated with
 * @torch.compile(mode="reduce-overhead"), and a module whose __init__ attaches
 * Megatron-LM's CudaGraphManager (its forward is captured by the manager). */
static void analyze_implicit_region(py_ctx *ctx, py_func *f, TSNode site, const char *kind)
{
    py_frame fr;
    frame_init(&fr, f->mod->body, f->mod);
    ctx->active = 0;
    ctx->region = NULL;
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    cg_callpath_clear(&ctx->path);
    ctx->depth = 0;
    start_region(ctx, &fr, site, kind, NULL);
    py_val self = vk(PY_V_INSTANCE);
    self.cls = f->cls;
    py_val targs[4] = { vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA), vtensor(PY_DEV_CUDA) };
    call_function(ctx, &fr, site, f, f->cls ? &self : NULL, targs, 4, 1);
    end_region(ctx);
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    frame_free(&fr);
}

static void scan_implicit_regions(py_ctx *ctx, py_module *m)
{
    for (size_t k = 0; k < m->nall_funcs; k++) {
        py_func *f = m->all_funcs[k];
        TSNode parent = py_parent(f->node);
        if (py_is_null(parent) || !IS(parent, decorated_definition)) continue;
        uint32_t n = py_named_child_count(parent);
        for (uint32_t i = 0; i < n; i++) {
            TSNode d = py_named_child(parent, i);
            if (!IS(d, decorator)) continue;
            size_t len;
            const char *t = py_text(m, d, &len);
            if (memmem(t, len, "compile", 7) &&
                (memmem(t, len, "reduce-overhead", 15) || memmem(t, len, "triton.cudagraphs", 17)))
                analyze_implicit_region(ctx, f, d, "reduce-overhead");
        }
    }
    for (size_t i = 0; i < m->classes.cap; i++) {
        if (!m->classes.keys[i]) continue;
        py_class *c = m->classes.vals[i];
        for (size_t a = 0; a < c->attrs.cap; a++) {
            if (!c->attrs.keys[a]) continue;
            py_attr *at = c->attrs.vals[a];
            if (py_is_null(at->value) || !IS(at->value, call)) continue;
            size_t len;
            const char *t = py_text(m, py_field(at->value, PY.f_function), &len);
            if (len >= 16 && memcmp(t + len - 16, "CudaGraphManager", 16) == 0) {
                py_func *fwd = NULL;
                if (py_class_lookup_method_owner(ctx->p, c, "forward", &fwd) && fwd->mod == m)
                    analyze_implicit_region(ctx, fwd, at->value, "CudaGraphManager");
            }
        }
    }
}

void py_analyze_project(py_project *p)
{
    py_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.p = p;
    ctx.arena = cg_arena_new();
    ctx.path.limit = 24;
    cg_map_init(&ctx.memo);
    cg_map_init(&ctx.globals);
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        if (!m->has_marker || m->state != 1) continue;
        scan_function(&ctx, m->body);
        for (size_t k = 0; k < m->nall_funcs; k++)
            if (func_mentions_capture(m->all_funcs[k])) scan_function(&ctx, m->all_funcs[k]);
        scan_implicit_regions(&ctx, m);
    }
    for (int i = 0; i < ctx.nregions; i++) {
        cg_map_free(&ctx.regions[i]->inputs);
        cg_map_free(&ctx.regions[i]->outputs);
        cg_streams_free(&ctx.regions[i]->streams);
    }
    free(ctx.regions);
    cg_map_free(&ctx.memo);
    cg_map_free(&ctx.globals);
    cg_arena_free(ctx.arena);
}
