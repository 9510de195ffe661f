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

void py_walk_begin(py_ctx *ctx)
{
    ctx->active = 0;
    ctx->region = NULL;
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    cg_callpath_clear(&ctx->path);
    ctx->depth = 0;
}

static void scan_function(py_ctx *ctx, py_func *f)
{
    py_frame fr;
    py_frame_init(&fr, f, f->mod);
    if (f->cls) {
        fr.self = py_vk(PY_V_INSTANCE);
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
    py_walk_begin(ctx);
    ctx->cur_stream = NULL;
    ctx->loops = ctx->conds_in_loop = ctx->autocast = 0;
    if (!py_is_null(f->body)) py_exec_block(ctx, &fr, f->body);
    if (ctx->active) py_region_end(ctx);   /* capture_begin with no capture_end in this function */
    ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    py_frame_free(&fr);
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
        py_region_scan_implicit(&ctx, m);
    }
    for (int i = 0; i < ctx.nregions; i++) {
        cg_map_free(&ctx.regions[i]->inputs);
        cg_streams_free(&ctx.regions[i]->streams);
    }
    free(ctx.regions);
    cg_map_free(&ctx.memo);
    cg_map_free(&ctx.globals);
    cg_arena_free(ctx.arena);
}
