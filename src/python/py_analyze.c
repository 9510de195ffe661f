/* py_analyze.c - the driver of the Python analysis: which code is walked,
 * and the one door from the evaluator to the rules.
 *
 * Every function (and module body) of a file that mentions a capture API is
 * walked once from its start, outside capture; a walk meets the captures it
 * opens (py_region.c) and follows calls from them (py_call.c).  Captures
 * that no statement opens (decorators, framework managers) are walked from
 * the function they capture.  Events go to the rules only through py_emit().
 *
 * One py_ctx a capture file, on all cores (phase 2 of py_project.c); each
 * context, its arena and its regions are freed when its analysis ends. */
#include "py_eval.h"
#include "core/alloc.h"
#include "core/pool.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
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


/* ---- one analysis a capture file -----------------------------------------------------
 * Each capture file is analysed by its own py_ctx: its memo, the module-level
 * values it evaluated, the call sites it searched (and their parse budget),
 * the functions on its call stack, the latches it decided, the modules it
 * loaded and its findings.  What it reads from the project is the index
 * (which does not depend on who built it) and the modules it loaded itself
 * or that were loaded before any analysis began.  So the analyses run on all
 * cores, and each finds what it would find run alone: the findings are
 * merged in the order of the capture files, as one thread would add them. */
static __thread py_ctx *current;

void py_ctx_note_module(py_module *m)
{
    py_ctx *ctx = current;
    if (!ctx) return;
    size_t i = (size_t)(m - ctx->p->mods);
    if (i >= ctx->p->nmods || ctx->seen[i]) return;
    ctx->seen[i] = 1;
    if (ctx->nseen == ctx->capseen) {
        ctx->capseen = ctx->capseen ? ctx->capseen * 2 : 32;
        ctx->seen_list = cg_xrealloc(ctx->seen_list, ctx->capseen * sizeof *ctx->seen_list);
    }
    ctx->seen_list[ctx->nseen++] = m;
}

void py_ctx_note_query(char kind, const char *name, size_t len)
{
    py_ctx *ctx = current;
    if (!ctx) return;
    if (kind == 'c') py_bloom_mark(ctx->rec->asked, 4096, name, len);
    else py_bloom_mark(ctx->rec->asked + 64, 2048, name, len);
    char key[256];
    if (len + 1 >= sizeof key) { ctx->rec->attr_queries |= 2; return; }   /* not kept: never answered by the index */
    key[0] = kind;
    memcpy(key + 1, name, len);
    if (cg_map_get(&ctx->queries, key, len + 1)) return;
    cg_map_put(&ctx->queries, cg_arena_strndup(ctx->arena, key, len + 1), len + 1, (void *)1);
}

int py_ctx_has(const py_ctx *ctx, const py_module *m)
{
    size_t i = (size_t)(m - ctx->p->mods);
    return m->preloaded || (i < ctx->p->nmods && ctx->seen[i]);
}

size_t py_ctx_attr_assigns(const py_ctx *ctx, const char *name, size_t len)
{
    ctx->rec->attr_queries |= 1;
    size_t n = (uintptr_t)cg_map_get(&ctx->p->attr_assigns, name, len);
    for (size_t i = 0; i < ctx->nseen; i++) {
        py_module *m = ctx->seen_list[i];
        if (!m->preloaded && m->state == 1) n += (uintptr_t)cg_map_get(&m->attr_counts, name, len);
    }
    return n;
}

int py_busy(const py_ctx *ctx, const py_func *f)
{
    for (int i = ctx->nbusy; i-- > 0;)
        if (ctx->busy[i] == f) return 1;
    return 0;
}

void py_busy_push(py_ctx *ctx, py_func *f)
{
    if (ctx->nbusy == ctx->capbusy) {
        ctx->capbusy = ctx->capbusy ? ctx->capbusy * 2 : 32;
        ctx->busy = cg_xrealloc(ctx->busy, (size_t)ctx->capbusy * sizeof *ctx->busy);
    }
    ctx->busy[ctx->nbusy++] = f;
}

void py_busy_pop(py_ctx *ctx) { if (ctx->nbusy > 0) ctx->nbusy--; }

int py_ctx_latch(py_ctx *ctx, const py_attr *a)
{
    char key[24];
    int kl = snprintf(key, sizeof key, "%p", (const void *)a);
    uintptr_t v = (uintptr_t)cg_map_get(&ctx->latches, key, (size_t)kl);
    return v == 1 ? 1 : v == 2 ? -1 : 0;
}

void py_ctx_set_latch(py_ctx *ctx, const py_attr *a, int v)
{
    char key[24];
    int kl = snprintf(key, sizeof key, "%p", (const void *)a);
    cg_map_put(&ctx->latches, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl,
               (void *)(uintptr_t)(v > 0 ? 1 : 2));
}

static void ctx_open(py_ctx *ctx, py_project *p, py_module *root, py_analysis *rec)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->p = p;
    ctx->root = root;
    ctx->arena = cg_arena_new();
    ctx->path.limit = 24;
    ctx->seen = cg_xcalloc(p->nmods ? p->nmods : 1, 1);
    cg_map_init(&ctx->memo);
    cg_map_init(&ctx->globals);
    cg_map_init(&ctx->callers);
    cg_map_init(&ctx->latches);
    cg_map_init(&ctx->queries);
    ctx->rec = rec;
    ctx->out = &rec->out;
}

/* What the index keeps of the analysis, from its context. */
static void ctx_record(py_ctx *ctx)
{
    py_analysis *a = ctx->rec;
    py_project *p = ctx->p;
    a->seen = cg_xcalloc(ctx->nseen ? ctx->nseen : 1, sizeof *a->seen);
    for (size_t k = 0; k < ctx->nseen; k++) a->seen[k] = (size_t)(ctx->seen_list[k] - p->mods);
    a->nseen = ctx->nseen;
    a->queries = cg_xcalloc(ctx->queries.count ? ctx->queries.count : 1, sizeof *a->queries);
    for (size_t k = 0; k < ctx->queries.cap; k++)
        if (ctx->queries.keys[k]) {
            char *q = cg_xcalloc(1, ctx->queries.klen[k] + 1);
            memcpy(q, ctx->queries.keys[k], ctx->queries.klen[k]);
            a->queries[a->nqueries++] = q;
        }
}

void py_analysis_free(py_analysis *a)
{
    free(a->seen);
    for (size_t k = 0; k < a->nqueries; k++) free(a->queries[k]);
    free(a->queries);
    cg_report_free(&a->out);
    memset(a, 0, sizeof *a);
}

static void ctx_close(py_ctx *ctx)
{
    for (int i = 0; i < ctx->nregions; i++) {
        cg_map_free(&ctx->regions[i]->inputs);
        cg_streams_free(&ctx->regions[i]->streams);
    }
    free(ctx->regions);
    cg_map_free(&ctx->memo);
    cg_map_free(&ctx->globals);
    cg_map_free(&ctx->callers);
    cg_map_free(&ctx->latches);
    cg_map_free(&ctx->queries);
    free(ctx->seen);
    free(ctx->seen_list);
    free(ctx->busy);
    cg_arena_free(ctx->arena);
}

typedef struct analyses {
    py_project *p;
    size_t *order;         /* the analyses to run, largest file first (long ones start first) */
} analyses;

static void analyse_one(void *arg, size_t job)
{
    analyses *an = arg;
    py_analysis *a = &an->p->an[an->order[job]];
    py_module *m = &an->p->mods[a->root];
    py_ctx ctx;
    ctx_open(&ctx, an->p, m, a);
    current = &ctx;
    clock_t t0 = clock();
    /* a partial run (py_cache.c) parses the capture file here */
    if (py_module_ensure(an->p, m) == 0) {
        scan_function(&ctx, m->body);
        for (size_t k = 0; k < m->nall_funcs; k++)
            if (func_mentions_capture(m->all_funcs[k])) scan_function(&ctx, m->all_funcs[k]);
        py_region_scan_implicit(&ctx, m);
    }
    current = NULL;
    /* CGLINT_TRACE_REACH=1: what each capture file's analysis loaded, and its time (tuning) */
    if (getenv("CGLINT_TRACE_REACH"))
        fprintf(stderr, "cglint: analysis of %s loaded %zu modules, %.1f ms\n", m->file->path, ctx.nseen,
                (double)(clock() - t0) * 1e3 / CLOCKS_PER_SEC);
    if (getenv("CGLINT_TRACE_REACH") && getenv("CGLINT_TRACE_REACH")[0] == '2')
        for (size_t k = 0; k < ctx.nseen; k++) fprintf(stderr, "cglint:   %s\n", ctx.seen_list[k]->file->path);
    /* `cglint server`: which modules each capture file's analysis used */
    const cg_py_focus *fo = an->p->opts->focus;
    if (fo && fo->reach) {
        static pthread_mutex_t reach_lock = PTHREAD_MUTEX_INITIALIZER;
        pthread_mutex_lock(&reach_lock);
        for (size_t k = 0; k < ctx.nseen; k++) fo->reach(fo->ctx, m->file->path, ctx.seen_list[k]->file->path);
        pthread_mutex_unlock(&reach_lock);
    }
    ctx_record(&ctx);
    ctx_close(&ctx);
}

static int by_size(const void *a, const void *b, void *arg)
{
    py_project *p = arg;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const cg_file *fi = p->mods[p->an[i].root].file, *fj = p->mods[p->an[j].root].file;
    size_t si = fi->have_st ? (size_t)fi->st.st_size : 0, sj = fj->have_st ? (size_t)fj->st.st_size : 0;
    return si != sj ? (si < sj ? 1 : -1) : (i > j) - (i < j);
}

void py_analyze_project(py_project *p)
{
    if (!p->an) {   /* every capture file (a partial run has its list from the index) */
        p->an = cg_xcalloc(p->nmods ? p->nmods : 1, sizeof *p->an);
        for (size_t i = 0; i < p->nmods; i++)
            if (p->mods[i].has_marker && p->mods[i].state == 1) {
                py_analysis *a = &p->an[p->nan++];
                a->root = i;
                a->run = 1;
                cg_report_init(&a->out, p->report->rules);
            }
    }
    analyses an = { .p = p };
    size_t n = 0;
    an.order = cg_xcalloc(p->nan ? p->nan : 1, sizeof *an.order);
    for (size_t i = 0; i < p->nan; i++)
        if (p->an[i].run) an.order[n++] = i;
    qsort_r(an.order, n, sizeof *an.order, by_size, p);
    cg_pool_for(n, p->opts->jobs, analyse_one, &an);
    free(an.order);
    for (size_t i = 0; i < p->nan; i++) {
        cg_report *o = &p->an[i].out;
        for (size_t k = 0; k < o->nfindings; k++) cg_report_add(p->report, &o->findings[k]);
    }
}
