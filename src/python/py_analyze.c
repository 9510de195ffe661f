/* py_analyze.c - the driver of the Python analysis: which code is walked,
 * and the one door from the evaluator to the rules.
 *
 * Every function (and module body) of a file that mentions a capture API is
 * walked once from its start, outside capture; a walk meets the captures it
 * opens (py_region.c) and follows calls from them (py_call.c).  Captures
 * that no statement opens (decorators, framework managers) are walked from
 * the function they capture.  Events go to the rules only through py_emit().
 *
 * The evaluator is single-threaded (phase 2 of py_project.c); the analysis
 * context, its arena and every region are freed here when the run ends. */
#include "py_eval.h"
#include <stdlib.h>
#include <string.h>

void py_emit(py_ctx *ctx, const py_event *ev)
{
    if (ctx->quiet) return;
    if (ctx->active || (ctx->phase == PY_PH_AFTER && ctx->after)) py_dispatch(ctx, ev);
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

/* Does the function's own text open a capture (not merely say "graph")? */
static int func_opens_capture(py_func *f)
{
    static const char *const openers[] = { "cuda.graph(", "graphs.graph(", "capture_begin(",
        "make_graphed_callables(", "reduce-overhead", "FullCudaGraphWrapper(", "triton.cudagraphs", NULL };
    uint32_t s = py_start_byte(f->node), e = py_end_byte(f->node);
    const char *t = f->mod->src.text + s;
    for (int i = 0; openers[i]; i++)
        if (memmem(t, e - s, openers[i], strlen(openers[i]))) return 1;
    return 0;
}

void py_walk_begin(py_ctx *ctx)
{
    ctx->active = 0;
    ctx->region = NULL;
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    cg_callpath_clear(&ctx->path);
    ctx->depth = 0;
}

/* A class that captures in one method and replays in others: each other
 * method that replays is walked as the capture's aftermath (CG504, CG505). */
static void replay_methods(py_ctx *ctx, py_func *capturing, py_region *r)
{
    py_class *c = capturing->cls;
    /* the graph is the instance's (`torch.cuda.graph(self.g)`, `self.g.capture_begin()`) */
    size_t sl;
    const char *st = py_text(r->mod, r->site_node, &sl);
    if (!memmem(st, sl, "self.", 5)) return;
    for (size_t i = 0; i < c->methods.cap; i++) {
        py_func *g = c->methods.keys[i] ? c->methods.vals[i] : NULL;
        if (!g || g == capturing || py_is_null(g->body)) continue;
        uint32_t s = py_start_byte(g->body), e = py_end_byte(g->body);
        if (!memmem(g->mod->src.text + s, e - s, ".replay(", 8)) continue;
        py_frame fr;
        py_frame_init(&fr, g, g->mod);
        py_walk_begin(ctx);
        py_bind_params(ctx, &fr, g, NULL, NULL, 0);
        ctx->after = r;
        ctx->phase = PY_PH_AFTER;
        ctx->after_method = g;
        ctx->loops = ctx->conds_in_loop = ctx->autocast = 0;
        py_exec_block(ctx, &fr, g->body);
        ctx->after_method = NULL;
        ctx->after = NULL;
        ctx->phase = PY_PH_OUTSIDE;
        py_frame_free(&fr);
    }
}

static void scan_function(py_ctx *ctx, py_func *f)
{
    py_frame fr;
    py_frame_init(&fr, f, f->mod);
    py_walk_begin(ctx);
    /* a function that opens a capture reads what its callers pass */
    ctx->scan_fn = !f->is_module_body && func_opens_capture(f) ? f : NULL;
    /* self, and what the parameters' annotations say */
    py_bind_params(ctx, &fr, f, NULL, NULL, 0);
    ctx->cur_stream = NULL;
    ctx->loops = ctx->conds_in_loop = ctx->autocast = 0;
    int first_region = ctx->nregions;
    if (!py_is_null(f->body)) py_exec_block(ctx, &fr, f->body);
    if (ctx->active) py_region_end(ctx);   /* capture_begin with no capture_end in this function */
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    py_frame_free(&fr);
    if (ctx->nregions > first_region && f->cls) replay_methods(ctx, f, ctx->regions[ctx->nregions - 1]);
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
    cg_map_init(&ctx.callers);
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        if (!m->has_marker || m->state != 1) continue;
        p->scan_root = m;
        scan_function(&ctx, m->body);
        for (size_t k = 0; k < m->nall_funcs; k++)
            if (func_mentions_capture(m->all_funcs[k])) scan_function(&ctx, m->all_funcs[k]);
        py_region_scan_implicit(&ctx, m);
    }
    p->scan_root = NULL;
    for (int i = 0; i < ctx.nregions; i++) {
        cg_map_free(&ctx.regions[i]->inputs);
        cg_streams_free(&ctx.regions[i]->streams);
    }
    free(ctx.regions);
    cg_map_free(&ctx.memo);
    cg_map_free(&ctx.globals);
    cg_map_free(&ctx.callers);
    cg_arena_free(ctx.arena);
}
