/* cu_region.c - capture regions: where they begin and end, what is open in
 * them, and the facts the rules read about them.
 *
 * How regions are modelled
 *   A region opens at cudaStreamBeginCapture / cudaStreamBeginCaptureToGraph
 *   / cuStreamBeginCapture(_v2) and closes at the matching EndCapture,
 *   wherever those calls sit: in one function, in helpers (begin in one,
 *   end in another: the caller holds a capture its helper began), or in a
 *   constructor and destructor (RAII: a class object's destructor runs at
 *   the end of its scope or at a return, and the capture site is the
 *   object).  A function that began a capture and may return with it still
 *   open ends it there for the walk (CG707's unended event).
 *
 * Guards and error paths
 *   A status from cudaStreamIsCapturing / cudaStreamGetCaptureInfo is a
 *   guard (cu_value.c); inside a region the arm of an if that runs only when
 *   not capturing is skipped.  A condition that tests an error code, and an
 *   arm that ends the program (exit, abort, throw, a noreturn function,
 *   error-check macros expand to these), make an error path.
 *
 * Streams: the ledger
 *   cudaEventRecord on a stream in the capture followed by
 *   cudaStreamWaitEvent on another stream forks that stream into the
 *   capture; the reverse joins it, and work issued on a forked stream after
 *   that needs another join (CG402).  Streams passed in by callers nobody
 *   analysed may be anything and are never called foreign.  cudaMallocAsync
 *   and cudaFreeAsync are paired the same way (CG502).
 *
 * Host values
 *   A launch's geometry, an API call's size and a kernel's by-value
 *   arguments are kept by the graph.  Each one read from a host variable is
 *   checked, when the capture ends, against the writes to that variable:
 *   after the capture or in a loop around it in the functions the capture
 *   runs in, or in a function that one of those calls after the capture
 *   (CG204, CG306).  Writes inside the capture are its own. */
#include "cu_eval.h"
#include "cu_clang.h"
#include <stdlib.h>
#include <string.h>
#include "core/str.h"

const cg_step *cu_snapshot_path(cu_ctx *ctx, int *n)
{
    cu_capture *r = ctx->st.cap;
    int base = r && r->path_base < ctx->path.n ? r->path_base : ctx->path.n;
    *n = ctx->path.n - base;
    if (!*n) return NULL;
    cg_step *out = cg_arena_alloc(ctx->arena, (size_t)*n * sizeof *out);
    memcpy(out, ctx->path.step + base, (size_t)*n * sizeof *out);
    return out;
}

static cu_place place_here(cu_ctx *ctx, const cu_node *at)
{
    cu_place pl;
    pl.at = at;
    pl.path = cu_snapshot_path(ctx, &pl.npath);
    return pl;
}

cu_place cu_place_of_value(cu_ctx *ctx, const cu_node *n, const char **via)
{
    cu_place pl = place_here(ctx, n);
    *via = NULL;
    const cu_frame *f = ctx->fr;
    int np = pl.npath;
    while (n && f && f->fn && f->caller && np > 0) {
        const cu_node *r = n;
        while (r && r->kind == CU_N_CAST && r->nkids == 1) r = r->kids[0];
        if (!r || r->kind != CU_N_REF || r->storage != CU_S_PARAM || !r->usr) break;
        int i = 0;
        while (i < f->fn->nparams && !cg_eq(f->fn->params[i].usr, r->usr)) i++;
        const cu_node *call = f->caller->at, *arg = NULL;
        if (i == f->fn->nparams || !call) break;
        if (call->kind == CU_N_CALL && 1 + i < call->nkids && !cg_eq(call->name, "operator()")) arg = call->kids[1 + i];
        else if (call->kind == CU_N_CONSTRUCT && i < call->nkids) arg = call->kids[i];
        if (!arg || arg->kind == CU_N_EMPTY || arg->loc.file < 0 || !arg->loc.line) break;
        *via = f->fn->qualname;
        n = arg;
        f = f->caller;
        np--;
    }
    pl.at = n;
    pl.npath = np;
    return pl;
}

/* ---- the ledger: the state branches copy and merge ------------------------------------------ */
static void *dup_array(const void *v, int n, size_t elem)
{
    if (!n) return NULL;
    void *r = cg_xmalloc((size_t)n * elem);
    memcpy(r, v, (size_t)n * elem);
    return r;
}

cu_state cu_state_copy(const cu_state *s)
{
    cu_state c = *s;
    c.forks = dup_array(s->forks, s->nforks, sizeof *s->forks);
    c.rec = dup_array(s->rec, s->nrec, sizeof *s->rec);
    c.allocs = dup_array(s->allocs, s->nalloc, sizeof *s->allocs);
    c.capforks = s->nforks;
    c.caprec = s->nrec;
    c.capalloc = s->nalloc;
    return c;
}

void cu_state_free(cu_state *s)
{
    free(s->forks);
    free(s->rec);
    free(s->allocs);
    memset(s, 0, sizeof *s);
}

void cu_state_reset(cu_state *s) { s->nforks = s->nrec = s->nalloc = 0; }

static cu_fork *add_fork(cu_state *s)
{
    s->forks = cu_grow(s->forks, &s->capforks, s->nforks, sizeof *s->forks);
    cu_fork *f = &s->forks[s->nforks++];
    memset(f, 0, sizeof *f);
    return f;
}

static cu_rec *add_rec(cu_state *s)
{
    s->rec = cu_grow(s->rec, &s->caprec, s->nrec, sizeof *s->rec);
    cu_rec *r = &s->rec[s->nrec++];
    memset(r, 0, sizeof *r);
    return r;
}

static cu_alloc *add_alloc(cu_state *s)
{
    s->allocs = cu_grow(s->allocs, &s->capalloc, s->nalloc, sizeof *s->allocs);
    cu_alloc *a = &s->allocs[s->nalloc++];
    memset(a, 0, sizeof *a);
    return a;
}

static cu_fork *find_fork(const cu_state *s, const char *id)
{
    for (int i = 0; i < s->nforks; i++)
        if (cg_eq(s->forks[i].id, id)) return &s->forks[i];
    return NULL;
}

static cu_rec *find_rec(const cu_state *s, const char *ev)
{
    for (int i = 0; ev && i < s->nrec; i++)
        if (cg_eq(s->rec[i].ev, ev)) return &s->rec[i];
    return NULL;
}

/* The state after two arms, from the states after each (both consumed). */
cu_state cu_state_merge(cu_state a, cu_state b)
{
    /* prefer the arm that keeps a capture open: a conditional begin stays begun */
    cu_state m = a.cap ? a : b;
    cu_state o = a.cap ? b : a;
    if (o.cap == m.cap) {
        for (int i = 0; i < o.nforks; i++) {
            cu_fork *f = find_fork(&m, o.forks[i].id);
            if (f) f->joined &= o.forks[i].joined;
            else *add_fork(&m) = o.forks[i];
        }
    }
    cu_state_free(&o);
    return m;
}

cu_role cu_stream_role(const cu_ctx *ctx, const cu_val *s)
{
    const cu_val *cs = ctx->st.cap ? &ctx->st.cap->facts.stream : NULL;
    if (s->kind != CU_V_STREAM) return CU_ROLE_UNKNOWN;
    if (cs && cu_v_same_stream(s, cs)) return CU_ROLE_CAPTURE;
    if (s->skind == CU_SK_LEGACY) return CU_ROLE_LEGACY;
    if (s->skind == CU_SK_PERTHREAD) {
        if (cs && (cs->kind != CU_V_STREAM || (cs->flags & CU_VF_MAYALIAS))) return CU_ROLE_UNKNOWN;
        return CU_ROLE_PERTHREAD;
    }
    if (find_fork(&ctx->st, s->id)) return CU_ROLE_FORKED;
    if (s->flags & CU_VF_MAYALIAS) return CU_ROLE_UNKNOWN;
    if (cs && cs->kind != CU_V_STREAM) return CU_ROLE_UNKNOWN;
    /* the capture runs on a stream passed in by a caller cglint did not see:
     * a member or global stream may be that very stream; a local one cannot */
    if (cs && (cs->flags & CU_VF_MAYALIAS) && s->id && (cg_starts(s->id, "f:") || cg_starts(s->id, "g:")))
        return CU_ROLE_UNKNOWN;
    return CU_ROLE_OTHER;
}

int cu_is_captured_event(const cu_ctx *ctx, const cu_val *ev)
{
    if (ev->kind != CU_V_EVENT) return 0;
    const cu_rec *r = find_rec(&ctx->st, ev->id);
    return r ? r->captured : 0;
}

static const char *event_id(cu_ctx *ctx, const cu_node *arg, const cu_val *v)
{
    if (v->kind == CU_V_EVENT && v->id) return v->id;
    return cu_ident(ctx, cu_lvalue_root(arg));
}

/* cudaEventRecord(ev, stream) */
static void ledger_record(cu_ctx *ctx, const cu_node *call, const cu_val *args, int nargs, const cu_event *ev)
{
    const cu_val none = CU_UNKNOWN;
    const char *eid = event_id(ctx, call->nkids > 1 ? call->kids[1] : NULL, nargs > 0 ? &args[0] : &none);
    if (!eid) return;
    cu_rec *rec = find_rec(&ctx->st, eid);
    if (!rec) rec = add_rec(&ctx->st);
    rec->ev = eid;
    rec->stream = ev->stream.kind == CU_V_STREAM ? (ev->stream.id ? ev->stream.id : "<default>") : NULL;
    rec->captured = ev->role == CU_ROLE_CAPTURE || ev->role == CU_ROLE_FORKED;
}

/* cudaStreamWaitEvent(stream, ev): on an event recorded in the capture, a
 * captured stream waiting joins the stream it was recorded on; a stream
 * outside the capture waiting is forked into it. */
static void ledger_wait(cu_ctx *ctx, const cu_node *call, const cu_val *args, int nargs, const cu_event *ev)
{
    const cu_val none = CU_UNKNOWN;
    const char *eid = event_id(ctx, call->nkids > 2 ? call->kids[2] : NULL, nargs > 1 ? &args[1] : &none);
    const cu_rec *rec = find_rec(&ctx->st, eid);
    if (!rec || !rec->captured) return;
    cu_role wrole = ev->role;
    cu_fork *src = rec->stream ? find_fork(&ctx->st, rec->stream) : NULL;
    if ((wrole == CU_ROLE_CAPTURE || wrole == CU_ROLE_FORKED) && src) {
        src->joined = 1;                 /* a join */
    } else if ((wrole == CU_ROLE_OTHER || wrole == CU_ROLE_UNKNOWN || wrole == CU_ROLE_PERTHREAD) &&
               ev->stream.kind == CU_V_STREAM && ev->stream.skind == CU_SK_VAR && ev->stream.id &&
               !find_fork(&ctx->st, ev->stream.id)) {
        cu_fork *f = add_fork(&ctx->st);
        f->id = ev->stream.id;
        f->where = place_here(ctx, call);
        f->joined = 0;
    }
}

void cu_ledger_work(cu_ctx *ctx, const cu_event *ev)
{
    if (!cu_active(ctx) || ev->role != CU_ROLE_FORKED || !ev->stream.id) return;
    cu_fork *f = find_fork(&ctx->st, ev->stream.id);
    if (f) f->joined = 0;                /* work after the last join */
}

/* cudaMallocAsync(&p, ...) / cudaFreeAsync(p, ...) */
static void ledger_alloc(cu_ctx *ctx, const cu_node *call, const cu_api *api)
{
    cu_state *st = &ctx->st;
    const cu_node *root = cu_lvalue_root(call->nkids > 1 ? call->kids[1] : NULL);
    if (api->flags & CU_API_ASYNC_ALLOC) {
        if (!root) return;
        cu_alloc *al = add_alloc(st);
        al->id = cu_ident(ctx, root);
        al->where = place_here(ctx, call);
    } else if (api->flags & CU_API_ASYNC_FREE) {
        const char *id = cu_ident(ctx, root);
        for (int i = 0; id && i < st->nalloc; i++)
            if (cg_eq(st->allocs[i].id, id)) { st->allocs[i] = st->allocs[--st->nalloc]; i--; }
    }
}

void cu_ledger_api(cu_ctx *ctx, const cu_node *call, const cu_api *api, const cu_val *args, int nargs,
                   const cu_event *ev)
{
    if (api->flags & CU_API_EVENT_RECORD) ledger_record(ctx, call, args, nargs, ev);
    else if (api->flags & CU_API_STREAM_WAIT) ledger_wait(ctx, call, args, nargs, ev);
    else if (api->flags & CU_API_WORK) cu_ledger_work(ctx, ev);
    ledger_alloc(ctx, call, api);
}

/* ---- guards and error paths ------------------------------------------------------------------ */
void cu_region_arms(const cu_ctx *ctx, const cu_val *cond, int *walk_then, int *walk_else)
{
    int g = cond->kind == CU_V_GUARD ? cond->guard : 0;
    *walk_then = !(cu_active(ctx) && g == CU_G_NEG);
    *walk_else = !(cu_active(ctx) && g == CU_G_POS);
    if (cond->kind == CU_V_INT && (cond->known & 1) && !cond->src.usr) {
        *walk_then = cond->x != 0;
        *walk_else = cond->x == 0;
    }
}

/* Two conditions that are the same expression (the same variables, fields,
 * calls and constants). */
static int same_expr(const cu_node *a, const cu_node *b, int depth)
{
    if (!a || !b) return a == b;
    if (depth > 16 || a->kind != b->kind || a->op != b->op || a->nkids != b->nkids) return 0;
    if (a->kind == CU_N_CALL) return 0;   /* a call may answer differently the second time */
    if ((a->flags & CU_F_IVAL) != (b->flags & CU_F_IVAL) || ((a->flags & CU_F_IVAL) && a->ival != b->ival)) return 0;
    if (a->kind == CU_N_INT && a->ival != b->ival) return 0;
    if (a->usr || b->usr) { if (!a->usr || !b->usr || strcmp(a->usr, b->usr)) return 0; }
    else if (a->name || b->name) { if (!a->name || !b->name || strcmp(a->name, b->name)) return 0; }
    for (int i = 0; i < a->nkids; i++)
        if (!same_expr(a->kids[i], b->kids[i], depth + 1)) return 0;
    return 1;
}

/* A condition without its leading `!`s; *neg: how many, mod 2. */
static const cu_node *strip_not(const cu_node *n, int *neg)
{
    *neg = 0;
    for (;;) {
        while (n && (n->kind == CU_N_CAST || (n->kind == CU_N_OTHER && n->nkids == 1))) n = n->kids[0];
        if (!n || n->kind != CU_N_UNARY || n->op != CXUnaryOperator_LNot || n->nkids != 1) return n;
        *neg ^= 1;
        n = n->kids[0];
    }
}

void cu_region_same_cond(const cu_ctx *ctx, const cu_node *cond, int *walk_then, int *walk_else)
{
    const cu_capture *r = ctx->st.cap;
    if (!r || !r->begin_cond || !ctx->fr || ctx->fr->fn != r->begin_fn || cond == r->begin_cond) return;
    int nb, nc;
    const cu_node *b = strip_not(r->begin_cond, &nb), *c = strip_not(cond, &nc);
    if (!b || !c || !same_expr(b, c, 0)) return;
    /* the capture's path: the begin's condition (without its `!`s) had the
     * value that took begin_arm; this if's then arm runs on that value when... */
    int base_true = r->begin_arm ^ nb;        /* 1: begun when the bare condition is true */
    int then_on_path = base_true ^ nc;
    if (then_on_path) *walk_else = 0;
    else *walk_then = 0;
}

/* The bound of a counting loop: `n` in `for (...; i < n; ...)` (also <=, !=). */
static const cu_node *loop_bound(const cu_node *loop)
{
    if (!loop || loop->kind != CU_N_LOOP || loop->op == 1) return NULL;
    for (int i = 0; i + 1 < loop->nkids; i++) {
        const cu_node *c = loop->kids[i];
        while (c && (c->kind == CU_N_CAST || (c->kind == CU_N_OTHER && c->nkids == 1))) c = c->kids[0];
        if (c && c->kind == CU_N_BINARY && c->nkids == 2 &&
            (c->op == CXBinaryOperator_LT || c->op == CXBinaryOperator_LE || c->op == CXBinaryOperator_NE))
            return c->kids[1];
    }
    return NULL;
}

int cu_region_same_loop(const cu_ctx *ctx, const cu_node *loop)
{
    const cu_capture *r = ctx->st.cap;
    if (!r || !r->begin_loop || r->begin_loop == loop || !ctx->fr || ctx->fr->fn != r->begin_fn) return 0;
    const cu_node *a = loop_bound(r->begin_loop), *b = loop_bound(loop);
    return a && b && same_expr(a, b, 0);
}

/* A condition that tests an error code: err != cudaSuccess, if (err), ... */
static int error_cond_at(const cu_node *n, int depth)
{
    if (!n || depth > 8) return 0;
    if (n->kind == CU_N_REF && (cg_eq(n->name, "cudaSuccess") || cg_eq(n->name, "CUDA_SUCCESS") ||
                                n->tclass == CU_T_ERROR))
        return 1;
    for (int i = 0; i < n->nkids; i++)
        if (n->kind != CU_N_CALL && error_cond_at(n->kids[i], depth + 1)) return 1;
    return 0;
}

int cu_is_error_cond(const cu_node *n) { return error_cond_at(n, 0); }

/* A constant operand: a literal, an enumerator, a constexpr (through casts). */
static const cu_node *strip_casts(const cu_node *n)
{
    while (n && (n->kind == CU_N_CAST || (n->kind == CU_N_OTHER && n->nkids == 1))) n = n->kids[0];
    return n;
}

static int is_const_operand(const cu_node *n)
{
    n = strip_casts(n);
    return n && (n->kind == CU_N_INT || n->kind == CU_N_NULL ||
                 ((n->kind == CU_N_REF || n->kind == CU_N_MEMBER) && (n->flags & CU_F_IVAL)));
}

/* Does an arm end by returning from the function (its last statement)?
 * 1: `return;`, 2: `return value;`. */
static int ends_in_return(const cu_node *n, int depth)
{
    if (!n || depth > 16) return 0;
    if (n->kind == CU_N_COMPOUND) return n->nkids ? ends_in_return(n->kids[n->nkids - 1], depth + 1) : 0;
    return n->kind == CU_N_RETURN ? 1 + (n->nkids > 0) : 0;
}

/* An error relay: `if (st != kOk) { report...; return st; }`, with any
 * status type (nccl-tests' NCCLCHECK, a project's RELAY macro): the
 * condition compares a value with a constant for inequality and the arm
 * returns (a value, when the constant is a bare literal: `if (n != 0) {
 * printf(...); return; }` is ordinary code).  Written out in user code or in a macro's body alike. */
int cu_is_relay(const cu_node *cond, const cu_node *then)
{
    cond = strip_casts(cond);
    if (!cond || cond->kind != CU_N_BINARY || cond->op != CXBinaryOperator_NE || cond->nkids != 2) return 0;
    int c0 = is_const_operand(cond->kids[0]), c1 = is_const_operand(cond->kids[1]);
    if (c0 == c1) return 0;
    const cu_node *k = strip_casts(cond->kids[c0 ? 0 : 1]);
    int r = ends_in_return(then, 0);
    /* against a named constant (kOk, ncclSuccess) any return relays; against
     * a literal (`rc != 0`) only a return of a value does */
    return r == 2 || (r == 1 && k->kind != CU_N_INT && k->kind != CU_N_NULL);
}

/* A case label and its statement (`default: stmt`). */
static int is_label(const cu_node *n) { return n->kind == CU_N_OTHER && n->op == 1; }
/* do { body } while (c): the body runs once at least, so a body that ends
 * the program or the function ends it (an error macro's `do { throw ...; }
 * while (false)`). */
static int is_do_loop(const cu_node *n) { return n->kind == CU_N_LOOP && n->op == 1 && n->nkids > 0; }

/* Does an arm end by returning a failure of a status type (an enumerator
 * other than the success one: `if (delta > timeout) { printf(...); return
 * testTimeout; }`)?  Whatever the condition, that arm reports an error. */
static int returns_failure_at(const cu_node *n, int depth)
{
    if (!n || depth > 16) return 0;
    if (n->kind == CU_N_COMPOUND || is_label(n)) return n->nkids ? returns_failure_at(n->kids[n->nkids - 1], depth + 1) : 0;
    if (is_do_loop(n)) return returns_failure_at(n->kids[0], depth + 1);
    if (n->kind != CU_N_RETURN || n->nkids < 1) return 0;
    const cu_node *v = strip_casts(n->kids[0]);
    return v && v->kind == CU_N_REF && (v->flags & CU_F_STATUS) && (v->flags & CU_F_IVAL) && v->ival != 0;
}

int cu_returns_failure(const cu_node *arm) { return returns_failure_at(arm, 0); }

/* A call that ends the program: exit, abort, a noreturn function. */
int cu_is_terminator(const cu_node *call)
{
    static const char *const t[] = { "exit", "abort", "_Exit", "_exit", "quick_exit", "terminate",
        "__assert_fail", "__builtin_trap", "__builtin_unreachable", "longjmp", NULL };
    return cg_one_of(call->name, t) || (call->flags & CU_F_NORETURN);
}

/* Does a branch end the program or the function (its last statement)? */
static int ends_program_at(const cu_node *n, int depth)
{
    if (!n || depth > CU_MAX_EVAL_NEST) return 0;
    if (n->kind == CU_N_COMPOUND || is_label(n)) return n->nkids && ends_program_at(n->kids[n->nkids - 1], depth + 1);
    if (is_do_loop(n)) return ends_program_at(n->kids[0], depth + 1);
    if (n->kind == CU_N_THROW) return 1;
    return n->kind == CU_N_CALL && cu_is_terminator(n);
}

int cu_ends_program(const cu_node *n) { return ends_program_at(n, 0); }

/* ---- beginning a capture ------------------------------------------------------------------------ */
/* The loop whose body runs the current statement with no condition in
 * between (in this function or, when this function's body is not inside any
 * branch, in a caller), or NULL. */
static const cu_node *loop_unguarded(const cu_ctx *ctx)
{
    for (const cu_frame *f = ctx->fr; f; f = f->caller)
        if (f->ncs) return f->cs[f->ncs - 1].kind == 'L' ? f->cs[f->ncs - 1].loop : NULL;
    return NULL;
}

/* Does the code use one of the names (call it, refer to it), directly or in
 * the project's functions it calls (up to `calls` levels down)? */
static int uses_any_name(cu_ctx *ctx, const cu_node *n, const char *const *names, int depth, int calls)
{
    if (!n || depth > 48) return 0;
    if ((n->kind == CU_N_REF || n->kind == CU_N_MEMBER || n->kind == CU_N_CALL) && cg_one_of(n->name, names))
        return 1;
    if (n->kind == CU_N_CALL && calls > 0 && n->usr) {
        cu_func *f = cu_func_of(ctx, n->usr);
        if (f && f->body && uses_any_name(ctx, f->body, names, 0, calls - 1)) return 1;
    }
    for (int i = 0; i < n->nkids; i++)
        if (uses_any_name(ctx, n->kids[i], names, depth + 1, calls)) return 1;
    return 0;
}

/* Like uses_any_name, but not inside loops nested in `n`: a graph launched
 * in an inner loop is launched several times for each capture. */
static int uses_name_once(cu_ctx *ctx, const cu_node *n, const char *const *names, int depth, int calls)
{
    if (!n || depth > 48) return 0;
    if (depth > 0 && n->kind == CU_N_LOOP) return 0;
    if ((n->kind == CU_N_REF || n->kind == CU_N_MEMBER || n->kind == CU_N_CALL) && cg_one_of(n->name, names))
        return 1;
    if (n->kind == CU_N_CALL && calls > 0 && n->usr) {
        cu_func *f = cu_func_of(ctx, n->usr);
        if (f && f->body && uses_name_once(ctx, f->body, names, 1, calls - 1)) return 1;
    }
    for (int i = 0; i < n->nkids; i++)
        if (uses_name_once(ctx, n->kids[i], names, depth + 1, calls)) return 1;
    return 0;
}

/* How many calls of the names (at most `max`) `n` makes outside loops nested
 * in it, in its body and the project's functions it calls (cuda-samples'
 * runDemo: a first launch, a repeat launch and one into a busy stream). */
static int count_name_once(cu_ctx *ctx, const cu_node *n, const char *const *names, int depth, int calls, int max)
{
    if (!n || depth > 48 || max <= 0) return 0;
    if (depth > 0 && n->kind == CU_N_LOOP) return 0;
    int c = 0;
    if (n->kind == CU_N_CALL && cg_one_of(n->name, names)) c++;
    if (n->kind == CU_N_CALL && calls > 0 && n->usr) {
        cu_func *f = cu_func_of(ctx, n->usr);
        if (f && f->body) c += count_name_once(ctx, f->body, names, 1, calls - 1, max - c);
    }
    for (int i = 0; i < n->nkids && c < max; i++) c += count_name_once(ctx, n->kids[i], names, depth + 1, calls, max - c);
    return c < max ? c : max;
}

/* CG705's facts: the loop that re-begins the capture, whether it launches a
 * graph (a capture-cost benchmark, which times the loop and launches each
 * graph only in a loop of its own, several times, does not count) and
 * whether it refreshes an executable graph with cudaGraphExecUpdate (in it,
 * or two calls down). */
static void loop_facts(cu_ctx *ctx, cu_event *ev)
{
    static const char *const launch[] = { "cudaGraphLaunch", "cuGraphLaunch", NULL };
    static const char *const update[] = { "cudaGraphExecUpdate", "cuGraphExecUpdate",
                                          "cuGraphExecUpdate_v2", NULL };
    ev->loop = loop_unguarded(ctx);
    if (!ev->loop) return;
    static const char *const clock[] = { "now", "cudaEventElapsedTime", "cuEventElapsedTime", "clock_gettime",
                                         "gettimeofday", "sdkStartTimer", "sdkStopTimer", NULL };
    /* launched once per capture, or several times in an inner loop of a loop
     * that does not time itself (a capture-cost benchmark reads a clock); a
     * timed loop that launches each graph at several places one after the
     * other (first launch, repeat launch) is such a benchmark too */
    int timed = uses_any_name(ctx, ev->loop, clock, 0, 2);
    ev->loop_launches = (uses_name_once(ctx, ev->loop, launch, 0, 2) &&
                         !(timed && count_name_once(ctx, ev->loop, launch, 0, 2, 2) >= 2)) ||
                        (uses_any_name(ctx, ev->loop, launch, 0, 2) && !timed);
    ev->loop_updates = uses_any_name(ctx, ev->loop, update, 0, 2);
}

/* Where the capture begins (end 0) or ends (1) in each function of the call chain. */
static int fill_chain(cu_ctx *ctx, cu_capture *r, int end)
{
    int n = 0;
    for (cu_frame *f = ctx->fr; f && n < CU_MAX_DEPTH + 1; f = f->caller) {
        if (!f->fn || !f->at) continue;
        if (end) { r->end_chain[n].fn = f->fn; r->end_chain[n].at = f->at->loc; }
        else { r->begin_chain[n].fn = f->fn; r->begin_chain[n].at = f->at->loc; }
        n++;
    }
    return n;
}

static cu_capture *new_capture(cu_ctx *ctx, const cu_node *call, const cu_api *api, const char *name,
                               const cu_val *args, int nargs)
{
    cu_frame *fr = ctx->fr;
    cu_capture *r = cg_arena_alloc(ctx->arena, sizeof *r);
    r->id = ++ctx->ncaptures;
    r->facts.site = call->loc;
    r->facts.site_node = call;
    r->facts.kind = cg_arena_strdup(ctx->arena, name);
    r->facts.mode = -1;
    if (api->aux < nargs && args[api->aux].kind == CU_V_INT && (args[api->aux].known & 1))
        r->facts.mode = (int)args[api->aux].x;
    cu_val s0 = nargs > 0 ? args[0] : CU_UNKNOWN;
    r->facts.stream = cu_v_as_stream(&s0, cu_ptds(ctx));
    r->depth = ctx->depth;
    r->cond_depth = fr ? fr->cond_depth : 0;
    r->path_base = ctx->path.n;
    r->begin_fn = fr ? fr->fn : NULL;
    /* the innermost if around the begin (loops between it and the begin
     * skipped), and the innermost loop when nothing else is in between */
    for (int i = fr ? fr->ncs - 1 : -1; i >= 0; i--) {
        if (fr->cs[i].kind == 'L') {
            if (i == fr->ncs - 1) r->begin_loop = fr->cs[i].loop;
            continue;
        }
        if (fr->cs[i].kind == 'I') {
            r->begin_cond = fr->cs[i].cond;
            r->begin_arm = fr->cs[i].arm;
        }
        break;
    }
    r->raii = fr && fr->fn && fr->fn->is_ctor;
    if (r->raii && fr->caller && fr->caller->at) {
        /* the capture site the user wrote is the object, not the constructor's call */
        r->facts.site_node = fr->caller->at;
        r->facts.site = fr->caller->at->loc;
        r->facts.kind = cg_arena_printf(ctx->arena, "%s in %s", name, fr->fn->qualname);
    }
    r->nbegin = fill_chain(ctx, r, 0);
    return r;
}

void cu_region_begin(cu_ctx *ctx, const cu_node *call, const cu_api *api, const char *name,
                     const cu_val *args, int nargs)
{
    if (ctx->st.cap) return;   /* a second capture while one is open: followed as the first */
    cu_capture *r = new_capture(ctx, call, api, name, args, nargs);
    cu_state_reset(&ctx->st);
    ctx->st.cap = r;
    cu_event ev = { .kind = CU_EV_REGION_BEGIN, .node = call, .name = r->facts.kind, .api = api,
                    .stream = r->facts.stream, .has_stream = 1 };
    ev.stream_node = nargs > 0 && call->nkids > 1 ? call->kids[1] : NULL;
    loop_facts(ctx, &ev);
    cu_emit(ctx, &ev);
    cu_threads_at_begin(ctx);
}

/* ---- host values the graph keeps (CG204, CG306) ------------------------------------------------ */
static void keep_value(cu_ctx *ctx, const cu_event *ev, cu_keep_kind kind, const cu_node *at, const cu_val *v)
{
    if (!v->src.usr && !v->src2.usr) return;
    if (!ev->region || !at || at->loc.file < 0) return;
    ctx->keep = cu_grow(ctx->keep, &ctx->capkeep, ctx->nkeep, sizeof *ctx->keep);
    cu_keep *k = &ctx->keep[ctx->nkeep++];
    k->kind = kind;
    k->where = cu_place_of_value(ctx, at, &k->via);
    k->src = v->src;
    k->src2 = v->src2;
    k->cap = ctx->st.cap;
}

void cu_keep_values(cu_ctx *ctx, const cu_event *ev)
{
    if (ev->kind == CU_EV_LAUNCH) {
        if (ev->grid_node) keep_value(ctx, ev, CU_KEEP_GRID, ev->grid_node, &ev->grid);
        if (ev->block_node) keep_value(ctx, ev, CU_KEEP_BLOCK, ev->block_node, &ev->block);
        if (ev->smem_node) keep_value(ctx, ev, CU_KEEP_SMEM, ev->smem_node, &ev->smem);
        for (int i = 0; ev->first_karg >= 0 && i < ev->nargs; i++)
            keep_value(ctx, ev, CU_KEEP_KERNEL_ARG, ev->argn[i], &ev->args[i]);
    } else if (ev->kind == CU_EV_CALL) {
        const cu_api *api = ev->api;
        if (!api || api->size < 0 || !(api->flags & (CU_API_WORK | CU_API_ASYNC_ALLOC))) return;
        if (api->size < ev->nargs) keep_value(ctx, ev, CU_KEEP_SIZE, ev->argn[api->size], &ev->args[api->size]);
    }
}

static int loc_before(const cu_loc *a, const cu_loc *b)
{
    if (a->file != b->file) return 0;
    return a->line < b->line || (a->line == b->line && a->col < b->col);
}

static const cu_loc *chain_loc(const cu_capture *r, const cu_func *fn, int end)
{
    int n = end ? r->nend : r->nbegin;
    for (int i = 0; i < n; i++) {
        const cu_func *f = end ? r->end_chain[i].fn : r->begin_chain[i].fn;
        if (f == fn) return end ? &r->end_chain[i].at : &r->begin_chain[i].at;
    }
    return NULL;
}

static int loop_contains(const cu_node *loop, const cu_loc *l)
{
    if (!loop || !loop->loc.end_line || loop->loc.file != l->file) return 0;
    cu_loc end = loop->loc;
    end.line = loop->loc.end_line;
    end.col = loop->loc.end_col;
    return loc_before(&loop->loc, l) && loc_before(l, &end);
}

/* Is `at` (in function fn) after the capture there, or in a loop around its
 * beginning?  Writes between the beginning and the end are the capture's own. */
static int after_capture_in(const cu_capture *r, const cu_func *fn, const cu_loc *at, const cu_node *loop)
{
    const cu_loc *b = chain_loc(r, fn, 0);
    if (!b) return 0;
    const cu_loc *e = chain_loc(r, fn, 1);
    int inside = loc_before(b, at) && (!e || loc_before(at, e));
    if (inside) return 0;
    if (e && loc_before(e, at)) return 1;
    return loop && loop_contains(loop, b);
}

typedef struct late_call {
    cu_ctx *ctx;
    const cu_capture *r;
    cu_func *fn, *target;
    const cu_node *loop;
    const cu_node *hit;
} late_call;

/* A call in fn, after the capture or in a loop around it, to a function that reaches target. */
static void find_late_call(late_call *lc, const cu_node *n, int depth)
{
    if (!n || lc->hit || depth > CU_MAX_EVAL_NEST) return;
    const cu_node *saved = lc->loop;
    if (n->kind == CU_N_LOOP && !lc->loop) lc->loop = n;
    if ((n->kind == CU_N_CALL || n->kind == CU_N_CONSTRUCT) && n->usr) {
        cu_func *c = cu_func_in(lc->ctx->p, n->usr, lc->fn->file);
        if (c && after_capture_in(lc->r, lc->fn, &n->loc, lc->loop) && cu_index_reaches(&lc->ctx->ix, c, lc->target)) {
            lc->hit = n;
            return;
        }
    }
    for (int i = 0; i < n->nkids; i++) find_late_call(lc, n->kids[i], depth + 1);
    lc->loop = saved;
}

/* A write in a function the capture runs in (the variable's own function,
 * or for a shared variable one of the call chain): 1 when a replay would
 * not see it, 0 when it would, -1 when it is in none of them. */
static int write_in_chain(const cu_capture *r, const cu_src *src, const cu_write *w, int shared)
{
    if (w->fn != src->fn && !(shared && chain_loc(r, w->fn, 0))) return -1;
    const cu_loc *b = chain_loc(r, w->fn, 0);
    if (!b) return 0;             /* the function runs inside the capture */
    if (w->is_decl) return w->loop && loop_contains(w->loop, b);
    return after_capture_in(r, w->fn, &w->at->loc, w->loop);
}

/* A global or member written in function `writer`: does a function of the
 * capture's call chain call it after the capture, or in a loop around it?
 * (A setup function called before the capture does not count; one nothing
 * in the chain calls cannot be ordered, and is not reported.) */
static int called_late(cu_ctx *ctx, const cu_capture *r, cu_func *writer)
{
    for (int i = 0; i < r->nbegin; i++) {
        cu_func *a = r->begin_chain[i].fn;
        late_call lc = { .ctx = ctx, .r = r, .fn = a, .target = writer };
        find_late_call(&lc, a->body, 0);
        if (lc.hit) return 1;
    }
    return 0;
}

/* Has the host variable a value was read from been assigned where a replay
 * would not see it: after the capture ends, in a loop around the capture, or
 * (a global, static or member) in another function?  *where gets one such
 * write. */
static int changed_after(cu_ctx *ctx, const cu_capture *r, const cu_src *src, const cu_node **where)
{
    if (!src || !src->usr || !src->at) return 0;
    int shared = src->storage == CU_S_GLOBAL || src->storage == CU_S_STATIC || src->storage == CU_S_FIELD;
    for (cu_write *w = cg_map_get(&ctx->ix.writes, src->usr, strlen(src->usr)); w; w = w->next) {
        int in_chain = write_in_chain(r, src, w, shared);
        if (in_chain > 0 || (in_chain < 0 && shared && !w->is_decl && w->fn && called_late(ctx, r, w->fn))) {
            *where = w->at;
            return 1;
        }
    }
    return 0;
}

/* Does a function the capture runs in (or one it calls, two levels down)
 * patch the instantiated graph's parameters (cudaGraphExecKernelNodeSetParams,
 * cudaGraphExecUpdate and the like)?  Then a value the graph kept is
 * refreshed by the program, not frozen. */
static int refreshes_params(cu_ctx *ctx, const cu_capture *r)
{
    static const char *const refresh[] = { "cudaGraphExecKernelNodeSetParams", "cudaGraphExecNodeSetParams",
        "cudaGraphExecUpdate", "cudaGraphKernelNodeSetParams", "cudaGraphNodeSetParams",
        "cudaGraphExecMemcpyNodeSetParams", "cudaGraphExecMemsetNodeSetParams",
        "cuGraphExecKernelNodeSetParams", "cuGraphExecKernelNodeSetParams_v2", "cuGraphExecNodeSetParams",
        "cuGraphExecUpdate", "cuGraphExecUpdate_v2", "cuGraphKernelNodeSetParams",
        "cuGraphKernelNodeSetParams_v2", NULL };
    for (int i = 0; i < r->nbegin; i++)
        if (r->begin_chain[i].fn && r->begin_chain[i].fn->body &&
            uses_any_name(ctx, r->begin_chain[i].fn->body, refresh, 0, 2))
            return 1;
    return 0;
}

/* The values of capture r the graph keeps from variables a replay would not
 * see change (arena array, *n of them); the others of r are dropped, those
 * of other captures kept. */
static const cu_kept *decide_kept(cu_ctx *ctx, const cu_capture *r, int *n)
{
    cu_kept *out = NULL;
    int nout = 0, left = 0;
    int refreshed = refreshes_params(ctx, r);
    for (int i = 0; i < ctx->nkeep; i++) {
        const cu_keep *k = &ctx->keep[i];
        if (k->cap != r) { ctx->keep[left++] = *k; continue; }
        if (refreshed) continue;
        const cu_node *w = NULL;
        const cu_src *src = NULL;
        if (k->src.usr && changed_after(ctx, r, &k->src, &w)) src = &k->src;
        else if (k->src2.usr && changed_after(ctx, r, &k->src2, &w)) src = &k->src2;
        if (!src) continue;
        if (!out) out = cg_arena_alloc(ctx->arena, (size_t)ctx->nkeep * sizeof *out);
        out[nout].kind = k->kind;
        out[nout].where = k->where;
        out[nout].via = k->via;
        out[nout].var = src->name;
        out[nout].write = w;
        nout++;
    }
    ctx->nkeep = left;
    *n = nout;
    return out;
}

/* ---- ending a capture ---------------------------------------------------------------------------- */
/* The facts of the capture's end: what is still forked and allocated, and
 * which kept values change later. */
static void end_facts(cu_ctx *ctx, cu_event *ev)
{
    ev->forks = ctx->st.forks;
    ev->nforks = ctx->st.nforks;
    ev->allocs = ctx->st.allocs;
    ev->nallocs = ctx->st.nalloc;
    ev->kept = decide_kept(ctx, ctx->st.cap, &ev->nkept);
}

static void close_capture(cu_ctx *ctx)
{
    ctx->st.cap = NULL;
    cu_state_reset(&ctx->st);
}

void cu_region_end(cu_ctx *ctx, const cu_node *call, const cu_api *api, const cu_val *args, int nargs)
{
    cu_capture *r = ctx->st.cap;
    if (!r) return;
    cu_val s0 = nargs > 0 ? args[0] : CU_UNKNOWN;
    cu_event ev = { .kind = CU_EV_REGION_END, .node = call, .other = call };
    ev.other_stream = cu_v_as_stream(&s0, cu_ptds(ctx));
    ev.stream_node = call->nkids > 1 ? call->kids[1] : NULL;
    if (api->aux >= 0 && api->aux + 1 < call->nkids) {
        const cu_node *g = cu_lvalue_root(call->kids[api->aux + 1]);
        if (g) r->graph_usr = g->usr;
    }
    const char *g = r->graph_usr;
    r->facts.graph_autofree = ctx->ix.autofree_unknown || (g && cg_map_get(&ctx->ix.autofree, g, strlen(g)));
    r->nend = fill_chain(ctx, r, 1);
    end_facts(ctx, &ev);
    cu_emit(ctx, &ev);
    close_capture(ctx);
}

/* The function that began the capture returns with it open on some path. */
__attribute__((noinline)) static void region_unended(cu_ctx *ctx)
{
    cu_event ev = { .kind = CU_EV_REGION_END, .node = NULL, .unended = 1 };   /* not ended on every path */
    end_facts(ctx, &ev);
    cu_emit(ctx, &ev);
    close_capture(ctx);
}

void cu_region_fn_end(cu_ctx *ctx, const cu_func *fn, int depth, const cu_capture *open_before)
{
    const cu_capture *r = ctx->st.cap;
    if (r && r != open_before && r->depth == depth && !r->raii && fn && fn->ends) region_unended(ctx);
}

void cu_region_caller_holds(cu_ctx *ctx, const cu_func *fn)
{
    cu_capture *r = ctx->st.cap;
    if (!r) return;
    if (r->path_base > ctx->path.n) r->path_base = ctx->path.n;
    if (r->depth > ctx->depth) {
        /* the helper that began the capture returned: the caller holds it now */
        r->depth = ctx->depth;
        r->cond_depth = ctx->fr ? ctx->fr->cond_depth : 0;
        if (r->raii && ctx->fr && !(fn && fn->is_ctor)) r->raii = 0;
    }
}

/* ---- launch facts (CG802) ---------------------------------------------------------------------- */
void cu_smem_facts(const cu_ctx *ctx, cu_event *ev)
{
    const cu_capture *r = ctx->st.cap;
    if (!r || ev->smem.kind != CU_V_INT || !(ev->smem.known & 1) || !ev->usr) return;
    for (cu_attr *a = cg_map_get(&ctx->ix.attrs, ev->usr, strlen(ev->usr)); a; a = a->next) {
        if (a->known && a->value < ev->smem.x) continue;
        if (a->fn == r->begin_fn && !loc_before(&a->at->loc, &r->facts.site)) {
            ev->smem_raised_late = a->at;
            continue;
        }
        ev->smem_raised = 1;
        return;
    }
}
