/* cu_call.c - calls: which function a call means, its arguments, following it.
 *
 * A call's arguments are evaluated, then the call is an event (CU_EV_CALL,
 * built here with the facts rules read about it) and has its effects: a
 * CUDA API call begins or ends a capture (cu_region.c), creates a stream or
 * event handle, records, waits or allocates (the ledger, cu_region.c), or
 * launches a kernel (a CU_EV_LAUNCH event too); pthread_create, std::thread
 * and std::async start threads, join ends them (CG708).  A call into the
 * analysed tree is then followed into its body: by USR, across translation
 * units, with its arguments bound to its parameters and the call path
 * pushed.
 *
 * Which calls are followed
 *   Outside a capture only calls that can reach a capture API (bearing
 *   functions, cu_index.c); inside one every call into the analysed tree.
 *   Each body is walked once per (capture, argument shape), never while it
 *   is on the walk's stack, and within the walk's bounds (cu_eval.h): calls
 *   not followed because of a bound are noted once per run.  Lambdas are
 *   followed where they are called; a callback handed to a function outside
 *   the tree (std::for_each, a thread pool) is not. */
#include "cu_eval.h"
#include <stdlib.h>
#include <string.h>
#include "core/str.h"

cu_func *cu_func_of(cu_ctx *ctx, const char *usr)
{
    int file = ctx->fr && ctx->fr->fn ? ctx->fr->fn->file : -1;
    return cu_func_in(ctx->p, usr, file);
}

/* ---- frames ------------------------------------------------------------------------------- */
void cu_frame_push(cu_ctx *ctx, cu_frame *fr, cu_func *fn)
{
    memset(fr, 0, sizeof *fr);
    fr->fn = fn;
    fr->caller = ctx->fr;
    fr->depth = ctx->depth;
    fr->nest0 = ctx->nest;
    fr->entry_region = ctx->st.cap ? ctx->st.cap->id : 0;
    cg_map_init(&fr->env);
    ctx->fr = fr;
}

void cu_frame_pop(cu_ctx *ctx, cu_frame *fr)
{
    cg_map_free(&fr->env);
    free(fr->cs);
    free(fr->loop_vars);
    free(fr->dtors);
    ctx->fr = fr->caller;
}

/* ---- following calls ---------------------------------------------------------------------- */
/* May the walk go into `body` here?  Not twice for one capture and argument
 * shape, and not past the walk's bounds (the first call cut is kept for the
 * note).  Marks the body walked. */
/* The memo's value for a body walked already: (void *)1, or the clock read
 * (a cu_place) the value it returned was computed from (CG302). */
static int call_admit(cu_ctx *ctx, cu_func *fn, const cu_node *body, const cu_node *call,
                      const cu_val *args, int nargs, const char **memo_key, const cu_place **memo_clock)
{
    char key[128];
    int kl = 0;
    if (cu_active(ctx)) {
        kl = snprintf(key, sizeof key, "%p:%d:%llx", (const void *)body, ctx->st.cap->id,
                      (unsigned long long)cu_v_args_sig(args, nargs));
        void *m = cg_map_get(&ctx->memo, key, (size_t)kl);
        if (m) {   /* walked already */
            if (m != (void *)1) *memo_clock = m;
            return 0;
        }
    }
    if (ctx->depth >= CU_MAX_DEPTH) {
        if (!ctx->cut_depth) ctx->cut_depth = call;
        return 0;
    }
    /* the bodies of the call chain must fit the walk's stack together */
    int height = fn && fn->height ? fn->height : CU_MAX_EVAL_NEST;
    if (ctx->nest + height + 2 > CU_MAX_TOTAL_NEST) {
        if (!ctx->cut_nest) ctx->cut_nest = call;
        return 0;
    }
    if (cu_active(ctx)) {
        *memo_key = cg_arena_strndup(ctx->arena, key, (size_t)kl);
        cg_map_put(&ctx->memo, *memo_key, (size_t)kl, (void *)1);
        if (fn && ++fn->active_walks > CU_MAX_ACTIVE_WALKS) {
            if (!ctx->cut_walks) ctx->cut_walks = call;
            return 0;
        }
    }
    return 1;
}

/* The parameters' values: the arguments; a stream or event parameter nobody
 * passed is a handle of its own (a stream that may be any stream). */
static void bind_params(cu_ctx *ctx, cu_func *fn, const cu_val *args, int nargs)
{
    for (int i = 0; i < fn->nparams; i++) {
        const cu_param *pm = &fn->params[i];
        cu_val v = i < nargs ? args[i] : CU_UNKNOWN;
        if (v.kind == CU_V_INT && (v.flags & CU_VF_NULL) && pm->tclass == CU_T_STREAM)
            v = cu_v_as_stream(&v, fn->ptds);
        if (v.kind == CU_V_UNKNOWN && pm->tclass == CU_T_STREAM)
            v = cu_v_stream_var(cg_arena_printf(ctx->arena, "v:%s", pm->usr), 1);
        if (v.kind == CU_V_UNKNOWN && pm->tclass == CU_T_EVENT)
            v = cu_v_event(cg_arena_printf(ctx->arena, "v:%s", pm->usr));
        cu_env_bind(ctx, pm->usr, v, 0);
    }
}

cu_val cu_call_body(cu_ctx *ctx, cu_func *fn, const cu_node *body, const char *name,
                    const cu_node *call, const cu_val *args, int nargs, int bind)
{
    if (!body) return CU_UNKNOWN;
    if (fn && fn->on_stack && bind) return CU_UNKNOWN;
    const char *memo_key = NULL;
    const cu_place *memo_clock = NULL;
    if (!call_admit(ctx, fn, body, call, args, nargs, &memo_key, &memo_clock)) {
        cu_val r = CU_UNKNOWN;
        r.clock = memo_clock;
        return r;
    }
    if (call) cg_callpath_push(&ctx->path, name, cu_cg_loc(ctx->p, &call->loc));
    cu_frame fr;
    cu_frame_push(ctx, &fr, fn);
    fr.depth = ++ctx->depth;
    if (bind && fn) bind_params(ctx, fn, args, nargs);
    if (fn) fn->on_stack++;
    const cu_capture *open_before = ctx->st.cap;
    cu_exec(ctx, body);
    cu_run_dtors(ctx, 0);
    if (fn) fn->on_stack--;
    cu_region_fn_end(ctx, fn, fr.depth, open_before);
    cu_val ret = fr.ret;
    if (memo_key && ret.clock) cg_map_put(&ctx->memo, memo_key, strlen(memo_key), (void *)(uintptr_t)ret.clock);
    ctx->depth--;
    cu_frame_pop(ctx, &fr);
    if (call) cg_callpath_pop(&ctx->path);
    cu_region_caller_holds(ctx, fn);
    return ret;
}

cu_val cu_call_function(cu_ctx *ctx, cu_func *fn, const cu_node *call, const cu_val *args, int nargs)
{
    if (!fn) return CU_UNKNOWN;
    if (!cu_active(ctx) && !fn->bearing) return CU_UNKNOWN;
    return cu_call_body(ctx, fn, fn->body, fn->qualname, call, args, nargs, 1);
}

static cu_val call_lambda(cu_ctx *ctx, const cu_val *lam, const cu_node *call)
{
    if (!lam->lambda || !lam->lambda->nkids) return CU_UNKNOWN;
    /* outside a capture a lambda matters only if it may begin one */
    if (!cu_active(ctx) && (!lam->fn || !lam->fn->bearing)) return CU_UNKNOWN;
    const char *name = cg_arena_printf(ctx->arena, "lambda at %s", cu_loc_str(ctx, &lam->lambda->loc));
    return cu_call_body(ctx, lam->fn, lam->lambda->kids[0], name, call, NULL, 0, 0);
}

void cu_run_dtors(cu_ctx *ctx, int scope_min)
{
    cu_frame *fr = ctx->fr;
    while (fr->ndtors > 0 && fr->dtors[fr->ndtors - 1].scope >= scope_min) {
        cu_dtor d = fr->dtors[--fr->ndtors];
        fr->at = d.decl;
        cu_call_function(ctx, d.fn, d.decl, NULL, 0);
    }
}

/* ---- threads (CG708) ------------------------------------------------------------------------ */
static const cu_node *callable_work(cu_ctx *ctx, const cu_val *v)
{
    int file = ctx->fr && ctx->fr->fn ? ctx->fr->fn->file : -1;
    if (v->kind == CU_V_LAMBDA && v->lambda && v->lambda->nkids)
        return cu_index_cuda_work(&ctx->ix, v->lambda->kids[0], file);
    if (v->kind == CU_V_FUNC && v->fn) return cu_index_cuda_work(&ctx->ix, v->fn->body, v->fn->file);
    return NULL;
}

static void thread_event(cu_ctx *ctx, const cu_node *start, const cu_node *work, int before)
{
    cu_event ev = { .kind = CU_EV_THREAD, .node = start, .work = work, .started_before = before };
    cu_emit(ctx, &ev);
}

void cu_threads_at_begin(cu_ctx *ctx)
{
    for (int i = 0; i < ctx->nthreads; i++) thread_event(ctx, ctx->threads[i].start, ctx->threads[i].work, 1);
}

/* A thread is started at `start` running callable v; handle names its
 * std::thread or pthread_t (NULL: not joinable by name).  Only threads that
 * do CUDA work are kept. */
static void thread_started(cu_ctx *ctx, const cu_node *start, const cu_val *v, const char *handle)
{
    const cu_node *work = callable_work(ctx, v);
    if (!work) return;
    if (ctx->st.cap) thread_event(ctx, start, work, 0);
    ctx->threads = cu_grow(ctx->threads, &ctx->capthreads, ctx->nthreads, sizeof *ctx->threads);
    ctx->threads[ctx->nthreads].start = start;
    ctx->threads[ctx->nthreads].work = work;
    ctx->threads[ctx->nthreads].handle = handle;
    ctx->nthreads++;
}

static void thread_joined(cu_ctx *ctx, const cu_node *handle_expr)
{
    const cu_node *root = cu_lvalue_root(handle_expr);
    if (!root || !root->usr) return;
    for (int i = 0; i < ctx->nthreads; i++)
        if (cg_eq(ctx->threads[i].handle, root->usr)) { ctx->threads[i] = ctx->threads[--ctx->nthreads]; i--; }
}

static int is_callable(const cu_val *v) { return v->kind == CU_V_LAMBDA || v->kind == CU_V_FUNC; }

/* pthread_create, std::async, pthread_join, t.join() */
static void thread_call(cu_ctx *ctx, const cu_node *n, const cu_event *ev, const cu_val *args, int nargs)
{
    if (cg_eq(n->name, "pthread_create") && nargs >= 3) {
        const cu_node *h = cu_lvalue_root(n->kids[1]);
        thread_started(ctx, n, &args[2], h ? h->usr : NULL);
    } else if (cg_eq(n->name, "async") && n->usr && strstr(n->usr, "@N@std@")) {
        for (int i = 0; i < nargs; i++)
            if (is_callable(&args[i])) { thread_started(ctx, n, &args[i], NULL); break; }
    } else if (cg_eq(n->name, "pthread_join") && nargs >= 1) {
        thread_joined(ctx, n->kids[1]);
    } else if (cg_eq(n->name, "join") && ev->obj) {
        thread_joined(ctx, ev->obj);
    }
}

/* ---- launches ------------------------------------------------------------------------------- */
/* The launch event of kernel<<<grid, block, smem, stream>>>(args): kv holds
 * the values of all of n's children. */
__attribute__((noinline)) static void launch_site(cu_ctx *ctx, const cu_node *n, const cu_val *kv)
{
    cu_event ev = { .kind = CU_EV_LAUNCH, .node = n, .name = n->name, .usr = n->usr };
    ev.grid_node = n->kids[0];
    ev.block_node = n->kids[1];
    ev.smem_node = n->kids[2]->kind == CU_N_EMPTY ? NULL : n->kids[2];
    ev.grid = cu_v_dim3_from(&kv[0]);
    ev.block = cu_v_dim3_from(&kv[1]);
    ev.smem = kv[2];
    ev.first_karg = 4;
    ev.has_stream = 1;
    if (n->kids[3]->kind == CU_N_EMPTY) {
        ev.stream = cu_v_default_stream(cu_ptds(ctx));
        ev.stream_node = NULL;
    } else {
        ev.stream = cu_v_as_stream(&kv[3], cu_ptds(ctx));
        ev.stream_node = n->kids[3];
    }
    ev.role = cu_stream_role(ctx, &ev.stream);
    if (ev.role == CU_ROLE_OTHER && ev.stream_node && cu_active(ctx))
        ev.stream_from = cu_place_of_value(ctx, ev.stream_node, &ev.stream_via);
    ev.nargs = n->nkids - 4;
    ev.argn = (const cu_node *const *)n->kids + 4;
    ev.args = kv + 4;
    for (int i = 0; i < n->nkids && !ev.clock_read; i++)
        if (kv[i].clock) { ev.clock_read = kv[i].clock; ev.clock_arg = n->kids[i]; }
    cu_smem_facts(ctx, &ev);
    cu_emit(ctx, &ev);
    cu_ledger_work(ctx, &ev);
}

cu_val cu_eval_launch(cu_ctx *ctx, const cu_node *n)
{
    cu_val *kv = cg_xmalloc((size_t)n->nkids * sizeof *kv);
    for (int i = 0; i < n->nkids; i++) kv[i] = cu_eval(ctx, n->kids[i]);
    if (n->nkids >= 4) launch_site(ctx, n, kv);
    free(kv);
    return CU_UNKNOWN;
}

/* cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, ...): the grid and
 * block from their three arguments each */
static void driver_geometry(cu_event *le, const cu_node *call, const cu_val *args)
{
    cu_val g = CU_UNKNOWN, b = CU_UNKNOWN;
    g.kind = b.kind = CU_V_DIM3;
    for (int i = 0; i < 3; i++) {
        if (args[1 + i].kind == CU_V_INT && (args[1 + i].known & 1)) {
            (&g.x)[i] = args[1 + i].x;
            g.known |= (uint8_t)(1 << i);
        }
        if (args[4 + i].kind == CU_V_INT && (args[4 + i].known & 1)) {
            (&b.x)[i] = args[4 + i].x;
            b.known |= (uint8_t)(1 << i);
        }
        if (!g.src.usr) g.src = args[1 + i].src;
        if (!b.src.usr) b.src = args[4 + i].src;
    }
    le->grid = g;
    le->block = b;
    le->grid_node = call->kids[2];
    le->block_node = call->kids[5];
    le->smem = args[7];
    le->smem_node = call->kids[8];
}

/* cudaLaunchKernel(f, grid, block, args, smem, stream) / cuLaunchKernel(...):
 * a launch event after the call's own */
static void api_launch_event(cu_ctx *ctx, const cu_event *ev, const cu_node *call, const cu_api *api,
                             const cu_val *args, int nargs)
{
    cu_event le = *ev;
    le.kind = CU_EV_LAUNCH;
    le.clock_read = NULL;   /* reported with the call's own event */
    le.nargs = 0;
    le.first_karg = -1;
    if (api->flags & CU_API_DRIVER) {
        if (nargs < 8) return;
        driver_geometry(&le, call, args);
    } else {
        if (nargs < 5) return;
        le.grid = cu_v_dim3_from(&args[1]);
        le.block = cu_v_dim3_from(&args[2]);
        le.grid_node = call->kids[2];
        le.block_node = call->kids[3];
        le.smem = args[4];
        le.smem_node = call->kids[5]->kind == CU_N_EMPTY ? NULL : call->kids[5];
    }
    /* the kernel: a function name, maybe cast */
    const cu_node *k = cu_lvalue_root(call->kids[1]);
    le.usr = k ? k->usr : NULL;
    le.name = k ? k->name : NULL;
    cu_smem_facts(ctx, &le);
    cu_emit(ctx, &le);
}

/* ---- API calls ------------------------------------------------------------------------------ */
static int nonblocking_flag(const cu_node *n, const cu_val *v)
{
    if (!n) return 0;
    if (cu_mentions_name(n, "cudaStreamNonBlocking") || cu_mentions_name(n, "CU_STREAM_NON_BLOCKING")) return 1;
    int64_t x;
    if (cu_fold(n, &x)) return (int)(x & 1);
    return v->kind == CU_V_INT && (v->known & 1) && (v->x & 1);
}

/* The handles an API call gives its out-parameter: a stream, an event, a
 * capture status (a guard). */
static void api_handles(cu_ctx *ctx, const cu_node *call, const cu_api *api, const cu_val *args, int nargs)
{
    const cu_node *a0 = call->nkids > 1 ? call->kids[1] : NULL;
    if (api->flags & CU_API_STREAM_CREATE) {
        const cu_node *root = cu_lvalue_root(a0);
        if (!root) return;
        cu_val s = cu_v_stream_var(cu_ident(ctx, root), 0);
        if (api->aux >= 0 && api->aux < nargs && nonblocking_flag(call->kids[api->aux + 1], &args[api->aux]))
            s.flags |= CU_VF_NONBLOCKING;
        cu_env_set(ctx, root, s);
    } else if (api->flags & CU_API_EVENT_CREATE) {
        const cu_node *root = cu_lvalue_root(a0);
        if (root) cu_env_set(ctx, root, cu_v_event(cu_ident(ctx, root)));
    } else if (api->flags & CU_API_IS_CAPTURING) {
        if (api->aux + 1 < call->nkids) cu_env_set(ctx, cu_lvalue_root(call->kids[api->aux + 1]), cu_v_guard(CU_G_POS));
    }
}

/* The stream an API call works on (argument idx). */
static void fill_stream(cu_ctx *ctx, cu_event *ev, const cu_node *call, int idx, const cu_val *args, int nargs)
{
    int ptds = cu_ptds(ctx);
    const cu_node *sn = idx + 1 < call->nkids ? call->kids[idx + 1] : NULL;
    /* a call clang could not resolve (broken or missing headers, a dependent
     * template call) has no default arguments filled in, and clang may have
     * dropped an argument it could not build: a missing stream is unknown,
     * not the default stream */
    if (!sn && (call->flags & CU_F_DEPENDENT)) return;
    ev->has_stream = 1;
    if (!sn || sn->kind == CU_N_EMPTY) {
        ev->stream_node = NULL;
        ev->stream = cu_v_default_stream(ptds);
    } else {
        ev->stream_node = sn;
        ev->stream = idx < nargs ? cu_v_as_stream(&args[idx], ptds) : CU_UNKNOWN;
    }
    ev->role = cu_stream_role(ctx, &ev->stream);
    if (ev->role == CU_ROLE_OTHER && ev->stream_node && cu_active(ctx))
        ev->stream_from = cu_place_of_value(ctx, ev->stream_node, &ev->stream_via);
}

/* An API call: begins or ends a capture, or is an event with effects. */
static void api_call(cu_ctx *ctx, const cu_node *n, const cu_api *api, cu_event *ev,
                     const cu_val *args, int nargs)
{
    if (api->flags & CU_API_BEGIN) {
        cu_region_begin(ctx, n, api, ev->name, args, nargs);
        return;
    }
    cu_emit(ctx, ev);
    if (api->flags & CU_API_END) {
        cu_region_end(ctx, n, api, args, nargs);
        return;
    }
    if (api->flags & CU_API_LAUNCH) api_launch_event(ctx, ev, n, api, args, nargs);
    api_handles(ctx, n, api, args, nargs);
    if (cu_active(ctx)) cu_ledger_api(ctx, n, api, args, nargs, ev);
}

/* ---- the call event ---------------------------------------------------------------------------- */
/* A call the walk does not follow into a body that may keep its arguments
 * (a library's setter: curandSetPseudoRandomGeneratorSeed(gen, t), a
 * container's push_back): not the C or C++ standard library's functions
 * that only compute with them (std::min) or print them (CG301's). */
static int may_keep_args(const cu_node *n)
{
    static const char *const io[] = { "printf", "fprintf", "sprintf", "snprintf", "puts", "fputs",
        "fwrite", "write", "perror", "fflush", "difftime", NULL };
    if (cg_one_of(n->name, io)) return 0;
    return !(n->usr && (strstr(n->usr, "@N@std@") || strstr(n->usr, "@N@__gnu_cxx@")));
}

static void call_event(cu_ctx *ctx, cu_event *ev, const cu_node *n, const cu_api *api, const cu_val *args,
                       int nargs)
{
    const cu_node *obj = n->nkids ? n->kids[0] : NULL;
    char norm[96];
    const char *name = n->name;
    if (api) { cu_api_normalize(n->name, norm, sizeof norm); name = cg_arena_strdup(ctx->arena, norm); }
    *ev = (cu_event){ .kind = CU_EV_CALL, .node = n, .name = name, .api = api, .usr = n->usr,
                      .obj = obj && obj->kind != CU_N_EMPTY ? obj : NULL, .nargs = nargs,
                      .argn = nargs ? (const cu_node *const *)n->kids + 1 : NULL, .args = args };
    if (ev->obj && cu_active(ctx)) {
        const cu_node *root = cu_lvalue_root(ev->obj);
        if (root) ev->obj_outside = cu_env_older(ctx, root);
        ev->obj_looked_up = cu_index_looked_up(&ctx->ix, ctx->fr->fn, ev->obj);
    }
    if (api && api->stream >= 0) fill_stream(ctx, ev, n, api->stream, args, nargs);
    if (api && (api->flags & CU_API_ON_EVENT) && api->aux < nargs)
        ev->on_captured_event = cu_is_captured_event(ctx, &args[api->aux]);
}

/* A call's event and its effects on the walk (an API's, a thread's): 1 when
 * that is all, 0 when the walk is to follow it into a body.  Not inlined:
 * the event stays off the stack of the calls the walk follows. */
__attribute__((noinline)) static int call_site(cu_ctx *ctx, const cu_node *n, cu_func *fn, const cu_val *args,
                                               int nargs, int opaque)
{
    const cu_api *api = fn ? NULL : cu_api_lookup(n->name);
    cu_event ev;
    call_event(ctx, &ev, n, api, args, nargs);
    /* a clock value handed to a CUDA API, or to a function not followed that may keep it */
    if (api || (!fn && opaque && may_keep_args(n)))
        for (int i = 0; i < nargs && !ev.clock_read; i++)
            if (args[i].clock) { ev.clock_read = args[i].clock; ev.clock_arg = n->kids[i + 1]; }
    ctx->fr->at = n;
    if (!api && n->name) thread_call(ctx, n, &ev, args, nargs);
    if (api) {
        api_call(ctx, n, api, &ev, args, nargs);
        return 1;
    }
    cu_emit(ctx, &ev);
    /* a noreturn function (ggml_abort, a project's fatal-error helper) is an
     * error path: it ends the program, and what it prints on the way is not
     * work of the capture */
    if (cu_is_terminator(n)) { ctx->fr->terminated = 1; return 1; }
    return 0;
}

/* A CUDA API called through a variable that holds it (a function or
 * template parameter: `query(obj)` in `poll(cudaStreamQuery, s)`): the API's
 * call, placed where the user named the API (the argument of the call into
 * the helper) when it came through parameters. */
static void call_api_value(cu_ctx *ctx, const cu_node *n, const cu_node *obj, const char *api_name,
                           const cu_val *args, int nargs)
{
    const char *via = NULL;
    cu_place pl = cu_place_of_value(ctx, obj, &via);
    cu_node *m = cg_arena_alloc(ctx->arena, sizeof *m);
    *m = *n;
    m->name = api_name;
    m->usr = NULL;
    m->flags &= (uint16_t)~CU_F_DEPENDENT;
    if (via && pl.at) m->loc = pl.at->loc;
    /* a plain call of the API: no receiver (kids[0] held the variable called through) */
    if (m->nkids > 0) {
        cu_node **k = cg_arena_alloc(ctx->arena, (size_t)m->nkids * sizeof *k);
        memcpy(k, n->kids, (size_t)m->nkids * sizeof *k);
        cu_node *empty = cg_arena_alloc(ctx->arena, sizeof *empty);
        memset(empty, 0, sizeof *empty);
        empty->kind = CU_N_EMPTY;
        empty->loc.file = -1;
        k[0] = empty;
        m->kids = k;
    }
    call_site(ctx, m, NULL, args, nargs, 0);
}

/* What a call not followed returns, as far as CG302 cares: a clock read
 * here (outside an error path), or a value computed from its receiver's or
 * arguments' (t.time_since_epoch().count(), std::max(t, 1)). */
static const cu_place *clock_value(cu_ctx *ctx, const cu_node *n, const cu_val *objv, const cu_val *args, int nargs)
{
    if (cu_host_entropy(n->name, n->usr) == CU_ENTROPY_CLOCK) {
        for (const cu_frame *f = ctx->fr; f; f = f->caller)
            if (f->error_path > 0) return NULL;
        cu_place *pl = cg_arena_alloc(ctx->arena, sizeof *pl);
        pl->at = n;
        pl->path = cu_snapshot_path(ctx, &pl->npath);
        return pl;
    }
    if (objv->clock) return objv->clock;
    for (int i = 0; i < nargs; i++)
        if (args[i].clock) return args[i].clock;
    return NULL;
}

cu_val cu_eval_call(cu_ctx *ctx, const cu_node *n)
{
    cu_val objv = CU_UNKNOWN;
    const cu_node *obj = n->nkids ? n->kids[0] : NULL;
    if (obj && obj->kind != CU_N_EMPTY) objv = cu_eval(ctx, obj);
    int nargs = n->nkids > 1 ? n->nkids - 1 : 0;
    cu_val *args = nargs ? cg_xmalloc((size_t)nargs * sizeof *args) : NULL;
    for (int i = 0; i < nargs; i++) args[i] = cu_eval(ctx, n->kids[i + 1]);
    cu_val r = CU_UNKNOWN;
    if (!ctx->fr->terminated) {
        cu_func *fn = (n->flags & CU_F_DEPENDENT) ? NULL : cu_func_of(ctx, n->usr);
        /* a function clang could not declare (its header missing): by name, when the tree defines one */
        if (!fn && (n->flags & CU_F_UNDECLARED) && (!obj || obj->kind == CU_N_EMPTY))
            fn = cu_index_by_name(&ctx->ix, n->name, nargs);
        int opaque = !fn && objv.kind != CU_V_LAMBDA && objv.kind != CU_V_FUNC;
        if (!call_site(ctx, n, fn, args, nargs, opaque)) {
            if (fn) r = cu_call_function(ctx, fn, n, args, nargs);
            else if (objv.kind == CU_V_LAMBDA) r = call_lambda(ctx, &objv, n);
            else if (objv.kind == CU_V_FUNC && objv.fn) r = cu_call_function(ctx, objv.fn, n, args, nargs);
            else if (objv.kind == CU_V_FUNC && objv.name) call_api_value(ctx, n, obj, objv.name, args, nargs);
            /* a callback passed to an unknown function (std::for_each, a thread pool...) is not followed */
        }
        if (opaque && cu_active(ctx)) r.clock = clock_value(ctx, n, &objv, args, nargs);
    }
    free(args);
    return r;
}

static int is_std_thread(const cu_node *n)
{
    return cg_starts(n->usr, "c:@N@std@S@thread@") || cg_starts(n->usr, "c:@N@std@S@jthread@");
}

cu_val cu_eval_construct(cu_ctx *ctx, const cu_node *n)
{
    int nargs = n->nkids;
    cu_val *args = nargs ? cg_xmalloc((size_t)nargs * sizeof *args) : NULL;
    for (int i = 0; i < nargs; i++) args[i] = n->kids[i]->kind == CU_N_EMPTY ? CU_UNKNOWN : cu_eval(ctx, n->kids[i]);
    cu_val r = CU_UNKNOWN;
    if (n->tclass == CU_T_DIM3) {
        r = cu_v_dim3(n, args);
    } else if (is_std_thread(n) && nargs >= 1 && is_callable(&args[0])) {
        thread_started(ctx, n, &args[0], NULL);
        ctx->last_thread_start = n;
    } else {
        cu_func *fn = cu_func_of(ctx, n->usr);
        ctx->fr->at = n;
        if (fn) cu_call_function(ctx, fn, n, args, nargs);
        /* copying a value keeps what it is (a stream in a wrapper's copy is still that stream) */
        if (nargs == 1 && is_callable(&args[0])) r = args[0];
    }
    free(args);
    return r;
}
