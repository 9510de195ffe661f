/* py_region.c - capture regions: where one begins and ends, and the facts
 * the rules read about each (py_region in py_check.h).
 *
 * How regions are modelled
 *   Every function (and module body) of a file that mentions a capture API is
 *   walked once "outside" capture: statements are evaluated for the types they
 *   give names, nothing is reported and calls are not followed.  An opener
 *   switches the walk to capture context ("active"): from then on constructs
 *   raise events that the rules turn into findings, and calls into the
 *   project's own functions are followed.  The openers:
 *     `with torch.cuda.graph(...)`          until the end of the `with` body
 *     `g.capture_begin()`                   until `g.capture_end()` or the function's end
 *     `torch.cuda.make_graphed_callables(f, ...)`, TE's too: each callable, called
 *     `torch.compile(f, mode="reduce-overhead")`: f, called (its hazards become CG901/CG902)
 *     Megatron-LM's `FullCudaGraphWrapper(f)`: f, called
 *     `@torch.compile(mode="reduce-overhead")` defs and modules that attach a
 *     CudaGraphManager: no statement; found by py_region_scan_implicit
 *   When a region ends the rest of the capturing function is walked as its
 *   aftermath (PY_PH_AFTER: the replay loop).
 *
 * Facts
 *   Before the capture: what the function did (warm-up, eager backward, an
 *   autocast or a pinned DataLoader loop around it), copied into the region
 *   when it begins.  During it: inputs read, backward and optimizer steps,
 *   stream forks and joins (the core ledger, core/streams.h).  The rules read
 *   them at PY_EV_REGION_BEGIN, PY_EV_REGION_END or in the aftermath.
 *
 * Guards
 *   Code under `if not torch.cuda.is_current_stream_capturing():` is not
 *   walked in capture context; code under the positive guard is.
 *   torch.compiler.is_compiling() is true under reduce-overhead only. */
#include "py_eval.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- beginning and ending --------------------------------------------------------- */
static void start_region(py_ctx *ctx, py_frame *fr, TSNode site, const char *kind, const char *stream)
{
    py_region *r = cg_arena_alloc(ctx->arena, sizeof *r);
    r->site = py_loc(fr->mod, site);
    r->site_node = site;
    r->mod = fr->mod;
    r->fn = fr->fn;
    cg_map_init(&r->inputs);
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

/* CG703: a `for _ in range(N)` loop with a literal N in n before byte
 * `before` (the capture), N < 11 when `small`, N >= 11 otherwise (a full
 * warm-up already ran: BERT warms up 11 iterations for its first capture, then
 * 3 more under no_sync() before a second one).  *iters: the N of the last such
 * loop looked at. */
static int warmup_loop(py_module *m, TSNode n, uint32_t before, int small, int *iters, int depth)
{
    if (depth > 60 || py_start_byte(n) >= before) return 0;
    if (IS(n, for_statement)) {
        TSNode right = py_field(n, PY.f_right);
        if (IS(right, call) && py_text_eq(m, py_field(right, PY.f_function), "range")) {
            TSNode args = py_field(right, PY.f_arguments);
            if (py_named_child_count(args) == 1 && IS(py_named_child(args, 0), integer)) {
                size_t len;
                const char *t = py_text(m, py_named_child(args, 0), &len);
                char num[32];
                snprintf(num, sizeof num, "%.*s", (int)(len < sizeof num ? len : sizeof num - 1), t);
                *iters = atoi(num);
                if ((*iters < 11) == small) return 1;
            }
        }
    }
    uint32_t k = py_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (warmup_loop(m, py_named_child(n, i), before, small, iters, depth + 1)) return 1;
    return 0;
}

static int ident_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* Does t (len bytes) hold `name` followed by `after` (e.g. ".replay("), with
 * no identifier character (nor a dot: `self.g` is not `g`) right before it? */
static int has_use(const char *t, size_t len, const char *name, size_t nl, const char *after)
{
    size_t al = strlen(after);
    for (const char *p = t, *end = t + len; (p = memmem(p, (size_t)(end - p), name, nl)) != NULL; p++) {
        if (p > t && (ident_char(p[-1]) || p[-1] == '.')) continue;
        const char *q = p + nl;
        if (cg_eq(after, "=")) {   /* an assignment `g = ...`, not `g == ...` */
            while (q < end && *q == ' ') q++;
            if (q < end && *q == '=' && !(q + 1 < end && q[1] == '=')) return 1;
        } else if ((size_t)(end - q) >= al && memcmp(q, after, al) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The byte just past the last `name.replay(` in t, or 0 when there is none. */
static size_t last_replay(const char *t, size_t len, const char *name, size_t nl)
{
    size_t last = 0;
    for (const char *p = t, *end = t + len; (p = memmem(p, (size_t)(end - p), name, nl)) != NULL; p++) {
        if (p > t && (ident_char(p[-1]) || p[-1] == '.')) continue;
        if ((size_t)(end - p) >= nl + 8 && memcmp(p + nl, ".replay(", 8) == 0) last = (size_t)(p - t) + nl + 8;
    }
    return last;
}

/* One graph per configuration (CG304, CG504): the capture sits in loop `loop`
 * with no condition around it, and `graph` is made afresh in that loop body
 * (`g = torch.cuda.CUDAGraph()`) and replayed there.  The graph of one
 * iteration sees that iteration's loop variables only.  Returns the byte
 * (in the module) just past the graph's last replay in the loop, or 0. */
static uint32_t fresh_graph_replay_end(py_ctx *ctx, py_frame *fr, TSNode loop, TSNode graph)
{
    if (ctx->conds_in_loop != 0 || py_is_null(loop)) return 0;
    graph = py_unparen(graph);
    if (!IS(graph, identifier) && !IS(graph, attribute)) return 0;
    size_t len, nl;
    const char *t = py_text(fr->mod, loop, &len);
    const char *name = py_text(fr->mod, graph, &nl);
    if (!has_use(t, len, name, nl, "=")) return 0;
    size_t end = last_replay(t, len, name, nl);
    return end ? py_start_byte(loop) + (uint32_t)end : 0;
}

/* Re-capturing every iteration (CG705): the capture sits in a loop body with
 * no condition around it, and the same graph object `graph` is captured and
 * replayed in that loop.  A graph built afresh in the loop body (or inline)
 * is a new graph per iteration, for a new configuration: not this. */
static int recaptured_in_loop(py_ctx *ctx, py_frame *fr, TSNode graph)
{
    if (ctx->loops == 0 || ctx->conds_in_loop != 0 || py_is_null(ctx->loop_node)) return 0;
    graph = py_unparen(graph);
    if (!IS(graph, identifier) && !IS(graph, attribute)) return 0;
    size_t len, nl;
    const char *t = py_text(fr->mod, ctx->loop_node, &len);
    const char *name = py_text(fr->mod, graph, &nl);
    if (!has_use(t, len, name, nl, ".replay(") || has_use(t, len, name, nl, "=")) return 0;
    /* `for g in graphs:` captures another graph each iteration */
    if (IS(ctx->loop_node, for_statement)) {
        size_t ll;
        const char *lt = py_text(fr->mod, py_field(ctx->loop_node, PY.f_left), &ll);
        if (ll == nl && memcmp(lt, name, nl) == 0) return 0;
    }
    return 1;
}

/* What the function did before the capture (CG601, CG701, CG702, CG703,
 * CG705, CG708): into the region, before its PY_EV_REGION_BEGIN.  `graph`:
 * the graph object captured, when the capture names one. */
static void region_begin_context(py_ctx *ctx, py_frame *fr, TSNode graph)
{
    py_region *r = ctx->region;
    r->warm = fr->warm || !fr->built_module;
    r->in_loop = recaptured_in_loop(ctx, fr, graph);
    r->pin_loader_loop = fr->pin_loader_loop;
    memcpy(r->gens, fr->gens, sizeof r->gens);
    r->ngens = fr->ngens;
    r->gens_unknown = fr->gens_unknown;
    /* nothing ran here, and the model comes from callers that ran nothing either */
    if (r->warm && !fr->warm && fr->fn && fr->fn == ctx->scan_fn && py_callers_all_cold(ctx, fr->fn)) {
        r->warm = 0;
        r->cold_from_callers = 1;
    }
    memcpy(r->warmed, fr->warmed, sizeof r->warmed);
    r->nwarmed = fr->nwarmed;
    r->warmed_other = fr->warmed_other;
    r->warm_ran = fr->warm;
    r->capture_loop = ctx->loops > 0 ? ctx->loop_node : (TSNode){ 0 };
    if (!py_is_null(r->capture_loop)) {
        size_t ll;
        const char *lt = py_text(fr->mod, r->capture_loop, &ll);
        r->loop_replays = memmem(lt, ll, ".replay(", 8) != NULL;
        r->fresh_replay_end = r->loop_replays ? fresh_graph_replay_end(ctx, fr, r->capture_loop, graph) : 0;
        if (r->fresh_replay_end) r->loop_replays = 0;
    }
    r->cuda_thread = fr->cuda_thread;
    r->cuda_thread_mod = fr->cuda_thread_mod;
    r->cuda_thread_node = fr->cuda_thread_node;
    r->eager_backward = fr->eager_backward;
    r->eager_loc = fr->eager_loc;
    r->eager_line = fr->eager_line;
    r->autocast = ctx->autocast;
    r->autocast_loc = ctx->autocast_loc;
    r->autocast_line = ctx->autocast_line;
    r->autocast_mod = ctx->autocast_mod;
    r->autocast_node = ctx->autocast_node;
    /* only a module that builds DDP asks how many warm-up iterations there were */
    if (r->mod->text_facts & PY_MT_BUILDS_DDP) r->nccl_async_set = py_module_or_imports_say(ctx->p, r->mod, PY_MT_NCCL_ASYNC);
    if ((r->mod->text_facts & PY_MT_BUILDS_DDP) && r->fn && !r->fn->is_module_body) {
        int full_iters;
        r->small_warmup = warmup_loop(r->mod, r->fn->body, py_start_byte(r->site_node), 1, &r->warmup_iters, 0) &&
                          !warmup_loop(r->mod, r->fn->body, py_start_byte(r->site_node), 0, &full_iters, 0);
    }
}

/* The capture begins: PY_EV_REGION_BEGIN for the rules, at node n with value v. */
static void region_begin_event(py_ctx *ctx, py_frame *fr, TSNode n, py_val v)
{
    py_event rb;
    py_event_init(&rb, PY_EV_REGION_BEGIN, fr->mod, n);
    rb.val = v;
    py_emit(ctx, &rb);
}

void py_region_end(py_ctx *ctx)
{
    if (!ctx->region) return;
    py_event ev;
    py_event_init(&ev, PY_EV_REGION_END, NULL, (TSNode){0});
    py_emit(ctx, &ev);
    ctx->active = 0;
    /* the rest of the capturing function is its aftermath: the replay loop */
    ctx->after = ctx->region;
    ctx->phase = PY_PH_AFTER;
    ctx->region = NULL;
    ctx->cur_stream = NULL;
}

/* A region around a callable, captured whole: begin, call it, end. */
static void capture_callable(py_ctx *ctx, py_frame *fr, TSNode call, const char *kind, const py_val *target)
{
    start_region(ctx, fr, call, kind, NULL);
    py_call_captured(ctx, fr, call, target);
    py_region_end(ctx);
    ctx->phase = PY_PH_OUTSIDE;
}

/* ---- openers: calls ------------------------------------------------------------------- */
/* Does capture_begin() here begin on a side stream (CG404)?  Under a stream
 * context, yes.  A function that handles streams any other way
 * (`ctx.__enter__()`, set_stream, a stream parameter) may well capture on
 * one: prefer silence. */
static int begins_on_side_stream(py_frame *fr)
{
    if (fr->stream_ctx) return 1;
    if (!fr->fn || fr->fn->is_module_body) return 0;
    uint32_t b = py_start_byte(fr->fn->node), e = py_end_byte(fr->fn->node);
    const char *t = fr->mod->src.text + b;
    TSNode params = py_field(fr->fn->node, PY.f_parameters);
    size_t pl = 0;
    const char *pt = py_is_null(params) ? "" : py_text(fr->mod, params, &pl);
    return memmem(t, e - b, "__enter__", 9) || memmem(t, e - b, "set_stream", 10) || memmem(pt, pl, "stream", 6);
}

/* g.capture_begin(): a region until capture_end() */
static int open_capture_begin(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out)
{
    if (!ev->method || !cg_eq(ev->method, "capture_begin") ||
        !(ev->recv.kind == PY_V_UNKNOWN || (ev->recv.flags & PY_VF_GRAPH)))
        return 0;
    *out = py_vk(PY_V_NONE);
    if (ctx->active || ctx->quiet) return 1;
    /* a method that wraps the API (`def capture_begin(self, ...)` in a
     * CUDAGraph subclass calling super().capture_begin()) begins no capture
     * of its own: its caller picks the stream (CG404) */
    if (fr->fn && fr->fn->cls && (cg_eq(fr->fn->name, "capture_begin") || cg_eq(fr->fn->name, "capture_end")))
        return 1;
    py_emit(ctx, ev);
    start_region(ctx, fr, call, "capture_begin", NULL);
    if (py_api_thread_local_mode(fr->mod, ev)) ctx->region->thread_local = 1;
    region_begin_context(ctx, fr, ev->recv_node);
    ctx->region->side_stream = begins_on_side_stream(fr);
    py_val v = py_vk(PY_V_UNKNOWN);
    v.stream = ctx->region->streams.capture;
    region_begin_event(ctx, fr, call, v);
    return 1;
}

/* g.capture_end() */
static int close_capture_end(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out)
{
    (void)fr, (void)call;
    if (!ev->method || !cg_eq(ev->method, "capture_end") ||
        !(ev->recv.kind == PY_V_UNKNOWN || (ev->recv.flags & PY_VF_GRAPH)))
        return 0;
    if (ctx->active && !ctx->quiet && ctx->region && cg_eq(ctx->region->kind, "capture_begin")) py_region_end(ctx);
    *out = py_vk(PY_V_NONE);
    return 1;
}

/* Do the keywords of a torch.compile call (or of a functools.partial of it)
 * ask for CUDA graphs: mode="reduce-overhead", options={"triton.cudagraphs":
 * True}, backend="cudagraphs"? */
int py_compile_kw_cudagraphs(const py_event *ev)
{
    int mk = py_ev_kw(ev, "mode"), ok = py_ev_kw(ev, "options"), bk = py_ev_kw(ev, "backend");
    size_t ml = 0, ol = 0, bl = 0;
    const char *mt = mk >= 0 ? py_text(ev->mod, ev->kwn[mk], &ml) : "";
    const char *ot = ok >= 0 ? py_text(ev->mod, ev->kwn[ok], &ol) : "";
    const char *bt = bk >= 0 ? py_text(ev->mod, ev->kwn[bk], &bl) : "";
    return memmem(mt, ml, "reduce-overhead", 15) || (memmem(ot, ol, "triton.cudagraphs", 17) && memmem(ot, ol, "True", 4)) ||
           memmem(bt, bl, "\"cudagraphs\"", 12) || memmem(bt, bl, "'cudagraphs'", 12);
}

/* torch.compile: mode="reduce-overhead", options={"triton.cudagraphs": True}
 * or backend="cudagraphs" captures the compiled function with CUDA graphs;
 * so does a functools.partial of torch.compile with those keywords, called */
static int open_compile(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out)
{
    if (!ev->qual || !(cg_eq(ev->qual, "torch.compile") || cg_eq(ev->qual, "torch._dynamo.optimize"))) return 0;
    py_val target = ev->nargs > 0 ? ev->args[0] : py_vk(PY_V_UNKNOWN);
    int cudagraphs = py_compile_kw_cudagraphs(ev) || (ev->callee.flags & PY_VF_CUDAGRAPHS);
    if (cudagraphs && !ctx->active && !ctx->quiet && (target.kind == PY_V_FUNC || target.kind == PY_V_INSTANCE))
        capture_callable(ctx, fr, call, "reduce-overhead", &target);
    target.flags |= PY_VF_COMPILED;
    if (cudagraphs) target.flags |= PY_VF_CUDAGRAPHS;
    *out = target;
    return 1;
}

/* A call of a function compiled to run as CUDA graphs, with CPU tensors for
 * arguments: inductor skips CUDA graphs for it (CG902, at the argument).  A
 * region of its own, at the call, for that one event; the call then goes on
 * as any other (returns 0). */
static int open_compiled_call(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out)
{
    (void)out;
    if (!(ev->callee.flags & PY_VF_CUDAGRAPHS) || !(ev->callee.flags & PY_VF_COMPILED) || ctx->active || ctx->quiet)
        return 0;
    int cpu = 0;
    for (int i = 0; i < ev->nargs; i++)
        if (ev->args[i].kind == PY_V_TENSOR && ev->args[i].dev == PY_DEV_CPU) cpu = 1;
    for (int i = 0; i < ev->nkw; i++)
        if (ev->kw[i].kind == PY_V_TENSOR && ev->kw[i].dev == PY_DEV_CPU) cpu = 1;
    if (!cpu) return 0;
    py_region *saved_after = ctx->after;
    int saved_phase = ctx->phase;
    start_region(ctx, fr, call, "reduce-overhead", NULL);
    py_emit(ctx, ev);
    py_region_end(ctx);
    ctx->after = saved_after;
    ctx->phase = saved_phase;
    return 0;
}

/* Megatron-LM's FullCudaGraphWrapper(fn, ...) captures fn */
static int open_full_cuda_graph_wrapper(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out)
{
    if (!ev->qual || !cg_ends_with(ev->qual, ".FullCudaGraphWrapper") || ctx->active || ctx->quiet ||
        ev->nargs == 0 || (ev->args[0].kind != PY_V_FUNC && ev->args[0].kind != PY_V_INSTANCE))
        return 0;
    capture_callable(ctx, fr, call, "FullCudaGraphWrapper", &ev->args[0]);
    *out = py_vk(PY_V_UNKNOWN);
    return 1;
}

/* ---- CG704: hooks on a module before make_graphed_callables --------------------------- */
static const char *const hook_methods[] = { "register_forward_hook", "register_forward_pre_hook",
    "register_full_backward_hook", "register_backward_hook", NULL };

/* Does text t[0..n) call `<name>.register_*hook(`? */
static int text_hooks(const char *t, size_t n, const char *name, size_t nl)
{
    for (int i = 0; hook_methods[i]; i++) {
        char needle[256];
        int k = snprintf(needle, sizeof needle, "%.*s.%s(", (int)(nl < 200 ? nl : 200), name, hook_methods[i]);
        if (k > 0 && memmem(t, n, needle, (size_t)k)) return 1;
    }
    return 0;
}

/* The name of parameter `idx` of f (self counted), or `kw` when f has a
 * parameter of that name; NULL when none. */
static const char *param_at(py_func *f, int idx, const char *kw, size_t *len)
{
    TSNode params = py_field(f->node, PY.f_parameters);
    uint32_t n = py_named_child_count(params);
    int pos = 0;
    for (uint32_t i = 0; i < n; i++) {
        TSNode pn = py_named_child(params, i), name = pn;
        if (IS(pn, typed_parameter)) name = py_named_child(pn, 0);
        else if (IS(pn, default_parameter) || IS(pn, typed_default_parameter)) name = py_field(pn, PY.f_name);
        if (!IS(name, identifier)) {
            if (IS(pn, list_splat_pattern) || strcmp(py_type(pn), "keyword_separator") == 0) pos = -1000;
            continue;
        }
        const char *t = py_text(f->mod, name, len);
        if (kw ? (strlen(kw) == *len && memcmp(kw, t, *len) == 0) : pos == idx) return t;
        pos++;
    }
    return NULL;
}

/* The project function a call's callee names, resolved by its spelling in
 * module m (in a method of cls, `self.meth`): a function, a class's __init__,
 * or a method of self; *skip: 1 when the callee's first parameter is bound
 * (a method, __init__). */
static py_func *callee_by_name(py_ctx *ctx, py_module *m, py_class *cls, const char *self_name, TSNode fn, int *skip)
{
    *skip = 0;
    size_t l;
    const char *t = py_text(m, fn, &l);
    py_func *f = NULL;
    if (IS(fn, identifier)) {
        py_val v = py_val_of_sym(ctx, py_resolve_name(ctx->p, m, t, l), t, l);
        if (v.kind == PY_V_FUNC) return v.fn;
        if (v.kind == PY_V_CLASS && v.cls && py_class_lookup_method_owner(ctx->p, v.cls, "__init__", &f)) *skip = 1;
        return f;
    }
    TSNode obj = py_field(fn, PY.f_object);
    if (IS(fn, attribute) && cls && self_name && IS(obj, identifier) && py_text_eq(m, obj, self_name)) {
        const char *mn = py_text(m, py_field(fn, PY.f_attribute), &l);
        char name[128];
        if (l == 0 || l >= sizeof name) return NULL;
        memcpy(name, mn, l);
        name[l] = 0;
        if (py_class_lookup_method_owner(ctx->p, cls, name, &f)) *skip = 1;
    }
    return f;
}

static int hooks_param(py_ctx *ctx, py_func *f, const char *pname, size_t pl, int depth, const char **via);

/* Does call n in f pass `name` (nl bytes), by position or keyword, to a
 * function that registers hooks on that parameter? */
static int passes_to_hooker(py_ctx *ctx, py_func *f, const char *self_name, TSNode n, const char *name, size_t nl,
                            int depth, const char **via)
{
    TSNode fn = py_field(n, PY.f_function), args = py_field(n, PY.f_arguments);
    uint32_t na = py_named_child_count(args);
    for (uint32_t i = 0, pos = 0; i < na; i++) {
        TSNode a = py_named_child(args, i), v = a;
        const char *kw = NULL;
        char kbuf[64];
        if (IS(a, keyword_argument)) {
            size_t kl;
            const char *kt = py_text(f->mod, py_field(a, PY.f_name), &kl);
            if (kl >= sizeof kbuf) continue;
            memcpy(kbuf, kt, kl);
            kbuf[kl] = 0;
            kw = kbuf;
            v = py_field(a, PY.f_value);
        } else if (IS(a, list_splat) || IS(a, dictionary_splat)) {
            return 0;
        }
        size_t vl;
        const char *vt = py_text(f->mod, v, &vl);
        int idx = kw ? -1 : (int)pos++;
        if (vl != nl || memcmp(vt, name, nl) != 0) continue;
        int skip;
        py_func *g = callee_by_name(ctx, f->mod, f->cls, self_name, fn, &skip);
        size_t gl;
        const char *gp = g ? param_at(g, idx + skip, kw, &gl) : NULL;
        if (g && gp && hooks_param(ctx, g, gp, gl, depth + 1, via)) return 1;
    }
    return 0;
}

/* The calls in f's body before byte `end` (not inside nested defs) that pass
 * `name` (nl bytes), or call a method on it when it is f's self: does one
 * reach a function that registers hooks on what it was passed? */
static int calls_hook(py_ctx *ctx, py_func *f, const char *name, size_t nl, uint32_t end, int depth,
                      const char **via)
{
    const char *self_name = NULL;
    size_t sl = 0;
    if (f->cls) self_name = param_at(f, 0, NULL, &sl);
    char sbuf[64];
    if (self_name && sl < sizeof sbuf) {
        memcpy(sbuf, self_name, sl);
        sbuf[sl] = 0;
        self_name = sbuf;
    } else {
        self_name = NULL;
    }
    int is_self = self_name && nl == sl && memcmp(name, self_name, nl) == 0;
    py_cursor k = py_cursor_new(f->body);
    int found = 0, down = 1;
    while (!found) {
        if (down && py_cursor_first_child(&k)) {
            down = 1;
        } else {
            while (!py_cursor_next_sibling(&k)) {
                if (!py_cursor_parent(&k)) goto done;
                if (py_eq(py_cursor_node(&k), f->body)) goto done;
            }
            down = 1;
        }
        TSNode n = py_cursor_node(&k);
        if (py_start_byte(n) >= end) break;
        if (IS(n, function_definition) || IS(n, class_definition) || IS(n, lambda)) { down = 0; continue; }
        if (!IS(n, call)) continue;
        TSNode fn = py_field(n, PY.f_function);
        int skip;
        /* x.meth(...) on f's self: the method, on self */
        TSNode obj = py_field(fn, PY.f_object);
        if (is_self && IS(fn, attribute) && IS(obj, identifier) && py_text_eq(f->mod, obj, self_name)) {
            py_func *g = callee_by_name(ctx, f->mod, f->cls, self_name, fn, &skip);
            size_t gl;
            const char *gs = g && g->cls ? param_at(g, 0, NULL, &gl) : NULL;
            if (g && gs && hooks_param(ctx, g, gs, gl, depth + 1, via)) { found = 1; break; }
        }
        if (passes_to_hooker(ctx, f, self_name, n, name, nl, depth, via)) found = 1;
    }
done:
    py_cursor_free(&k);
    return found;
}

/* Does f register hooks on its parameter pname, itself or through the
 * functions it passes it to (depth: how many calls down)? */
static int hooks_param(py_ctx *ctx, py_func *f, const char *pname, size_t pl, int depth, const char **via)
{
    if (depth > 3 || py_busy(ctx, f) || py_is_null(f->body) || py_module_ensure(ctx->p, f->mod) != 0) return 0;
    uint32_t b = py_start_byte(f->body), e = py_end_byte(f->body);
    if (text_hooks(f->mod->src.text + b, e - b, pname, pl)) {
        *via = f->qualname;
        return 1;
    }
    py_busy_push(ctx, f);
    int r = calls_hook(ctx, f, pname, pl, e, depth, via);
    py_busy_pop(ctx);
    return r;
}

/* Module expression `item`, passed to make_graphed_callables at `call` in f:
 * were hooks registered on it before, in f or in a function f called with
 * it (a helper, a method of its class, its __init__)? */
static int hooked_in(py_ctx *ctx, py_frame *fr, py_func *f, TSNode item, TSNode call, const char **via)
{
    size_t ml;
    const char *mt = py_text(fr->mod, item, &ml);
    uint32_t b = py_start_byte(f->node), e = py_start_byte(call);
    if (ml == 0 || e <= b) return 0;
    if (text_hooks(f->mod->src.text + b, e - b, mt, ml)) return 1;
    /* built from a project class whose __init__ (or a method called on it here) hooks self */
    py_val v = py_eval_quiet(ctx, fr, item);
    py_func *init = NULL;
    size_t sl;
    const char *sn;
    if (v.kind == PY_V_INSTANCE && v.cls && py_class_lookup_method_owner(ctx->p, v.cls, "__init__", &init) &&
        (sn = param_at(init, 0, NULL, &sl)) && hooks_param(ctx, init, sn, sl, 1, via))
        return 1;
    if (v.kind == PY_V_INSTANCE && v.cls) {
        /* item.meth(...) before the call */
        for (const char *p = f->mod->src.text + b, *end = f->mod->src.text + e;
             (p = memmem(p, (size_t)(end - p), mt, ml)) != NULL; p += ml) {
            const char *q = p + ml;
            if (q >= end || *q != '.' || (p > f->mod->src.text && (p[-1] == '.' || p[-1] == '_' ||
                                                                  ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'))))
                continue;
            const char *ms = ++q;
            while (q < end && (*q == '_' || (*q >= '0' && *q <= '9') || ((*q | 32) >= 'a' && (*q | 32) <= 'z'))) q++;
            char name[128];
            if (q >= end || *q != '(' || q == ms || (size_t)(q - ms) >= sizeof name) continue;
            memcpy(name, ms, (size_t)(q - ms));
            name[q - ms] = 0;
            py_func *g = NULL;
            if (py_class_lookup_method_owner(ctx->p, v.cls, name, &g) && g->cls &&
                (sn = param_at(g, 0, NULL, &sl)) && hooks_param(ctx, g, sn, sl, 1, via))
                return 1;
        }
    }
    /* passed to a function before the call */
    return calls_hook(ctx, f, mt, ml, e, 0, via);
}

/* CG704's facts about make_graphed_callables(callables, sample_args, ...):
 * sample arguments written as literals that are no tensors, and hooks
 * registered on the module earlier in the capturing function. */
static void graphed_callables_facts(py_ctx *ctx, py_frame *fr, const py_event *ev)
{
    py_region *r = ctx->region;
    TSNode sa = ev->nargs > 1 ? ev->argn[1] : (TSNode){0};
    int k = py_ev_kw(ev, "sample_args");
    if (k >= 0) sa = ev->kwn[k];
    sa = py_unparen(sa);
    uint32_t n = IS(sa, tuple) || IS(sa, list) ? py_named_child_count(sa) : 0;
    if (n) r->bad_samples = cg_arena_alloc(ctx->arena, n * sizeof *r->bad_samples);
    for (uint32_t i = 0; i < n; i++) {
        TSNode e = py_named_child(sa, i);
        if (IS(e, integer) || IS(e, float_) || IS(e, none) || IS(e, string) || IS(e, true_) || IS(e, false_) ||
            IS(e, dictionary))
            r->bad_samples[r->nbad_samples++] = e;
    }
    if (ev->nargs == 0 || !r->fn) return;
    /* each module passed: the argument, or each element of a tuple or list of them */
    TSNode a0 = py_unparen(ev->argn[0]);
    uint32_t nm = IS(a0, tuple) || IS(a0, list) ? py_named_child_count(a0) : 1;
    for (uint32_t i = 0; i < nm && !r->hooked_before; i++) {
        TSNode item = nm == 1 && !(IS(a0, tuple) || IS(a0, list)) ? a0 : py_named_child(a0, i);
        const char *via = NULL;
        if (hooked_in(ctx, fr, r->fn, item, ev->node, &via)) {
            r->hooked_before = 1;
            r->hooked_node = item;
            r->hooked_via = via;
        }
    }
}

/* torch.cuda.make_graphed_callables(callables, sample_args): each callable
 * (a tuple of them is evaluated element by element) is captured */
static int open_graphed_callables(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out)
{
    const char *q = ev->qual;
    if (!q || !(cg_eq(q, "torch.cuda.make_graphed_callables") || cg_eq(q, "torch.cuda.graphs.make_graphed_callables") ||
                (cg_starts(q, "transformer_engine.") && cg_ends_with(q, ".make_graphed_callables"))) ||
        ctx->active || ctx->quiet)
        return 0;
    *out = py_vk(PY_V_UNKNOWN);
    if (ev->nargs == 0) return 1;
    py_val items[8];
    int n = 0;
    if (ev->args[0].kind == PY_V_TUPLE || ev->args[0].kind == PY_V_LIST) {
        TSNode tn = py_unparen(ev->argn[0]);
        uint32_t k = py_named_child_count(tn);
        for (uint32_t i = 0; i < k && n < 8; i++) items[n++] = py_eval_quiet(ctx, fr, py_named_child(tn, i));
    } else {
        items[n++] = ev->args[0];
    }
    const char *kind = cg_starts(q, "transformer_engine.") ? "te.make_graphed_callables" : "make_graphed_callables";
    for (int i = 0; i < n; i++) {
        start_region(ctx, fr, call, kind, NULL);
        region_begin_context(ctx, fr, (TSNode){0});
        if (i == 0) {
            /* constraints on the call itself (CG704) are checked once, in capture context */
            graphed_callables_facts(ctx, fr, ev);
            py_event mc = *ev;
            mc.kind = PY_EV_REGION_BEGIN;
            mc.val = items[0];
            py_emit(ctx, &mc);
        }
        py_call_captured(ctx, fr, call, &items[i]);
        py_region_end(ctx);
        ctx->phase = PY_PH_OUTSIDE;
    }
    return 1;
}

typedef int (*py_opener)(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out);
static const py_opener py_openers[] = {
    open_capture_begin, close_capture_end, open_compile, open_compiled_call, open_full_cuda_graph_wrapper,
    open_graphed_callables,
};

int py_region_open_call(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out)
{
    for (size_t i = 0; i < sizeof py_openers / sizeof *py_openers; i++)
        if (py_openers[i](ctx, fr, ev, call, out)) return 1;
    return 0;
}

/* ---- openers: `with` ------------------------------------------------------------------ */
/* `with torch.cuda.graph(g):` */
static void with_graph(py_ctx *ctx, py_frame *fr, TSNode st, TSNode item, py_val v, py_with *w)
{
    start_region(ctx, fr, st, "torch.cuda.graph", v.stream);
    if (v.flags & PY_VF_THREAD_LOCAL) ctx->region->thread_local = 1;
    /* the graph object: torch.cuda.graph(g, ...)'s first argument */
    TSNode call = py_unparen(IS(item, with_item) ? py_field(item, PY.f_value) : item);
    TSNode args = IS(call, call) ? py_field(call, PY.f_arguments) : (TSNode){0};
    region_begin_context(ctx, fr, py_named_child(args, 0));
    ctx->region->side_stream = 1;   /* torch.cuda.graph picks its own side stream */
    w->began = 1;
    region_begin_event(ctx, fr, item, v);
}

/* `with torch.autocast(...):` that caches casts: CG601 when a capture is inside */
static void with_autocast(py_ctx *ctx, py_frame *fr, TSNode item, py_val v, py_with *w)
{
    if (!ctx->autocast) {
        ctx->autocast_loc = py_loc(fr->mod, item);
        ctx->autocast_mod = fr->mod;
        ctx->autocast_node = IS(item, with_item) ? py_field(item, PY.f_value) : item;
        size_t ll;
        const char *lt = cg_source_line(&fr->mod->src, ctx->autocast_loc.line, &ll);
        ctx->autocast_line = cg_arena_strndup(ctx->arena, lt, ll);
    }
    ctx->autocast++;
    w->autocast++;
    py_emit_at(ctx, fr, PY_EV_WITH, item, v);
}

/* `with torch.cuda.stream(s):` */
static void with_stream(py_ctx *ctx, py_frame *fr, TSNode item, py_val v, py_with *w)
{
    fr->warm = 1;  /* a side stream before the capture: the usual warm-up */
    w->stream_ctx = 1;
    fr->stream_ctx++;
    if (!v.stream) return;
    py_emit_at(ctx, fr, PY_EV_STREAM_CTX, item, v);
    if (ctx->active && !ctx->quiet && ctx->region && !v.stream_default &&
        !cg_streams_in_capture(&ctx->region->streams, v.stream) && ctx->region->nstray < 8)
        ctx->region->stray[ctx->region->nstray++] = v.stream;
    /* work issued on a forked stream: where CG402 points if it is never joined */
    if (ctx->active && !ctx->quiet && ctx->region && !v.stream_default) {
        cg_loc loc = py_loc(fr->mod, item);
        size_t ll;
        const char *lt = cg_source_line(&fr->mod->src, loc.line, &ll);
        cg_streams_use(&ctx->region->streams, v.stream, loc, cg_arena_strndup(ctx->arena, lt, ll));
    }
    ctx->cur_stream = v.stream_default ? "<default>" : v.stream;
}

void py_region_with_enter(py_ctx *ctx, py_frame *fr, TSNode st, TSNode item, py_val v, py_with *w)
{
    if (v.kind != PY_V_EXTOBJ) return;
    if (cg_eq(v.qual, "torch.cuda.graph") && !ctx->active && !ctx->quiet) with_graph(ctx, fr, st, item, v, w);
    else if (v.flags & PY_VF_AUTOCAST) with_autocast(ctx, fr, item, v, w);
    else if (cg_eq(v.qual, "torch.cuda.stream")) with_stream(ctx, fr, item, v, w);
}

void py_region_with_exit(py_ctx *ctx, py_frame *fr, py_with *w)
{
    ctx->autocast -= w->autocast;
    if (w->began && ctx->active) py_region_end(ctx);
    if (w->stream_ctx) { fr->stream_ctx--; ctx->cur_stream = w->saved_stream; }
    if (w->began) ctx->cur_stream = w->saved_stream;
}

/* ---- what calls tell the region ---------------------------------------------------------- */
/* A stream's identity in an argument: the stream value's, or the expression. */
static const char *stream_arg(py_ctx *ctx, const py_event *ev, int i)
{
    const py_val *v = &ev->args[i];
    if (v->kind == PY_V_STREAM) return v->qual;
    return py_snip(ctx, ev->mod, ev->argn[i]);
}

/* Forks, joins and event records during the capture: the ledger CG402 and
 * CG403 read.  A wait on the legacy default stream is CG401's, no fork. */
static void note_stream_call(py_ctx *ctx, const py_event *ev)
{
    py_region *r = ctx->region;
    const char *self_id = ev->recv.kind == PY_V_STREAM ? ev->recv.qual
                          : py_is_null(ev->recv_node) ? NULL : py_snip(ctx, ev->mod, ev->recv_node);
    if ((cg_eq(ev->method, "wait_stream") || cg_eq(ev->method, "wait_event")) && ev->nargs > 0 && self_id) {
        const char *other = stream_arg(ctx, ev, 0);
        if (cg_eq(ev->method, "wait_event")) other = cg_streams_recorded_on(&r->streams, other);
        if (!other || (ev->args[0].kind == PY_V_STREAM && (ev->args[0].flags & PY_VF_DEFAULT_STREAM))) return;
        cg_loc loc = py_loc(ev->mod, ev->node);
        size_t ll;
        const char *lt = cg_source_line(&ev->mod->src, loc.line, &ll);
        cg_streams_wait(&r->streams, self_id, other, loc, cg_arena_strndup(ctx->arena, lt, ll));
        return;
    }
    if (cg_eq(ev->method, "record") && ev->recv.kind == PY_V_EVENT) {
        cg_streams_record(&r->streams, ev->recv.qual, ev->nargs > 0 ? stream_arg(ctx, ev, 0) : ctx->cur_stream);
        return;
    }
    if (cg_eq(ev->method, "record_event") && self_id && ev->nargs > 0 && ev->args[0].kind == PY_V_EVENT)
        cg_streams_record(&r->streams, ev->args[0].qual, self_id);
}

/* Before a capture: warm-up runs (CG701, CG702, CG706) and backward or DDP
 * on the default stream (CG702). */
/* Does function f's text do CUDA work another thread must not do during a
 * global-mode capture (query an event, synchronize, pin memory)? */
static TSNode does_cuda_work(const py_func *f)
{
    static const char *const work[] = { ".query()", "synchronize(", "pin_memory", ".cuda(", "torch.cuda.", NULL };
    uint32_t s = py_start_byte(f->body), e = py_end_byte(f->body);
    const char *t = f->mod->src.text;
    for (int i = 0; work[i]; i++) {
        const char *p = memmem(t + s, e - s, work[i], strlen(work[i]));
        if (!p) continue;
        /* the statement there */
        uint32_t off = (uint32_t)(p - t);
        TSNode n = py_descendant_for_byte_range(f->body, off, off + 1);
        while (!py_is_null(n) && !py_is_null(py_parent(n)) && !IS(py_parent(n), block)) n = py_parent(n);
        if (IS(n, expression_statement) && py_named_child_count(n)) n = py_named_child(n, 0);
        return n;
    }
    return (TSNode){ 0 };
}

static void note_before_capture(py_ctx *ctx, py_frame *fr, const py_event *ev, const py_val *callee, TSNode call)
{
    /* threading.Thread(target=f) before the capture (CG708) */
    if (!ev->method && cg_eq(ev->qual, "threading.Thread") && !fr->cuda_thread) {
        int k = py_ev_kw(ev, "target");
        const py_val *t = k >= 0 ? &ev->kw[k] : NULL;
        for (; t && !fr->cuda_thread; t = t->alt) {
            TSNode w = t->kind == PY_V_FUNC && !py_is_null(t->fn->body) ? does_cuda_work(t->fn) : (TSNode){ 0 };
            if (py_is_null(w)) continue;
            fr->cuda_thread = t->fn->name;
            fr->cuda_thread_mod = t->fn->mod;
            fr->cuda_thread_node = w;
        }
    }
    if (py_api_is_warmup_call(ev, callee)) fr->warm = 1;
    if (ev->method && cg_eq(ev->method, "register_generator_state")) {
        const py_val *g = ev->nargs > 0 ? &ev->args[0] : NULL;
        if (g && (g->flags & PY_VF_CUDA_GEN) && !py_is_null(g->ctor) && fr->ngens < 4)
            fr->gens[fr->ngens++] = g->ctor;
        else
            fr->gens_unknown = 1;
    }
    const void *id = py_compiled_identity(callee);
    if (id && fr->nwarmed < 8) fr->warmed[fr->nwarmed++] = id;
    else if (!id && (callee->kind == PY_V_FUNC || callee->kind == PY_V_INSTANCE || callee->kind == PY_V_MODLIST))
        fr->warmed_other = 1;
    if (fr->stream_ctx || fr->eager_backward) return;
    if ((ev->method && cg_eq(ev->method, "backward")) || (ev->qual && cg_ends_with(ev->qual, "DistributedDataParallel"))) {
        fr->eager_backward = 1;
        fr->eager_loc = py_loc(fr->mod, call);
        size_t ll;
        const char *lt = cg_source_line(&fr->mod->src, fr->eager_loc.line, &ll);
        fr->eager_line = cg_arena_strndup(ctx->arena, lt, ll);
    }
}

void py_region_note_call(py_ctx *ctx, py_frame *fr, const py_event *ev, const py_val *callee, TSNode call)
{
    /* also in a caller walked for what it passes: did it run the model first? (CG701) */
    if (!ctx->active && (!ctx->quiet || ctx->watch_fn)) note_before_capture(ctx, fr, ev, callee, call);
    if (!ctx->active || !ctx->region || !ev->method) return;
    py_region *r = ctx->region;
    if (cg_eq(ev->method, "backward")) r->has_backward = 1;
    if (cg_eq(ev->method, "step") &&
        ((ev->recv.kind == PY_V_EXTOBJ && cg_starts(ev->recv.qual, "torch.optim.")) || (ev->recv.flags & PY_VF_SCALER)))
        r->steps_optimizer = 1;
    if (!ctx->quiet) note_stream_call(ctx, ev);
}

/* Is node n under `with torch.no_grad():` (or inference_mode), or in a
 * function decorated so? */
static int under_no_grad(py_module *m, TSNode n)
{
    for (int depth = 0; !py_is_null(n) && depth < 200; depth++, n = py_parent(n)) {
        if (IS(n, with_statement) || IS(n, decorated_definition)) {
            TSNode head = IS(n, with_statement) ? py_named_child(n, 0) : py_named_child(n, 0);
            size_t len;
            const char *t = py_text(m, head, &len);
            if (memmem(t, len, "no_grad", 7) || memmem(t, len, "inference_mode", 14)) return 1;
        }
        if (IS(n, class_definition)) return 0;
    }
    return 0;
}

void py_region_note_grad_op(py_ctx *ctx, py_frame *fr, TSNode n, uint32_t in_flags, py_val *out)
{
    if (ctx->active || fr->stream_ctx || out->kind != PY_V_TENSOR) return;
    if (!(in_flags & (PY_VF_REQUIRES_GRAD | PY_VF_EAGER_GRAD)) || under_no_grad(fr->mod, n)) return;
    out->flags |= PY_VF_EAGER_GRAD;
    out->ctor = n;
    out->omod = fr->mod;
}

/* Is n `self.x` in a method of the class whose method holds the region? */
static int same_self_attr(const py_ctx *ctx, const py_frame *fr, TSNode n, const py_region *r)
{
    if (!r || !r->fn || !r->fn->cls || !fr->fn || fr->fn->cls != r->fn->cls || !IS(n, attribute)) return 0;
    TSNode obj = py_field(n, PY.f_object);
    (void)ctx;
    return IS(obj, identifier) && py_text_eq(fr->mod, obj, "self") && fr->self_name;
}

void py_region_note_input(py_ctx *ctx, py_frame *fr, TSNode n, const py_val *v)
{
    /* a tensor with an autograd node bound to the default stream, read by a
     * capture (CG702 when it also runs backward) */
    if (ctx->active && !ctx->quiet && ctx->region && (v->flags & PY_VF_EAGER_GRAD) && v->omod &&
        !ctx->region->eager_backward) {
        py_region *r = ctx->region;
        r->eager_backward = r->eager_grad_op = 1;
        r->eager_loc = py_loc(v->omod, v->ctor);
        size_t ll;
        const char *lt = cg_source_line(&v->omod->src, r->eager_loc.line, &ll);
        r->eager_line = cg_arena_strndup(ctx->arena, lt, ll);
    }
    if (!ctx->active || ctx->quiet || !ctx->region || v->kind != PY_V_TENSOR) return;
    /* its function's names and self attributes; self attributes read by the class's other methods */
    if (fr->fn != ctx->region->fn && !same_self_attr(ctx, fr, n, ctx->region)) return;
    if (v->flags & PY_VF_OUTPUT) return;
    size_t len;
    const char *t = py_text(fr->mod, n, &len);
    if (!cg_map_get(&ctx->region->inputs, t, len))
        cg_map_put(&ctx->region->inputs, cg_arena_strndup(ctx->arena, t, len), len, (void *)PY_IO_INPUT);
}

void py_region_note_output(py_ctx *ctx, py_frame *fr, TSNode n, const py_val *v)
{
    if (!ctx->active || ctx->quiet || !ctx->region || v->kind != PY_V_TENSOR) return;
    if (!same_self_attr(ctx, fr, n, ctx->region)) return;
    size_t len;
    const char *t = py_text(fr->mod, n, &len);
    cg_map_put(&ctx->region->inputs, cg_arena_strndup(ctx->arena, t, len), len, (void *)PY_IO_OUTPUT);
}

int py_region_attr_is_output(const py_ctx *ctx, const py_frame *fr, TSNode n)
{
    const py_region *r = ctx->phase == PY_PH_AFTER ? ctx->after : NULL;
    if (!same_self_attr(ctx, fr, n, r)) return 0;
    size_t len;
    const char *t = py_text(fr->mod, n, &len);
    return cg_map_get(&r->inputs, t, len) == (void *)PY_IO_OUTPUT;
}

/* ---- guards ----------------------------------------------------------------------------- */
/* A call or a name as a condition: +1 for the capture guard (or a name
 * holding its value), is_compiling() by the region's kind, else 0. */
static int guard_of_value(py_ctx *ctx, py_frame *fr, TSNode c)
{
    int call = IS(c, call);
    py_val v = py_eval_quiet(ctx, fr, call ? py_field(c, PY.f_function) : c);
    /* torch.compiler.is_compiling(): true under reduce-overhead, false in a manual capture */
    if (call && ctx->region &&
        ((v.kind == PY_V_EXT && py_api_is_compiling(v.qual, NULL)) ||
         (v.kind == PY_V_FUNC && py_api_is_compiling(NULL, v.fn->name))))
        return py_region_is_compiled(ctx->region) ? 1 : -1;
    if (call && v.kind == PY_V_EXT && py_api_is_capture_guard(v.qual)) return 1;
    if (!call && v.kind == PY_V_GUARD) return 1;
    return 0;
}

/* `capturing == False`, `capturing is not True`... */
static int guard_of_comparison(py_ctx *ctx, py_frame *fr, TSNode c)
{
    TSNode l = py_named_child(c, 0), r = py_named_child(c, 1);
    int g = py_guard_polarity(ctx, fr, l);
    if (!g || !(IS(r, false_) || IS(r, true_))) return 0;
    size_t len;
    const char *t = py_text(fr->mod, c, &len);
    int neg = memmem(t, len, "!=", 2) || memmem(t, len, "is not", 6);
    int val = IS(r, true_) ? 1 : -1;
    return neg ? -g * val : g * val;
}

/* Does `return <name>` (nl bytes) appear in f's body: f hands the object on? */
static int returns_name(py_func *f, const char *name, size_t nl)
{
    uint32_t s = py_start_byte(f->body), e = py_end_byte(f->body);
    const char *t = f->mod->src.text + s, *end = f->mod->src.text + e;
    for (const char *p = t; (p = memmem(p, (size_t)(end - p), "return ", 7)) != NULL; p += 7) {
        const char *q = p + 7;
        while (q < end && *q == ' ') q++;
        if ((size_t)(end - q) >= nl && memcmp(q, name, nl) == 0 &&
            (q + nl == end || !(q[nl] == '_' || (q[nl] >= '0' && q[nl] <= '9') || ((q[nl] | 32) >= 'a' && (q[nl] | 32) <= 'z'))))
            return 1;
    }
    return 0;
}

/* Is the one method that sets flag a (a->setter) run as part of building the
 * object: called on self in __init__, or on a fresh object in a factory that
 * returns it (`model = cls(...); model._resolve(); return model`)? */
static int setter_runs_at_construction(py_ctx *ctx, py_class *c, py_attr *a)
{
    py_func *s = a->setter;
    py_module *m = s->mod;
    if (!s->name || py_module_ensure(ctx->p, m) != 0) return 0;
    TSNode calls[16];
    int k = py_module_call_nodes(m, s->name, calls, 16);
    for (int i = 0; i < k; i++) {
        TSNode fn = py_field(calls[i], PY.f_function), recv = py_field(fn, PY.f_object);
        py_func *f = py_enclosing_func(m, calls[i]);
        if (!IS(fn, attribute) || !IS(recv, identifier) || !f || f == s || py_is_null(f->body)) continue;
        size_t rl;
        const char *rt = py_text(m, recv, &rl);
        if (f->cls == c && f->name && strcmp(f->name, "__init__") == 0 && rl == 4 && memcmp(rt, "self", 4) == 0)
            return 1;
        if (!(rl == 4 && memcmp(rt, "self", 4) == 0) && returns_name(f, rt, rl)) return 1;
    }
    return 0;
}

/* `self.flag` where flag is a one-way latch: one literal (False) in __init__
 * or the class body, the other (True) stored by one other method only, and
 * that method runs when the object is built.  A capture uses a built object,
 * so the flag holds the latched value: +1 when that is True, -1 when False. */
static int latch_polarity(py_ctx *ctx, py_frame *fr, TSNode c)
{
    TSNode obj = py_field(c, PY.f_object);
    if (!fr->fn || !fr->fn->cls || !fr->self_name || !IS(obj, identifier)) return 0;
    size_t ol;
    const char *ot = py_text(fr->mod, obj, &ol);
    if (ol != fr->self_len || memcmp(ot, fr->self_name, ol) != 0) return 0;
    size_t al;
    const char *at = py_text(fr->mod, py_field(c, PY.f_attribute), &al);
    char name[128];
    if (al == 0 || al >= sizeof name) return 0;
    memcpy(name, at, al);
    name[al] = 0;
    py_class *cls = fr->self.kind == PY_V_INSTANCE && fr->self.cls ? fr->self.cls : fr->fn->cls;
    py_attr *a = py_class_attr(ctx->p, cls, name);
    if (!a || a->setters != 1 || !a->setter) return 0;
    int init = a->bools_init, out = a->bools_out;
    if (!((init == PY_AB_FALSE && out == PY_AB_TRUE) || (init == PY_AB_TRUE && out == PY_AB_FALSE))) return 0;
    int latch = py_ctx_latch(ctx, a);
    if (latch == 0) {
        latch = setter_runs_at_construction(ctx, a->setter->cls ? a->setter->cls : cls, a) ? 1 : -1;
        py_ctx_set_latch(ctx, a, latch);
    }
    if (latch < 0) return 0;
    return out == PY_AB_TRUE ? 1 : -1;
}

int py_guard_polarity(py_ctx *ctx, py_frame *fr, TSNode c)
{
    c = py_unparen(c);
    if (IS(c, not_operator)) return -py_guard_polarity(ctx, fr, py_field(c, PY.f_argument));
    if (IS(c, boolean_operator)) {
        int l = py_guard_polarity(ctx, fr, py_field(c, PY.f_left));
        int r = py_guard_polarity(ctx, fr, py_field(c, PY.f_right));
        TSNode op = py_field(c, PY.f_operator);
        if (py_text_eq(fr->mod, op, "and")) return (l == -1 || r == -1) ? -1 : (l == 1 && r == 1) ? 1 : 0;
        return (l == 1 || r == 1) ? 1 : (l == -1 && r == -1) ? -1 : 0;
    }
    if (IS(c, call) || IS(c, identifier)) {
        int g = guard_of_value(ctx, fr, c);
        if (g) return g;
    }
    if (IS(c, comparison_operator) && py_named_child_count(c) == 2) return guard_of_comparison(ctx, fr, c);
    if (IS(c, attribute)) return latch_polarity(ctx, fr, c);
    return 0;
}

/* ---- implicit regions ----------------------------------------------------------------------- */
/* A capture of f that no statement spells out, at `site`. */
static void analyze_implicit_region(py_ctx *ctx, py_func *f, TSNode site, const char *kind)
{
    py_frame fr;
    py_frame_init(&fr, f->mod->body, f->mod);
    py_walk_begin(ctx);
    start_region(ctx, &fr, site, kind, NULL);
    py_val self = py_vk(PY_V_INSTANCE);
    self.cls = f->cls;
    py_val targs[4] = { py_vtensor(PY_DEV_CUDA), py_vtensor(PY_DEV_CUDA), py_vtensor(PY_DEV_CUDA),
                        py_vtensor(PY_DEV_CUDA) };
    py_args a = py_args_pos(targs, 4);
    py_call_function(ctx, &fr, site, f, f->cls ? &self : NULL, &a, 1);
    py_region_end(ctx);
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    py_frame_free(&fr);
}

/* @torch.compile(mode="reduce-overhead") (or options with triton.cudagraphs,
 * or backend="cudagraphs") defs */
static void scan_compiled_defs(py_ctx *ctx, py_module *m)
{
    for (size_t k = 0; k < m->nall_funcs; k++) {
        py_func *f = m->all_funcs[k];
        TSNode parent = py_parent(f->node);
        if (!IS(parent, decorated_definition)) continue;
        uint32_t n = py_named_child_count(parent);
        for (uint32_t i = 0; i < n; i++) {
            TSNode d = py_named_child(parent, i);
            if (!IS(d, decorator)) continue;
            size_t len;
            const char *t = py_text(m, d, &len);
            if (memmem(t, len, "compile", 7) &&
                (memmem(t, len, "reduce-overhead", 15) || memmem(t, len, "triton.cudagraphs", 17) ||
                 memmem(t, len, "\"cudagraphs\"", 12) || memmem(t, len, "'cudagraphs'", 12)))
                analyze_implicit_region(ctx, f, d, "reduce-overhead");
        }
    }
}

/* Classes that store a Megatron-LM CudaGraphManager in a self attribute: the
 * manager captures their forward */
static void scan_graph_managers(py_ctx *ctx, py_module *m)
{
    for (size_t i = 0; i < m->classes.cap; i++) {
        if (!m->classes.keys[i]) continue;
        py_class *c = m->classes.vals[i];
        for (size_t a = 0; a < c->attrs.cap; a++) {
            if (!c->attrs.keys[a]) continue;
            py_attr *at = c->attrs.vals[a];
            if (!IS(at->value, call)) continue;
            size_t len;
            const char *t = py_text(m, py_field(at->value, PY.f_function), &len);
            py_func *fwd = NULL;
            if (len >= 16 && memcmp(t + len - 16, "CudaGraphManager", 16) == 0 &&
                py_class_lookup_method_owner(ctx->p, c, "forward", &fwd) && fwd->mod == m)
                analyze_implicit_region(ctx, fwd, at->value, "CudaGraphManager");
        }
    }
}

void py_region_scan_implicit(py_ctx *ctx, py_module *m)
{
    scan_compiled_defs(ctx, m);
    scan_graph_managers(ctx, m);
}
