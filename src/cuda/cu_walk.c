/* cu_walk.c - the walk: statements and expressions of lowered code.
 *
 * cu_exec() runs a statement, cu_eval() gives an expression's value; both
 * count their recursion (nest_enter) and hand the constructs that have a
 * job of their own to the files that do it: calls, constructions and
 * launches to cu_call.c, what the values are to cu_value.c, capture regions,
 * guards and the ledger to cu_region.c.
 *
 * Control flow
 *   Both arms of an if are walked; an arm that returns, throws, breaks or
 *   ends the program does not flow on, so `if (err) { EndCapture; return; }`
 *   leaves the capture open on the other path.  Inside a capture, the arm a
 *   guard (cudaStreamIsCapturing's status) says runs only when not capturing
 *   is skipped.  Code after a return is never walked; loops are walked once
 *   (a loop's state is merged with the state of not running it).  The state
 *   branches copy and merge is ctx->st (cu_state: the open capture and its
 *   fork/join ledger).
 *
 * Events
 *   Stores and returns are events of their own (built here); cu_emit() is
 *   the one way any event reaches the checks: it fills in the capture, the
 *   call path and the context (error path, loop header), and only in
 *   capture context. */
#include "cu_eval.h"
#include "cu_clang.h"
#include <stdlib.h>
#include <string.h>
#include "core/str.h"

static cu_val walk_exec_or_eval(cu_ctx *ctx, const cu_node *n);

/* ---- events ------------------------------------------------------------------------------- */
void cu_emit(cu_ctx *ctx, cu_event *ev)
{
    cu_capture *cap = ctx->st.cap;
    if (!cap) return;
    ev->region = &cap->facts;
    int base = cap->path_base < ctx->path.n ? cap->path_base : ctx->path.n;
    ev->path = ctx->path.step + base;
    ev->npath = ctx->path.n - base;
    if (ctx->fr) {
        /* an error branch stays one in the functions it calls */
        for (const cu_frame *f = ctx->fr; f && !ev->error_path; f = f->caller) ev->error_path = f->error_path > 0;
        ev->loop_header = ctx->fr->loop_header > 0;
    }
    cu_keep_values(ctx, ev);
    cu_dispatch(ctx, ev);
}

/* Is lhs memory reached through a pointer or an index (*p, a[i], p->f), not
 * a variable or a field of one? */
static int through_pointer(const cu_node *lhs)
{
    for (int i = 0; lhs && i < CU_MAX_EVAL_NEST; i++) {
        if (lhs->kind == CU_N_CAST && lhs->nkids == 1) { lhs = lhs->kids[0]; continue; }
        if (lhs->kind == CU_N_REF) return 0;
        if (lhs->kind == CU_N_MEMBER) return 0;
        return 1;
    }
    return 1;
}

/* An assignment, compound assignment or ++/-- (op 0, 1, 2) of lhs; rv: the
 * value stored (NULL: none). */
__attribute__((noinline)) static void store_event(cu_ctx *ctx, const cu_node *n, const cu_node *lhs, const cu_node *rhs,
                                                  int op, const cu_val *rv)
{
    if (!cu_active(ctx)) return;
    const cu_node *root = cu_lvalue_root(lhs);
    if (!root) return;
    cu_event ev = { .kind = CU_EV_STORE, .node = n, .target = root, .store_op = op };
    /* a clock value stored into memory a copy may take to the device */
    if (rv && rv->clock && rhs && through_pointer(lhs)) { ev.clock_read = rv->clock; ev.clock_arg = rhs; }
    ev.self_ref = op == 0 && rhs && root->usr && cu_mentions_usr(rhs, root->usr);
    ev.target_outside = cu_env_older(ctx, root);
    for (int i = 0; i < ctx->fr->nloop_vars; i++)
        if (cg_eq(ctx->fr->loop_vars[i], root->usr)) ev.loop_var = 1;
    cu_emit(ctx, &ev);
}

/* The function returns here while a capture begun outside an object is open. */
__attribute__((noinline)) static void return_event(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    cu_capture *r = ctx->st.cap;
    if (!r || r->raii) return;
    cu_event ev = { .kind = CU_EV_RETURN, .node = n };
    if (ctx->depth == r->depth) ev.cond_depth = fr->cond_depth - r->cond_depth;
    else if (ctx->depth < r->depth) ev.cond_depth = fr->cond_depth;
    else ev.cond_depth = -1;     /* a callee returning inside the capture: fine */
    cu_emit(ctx, &ev);
}

/* ---- expressions ----------------------------------------------------------------------------- */
__attribute__((noinline)) static cu_val eval_ref(cu_ctx *ctx, const cu_node *n)
{
    if (n->flags & CU_F_IVAL) {
        cu_val v = cu_v_int(n->ival);
        v.name = n->name;
        return v;
    }
    cu_val v = CU_UNKNOWN;
    if (n->storage == CU_S_NONE) {
        cu_func *fn = cu_func_of(ctx, n->usr);
        if (fn) {
            v.kind = CU_V_FUNC;
            v.fn = fn;
            return v;
        }
        if (n->name && cu_api_lookup(n->name)) {
            /* a CUDA API passed as a value (retry(cudaStreamQuery, s)): called through a parameter */
            v.kind = CU_V_FUNC;
            v.name = n->name;
            return v;
        }
    }
    cu_slot *s = n->storage != CU_S_NONE ? cu_env_slot(ctx, n, 0) : NULL;
    if (s) {
        v = s->v;
    } else if (n->storage != CU_S_NONE) {
        if (n->tclass == CU_T_STREAM)
            v = cu_v_stream_var(cu_ident(ctx, n), n->storage == CU_S_PARAM);
        else if (n->tclass == CU_T_EVENT || n->tclass == CU_T_GRAPH) {
            v.kind = n->tclass == CU_T_EVENT ? CU_V_EVENT : CU_V_GRAPH;
            v.id = cu_ident(ctx, n);
        }
    }
    if (v.kind != CU_V_STREAM && v.kind != CU_V_EVENT && v.kind != CU_V_GUARD && v.kind != CU_V_LAMBDA)
        cu_v_set_src(ctx, &v, n);
    return v;
}

static int is_incdec(int op)
{
    return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
           op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec;
}

__attribute__((noinline)) static cu_val eval_unary(cu_ctx *ctx, const cu_node *n)
{
    const cu_node *k = n->nkids ? n->kids[0] : NULL;
    if (is_incdec(n->op)) {
        cu_val old = cu_eval(ctx, k);
        store_event(ctx, n, k, NULL, 2, NULL);
        cu_val nv = CU_UNKNOWN;
        nv.src = old.src;
        nv.clock = old.clock;
        cu_env_assign(ctx, k, nv);
        return nv;
    }
    return cu_v_unary(n->op, cu_eval(ctx, k));
}

/* x = y, x += y ... */
__attribute__((noinline)) static cu_val eval_assign(cu_ctx *ctx, const cu_node *n)
{
    const cu_node *l = n->kids[0], *r = n->kids[1];
    cu_val rv = cu_eval(ctx, r);
    cu_val lv = cu_eval(ctx, l);
    store_event(ctx, n, l, r, n->op == CXBinaryOperator_Assign ? 0 : 1, &rv);
    if (n->op == CXBinaryOperator_Assign) {
        cu_env_assign(ctx, l, rv);
        return rv;
    }
    cu_val nv = CU_UNKNOWN;
    nv.src = lv.src;
    nv.clock = rv.clock ? rv.clock : lv.clock;
    cu_env_assign(ctx, l, nv);
    return nv;
}

__attribute__((noinline)) static cu_val eval_binary(cu_ctx *ctx, const cu_node *n)
{
    if (n->nkids < 2) {
        /* an operand lowering dropped (a floating literal: `1e-9 * (now() - t0)`):
         * the other one is still evaluated, for its calls and what it is computed from */
        cu_val r = CU_UNKNOWN;
        for (int i = 0; i < n->nkids; i++) {
            cu_val v = cu_eval(ctx, n->kids[i]);
            if (!r.clock) r.clock = v.clock;
        }
        return r;
    }
    if (n->op >= CXBinaryOperator_Assign && n->op <= CXBinaryOperator_OrAssign) return eval_assign(ctx, n);
    cu_val a = cu_eval(ctx, n->kids[0]);
    cu_val b = cu_eval(ctx, n->kids[1]);
    if (n->op == CXBinaryOperator_LAnd || n->op == CXBinaryOperator_LOr) return cu_v_logic(n->op, &a, &b);
    return cu_v_binary(n->op, &a, &b);
}

static int dim3_component(const cu_node *n)
{
    return n->name && !n->name[1] && n->name[0] >= 'x' && n->name[0] <= 'z' ? n->name[0] - 'x' : -1;
}

__attribute__((noinline)) static cu_val eval_member(cu_ctx *ctx, const cu_node *n)
{
    cu_val base = n->nkids ? cu_eval(ctx, n->kids[0]) : CU_UNKNOWN;
    int c = dim3_component(n);
    if (base.kind == CU_V_DIM3 && c >= 0) return cu_v_component(&base, c);
    cu_slot *s = n->usr ? cu_env_slot(ctx, n, 0) : NULL;
    cu_val v = s ? s->v : CU_UNKNOWN;
    if (!s && n->tclass == CU_T_STREAM && n->usr) v = cu_v_stream_var(cu_ident(ctx, n), 0);
    if (!s && n->tclass == CU_T_EVENT && n->usr) v = cu_v_event(cu_ident(ctx, n));
    if (v.kind != CU_V_STREAM && v.kind != CU_V_EVENT && v.kind != CU_V_GUARD) cu_v_set_src(ctx, &v, n);
    return v;
}

__attribute__((noinline)) static cu_val eval_cast(cu_ctx *ctx, const cu_node *n)
{
    return cu_v_cast(n->tclass, n->nkids ? cu_eval(ctx, n->kids[0]) : CU_UNKNOWN);
}

/* Leaves: no recursion. */
__attribute__((noinline)) static cu_val eval_leaf(cu_ctx *ctx, const cu_node *n)
{
    cu_val v = CU_UNKNOWN;
    switch (n->kind) {
    case CU_N_INT:
    case CU_N_SIZEOF:
        if (n->flags & CU_F_IVAL) v = cu_v_int(n->ival);
        break;
    case CU_N_NULL:
        v = cu_v_int(0);
        v.flags |= CU_VF_NULL;
        break;
    case CU_N_LAMBDA:
        v.kind = CU_V_LAMBDA;
        v.lambda = n;
        v.fn = ctx->fr ? ctx->fr->fn : NULL;
        break;
    default:
        break;
    }
    return v;
}

/* The children in order, for their effects. */
__attribute__((noinline)) static cu_val eval_all(cu_ctx *ctx, const cu_node *n)
{
    for (int i = 0; i < n->nkids; i++) cu_eval(ctx, n->kids[i]);
    return CU_UNKNOWN;
}

/* c ? a : b: its parts in order; a value computed from a clock read stays one */
__attribute__((noinline)) static cu_val eval_condop(cu_ctx *ctx, const cu_node *n)
{
    cu_val r = CU_UNKNOWN;
    for (int i = 0; i < n->nkids; i++) {
        cu_val v = cu_eval(ctx, n->kids[i]);
        if (!r.clock) r.clock = v.clock;
    }
    return r;
}

/* Anything else: its children in order; one child is what it is. */
__attribute__((noinline)) static cu_val eval_other(cu_ctx *ctx, const cu_node *n)
{
    if (n->nkids == 1) return cu_eval(ctx, n->kids[0]);
    return eval_all(ctx, n);
}

/* Dispatch only: the cases with values of their own are functions of their
 * own, so that this frame, on the stack once a level, stays small. */
static cu_val eval_node(cu_ctx *ctx, const cu_node *n)
{
    switch (n->kind) {
    case CU_N_INT: case CU_N_NULL: case CU_N_SIZEOF: case CU_N_LAMBDA:
        return eval_leaf(ctx, n);
    case CU_N_REF:
        return eval_ref(ctx, n);
    case CU_N_MEMBER:
        return eval_member(ctx, n);
    case CU_N_CAST:
        return eval_cast(ctx, n);
    case CU_N_UNARY:
        return eval_unary(ctx, n);
    case CU_N_BINARY:
        return eval_binary(ctx, n);
    case CU_N_CONDOP:
        return eval_condop(ctx, n);
    case CU_N_CALL:
        return cu_eval_call(ctx, n);
    case CU_N_LAUNCH:
        return cu_eval_launch(ctx, n);
    case CU_N_CONSTRUCT:
        return cu_eval_construct(ctx, n);
    case CU_N_DECL:
    case CU_N_COMPOUND: case CU_N_IF: case CU_N_LOOP: case CU_N_SWITCH: case CU_N_RETURN:
    case CU_N_BREAK: case CU_N_GOTO: case CU_N_THROW:
        return walk_exec_or_eval(ctx, n);
    case CU_N_EMPTY: case CU_N_STRING:
        return CU_UNKNOWN;
    default:
        return eval_other(ctx, n);
    }
}

/* Every recursive path of the walk goes through cu_exec() or cu_eval(): each
 * level is counted, in the function (CU_MAX_EVAL_NEST) and in the whole call
 * chain (CU_MAX_TOTAL_NEST).  Lowering keeps bodies under the first and
 * cu_call_body() keeps chains under the second, so neither is reached; if
 * one were, the construct is reported as too deeply nested and not walked. */
static int nest_enter(cu_ctx *ctx, const cu_node *n)
{
    int in_fn = ctx->nest - (ctx->fr ? ctx->fr->nest0 : 0);
    if (in_fn < CU_MAX_EVAL_NEST && ctx->nest < CU_MAX_TOTAL_NEST) {
        ctx->nest++;
        return 1;
    }
    const char *why = in_fn < CU_MAX_EVAL_NEST
        ? cg_arena_printf(ctx->arena, "more than %d levels for the analysis, counting the calls that lead here",
                          CU_MAX_TOTAL_NEST)
        : cg_arena_printf(ctx->arena, "more than %d levels for the analysis in one function", CU_MAX_EVAL_NEST);
    cu_report_too_deep(ctx->p, &n->loc, ctx->fr && ctx->fr->fn ? ctx->fr->fn->qualname : NULL, why);
    return 0;
}

cu_val cu_eval(cu_ctx *ctx, const cu_node *n)
{
    if (!n || !nest_enter(ctx, n)) return CU_UNKNOWN;
    cu_val v = eval_node(ctx, n);
    ctx->nest--;
    return v;
}

/* ---- declarations ------------------------------------------------------------------------------- */
/* The value a declaration gives its variable. */
static cu_val decl_value(cu_ctx *ctx, const cu_node *n)
{
    cu_val v = CU_UNKNOWN;
    if (n->nkids) v = cu_eval(ctx, n->kids[0]);
    else if (n->tclass == CU_T_DIM3) { v.kind = CU_V_DIM3; v.x = v.y = v.z = 1; v.known = 7; }
    if (n->tclass == CU_T_STREAM && v.kind == CU_V_INT) v = cu_v_as_stream(&v, cu_ptds(ctx));
    if (n->tclass == CU_T_STREAM && v.kind == CU_V_UNKNOWN && !n->nkids)
        v = cu_v_stream_var(cg_arena_printf(ctx->arena, "v:%s", n->usr ? n->usr : "?"), 0);
    if (n->nkids && n->kids[0]->kind == CU_N_CONSTRUCT && n->tclass == CU_T_DIM3 && v.kind != CU_V_DIM3) {
        v.kind = CU_V_DIM3;
        v.known = 0;
    }
    return v;
}

/* std::thread t(...): t names the thread just started, for t.join() */
static void decl_names_thread(cu_ctx *ctx, const cu_node *n)
{
    if (!ctx->last_thread_start || !n->nkids || ctx->last_thread_start != n->kids[0] || !n->usr) return;
    for (int i = 0; i < ctx->nthreads; i++)
        if (ctx->threads[i].start == ctx->last_thread_start) ctx->threads[i].handle = n->usr;
    ctx->last_thread_start = NULL;
}

/* A function-local static whose initializer calls or constructs: C++ runs it
 * once per process, at the first call (`static Registry r;` in a singleton's
 * accessor, c10's CUDAKernelLaunchRegistry), which warm-up or start-up has
 * made long before a capture; the walk does not follow it.  Its value is
 * unknown.  Not seen: such an initializer that first runs inside a capture. */
static int static_local_init(const cu_node *n)
{
    if (n->storage != CU_S_STATIC || !n->nkids) return 0;
    const cu_node *init = n->kids[0];
    return init->kind == CU_N_CALL || init->kind == CU_N_CONSTRUCT;
}

static void exec_decl(cu_ctx *ctx, const cu_node *n)
{
    cu_val v = static_local_init(n) ? CU_UNKNOWN : decl_value(ctx, n);
    decl_names_thread(ctx, n);
    if (n->storage == CU_S_STATIC || n->storage == CU_S_GLOBAL) {
        cu_slot *s = cu_env_slot(ctx, n, 1);   /* initialised once */
        if (s && s->decl_region == -1) { s->v = v; s->decl_region = 0; }
    } else {
        cu_env_bind(ctx, n->usr, v, ctx->st.cap ? ctx->st.cap->id : 0);
    }
    cu_func *d = n->dtor ? cu_func_of(ctx, n->dtor) : NULL;
    if (d) {
        cu_frame *fr = ctx->fr;
        fr->dtors = cu_grow(fr->dtors, &fr->capdtors, fr->ndtors, sizeof *fr->dtors);
        fr->dtors[fr->ndtors].fn = d;
        fr->dtors[fr->ndtors].decl = n;
        fr->dtors[fr->ndtors].scope = fr->scope;
        fr->ndtors++;
    }
}

/* ---- control flow ----------------------------------------------------------------------------- */
static void cond_push(cu_frame *fr, char kind, const cu_node *loop)
{
    fr->cs = cu_grow(fr->cs, &fr->capcs, fr->ncs, sizeof *fr->cs);
    fr->cs[fr->ncs].kind = kind;
    fr->cs[fr->ncs].loop = loop;
    fr->cs[fr->ncs].cond = NULL;
    fr->cs[fr->ncs].arm = 0;
    fr->ncs++;
    fr->cond_depth++;
}

static void cond_pop(cu_frame *fr)
{
    if (fr->ncs) fr->ncs--;
    fr->cond_depth--;
}

/* One arm of an if: 0 when it flows on, 1 when it breaks out, 2 when it
 * ends the function (return, throw, exit). */
static int walk_branch(cu_ctx *ctx, const cu_node *n, int err, const cu_node *cond, int arm)
{
    cu_frame *fr = ctx->fr;
    cond_push(fr, 'I', NULL);
    fr->cs[fr->ncs - 1].cond = cond;
    fr->cs[fr->ncs - 1].arm = arm;
    fr->error_path += err;
    cu_exec(ctx, n);
    int t = fr->terminated || fr->broken;
    int ended_fn = fr->terminated;
    fr->terminated = fr->broken = 0;
    fr->error_path -= err;
    cond_pop(fr);
    return t ? (ended_fn ? 2 : 1) : 0;
}

/* The state after an if: s0 before it, s1 and s2 after its arms (t1, t2:
 * what walk_branch said; all three consumed). */
static void join_arms(cu_ctx *ctx, cu_state s0, cu_state s1, int t1, cu_state s2, int t2)
{
    if (t1 && t2) {
        ctx->st = s0;
        cu_state_free(&s1);
        cu_state_free(&s2);
        if (t1 == 2 && t2 == 2) ctx->fr->terminated = 1;
        else ctx->fr->broken = 1;
        return;
    }
    cu_state_free(&s0);
    if (t1) { ctx->st = s2; cu_state_free(&s1); }
    else if (t2) { ctx->st = s1; cu_state_free(&s2); }
    else ctx->st = cu_state_merge(s1, s2);
}

static void exec_if(cu_ctx *ctx, const cu_node *n)
{
    cu_val c = cu_eval(ctx, n->kids[0]);
    if (ctx->fr->terminated) return;
    int err = cu_is_error_cond(n->kids[0]) || (n->nkids > 1 && cu_is_relay(n->kids[0], n->kids[1]));
    int walk_then, walk_else;
    cu_region_arms(ctx, &c, &walk_then, &walk_else);
    cu_region_same_cond(ctx, n->kids[0], &walk_then, &walk_else);
    /* s0: the state before; s1, s2: after each arm (an arm not walked leaves s0) */
    cu_state s0 = cu_state_copy(&ctx->st);
    int t1 = 1, t2 = 0;
    if (walk_then)
        t1 = walk_branch(ctx, n->kids[1], err || cu_ends_program(n->kids[1]) || cu_returns_failure(n->kids[1]),
                         n->kids[0], 1);
    cu_state s1 = ctx->st;
    ctx->st = cu_state_copy(&s0);
    if (n->nkids > 2)
        t2 = walk_else ? walk_branch(ctx, n->kids[2], cu_ends_program(n->kids[2]) || cu_returns_failure(n->kids[2]),
                                     n->kids[0], 0)
                       : 1;
    else if (!walk_else) t2 = 1;
    join_arms(ctx, s0, s1, t1, ctx->st, t2);
}

static void collect_loop_vars(cu_frame *fr, const cu_node *n, int depth)
{
    if (!n || depth > 8) return;
    if ((n->kind == CU_N_REF || n->kind == CU_N_DECL) && n->usr) {
        fr->loop_vars = cu_grow(fr->loop_vars, &fr->caploop_vars, fr->nloop_vars, sizeof *fr->loop_vars);
        fr->loop_vars[fr->nloop_vars++] = n->usr;
    }
    for (int i = 0; i < n->nkids; i++) collect_loop_vars(fr, n->kids[i], depth + 1);
}

/* A loop's header parts from..to-1 (init, condition, increment). */
static void exec_header(cu_ctx *ctx, const cu_node *n, int from, int to)
{
    cu_frame *fr = ctx->fr;
    fr->loop_header++;
    for (int i = from; i < to && !fr->terminated; i++) walk_exec_or_eval(ctx, n->kids[i]);
    fr->loop_header--;
}

/* while/for (op 0) and do-while (op 1): the body is walked once */
static void exec_loop(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    int body_i = n->op == 1 ? 0 : n->nkids - 1;
    /* do { ... } while (0): a macro's block, not a loop */
    int64_t cv;
    if (n->op == 1 && n->nkids == 2 && cu_fold(n->kids[1], &cv) && cv == 0) {
        cu_exec(ctx, n->kids[0]);
        fr->broken = 0;
        return;
    }
    int saved_lv = fr->nloop_vars;
    const cu_node *saved_outer = fr->outer_loop;
    if (!fr->outer_loop) fr->outer_loop = n;
    for (int i = 0; i < n->nkids; i++)
        if (i != body_i) collect_loop_vars(fr, n->kids[i], 0);
    cu_state s0 = cu_state_copy(&ctx->st);
    /* a loop with the bound of the one the open capture began in runs on the capture's path */
    int runs = cu_region_same_loop(ctx, n);
    int my = ++fr->scope;
    if (n->op != 1) exec_header(ctx, n, 0, body_i);
    cond_push(fr, 'L', n);
    cu_exec(ctx, n->kids[body_i]);
    cond_pop(fr);
    int term = fr->terminated;
    fr->broken = 0;
    if (n->op == 1) {
        /* a do-while body runs at least once: its state flows on */
        exec_header(ctx, n, 1, n->nkids);
        cu_state_free(&s0);
    } else if (term) {
        fr->terminated = 0;   /* the loop may run zero times */
        cu_state_free(&ctx->st);
        ctx->st = s0;
    } else if (runs) {
        cu_state_free(&s0);
    } else {
        ctx->st = cu_state_merge(ctx->st, s0);
    }
    if (!fr->terminated) cu_run_dtors(ctx, my);
    fr->scope--;
    fr->nloop_vars = saved_lv;
    fr->outer_loop = saved_outer;
}

/* A switch body's statements: each case label starts again from the state
 * before the switch when what came before it ended (break, return). */
static int is_case(const cu_node *n) { return n->kind == CU_N_OTHER && n->op == 1; }

/* A switch's body: each case from its label to the next one.  A case that
 * ends the program or returns a failure status (`default: printf(...);
 * NVTE_ERROR(...);`) is an error path, as an if's arm would be. */
static void exec_switch_body(cu_ctx *ctx, const cu_node *body, const cu_state *s0)
{
    cu_frame *fr = ctx->fr;
    int err = 0;
    for (int i = 0; i < body->nkids; i++) {
        if (is_case(body->kids[i])) {
            if (fr->terminated || fr->broken) {
                cu_state_free(&ctx->st);
                ctx->st = cu_state_copy(s0);
            }
            fr->terminated = fr->broken = 0;
            fr->error_path -= err;
            int j = i + 1;
            while (j < body->nkids && !is_case(body->kids[j])) j++;
            const cu_node *last = body->kids[j - 1];
            err = cu_ends_program(last) || cu_returns_failure(last);
            fr->error_path += err;
        }
        cu_exec(ctx, body->kids[i]);
    }
    fr->error_path -= err;
}

static void exec_switch(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    for (int i = 0; i + 1 < n->nkids; i++) walk_exec_or_eval(ctx, n->kids[i]);
    const cu_node *body = n->kids[n->nkids - 1];
    cond_push(fr, 'S', NULL);
    cu_state s0 = cu_state_copy(&ctx->st);
    if (body->kind == CU_N_COMPOUND) exec_switch_body(ctx, body, &s0);
    else cu_exec(ctx, body);
    cu_state_free(&s0);
    fr->terminated = fr->broken = 0;
    cond_pop(fr);
}

static void exec_compound(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    int my = ++fr->scope;
    for (int i = 0; i < n->nkids && !fr->terminated && !fr->broken; i++) cu_exec(ctx, n->kids[i]);
    if (!fr->terminated) cu_run_dtors(ctx, my);
    fr->scope--;
}

static void exec_return(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    cu_val v = n->nkids ? cu_eval(ctx, n->kids[0]) : CU_UNKNOWN;
    if (fr->terminated) return;
    fr->ret = v;
    return_event(ctx, n);
    cu_run_dtors(ctx, 0);
    fr->terminated = 1;
}

/* Anything else that is a statement: a case label's statement, or the
 * children in order. */
static void exec_other(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    if (n->op == 1) {   /* case label: its statement */
        for (int i = 0; i < n->nkids; i++) cu_exec(ctx, n->kids[i]);
        return;
    }
    for (int i = 0; i < n->nkids && !fr->terminated && !fr->broken; i++) walk_exec_or_eval(ctx, n->kids[i]);
}

static void exec_node(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    switch (n->kind) {
    case CU_N_COMPOUND: exec_compound(ctx, n); return;
    case CU_N_DECL: exec_decl(ctx, n); return;
    case CU_N_IF: if (n->nkids >= 2) exec_if(ctx, n); return;
    case CU_N_LOOP: if (n->nkids) exec_loop(ctx, n); return;
    case CU_N_SWITCH: if (n->nkids) exec_switch(ctx, n); return;
    case CU_N_RETURN: exec_return(ctx, n); return;
    case CU_N_BREAK:
    case CU_N_GOTO:
        fr->broken = 1;
        return;
    case CU_N_THROW:
        for (int i = 0; i < n->nkids; i++) cu_eval(ctx, n->kids[i]);
        fr->terminated = 1;
        return;
    case CU_N_OTHER: exec_other(ctx, n); return;
    default: cu_eval(ctx, n); return;
    }
}

void cu_exec(cu_ctx *ctx, const cu_node *n)
{
    if (!n || ctx->fr->terminated || ctx->fr->broken) return;
    if (!nest_enter(ctx, n)) return;
    exec_node(ctx, n);
    ctx->nest--;
}

/* A node that may be a statement or an expression (a loop header, a
 * condition variable): a declaration's value is its variable's. */
static cu_val walk_exec_or_eval(cu_ctx *ctx, const cu_node *n)
{
    switch (n->kind) {
    case CU_N_DECL: {
        exec_decl(ctx, n);
        cu_slot *s = n->usr ? cg_map_get(&ctx->fr->env, n->usr, strlen(n->usr)) : NULL;
        return s ? s->v : CU_UNKNOWN;
    }
    case CU_N_COMPOUND: case CU_N_IF: case CU_N_LOOP: case CU_N_SWITCH: case CU_N_RETURN:
    case CU_N_BREAK: case CU_N_GOTO: case CU_N_THROW:
        cu_exec(ctx, n);
        return CU_UNKNOWN;
    default:
        return cu_eval(ctx, n);
    }
}
