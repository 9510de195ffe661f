/* cu_value.c - abstract values and the variables that hold them.
 *
 * A cu_val is what the walk knows about an expression: an integer (maybe
 * with its constant), a dim3 (each component maybe known), a stream (a
 * variable's identity, the legacy stream or the per-thread one), an event or
 * graph handle, a guard (true while, or while not, the stream is capturing),
 * a lambda or a function.  Whatever kind it is, it remembers the host
 * variable it was read from (and where that variable's value came from), so
 * that the end of a capture can tell whether a replay would see it change
 * (CG204, CG306).
 *
 * Here: building values, the operators on them (the walk evaluates the
 * operands, this says what the result is), constant folding of lowered
 * code, and the environment: the values of locals (the frame), fields and
 * globals.  Nothing here walks statements or emits events. */
#include "cu_eval.h"
#include "cu_clang.h"
#include <string.h>
#include "core/str.h"

/* ---- building values ------------------------------------------------------------------ */
cu_val cu_v_int(int64_t x)
{
    cu_val v = CU_UNKNOWN;
    v.kind = CU_V_INT;
    v.x = x;
    v.known = 1;
    return v;
}

cu_val cu_v_stream_var(const char *id, int mayalias)
{
    cu_val v = CU_UNKNOWN;
    v.kind = CU_V_STREAM;
    v.skind = CU_SK_VAR;
    v.id = id;
    if (mayalias) v.flags |= CU_VF_MAYALIAS;
    return v;
}

cu_val cu_v_event(const char *id)
{
    cu_val v = CU_UNKNOWN;
    v.kind = CU_V_EVENT;
    v.id = id;
    return v;
}

cu_val cu_v_guard(int polarity)
{
    cu_val v = CU_UNKNOWN;
    v.kind = CU_V_GUARD;
    v.guard = (uint8_t)polarity;
    return v;
}

/* A value used as a stream argument: 0/NULL is the legacy stream, or the
 * per-thread one in code compiled with --default-stream per-thread. */
cu_val cu_v_as_stream(const cu_val *v, int ptds)
{
    if (v->kind == CU_V_STREAM) return *v;
    if ((v->kind == CU_V_INT && v->known & 1 && v->x == 0) || (v->flags & CU_VF_NULL)) {
        cu_val s = CU_UNKNOWN;
        s.kind = CU_V_STREAM;
        s.skind = ptds ? CU_SK_PERTHREAD : CU_SK_LEGACY;
        s.flags = CU_VF_NULL;
        return s;
    }
    return CU_UNKNOWN;
}

cu_val cu_v_default_stream(int ptds)
{
    cu_val z = cu_v_int(0);
    z.flags |= CU_VF_NULL;
    return cu_v_as_stream(&z, ptds);
}

int cu_v_same_stream(const cu_val *a, const cu_val *b)
{
    if (a->kind != CU_V_STREAM || b->kind != CU_V_STREAM) return 0;
    if (a->skind != b->skind) return 0;
    if (a->skind != CU_SK_VAR) return 1;
    return cg_eq(a->id, b->id);
}

cu_val cu_v_dim3_from(const cu_val *v)
{
    if (v->kind == CU_V_DIM3) return *v;
    cu_val d = CU_UNKNOWN;
    d.kind = CU_V_DIM3;
    d.src = v->src;
    d.src2 = v->src2;
    if (v->kind == CU_V_INT && (v->known & 1)) { d.x = v->x; d.y = 1; d.z = 1; d.known = 7; }
    return d;
}

cu_val cu_v_dim3(const cu_node *n, const cu_val *args)
{
    cu_val d = CU_UNKNOWN;
    d.kind = CU_V_DIM3;
    for (int i = 0; i < 3; i++) {
        int64_t c = 1;
        int known = 1;
        if (i < n->nkids && n->kids[i]->kind != CU_N_EMPTY) {
            if (args[i].kind == CU_V_INT && (args[i].known & 1)) c = args[i].x;
            else if (args[i].kind == CU_V_DIM3 && i == 0 && n->nkids == 1) return args[0];
            else known = 0;
            if (!d.src.usr) d.src = args[i].src;
            if (!d.src2.usr) d.src2 = args[i].src2;
        }
        (&d.x)[i] = c;
        if (known) d.known |= (uint8_t)(1 << i);
    }
    return d;
}

uint64_t cu_v_args_sig(const cu_val *args, int nargs)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < nargs; i++) {
        uint64_t x[4] = { args[i].kind, args[i].skind | ((uint64_t)args[i].guard << 8),
                          (uint64_t)(uintptr_t)args[i].id, (uint64_t)(uintptr_t)args[i].lambda };
        if (args[i].id) x[2] = cg_hash_bytes(args[i].id, strlen(args[i].id));
        h ^= cg_hash_bytes(x, sizeof x);
        h *= 1099511628211ull;
    }
    return h;
}

/* ---- constant folding ------------------------------------------------------------------ */
/* x op y in 64 bits, wrapping as the target's unsigned arithmetic does (no
 * undefined behaviour here, whatever constants the code holds); 0 when it
 * has no value (a division by zero, INT64_MIN / -1, a shift out of range). */
static int fold_op(int op, int64_t x, int64_t y, int64_t *out)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    switch (op) {
    case CXBinaryOperator_Mul: *out = (int64_t)(ux * uy); return 1;
    case CXBinaryOperator_Div:
    case CXBinaryOperator_Rem:
        if (!y || (x == INT64_MIN && y == -1)) return 0;
        *out = op == CXBinaryOperator_Div ? x / y : x % y;
        return 1;
    case CXBinaryOperator_Add: *out = (int64_t)(ux + uy); return 1;
    case CXBinaryOperator_Sub: *out = (int64_t)(ux - uy); return 1;
    case CXBinaryOperator_Shl: if (y < 0 || y > 62) return 0; *out = (int64_t)(ux << y); return 1;
    case CXBinaryOperator_Shr: if (y < 0 || y > 62) return 0; *out = x >> y; return 1;
    case CXBinaryOperator_Or: *out = x | y; return 1;
    case CXBinaryOperator_And: *out = x & y; return 1;
    case CXBinaryOperator_LT: *out = x < y; return 1;
    case CXBinaryOperator_GT: *out = x > y; return 1;
    case CXBinaryOperator_LE: *out = x <= y; return 1;
    case CXBinaryOperator_GE: *out = x >= y; return 1;
    case CXBinaryOperator_EQ: *out = x == y; return 1;
    case CXBinaryOperator_NE: *out = x != y; return 1;
    default: return 0;
    }
}

/* The arithmetic operators constant expressions in lowered code fold. */
static int folds_arith(int op)
{
    switch (op) {
    case CXBinaryOperator_Mul: case CXBinaryOperator_Div: case CXBinaryOperator_Rem:
    case CXBinaryOperator_Add: case CXBinaryOperator_Sub: case CXBinaryOperator_Shl:
    case CXBinaryOperator_Shr: case CXBinaryOperator_Or: case CXBinaryOperator_And:
        return 1;
    default: return 0;
    }
}

static int fold_unary(int op, int64_t a, int64_t *out)
{
    if (op == CXUnaryOperator_Minus) { *out = (int64_t)(0 - (uint64_t)a); return 1; }
    if (op == CXUnaryOperator_Plus) { *out = a; return 1; }
    if (op == CXUnaryOperator_Not) { *out = ~a; return 1; }
    return 0;
}

static int fold_at(const cu_node *n, int64_t *out, int depth)
{
    if (!n || depth > CU_MAX_EVAL_NEST) return 0;
    int64_t a, b;
    switch (n->kind) {
    case CU_N_INT: case CU_N_REF: case CU_N_SIZEOF:
        if (n->flags & CU_F_IVAL) { *out = n->ival; return 1; }
        return 0;
    case CU_N_CAST: return n->nkids && fold_at(n->kids[0], out, depth + 1);
    case CU_N_UNARY:
        return n->nkids && fold_at(n->kids[0], &a, depth + 1) && fold_unary(n->op, a, out);
    case CU_N_BINARY:
        if (n->nkids < 2 || !fold_at(n->kids[0], &a, depth + 1) || !fold_at(n->kids[1], &b, depth + 1))
            return 0;
        return folds_arith(n->op) && fold_op(n->op, a, b, out);
    default: return 0;
    }
}

int cu_fold(const cu_node *n, int64_t *out) { return fold_at(n, out, 0); }

/* ---- names in lowered code -------------------------------------------------------------- */
static int mentions_at(const cu_node *n, const char *s, int by_usr, int depth, int max)
{
    if (!n || depth > max) return 0;
    if ((n->kind == CU_N_REF || n->kind == CU_N_MEMBER) && cg_eq(by_usr ? n->usr : n->name, s)) return 1;
    for (int i = 0; i < n->nkids; i++)
        if (mentions_at(n->kids[i], s, by_usr, depth + 1, max)) return 1;
    return 0;
}

int cu_mentions_name(const cu_node *n, const char *name) { return mentions_at(n, name, 0, 0, 12); }
int cu_mentions_usr(const cu_node *n, const char *usr) { return mentions_at(n, usr, 1, 0, 16); }

const cu_node *cu_lvalue_root(const cu_node *n)
{
    for (int i = 0; n && i < CU_MAX_EVAL_NEST; i++) {   /* a loop: as deep as the tree */
        switch (n->kind) {
        case CU_N_REF: return n;
        case CU_N_MEMBER: return n;
        case CU_N_CAST: n = n->nkids ? n->kids[0] : NULL; break;
        case CU_N_UNARY:
            if (n->op == CXUnaryOperator_AddrOf || n->op == CXUnaryOperator_Deref) { n = n->nkids ? n->kids[0] : NULL; break; }
            return NULL;
        case CU_N_OTHER: n = n->nkids ? n->kids[0] : NULL; break;   /* a[i] */
        default: return NULL;
        }
    }
    return NULL;
}

static int is_field(const cu_node *root) { return root->kind == CU_N_MEMBER || root->storage == CU_S_FIELD; }
static int is_global(const cu_node *root) { return root->storage == CU_S_GLOBAL || root->storage == CU_S_STATIC; }

const char *cu_ident(cu_ctx *ctx, const cu_node *root)
{
    if (!root || !root->usr) return NULL;
    if (is_field(root)) return cg_arena_printf(ctx->arena, "f:%s", root->usr);
    if (is_global(root)) return cg_arena_printf(ctx->arena, "g:%s", root->usr);
    return cg_arena_printf(ctx->arena, "v:%s", root->usr);
}

/* ---- operators ---------------------------------------------------------------------------- */
static cu_val unary_at(int op, cu_val v);
cu_val cu_v_unary(int op, cu_val v)
{
    cu_val r = unary_at(op, v);
    if (r.kind != CU_V_GUARD && !r.clock) r.clock = v.clock;
    return r;
}

static cu_val unary_at(int op, cu_val v)
{
    switch (op) {
    case CXUnaryOperator_LNot:
        if (v.kind == CU_V_GUARD) return cu_v_guard(v.guard == CU_G_POS ? CU_G_NEG : CU_G_POS);
        if (v.kind == CU_V_INT && (v.known & 1)) return cu_v_int(!v.x);
        return CU_UNKNOWN;
    case CXUnaryOperator_Minus:
        if (v.kind == CU_V_INT && (v.known & 1)) { v.x = (int64_t)(0 - (uint64_t)v.x); return v; }
        return CU_UNKNOWN;
    case CXUnaryOperator_AddrOf:
        v.flags |= CU_VF_ADDR;
        return v;
    case CXUnaryOperator_Plus:
        return v;
    default:
        return CU_UNKNOWN;
    }
}

/* a && b, a || b: only guards survive (a guard anded with anything still guards) */
static cu_val logic_at(int op, const cu_val *a, const cu_val *b);
cu_val cu_v_logic(int op, const cu_val *a, const cu_val *b)
{
    cu_val r = logic_at(op, a, b);
    if (r.kind != CU_V_GUARD) r.clock = a->clock ? a->clock : b->clock;
    return r;
}

static cu_val logic_at(int op, const cu_val *a, const cu_val *b)
{
    if (op == CXBinaryOperator_LAnd) {
        if (a->kind == CU_V_GUARD && a->guard == CU_G_NEG) return *a;
        if (b->kind == CU_V_GUARD && b->guard == CU_G_NEG) return *b;
        if (a->kind == CU_V_GUARD) return *a;
        if (b->kind == CU_V_GUARD) return *b;
    } else if (a->kind == CU_V_GUARD && b->kind == CU_V_GUARD && a->guard == b->guard) {
        return *a;
    }
    return CU_UNKNOWN;
}

static int status_name(const cu_val *v, int *active_status)
{
    if (!v->name) return 0;
    if (cg_eq(v->name, "cudaStreamCaptureStatusActive") || cg_eq(v->name, "CU_STREAM_CAPTURE_STATUS_ACTIVE")) { *active_status = 1; return 1; }
    if (cg_eq(v->name, "cudaStreamCaptureStatusNone") || cg_eq(v->name, "CU_STREAM_CAPTURE_STATUS_NONE")) { *active_status = 0; return 1; }
    return 0;
}

/* status == cudaStreamCaptureStatusActive (or != ..., or == None, or 0/1) */
static cu_val compare_guard(const cu_val *a, const cu_val *b, int op)
{
    const cu_val *g = a->kind == CU_V_GUARD ? a : b->kind == CU_V_GUARD ? b : NULL;
    const cu_val *o = g == a ? b : a;
    if (!g) return CU_UNKNOWN;
    int act;
    if (!status_name(o, &act)) {
        if (o->kind == CU_V_INT && (o->known & 1) && (o->x == 0 || o->x == 1)) act = (int)o->x;
        else return CU_UNKNOWN;
    }
    /* status == Active: true while capturing */
    int pos = (op == CXBinaryOperator_EQ) == (act == 1);
    int pol = pos ? g->guard : (g->guard == CU_G_POS ? CU_G_NEG : CU_G_POS);
    return cu_v_guard(pol);
}

/* The result remembers up to two host variables its operands were read from. */
static void merge_srcs(cu_val *out, const cu_val *a, const cu_val *b)
{
    const cu_src *srcs[4] = { &a->src, &b->src, &a->src2, &b->src2 };
    int k = 0;
    for (int i = 0; i < 4; i++) {
        if (!srcs[i]->usr) continue;
        if (k == 0) { out->src = *srcs[i]; k++; }
        else if (k == 1 && !cg_eq(srcs[i]->usr, out->src.usr)) { out->src2 = *srcs[i]; k++; }
    }
}

/* a op b for the operators that are not assignments or && || */
cu_val cu_v_binary(int op, const cu_val *a, const cu_val *b)
{
    if (op == CXBinaryOperator_Comma) return *b;
    if (op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) {
        cu_val g = compare_guard(a, b, op);
        if (g.kind == CU_V_GUARD) return g;
    }
    cu_val out = CU_UNKNOWN;
    int64_t folded;
    if (a->kind == CU_V_INT && b->kind == CU_V_INT && (a->known & 1) && (b->known & 1) &&
        fold_op(op, a->x, b->x, &folded))
        out = cu_v_int(folded);
    merge_srcs(&out, a, b);
    out.clock = a->clock ? a->clock : b->clock;
    return out;
}

/* d.x, d.y, d.z (c: 0, 1, 2) of a dim3 value */
cu_val cu_v_component(const cu_val *dim3, int c)
{
    cu_val v = CU_UNKNOWN;
    if (dim3->known & (1 << c)) v = cu_v_int((&dim3->x)[c]);
    v.src = dim3->src;
    return v;
}

/* (cudaStream_t)0, 1, 2: the legacy and per-thread handles */
cu_val cu_v_cast(int tclass, cu_val v)
{
    if (tclass != CU_T_STREAM || v.kind != CU_V_INT || !(v.known & 1)) return v;
    cu_val s = CU_UNKNOWN;
    s.kind = CU_V_STREAM;
    if (v.x == 0) { s.flags = CU_VF_NULL; s.skind = CU_SK_LEGACY; }
    else if (v.x == 1) s.skind = CU_SK_LEGACY;
    else if (v.x == 2) s.skind = CU_SK_PERTHREAD;
    else return CU_UNKNOWN;
    return s;
}


/* ---- the environment ----------------------------------------------------------------- */
cu_slot *cu_env_slot(cu_ctx *ctx, const cu_node *root, int create)
{
    if (!root || !root->usr) return NULL;
    cg_map *m;
    if (is_field(root)) m = &ctx->fields;
    else if (is_global(root)) m = &ctx->globals;
    else m = &ctx->fr->env;
    size_t len = strlen(root->usr);
    cu_slot *s = cg_map_get(m, root->usr, len);
    if (!s && create) {
        s = cg_arena_alloc(ctx->arena, sizeof *s);
        s->decl_region = -1;
        cg_map_put(m, root->usr, len, s);
    }
    return s;
}

void cu_env_bind(cu_ctx *ctx, const char *usr, cu_val v, int decl_region)
{
    if (!usr) return;
    size_t len = strlen(usr);
    cu_slot *s = cg_map_get(&ctx->fr->env, usr, len);
    if (!s) {
        s = cg_arena_alloc(ctx->arena, sizeof *s);
        cg_map_put(&ctx->fr->env, usr, len, s);
    }
    s->v = v;
    s->decl_region = decl_region;
}

void cu_env_set(cu_ctx *ctx, const cu_node *root, cu_val v)
{
    cu_slot *s = cu_env_slot(ctx, root, 1);
    if (!s) return;
    s->v = v;
    if (s->decl_region == -1) s->decl_region = 0;
}

/* d.x = 2048 on a dim3 variable */
static int assign_component(cu_ctx *ctx, const cu_node *lhs, const cu_val *v)
{
    if (!(lhs->kind == CU_N_MEMBER && lhs->nkids && lhs->kids[0]->kind == CU_N_REF &&
          lhs->kids[0]->tclass == CU_T_DIM3 && lhs->name && !lhs->name[1] &&
          (lhs->name[0] == 'x' || lhs->name[0] == 'y' || lhs->name[0] == 'z')))
        return 0;
    cu_slot *s = cu_env_slot(ctx, lhs->kids[0], 1);
    if (!s) return 1;
    if (s->v.kind != CU_V_DIM3) { s->v = CU_UNKNOWN; s->v.kind = CU_V_DIM3; }
    int c = lhs->name[0] - 'x';
    int64_t *comp = c == 0 ? &s->v.x : c == 1 ? &s->v.y : &s->v.z;
    if (v->kind == CU_V_INT && (v->known & 1)) { *comp = v->x; s->v.known |= (uint8_t)(1 << c); }
    else s->v.known &= (uint8_t)~(1 << c);
    return 1;
}

void cu_env_assign(cu_ctx *ctx, const cu_node *lhs, cu_val v)
{
    const cu_node *root = cu_lvalue_root(lhs);
    if (!root) return;
    if (assign_component(ctx, lhs, &v)) return;
    if (root != lhs && !(lhs->kind == CU_N_CAST)) return;   /* a[i] = ..., *p = ...: not the variable */
    cu_env_set(ctx, root, v);
}

int cu_env_older(cu_ctx *ctx, const cu_node *root)
{
    if (is_field(root) || is_global(root)) return 1;
    int rid = ctx->st.cap->id;
    if (root->storage == CU_S_PARAM) return ctx->fr->entry_region != rid;
    const cu_slot *s = cu_env_slot(ctx, root, 0);
    return !s || s->decl_region != rid;
}

void cu_v_set_src(cu_ctx *ctx, cu_val *v, const cu_node *ref)
{
    if (ref->tclass != CU_T_ARITH && ref->tclass != CU_T_PTR && ref->tclass != CU_T_DIM3 &&
        ref->tclass != CU_T_RECORD)
        return;
    if ((ref->flags & CU_F_CONST) || !ref->usr) return;
    cu_src s;
    s.usr = ref->usr;
    s.name = ref->name;
    s.storage = ref->storage;
    s.fn = ctx->fr ? ctx->fr->fn : NULL;
    s.at = ref;
    s.loop = ctx->fr ? ctx->fr->outer_loop : NULL;
    /* a by-value parameter holds the caller's variable: keep that */
    if (ref->storage == CU_S_PARAM && v->src.usr) return;
    if (v->src.usr && !cg_eq(v->src.usr, ref->usr) && !v->src2.usr) v->src2 = v->src;
    v->src = s;
}
