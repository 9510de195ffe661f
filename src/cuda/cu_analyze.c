/* cu_analyze.c - capture regions, streams, reachability and the abstract walk.
 *
 * How regions are modelled
 *   A region opens at cudaStreamBeginCapture / cudaStreamBeginCaptureToGraph
 *   / cuStreamBeginCapture(_v2) and closes at the matching EndCapture,
 *   wherever those calls sit: in one function, in helpers (begin in one,
 *   end in another), or in a constructor and destructor (RAII: a class
 *   object's destructor runs at the end of its scope or at a return).  The
 *   walk starts at "entries": functions that reach a capture API through
 *   calls and that no such function calls (main, a library's run_step...).
 *   Outside a region the walk only follows calls that can reach a capture
 *   API; inside one it follows every call into the analysed tree, by USR,
 *   across translation units, keeping the call path from the capture site.
 *   Each callee is walked once per (region, argument shape).
 *
 * Streams
 *   Values say which stream an expression is: a variable's identity, the
 *   legacy stream (0, NULL, cudaStreamLegacy), the per-thread stream.
 *   cudaEventRecord on a stream in the capture followed by
 *   cudaStreamWaitEvent on another stream forks that stream into the
 *   capture; the reverse joins it.  Streams passed in by callers nobody
 *   analysed may be anything and are never called foreign.
 *
 * Control flow
 *   Both arms of an if are walked; an arm that returns, throws, breaks or
 *   ends the program does not flow on, so `if (err) { EndCapture; return; }`
 *   leaves the capture open on the other path.  A status from
 *   cudaStreamIsCapturing / cudaStreamGetCaptureInfo makes a guard: inside a
 *   region the arm that runs only when not capturing is skipped.  Code after
 *   a return is never walked; loops are walked once.
 *
 * Host values
 *   Values remember the host variable they were read from (and where its
 *   value came from), so a launch's geometry or a kernel's by-value argument
 *   can be checked, when the capture ends, against the writes to that
 *   variable: after the capture or in a loop around it in the functions the
 *   capture runs in, or in a function that one of those calls after the
 *   capture (CG204, CG306).  Writes inside the capture are its own.
 *
 * Threads
 *   A std::thread, pthread_create or std::async whose function makes CUDA
 *   calls is remembered until joined; if it runs while a global-mode capture
 *   is open, that is CG708. */
#include "cu_eval.h"
#include <clang-c/Index.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ACTIVE_WALKS 64
#define CU_STR_(x) #x
#define CU_STR(x) CU_STR_(x)

typedef struct cu_slot { cu_val v; int decl_region; } cu_slot;

typedef struct cu_dtor { cu_func *fn; const cu_node *decl; int scope; } cu_dtor;

/* A condition around the current statement: 'I' (if), 'L' (a loop: its
 * statement), 'S' (switch). */
typedef struct cu_cond { char kind; const cu_node *loop; } cu_cond;

/* One function being walked.  Its arrays grow (malloc) and are freed when
 * it returns: the frame itself stays small, it is on the C stack of every
 * call the walk follows. */
struct cu_frame {
    cu_func *fn;
    cu_frame *caller;
    cg_map env;
    int depth;
    int entry_region;
    int nest0;                /* ctx->nest when the frame began */
    cu_cond *cs;
    int ncs, capcs;
    int cond_depth;
    const cu_node *outer_loop;
    int loop_header;
    int error_path;
    const char **loop_vars;
    int nloop_vars, caploop_vars;
    cu_dtor *dtors;
    int ndtors, capdtors;
    int scope;
    cu_val ret;
    int terminated, broken;
    const cu_node *at;        /* the call being made in this frame */
};

/* Make room for one more element of an array that grows by doubling. */
static void *grow(void *v, int *cap, int n, size_t elem)
{
    if (n < *cap) return v;
    int nc = *cap ? *cap * 2 : 8;
    void *nv = realloc(v, (size_t)nc * elem);
    if (!nv) { fputs("cglint: out of memory\n", stderr); abort(); }
    *cap = nc;
    return nv;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) { fputs("cglint: out of memory\n", stderr); abort(); }
    return p;
}

/* ---- the state branches copy and merge ---------------------------------------------- */
static void *dup_array(const void *v, int n, size_t elem)
{
    if (!n) return NULL;
    void *r = xmalloc((size_t)n * elem);
    memcpy(r, v, (size_t)n * elem);
    return r;
}

static cu_state state_copy(const cu_state *s)
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

static void state_free(cu_state *s)
{
    free(s->forks);
    free(s->rec);
    free(s->allocs);
    memset(s, 0, sizeof *s);
}

static cu_fork *add_fork(cu_state *s)
{
    s->forks = grow(s->forks, &s->capforks, s->nforks, sizeof *s->forks);
    cu_fork *f = &s->forks[s->nforks++];
    memset(f, 0, sizeof *f);
    return f;
}

static cu_rec *add_rec(cu_state *s)
{
    s->rec = grow(s->rec, &s->caprec, s->nrec, sizeof *s->rec);
    cu_rec *r = &s->rec[s->nrec++];
    memset(r, 0, sizeof *r);
    return r;
}

static cu_alloc *add_alloc(cu_state *s)
{
    s->allocs = grow(s->allocs, &s->capalloc, s->nalloc, sizeof *s->allocs);
    cu_alloc *a = &s->allocs[s->nalloc++];
    memset(a, 0, sizeof *a);
    return a;
}

static const cu_val UNKNOWN;

static cu_val exec_or_eval(cu_ctx *ctx, const cu_node *n);
static int nest_enter(cu_ctx *ctx, const cu_node *n);
static cu_val eval(cu_ctx *ctx, const cu_node *n);
static void exec(cu_ctx *ctx, const cu_node *n);
static void thread_event(cu_ctx *ctx, const cu_node *start, const cu_node *work, int before);

static int eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }
static int active(cu_ctx *ctx) { return ctx->st.region != NULL; }
/* The definition a call means: the one in the caller's own file when there
 * are several (separate programs in one tree), else the first. */
static cu_func *func_in(cu_project *p, const char *usr, int file)
{
    cu_func *f = usr ? cg_map_get(&p->funcs, usr, strlen(usr)) : NULL;
    for (cu_func *q = f; q && f && f->next_same_usr; q = q->next_same_usr)
        if (q->file == file) return q;
    return f;
}

static cu_func *func_of(cu_ctx *ctx, const char *usr)
{
    int file = ctx->fr && ctx->fr->fn ? ctx->fr->fn->file : -1;
    return func_in(ctx->p, usr, file);
}

/* ---- locations, snippets, reporting ---------------------------------------------- */
cg_loc cu_cg_loc(const cu_project *p, const cu_loc *l)
{
    cg_loc r = { 0 };
    if (l->file < 0 || (size_t)l->file >= p->nfiles) return r;
    const cu_file *f = &p->files[l->file];
    r.path = f->path;
    r.line = l->line;
    r.col = l->line ? cg_source_column(&f->src, l->line, l->col ? l->col - 1 : 0) : 0;
    if (l->end_line) {
        r.end_line = l->end_line;
        r.end_col = cg_source_column(&f->src, l->end_line, l->end_col ? l->end_col - 1 : 0);
    } else {
        size_t len;
        const char *t = cg_source_line(&f->src, l->line, &len);
        size_t i = l->col ? l->col - 1 : 0, k = i;
        while (k < len && (t[k] == '_' || (t[k] >= '0' && t[k] <= '9') || ((t[k] | 32) >= 'a' && (t[k] | 32) <= 'z'))) k++;
        if (k == i && k < len) k++;
        r.end_line = l->line;
        r.end_col = cg_source_column(&f->src, l->line, (uint32_t)k);
    }
    if (r.end_line == r.line && r.end_col <= r.col) r.end_col = r.col + 1;
    return r;
}

const char *cu_loc_str(cu_ctx *ctx, const cu_loc *l)
{
    cg_loc g = cu_cg_loc(ctx->p, l);
    return cg_arena_printf(ctx->arena, "%s:%u:%u", g.path ? g.path : "?", g.line, g.col);
}

const char *cu_snip(cu_ctx *ctx, const cu_node *n)
{
    if (!n || n->loc.file < 0) return "?";
    const cu_file *f = &ctx->p->files[n->loc.file];
    size_t len;
    const char *t = cg_source_line(&f->src, n->loc.line, &len);
    size_t s = n->loc.col ? n->loc.col - 1 : 0;
    if (s > len) s = len;
    size_t e = len;
    if (n->loc.end_line == n->loc.line && n->loc.end_col > n->loc.col) e = n->loc.end_col - 1;
    else if (!n->loc.end_line) {
        e = s;
        while (e < len && (t[e] == '_' || (t[e] >= '0' && t[e] <= '9') || ((t[e] | 32) >= 'a' && (t[e] | 32) <= 'z'))) e++;
    }
    if (e > len) e = len;
    size_t n2 = e - s;
    int cut = 0;
    if (n->loc.end_line > n->loc.line) cut = 1;
    if (n2 > 60) { n2 = 57; cut = 1; }
    while (cut && n2 > 0 && ((unsigned char)t[s + n2] & 0xC0) == 0x80) n2--;
    return cg_arena_printf(ctx->arena, "%.*s%s", (int)n2, t + s, cut ? "..." : "");
}

void cu_report(cu_ctx *ctx, const cu_event *ev, const cu_node *n, int rule, int level,
               const char *fix, const char *fmt, ...)
{
    cu_region *r = ev && ev->region ? ev->region : ctx->st.region;
    if (!r || !n || n->loc.file < 0) return;
    /* the whole message: one cut short could end inside a UTF-8 sequence */
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    va_end(ap);
    if (!msg) { fputs("cglint: out of memory\n", stderr); abort(); }
    cg_finding f;
    memset(&f, 0, sizeof f);
    f.rule = rule;
    f.level = level < 0 ? cg_rules[rule].severity : (cg_severity)level;
    f.loc = cu_cg_loc(ctx->p, &n->loc);
    f.message = msg;
    f.fix = (char *)(fix ? fix : cg_rules[rule].fix_cu);
    size_t ll;
    const char *lt = cg_source_line(&ctx->p->files[n->loc.file].src, f.loc.line, &ll);
    f.line_text = cg_arena_strndup(ctx->arena, lt, ll);
    f.has_capture = 1;
    f.capture = cu_cg_loc(ctx->p, &r->site);
    f.capture_kind = (char *)r->kind;
    if (ev && ev->path_set) {
        f.path = (cg_step *)ev->path;
        f.npath = (size_t)ev->npath;
    } else {
        int base = r->path_base < ctx->npath ? r->path_base : ctx->npath;
        f.path = ctx->path + base;
        f.npath = (size_t)(ctx->npath - base);
    }
    cg_report_add(ctx->p->report, &f);
    free(msg);
}

const char *cu_mode_name(int mode)
{
    switch (mode) {
    case 0: return "global";
    case 1: return "thread-local";
    case 2: return "relaxed";
    default: return "unknown";
    }
}

/* ---- values ------------------------------------------------------------------------ */
static cu_val vint(int64_t x) { cu_val v = UNKNOWN; v.kind = CV_INT; v.x = x; v.known = 1; return v; }

static cu_val stream_of_var(const char *id, int mayalias)
{
    cu_val v = UNKNOWN;
    v.kind = CV_STREAM;
    v.skind = CS_VAR;
    v.id = id;
    if (mayalias) v.flags |= CVF_MAYALIAS;
    return v;
}

/* A value used as a stream argument: 0/NULL is the legacy stream, or the
 * per-thread one in code compiled with --default-stream per-thread. */
static cu_val as_stream(const cu_val *v, int ptds)
{
    if (v->kind == CV_STREAM) return *v;
    if ((v->kind == CV_INT && v->known & 1 && v->x == 0) || (v->flags & CVF_NULL)) {
        cu_val s = UNKNOWN;
        s.kind = CV_STREAM;
        s.skind = ptds ? CS_PERTHREAD : CS_LEGACY;
        s.flags = CVF_NULL;
        return s;
    }
    return UNKNOWN;
}

static int same_stream(const cu_val *a, const cu_val *b)
{
    if (a->kind != CV_STREAM || b->kind != CV_STREAM) return 0;
    if (a->skind != b->skind) return 0;
    if (a->skind != CS_VAR) return 1;
    return eq(a->id, b->id);
}

static cu_fork *find_fork(cu_ctx *ctx, const char *id)
{
    for (int i = 0; i < ctx->st.nforks; i++)
        if (eq(ctx->st.forks[i].id, id)) return &ctx->st.forks[i];
    return NULL;
}

cu_role cu_stream_role(cu_ctx *ctx, const cu_val *s)
{
    cu_region *r = ctx->st.region;
    if (s->kind != CV_STREAM) return ROLE_UNKNOWN;
    if (r && same_stream(s, &r->stream)) return ROLE_CAPTURE;
    if (s->skind == CS_LEGACY) return ROLE_LEGACY;
    if (s->skind == CS_PERTHREAD) {
        if (r && (r->stream.kind != CV_STREAM || (r->stream.flags & CVF_MAYALIAS))) return ROLE_UNKNOWN;
        return ROLE_PERTHREAD;
    }
    if (find_fork(ctx, s->id)) return ROLE_FORKED;
    if (s->flags & CVF_MAYALIAS) return ROLE_UNKNOWN;
    if (r && r->stream.kind != CV_STREAM) return ROLE_UNKNOWN;
    /* the capture runs on a stream passed in by a caller cglint did not see:
     * a member or global stream may be that very stream; a local one cannot */
    if (r && (r->stream.flags & CVF_MAYALIAS) && s->id &&
        (strncmp(s->id, "f:", 2) == 0 || strncmp(s->id, "g:", 2) == 0))
        return ROLE_UNKNOWN;
    return ROLE_OTHER;
}

int cu_is_captured_event(cu_ctx *ctx, const cu_val *ev)
{
    if (ev->kind != CV_EVENT) return 0;
    for (int i = 0; i < ctx->st.nrec; i++)
        if (eq(ctx->st.rec[i].ev, ev->id)) return ctx->st.rec[i].captured;
    return 0;
}

/* The variable at the root of an lvalue: x, s.f, p->f, a[i], *p, (T)&x. */
static const cu_node *lvalue_root(const cu_node *n)
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

static const char *ident_of(cu_ctx *ctx, const cu_node *root)
{
    if (!root || !root->usr) return NULL;
    if (root->kind == CU_N_MEMBER || root->storage == CU_S_FIELD)
        return cg_arena_printf(ctx->arena, "f:%s", root->usr);
    if (root->storage == CU_S_GLOBAL || root->storage == CU_S_STATIC)
        return cg_arena_printf(ctx->arena, "g:%s", root->usr);
    return cg_arena_printf(ctx->arena, "v:%s", root->usr);
}

/* ---- the environment ----------------------------------------------------------------- */
static cu_slot *slot_of(cu_ctx *ctx, const cu_node *root, int create)
{
    if (!root || !root->usr) return NULL;
    cg_map *m;
    if (root->kind == CU_N_MEMBER || root->storage == CU_S_FIELD) m = &ctx->fields;
    else if (root->storage == CU_S_GLOBAL || root->storage == CU_S_STATIC) m = &ctx->globals;
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

static void bind_var(cu_ctx *ctx, const char *usr, cu_val v, int decl_region)
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

static void assign_to(cu_ctx *ctx, const cu_node *lhs, cu_val v)
{
    const cu_node *root = lvalue_root(lhs);
    if (!root) return;
    /* d.x = 2048 on a dim3 variable */
    if (lhs->kind == CU_N_MEMBER && lhs->nkids && lhs->kids[0]->kind == CU_N_REF &&
        lhs->kids[0]->tclass == CU_T_DIM3 && lhs->name && !lhs->name[1] &&
        (lhs->name[0] == 'x' || lhs->name[0] == 'y' || lhs->name[0] == 'z')) {
        cu_slot *s = slot_of(ctx, lhs->kids[0], 1);
        if (!s) return;
        if (s->v.kind != CV_DIM3) { s->v = UNKNOWN; s->v.kind = CV_DIM3; }
        int c = lhs->name[0] - 'x';
        int64_t *comp = c == 0 ? &s->v.x : c == 1 ? &s->v.y : &s->v.z;
        if (v.kind == CV_INT && (v.known & 1)) { *comp = v.x; s->v.known |= (uint8_t)(1 << c); }
        else s->v.known &= (uint8_t)~(1 << c);
        return;
    }
    if (root != lhs && !(lhs->kind == CU_N_CAST)) return;   /* a[i] = ..., *p = ...: not the variable */
    cu_slot *s = slot_of(ctx, root, 1);
    if (!s) return;
    s->v = v;
    if (s->decl_region == -1) s->decl_region = 0;
}

/* ---- events ----------------------------------------------------------------------------- */
static void emit(cu_ctx *ctx, cu_event *ev)
{
    if (!active(ctx)) return;
    ev->region = ctx->st.region;
    ev->fn = ctx->fr ? ctx->fr->fn : NULL;
    if (ctx->fr) {
        /* an error branch stays one in the functions it calls */
        for (const cu_frame *f = ctx->fr; f && !ev->error_path; f = f->caller) ev->error_path = f->error_path > 0;
        ev->loop_header = ctx->fr->loop_header > 0;
    }
    cu_dispatch(ctx, ev);
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

static int fold_static(const cu_node *n, int64_t *out, int depth)
{
    if (!n || depth > CU_MAX_EVAL_NEST) return 0;
    switch (n->kind) {
    case CU_N_INT: case CU_N_REF: case CU_N_SIZEOF:
        if (n->flags & CU_F_IVAL) { *out = n->ival; return 1; }
        return 0;
    case CU_N_CAST: return n->nkids && fold_static(n->kids[0], out, depth + 1);
    case CU_N_UNARY: {
        int64_t a;
        if (!n->nkids || !fold_static(n->kids[0], &a, depth + 1)) return 0;
        if (n->op == CXUnaryOperator_Minus) { *out = (int64_t)(0 - (uint64_t)a); return 1; }
        if (n->op == CXUnaryOperator_Plus) { *out = a; return 1; }
        if (n->op == CXUnaryOperator_Not) { *out = ~a; return 1; }
        return 0;
    }
    case CU_N_BINARY: {
        int64_t a, b;
        if (n->nkids < 2 || !fold_static(n->kids[0], &a, depth + 1) || !fold_static(n->kids[1], &b, depth + 1))
            return 0;
        switch (n->op) {
        case CXBinaryOperator_Mul: case CXBinaryOperator_Div: case CXBinaryOperator_Rem:
        case CXBinaryOperator_Add: case CXBinaryOperator_Sub: case CXBinaryOperator_Shl:
        case CXBinaryOperator_Shr: case CXBinaryOperator_Or: case CXBinaryOperator_And:
            return fold_op(n->op, a, b, out);
        default: return 0;
        }
    }
    default: return 0;
    }
}

static int mentions_name(const cu_node *n, const char *name, int depth)
{
    if (!n || depth > 12) return 0;
    if ((n->kind == CU_N_REF || n->kind == CU_N_MEMBER) && eq(n->name, name)) return 1;
    for (int i = 0; i < n->nkids; i++)
        if (mentions_name(n->kids[i], name, depth + 1)) return 1;
    return 0;
}

static int mentions_usr(const cu_node *n, const char *usr, int depth)
{
    if (!n || depth > 16) return 0;
    if ((n->kind == CU_N_REF || n->kind == CU_N_MEMBER) && eq(n->usr, usr)) return 1;
    for (int i = 0; i < n->nkids; i++)
        if (mentions_usr(n->kids[i], usr, depth + 1)) return 1;
    return 0;
}

/* ---- branches, guards, error paths -------------------------------------------------- */
static int is_terminator_name(const char *name)
{
    static const char *const t[] = { "exit", "abort", "_Exit", "_exit", "quick_exit", "terminate",
        "__assert_fail", "__builtin_trap", "__builtin_unreachable", "longjmp", NULL };
    for (int i = 0; t[i]; i++) if (eq(name, t[i])) return 1;
    return 0;
}

/* Does a branch end the program or the function (its last statement)? */
static int ends_program(const cu_node *n, int depth)
{
    if (!n || depth > CU_MAX_EVAL_NEST) return 0;
    if (n->kind == CU_N_COMPOUND) return n->nkids && ends_program(n->kids[n->nkids - 1], depth + 1);
    if (n->kind == CU_N_THROW) return 1;
    if (n->kind == CU_N_CALL && (is_terminator_name(n->name) || (n->flags & CU_F_NORETURN))) return 1;
    return 0;
}

/* A condition that tests an error code: err != cudaSuccess, if (err), ... */
static int is_error_cond(const cu_node *n, int depth)
{
    if (!n || depth > 8) return 0;
    if (n->kind == CU_N_REF && (eq(n->name, "cudaSuccess") || eq(n->name, "CUDA_SUCCESS") ||
                                n->tclass == CU_T_ERROR))
        return 1;
    for (int i = 0; i < n->nkids; i++)
        if (n->kind != CU_N_CALL && is_error_cond(n->kids[i], depth + 1)) return 1;
    return 0;
}

static cu_val guard(int g) { cu_val v = UNKNOWN; v.kind = CV_GUARD; v.guard = (uint8_t)g; return v; }

static int status_name(const cu_val *v, int *active_status)
{
    if (!v->name) return 0;
    if (eq(v->name, "cudaStreamCaptureStatusActive") || eq(v->name, "CU_STREAM_CAPTURE_STATUS_ACTIVE")) { *active_status = 1; return 1; }
    if (eq(v->name, "cudaStreamCaptureStatusNone") || eq(v->name, "CU_STREAM_CAPTURE_STATUS_NONE")) { *active_status = 0; return 1; }
    return 0;
}

static cu_val compare_guard(const cu_val *a, const cu_val *b, int op)
{
    const cu_val *g = a->kind == CV_GUARD ? a : b->kind == CV_GUARD ? b : NULL;
    const cu_val *o = g == a ? b : a;
    if (!g) return UNKNOWN;
    int act;
    if (!status_name(o, &act)) {
        if (o->kind == CV_INT && (o->known & 1) && (o->x == 0 || o->x == 1)) act = (int)o->x;
        else return UNKNOWN;
    }
    /* status == Active: true while capturing */
    int pos = (op == CXBinaryOperator_EQ) == (act == 1);
    int pol = pos ? g->guard : (g->guard == CG_POS ? CG_NEG : CG_POS);
    return guard(pol);
}

/* ---- the state at branches ------------------------------------------------------------ */
/* The state after two arms, from the states after each (both consumed). */
static cu_state merge(cu_state a, cu_state b)
{
    /* prefer the arm that keeps a capture open: a conditional begin stays begun */
    cu_state m = a.region ? a : b;
    cu_state o = a.region ? b : a;
    if (o.region == m.region) {
        for (int i = 0; i < o.nforks; i++) {
            cu_fork *f = NULL;
            for (int k = 0; k < m.nforks; k++)
                if (eq(m.forks[k].id, o.forks[i].id)) f = &m.forks[k];
            if (f) f->joined &= o.forks[i].joined;
            else *add_fork(&m) = o.forks[i];
        }
    }
    state_free(&o);
    return m;
}

/* ---- calls ------------------------------------------------------------------------------- */
static void frame_push(cu_ctx *ctx, cu_frame *fr, cu_func *fn)
{
    memset(fr, 0, sizeof *fr);
    fr->fn = fn;
    fr->caller = ctx->fr;
    fr->depth = ctx->depth;
    fr->nest0 = ctx->nest;
    fr->entry_region = ctx->st.region ? ctx->st.region->id : 0;
    cg_map_init(&fr->env);
    ctx->fr = fr;
}

static void run_dtors(cu_ctx *ctx, int scope_min);

static void frame_pop(cu_ctx *ctx, cu_frame *fr)
{
    cg_map_free(&fr->env);
    free(fr->cs);
    free(fr->loop_vars);
    free(fr->dtors);
    ctx->fr = fr->caller;
}

static void cond_push(cu_frame *fr, char kind, const cu_node *loop)
{
    fr->cs = grow(fr->cs, &fr->capcs, fr->ncs, sizeof *fr->cs);
    fr->cs[fr->ncs].kind = kind;
    fr->cs[fr->ncs].loop = loop;
    fr->ncs++;
}

static void cond_pop(cu_frame *fr) { if (fr->ncs) fr->ncs--; }

static uint64_t args_sig(const cu_val *args, int nargs)
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

/* The function that began the capture returns with it open on some path. */
__attribute__((noinline)) static void region_unended(cu_ctx *ctx)
{
    cu_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = CU_EV_REGION_END;
    ev.node = NULL;
    ev.unended = 1;       /* not ended on every path */
    emit(ctx, &ev);
    ctx->st.region = NULL;
    ctx->st.nforks = ctx->st.nrec = ctx->st.nalloc = 0;
}

/* Walk body `body` of function fn (or a lambda defined in fn) called at `call`. */
static cu_val call_body(cu_ctx *ctx, cu_func *fn, const cu_node *body, const char *name,
                        const cu_node *call, const cu_val *args, int nargs, int bind_params)
{
    if (!body) return UNKNOWN;
    if (fn && fn->on_stack && bind_params) return UNKNOWN;
    char key[128];
    int kl = 0;
    if (active(ctx)) {
        kl = snprintf(key, sizeof key, "%p:%d:%llx", (const void *)body, ctx->st.region->id,
                      (unsigned long long)args_sig(args, nargs));
        if (cg_map_get(&ctx->memo, key, (size_t)kl)) return UNKNOWN;   /* walked already */
    }
    if (ctx->depth >= CU_MAX_DEPTH) {
        if (!ctx->cut_depth) ctx->cut_depth = call;
        return UNKNOWN;
    }
    /* the bodies of the call chain must fit the walk's stack together */
    int height = fn && fn->height ? fn->height : CU_MAX_EVAL_NEST;
    if (ctx->nest + height + 2 > CU_MAX_TOTAL_NEST) {
        if (!ctx->cut_nest) ctx->cut_nest = call;
        return UNKNOWN;
    }
    if (active(ctx)) {
        cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, (void *)1);
        if (fn && ++fn->active_walks > MAX_ACTIVE_WALKS) {
            if (!ctx->cut_walks) ctx->cut_walks = call;
            return UNKNOWN;
        }
    }
    int pushed = 0;
    if (call && ctx->npath < CU_MAX_DEPTH + 1) {
        ctx->path[ctx->npath].function = (char *)name;
        ctx->path[ctx->npath].loc = cu_cg_loc(ctx->p, &call->loc);
        ctx->npath++;
        pushed = 1;
    }
    cu_frame fr;
    frame_push(ctx, &fr, fn);
    ctx->depth++;
    fr.depth = ctx->depth;
    if (bind_params && fn) {
        for (int i = 0; i < fn->nparams; i++) {
            cu_val v = i < nargs ? args[i] : UNKNOWN;
            if (v.kind == CV_INT && (v.flags & CVF_NULL) && fn->params[i].tclass == CU_T_STREAM)
                v = as_stream(&v, fn->ptds);
            if (v.kind == CV_UNKNOWN && fn->params[i].tclass == CU_T_STREAM)
                v = stream_of_var(cg_arena_printf(ctx->arena, "v:%s", fn->params[i].usr), 1);
            if (v.kind == CV_UNKNOWN && fn->params[i].tclass == CU_T_EVENT) {
                v.kind = CV_EVENT;
                v.id = cg_arena_printf(ctx->arena, "v:%s", fn->params[i].usr);
            }
            bind_var(ctx, fn->params[i].usr, v, 0);
        }
    }
    if (fn) fn->on_stack++;
    cu_region *open_before = ctx->st.region;
    exec(ctx, body);
    run_dtors(ctx, 0);
    if (fn) fn->on_stack--;
    cu_region *r = ctx->st.region;
    /* a capture begun in this function and still open at its end */
    if (r && r != open_before && r->depth == fr.depth && !r->raii && fn && fn->ends) {
        region_unended(ctx);
        r = NULL;
    }
    cu_val ret = fr.ret;
    ctx->depth--;
    frame_pop(ctx, &fr);
    if (pushed) ctx->npath--;
    if (r) {
        if (r->path_base > ctx->npath) r->path_base = ctx->npath;
        if (r->depth > ctx->depth) {
            /* the helper that began the capture returned: the caller holds it now */
            r->depth = ctx->depth;
            r->cond_depth = ctx->fr ? ctx->fr->cond_depth : 0;
            if (r->raii && ctx->fr && !(fn && fn->is_ctor)) r->raii = 0;
        }
    }
    return ret;
}

static cu_val call_function(cu_ctx *ctx, cu_func *fn, const cu_node *call, const cu_val *args, int nargs)
{
    if (!fn) return UNKNOWN;
    if (!active(ctx) && !fn->bearing) return UNKNOWN;
    return call_body(ctx, fn, fn->body, fn->qualname, call, args, nargs, 1);
}

static cu_val call_lambda(cu_ctx *ctx, const cu_val *lam, const cu_node *call)
{
    if (!lam->lambda || !lam->lambda->nkids) return UNKNOWN;
    if (!active(ctx)) {
        /* outside a capture a lambda matters only if it may begin one */
        if (!lam->fn || !lam->fn->bearing) return UNKNOWN;
    }
    const char *name = cg_arena_printf(ctx->arena, "lambda at %s",
                                       cu_loc_str(ctx, &lam->lambda->loc));
    return call_body(ctx, lam->fn, lam->lambda->kids[0], name, call, NULL, 0, 0);
}

static void run_dtors(cu_ctx *ctx, int scope_min)
{
    cu_frame *fr = ctx->fr;
    while (fr->ndtors > 0 && fr->dtors[fr->ndtors - 1].scope >= scope_min) {
        cu_dtor d = fr->dtors[--fr->ndtors];
        fr->at = d.decl;
        call_function(ctx, d.fn, d.decl, NULL, 0);
    }
}

/* ---- API calls ----------------------------------------------------------------------------- */
static int nonblocking_flag(const cu_node *n, const cu_val *v)
{
    if (!n) return 0;
    if (mentions_name(n, "cudaStreamNonBlocking", 0) || mentions_name(n, "CU_STREAM_NON_BLOCKING", 0)) return 1;
    int64_t x;
    if (fold_static(n, &x, 0)) return (int)(x & 1);
    return v->kind == CV_INT && (v->known & 1) && (v->x & 1);
}

/* The loop whose body runs the current statement with no condition in
 * between (in this function or, when this function's body is not inside any
 * branch, in a caller), or NULL. */
static const cu_node *loop_unguarded(cu_ctx *ctx)
{
    for (cu_frame *f = ctx->fr; f; f = f->caller) {
        if (f->ncs) return f->cs[f->ncs - 1].kind == 'L' ? f->cs[f->ncs - 1].loop : NULL;
    }
    return NULL;
}

/* Does the code call one of the names, directly or through the project's
 * functions it calls (up to `calls` levels down)? */
static int mentions_any(cu_ctx *ctx, const cu_node *n, const char *const *names, int depth, int calls)
{
    if (!n || depth > 48) return 0;
    if (n->kind == CU_N_REF || n->kind == CU_N_MEMBER || n->kind == CU_N_CALL)
        for (int i = 0; names[i]; i++) if (eq(n->name, names[i])) return 1;
    if (n->kind == CU_N_CALL && calls > 0 && n->usr) {
        cu_func *f = func_of(ctx, n->usr);
        if (f && f->body && mentions_any(ctx, f->body, names, 0, calls - 1)) return 1;
    }
    for (int i = 0; i < n->nkids; i++)
        if (mentions_any(ctx, n->kids[i], names, depth + 1, calls)) return 1;
    return 0;
}

/* CG705's shape: the loop body that re-begins the capture also launches the
 * graph, and does not refresh an executable graph with cudaGraphExecUpdate
 * (capturing each iteration and updating in place is the documented way to
 * change a graph's parameters).  A loop that captures and hands the graph
 * elsewhere (one graph per size at start-up, a capture-cost benchmark) is not
 * the hazard. */
static int recaptured_and_launched(cu_ctx *ctx, const cu_node *loop)
{
    static const char *const launch[] = { "cudaGraphLaunch", "cuGraphLaunch", NULL };
    static const char *const update[] = { "cudaGraphExecUpdate", "cuGraphExecUpdate",
                                          "cuGraphExecUpdate_v2", NULL };
    return loop && mentions_any(ctx, loop, launch, 0, 2) && !mentions_any(ctx, loop, update, 0, 2);
}

/* The call path from the capture site to here, copied into the arena. */
static const cg_step *snapshot_path(cu_ctx *ctx, int *n)
{
    cu_region *r = ctx->st.region;
    int base = r && r->path_base < ctx->npath ? r->path_base : ctx->npath;
    *n = ctx->npath - base;
    if (!*n) return NULL;
    cg_step *out = cg_arena_alloc(ctx->arena, (size_t)*n * sizeof *out);
    memcpy(out, ctx->path + base, (size_t)*n * sizeof *out);
    return out;
}

static int fill_chain(cu_ctx *ctx, cu_region *r, int end)
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

static void region_begin(cu_ctx *ctx, const cu_node *call, const cu_api *api, const char *name,
                         const cu_val *args, int nargs)
{
    if (ctx->st.region) return;   /* a second capture while one is open: followed as the first */
    cu_region *r = cg_arena_alloc(ctx->arena, sizeof *r);
    r->id = ++ctx->nregions;
    r->site = call->loc;
    r->kind = cg_arena_strdup(ctx->arena, name);
    r->mode = -1;
    if (api->aux < nargs) {
        const cu_val *m = &args[api->aux];
        if (m->kind == CV_INT && (m->known & 1)) r->mode = (int)m->x;
    }
    cu_val s0 = nargs > 0 ? args[0] : UNKNOWN;
    r->stream = as_stream(&s0, ctx->fr && ctx->fr->fn ? ctx->fr->fn->ptds : 0);
    r->depth = ctx->depth;
    r->cond_depth = ctx->fr ? ctx->fr->cond_depth : 0;
    r->path_base = ctx->npath;
    r->begin_fn = ctx->fr ? ctx->fr->fn : NULL;
    r->raii = ctx->fr && ctx->fr->fn && ctx->fr->fn->is_ctor;
    if (r->raii && ctx->fr->caller && ctx->fr->caller->at) {
        /* the capture site the user wrote is the object, not the constructor's call */
        r->site = ctx->fr->caller->at->loc;
        r->kind = cg_arena_printf(ctx->arena, "%s in %s", name, ctx->fr->fn->qualname);
    }
    r->nbegin = fill_chain(ctx, r, 0);
    ctx->st.nforks = ctx->st.nrec = ctx->st.nalloc = 0;   /* the arrays are kept */
    ctx->st.region = r;
    cu_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = CU_EV_REGION_BEGIN;
    ev.node = call;
    ev.name = r->kind;
    ev.api = api;
    ev.stream = r->stream;
    ev.has_stream = 1;
    ev.stream_node = nargs > 0 && call->nkids > 1 ? call->kids[1] : NULL;
    ev.in_loop = recaptured_and_launched(ctx, loop_unguarded(ctx));
    emit(ctx, &ev);
    for (int i = 0; i < ctx->nthreads; i++) thread_event(ctx, ctx->threads[i].start, ctx->threads[i].work, 1);
}

static void region_end(cu_ctx *ctx, const cu_node *call, const cu_api *api, const cu_val *args, int nargs)
{
    cu_region *r = ctx->st.region;
    if (!r) return;
    cu_val s0 = nargs > 0 ? args[0] : UNKNOWN;
    cu_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = CU_EV_REGION_END;
    ev.node = call;
    ev.other = call;
    ev.other_stream = as_stream(&s0, ctx->fr && ctx->fr->fn ? ctx->fr->fn->ptds : 0);
    ev.stream_node = call->nkids > 1 ? call->kids[1] : NULL;
    if (api->aux >= 0 && api->aux + 1 < call->nkids) {
        const cu_node *g = lvalue_root(call->kids[api->aux + 1]);
        if (g) r->graph_usr = g->usr;
    }
    r->nend = fill_chain(ctx, r, 1);
    emit(ctx, &ev);
    r->ended = 1;
    ctx->st.region = NULL;
    ctx->st.nforks = ctx->st.nrec = ctx->st.nalloc = 0;
}

static const char *event_id(cu_ctx *ctx, const cu_node *arg, const cu_val *v)
{
    if (v->kind == CV_EVENT && v->id) return v->id;
    return ident_of(ctx, lvalue_root(arg));
}

/* Effects of an API call on streams, events and allocations. */
static void api_effects(cu_ctx *ctx, const cu_node *call, const cu_api *api, const cu_val *args, int nargs,
                        const cu_event *ev)
{
    cu_frame *fr = ctx->fr;
    int ptds = fr && fr->fn ? fr->fn->ptds : 0;
    const cu_node *a0 = call->nkids > 1 ? call->kids[1] : NULL;
    if (api->flags & API_STREAM_CREATE) {
        const cu_node *root = lvalue_root(a0);
        if (root) {
            cu_val s = stream_of_var(ident_of(ctx, root), 0);
            if (api->aux >= 0 && api->aux < nargs && nonblocking_flag(call->kids[api->aux + 1], &args[api->aux]))
                s.flags |= CVF_NONBLOCKING;
            cu_slot *sl = slot_of(ctx, root, 1);
            if (sl) { sl->v = s; if (sl->decl_region == -1) sl->decl_region = 0; }
        }
    } else if (api->flags & API_EVENT_CREATE) {
        const cu_node *root = lvalue_root(a0);
        if (root) {
            cu_val e = UNKNOWN;
            e.kind = CV_EVENT;
            e.id = ident_of(ctx, root);
            cu_slot *sl = slot_of(ctx, root, 1);
            if (sl) { sl->v = e; if (sl->decl_region == -1) sl->decl_region = 0; }
        }
    } else if (api->flags & API_IS_CAPTURING) {
        if (api->aux + 1 < call->nkids) {
            const cu_node *root = lvalue_root(call->kids[api->aux + 1]);
            cu_slot *sl = slot_of(ctx, root, 1);
            if (sl) { sl->v = guard(CG_POS); if (sl->decl_region == -1) sl->decl_region = 0; }
        }
    }
    if (!active(ctx)) return;
    cu_state *st = &ctx->st;
    if (api->flags & API_EVENT_RECORD) {
        const char *eid = event_id(ctx, a0, nargs > 0 ? &args[0] : &UNKNOWN);
        if (!eid) return;
        cu_role role = ev->role;
        cu_rec *rec = NULL;
        for (int i = 0; i < st->nrec; i++) if (eq(st->rec[i].ev, eid)) rec = &st->rec[i];
        if (!rec) rec = add_rec(st);
        rec->ev = eid;
        rec->stream = ev->stream.kind == CV_STREAM ? (ev->stream.id ? ev->stream.id : "<default>") : NULL;
        rec->captured = role == ROLE_CAPTURE || role == ROLE_FORKED;
    } else if (api->flags & API_STREAM_WAIT) {
        const cu_node *en = call->nkids > 2 ? call->kids[2] : NULL;
        const char *eid = event_id(ctx, en, nargs > 1 ? &args[1] : &UNKNOWN);
        cu_rec *rec = NULL;
        for (int i = 0; eid && i < st->nrec; i++) if (eq(st->rec[i].ev, eid)) rec = &st->rec[i];
        if (!rec || !rec->captured) return;
        cu_role wrole = ev->role;
        cu_fork *src = rec->stream ? find_fork(ctx, rec->stream) : NULL;
        if ((wrole == ROLE_CAPTURE || wrole == ROLE_FORKED) && src) {
            src->joined = 1;                 /* a join */
        } else if ((wrole == ROLE_OTHER || wrole == ROLE_UNKNOWN || wrole == ROLE_PERTHREAD) &&
                   ev->stream.kind == CV_STREAM && ev->stream.skind == CS_VAR && ev->stream.id) {
            if (!find_fork(ctx, ev->stream.id)) {
                cu_fork *f = add_fork(st);
                f->id = ev->stream.id;
                f->at = call;
                f->joined = 0;
                f->path = snapshot_path(ctx, &f->npath);
            }
        }
    } else if ((api->flags & API_WORK) && ev->role == ROLE_FORKED && ev->stream.id) {
        cu_fork *f = find_fork(ctx, ev->stream.id);
        if (f) f->joined = 0;                /* work after the last join */
    }
    if (api->flags & API_ASYNC_ALLOC) {
        const cu_node *root = lvalue_root(a0);
        if (root) {
            cu_alloc *al = add_alloc(st);
            al->id = ident_of(ctx, root);
            al->at = call;
            al->path = snapshot_path(ctx, &al->npath);
        }
    } else if (api->flags & API_ASYNC_FREE) {
        const cu_node *root = lvalue_root(a0);
        const char *id = ident_of(ctx, root);
        for (int i = 0; id && i < st->nalloc; i++)
            if (eq(st->allocs[i].id, id)) { st->allocs[i] = st->allocs[--st->nalloc]; i--; }
    }
    (void)ptds;
}

static void fill_stream(cu_ctx *ctx, cu_event *ev, const cu_node *call, int idx, const cu_val *args, int nargs)
{
    int ptds = ctx->fr && ctx->fr->fn ? ctx->fr->fn->ptds : 0;
    const cu_node *sn = idx + 1 < call->nkids ? call->kids[idx + 1] : NULL;
    /* a call clang could not resolve (broken or missing headers, a dependent
     * template call) has no default arguments filled in, and clang may have
     * dropped an argument it could not build: a missing stream is unknown,
     * not the default stream */
    if (!sn && (call->flags & CU_F_DEPENDENT)) return;
    ev->has_stream = 1;
    if (!sn || sn->kind == CU_N_EMPTY) {
        ev->stream_node = NULL;
        cu_val z = vint(0);
        z.flags |= CVF_NULL;
        ev->stream = as_stream(&z, ptds);
    } else {
        ev->stream_node = sn;
        ev->stream = idx < nargs ? as_stream(&args[idx], ptds) : UNKNOWN;
    }
    ev->role = cu_stream_role(ctx, &ev->stream);
}

static cu_val dim3_from(const cu_val *v, const cu_node *n)
{
    if (v->kind == CV_DIM3) return *v;
    cu_val d = UNKNOWN;
    d.kind = CV_DIM3;
    d.src = v->src;
    d.src2 = v->src2;
    if (v->kind == CV_INT && (v->known & 1)) { d.x = v->x; d.y = 1; d.z = 1; d.known = 7; }
    (void)n;
    return d;
}

/* The launch event of kernel<<<grid, block, smem, stream>>>(args): kv holds
 * the values of all of n's children. */
__attribute__((noinline)) static void launch_site(cu_ctx *ctx, const cu_node *n, const cu_val *kv)
{
    cu_event ev;
    memset(&ev, 0, sizeof ev);
    ev.node = n;
    ev.name = n->name;
    ev.usr = n->usr;
    ev.kind = CU_EV_LAUNCH;
    ev.grid_node = n->kids[0];
    ev.block_node = n->kids[1];
    ev.smem_node = n->kids[2]->kind == CU_N_EMPTY ? NULL : n->kids[2];
    ev.grid = dim3_from(&kv[0], n->kids[0]);
    ev.block = dim3_from(&kv[1], n->kids[1]);
    ev.smem = kv[2];
    ev.first_karg = 4;
    int ptds = ctx->fr && ctx->fr->fn ? ctx->fr->fn->ptds : 0;
    ev.has_stream = 1;
    if (n->kids[3]->kind == CU_N_EMPTY) {
        cu_val z = vint(0);
        z.flags |= CVF_NULL;
        ev.stream = as_stream(&z, ptds);
        ev.stream_node = NULL;
    } else {
        ev.stream = as_stream(&kv[3], ptds);
        ev.stream_node = n->kids[3];
    }
    ev.role = cu_stream_role(ctx, &ev.stream);
    ev.nargs = n->nkids - 4;
    ev.argn = (const cu_node *const *)n->kids + 4;
    ev.args = kv + 4;
    emit(ctx, &ev);
    if (active(ctx) && ev.role == ROLE_FORKED && ev.stream.id) {
        cu_fork *f = find_fork(ctx, ev.stream.id);
        if (f) f->joined = 0;
    }
}

__attribute__((noinline)) static cu_val eval_launch(cu_ctx *ctx, const cu_node *n)
{
    cu_val *kv = xmalloc((size_t)n->nkids * sizeof *kv);
    for (int i = 0; i < n->nkids; i++) kv[i] = eval(ctx, n->kids[i]);
    if (n->nkids >= 4) launch_site(ctx, n, kv);
    free(kv);
    return UNKNOWN;
}

/* cudaLaunchKernel(f, grid, block, args, smem, stream) / cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, ...) */
static void api_launch_event(cu_ctx *ctx, cu_event *ev, const cu_node *call, const cu_api *api,
                             const cu_val *args, int nargs)
{
    cu_event le = *ev;
    le.kind = CU_EV_LAUNCH;
    le.nargs = 0;
    le.first_karg = -1;
    if (api->flags & API_DRIVER) {
        if (nargs < 8) return;
        cu_val g = UNKNOWN, b = UNKNOWN;
        g.kind = b.kind = CV_DIM3;
        for (int i = 0; i < 3; i++) {
            if (args[1 + i].kind == CV_INT && (args[1 + i].known & 1)) {
                (&g.x)[i] = args[1 + i].x;
                g.known |= (uint8_t)(1 << i);
            }
            if (args[4 + i].kind == CV_INT && (args[4 + i].known & 1)) {
                (&b.x)[i] = args[4 + i].x;
                b.known |= (uint8_t)(1 << i);
            }
            if (!g.src.usr) g.src = args[1 + i].src;
            if (!b.src.usr) b.src = args[4 + i].src;
        }
        le.grid = g;
        le.block = b;
        le.grid_node = call->kids[2];
        le.block_node = call->kids[5];
        le.smem = args[7];
        le.smem_node = call->kids[8];
    } else {
        if (nargs < 5) return;
        le.grid = dim3_from(&args[1], call->kids[2]);
        le.block = dim3_from(&args[2], call->kids[3]);
        le.grid_node = call->kids[2];
        le.block_node = call->kids[3];
        le.smem = args[4];
        le.smem_node = call->kids[5]->kind == CU_N_EMPTY ? NULL : call->kids[5];
    }
    /* the kernel: a function name, maybe cast */
    const cu_node *k = lvalue_root(call->kids[1]);
    le.usr = k ? k->usr : NULL;
    le.name = k ? k->name : NULL;
    emit(ctx, &le);
}

/* ---- threads (CG708) ------------------------------------------------------------------ */
static const cu_node NO_WORK;

static int is_cuda_call(const cu_node *n)
{
    if (n->kind == CU_N_LAUNCH) return 1;
    if (n->kind != CU_N_CALL || !n->name) return 0;
    if (cu_api_lookup(n->name)) return 1;
    const char *s = n->name;
    return (strncmp(s, "cuda", 4) == 0 && s[4] >= 'A' && s[4] <= 'Z') ||
           (strncmp(s, "cu", 2) == 0 && s[2] >= 'A' && s[2] <= 'Z');
}

static const cu_node *find_cuda_work(cu_ctx *ctx, const cu_node *n, int file, int depth, int level);

/* The first CUDA call a body makes, directly or in the project's functions it
 * calls (a few levels deep), or NULL. */
static const cu_node *body_cuda_work(cu_ctx *ctx, const cu_node *body, int file, int depth)
{
    if (!body || depth > 4) return NULL;
    char key[32];
    int kl = snprintf(key, sizeof key, "%p", (const void *)body);
    const cu_node *w = cg_map_get(&ctx->cuda_work, key, (size_t)kl);
    if (w) return w == &NO_WORK ? NULL : w;
    cg_map_put(&ctx->cuda_work, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, (void *)&NO_WORK);
    w = find_cuda_work(ctx, body, file, depth, 0);
    cg_map_put(&ctx->cuda_work, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl,
               (void *)(w ? w : &NO_WORK));
    return w;
}

/* depth: calls followed; level: nesting in the body */
static const cu_node *find_cuda_work(cu_ctx *ctx, const cu_node *n, int file, int depth, int level)
{
    if (!n || level > CU_MAX_EVAL_NEST) return NULL;
    if (is_cuda_call(n)) return n;
    if (n->kind == CU_N_CALL || n->kind == CU_N_CONSTRUCT) {
        cu_func *f = (n->flags & CU_F_DEPENDENT) ? NULL : func_in(ctx->p, n->usr, file);
        if (f) {
            const cu_node *w = body_cuda_work(ctx, f->body, f->file, depth + 1);
            if (w) return n;
        }
    }
    if (n->kind == CU_N_LAMBDA) return NULL;   /* defined, not run */
    for (int i = 0; i < n->nkids; i++) {
        const cu_node *w = find_cuda_work(ctx, n->kids[i], file, depth, level + 1);
        if (w) return w;
    }
    return NULL;
}

static const cu_node *callable_work(cu_ctx *ctx, const cu_val *v)
{
    int file = ctx->fr && ctx->fr->fn ? ctx->fr->fn->file : -1;
    if (v->kind == CV_LAMBDA && v->lambda && v->lambda->nkids)
        return body_cuda_work(ctx, v->lambda->kids[0], file, 0);
    if (v->kind == CV_FUNC && v->fn) return body_cuda_work(ctx, v->fn->body, v->fn->file, 0);
    return NULL;
}

static void thread_event(cu_ctx *ctx, const cu_node *start, const cu_node *work, int before)
{
    cu_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = CU_EV_THREAD;
    ev.node = start;
    ev.work = work;
    ev.started_before = before;
    emit(ctx, &ev);
}

/* A thread is started at `start` running callable v; handle names its
 * std::thread or pthread_t (NULL: not joinable by name). */
static void thread_started(cu_ctx *ctx, const cu_node *start, const cu_val *v, const char *handle)
{
    const cu_node *work = callable_work(ctx, v);
    if (!work) return;
    if (ctx->st.region) thread_event(ctx, start, work, 0);
    ctx->threads = grow(ctx->threads, &ctx->capthreads, ctx->nthreads, sizeof *ctx->threads);
    ctx->threads[ctx->nthreads].start = start;
    ctx->threads[ctx->nthreads].work = work;
    ctx->threads[ctx->nthreads].handle = handle;
    ctx->nthreads++;
}

static void thread_joined(cu_ctx *ctx, const cu_node *handle_expr)
{
    const cu_node *root = lvalue_root(handle_expr);
    if (!root || !root->usr) return;
    for (int i = 0; i < ctx->nthreads; i++)
        if (eq(ctx->threads[i].handle, root->usr)) { ctx->threads[i] = ctx->threads[--ctx->nthreads]; i--; }
}

/* A call's event and its effects on the walk (an API's, a thread's): 1 when
 * that is all, 0 when the walk is to follow it into a body.  Not inlined:
 * the event stays off the stack of the calls the walk follows. */
__attribute__((noinline)) static int call_site(cu_ctx *ctx, const cu_node *n, cu_func *fn, const cu_val *args,
                                               int nargs)
{
    const cu_node *obj = n->nkids ? n->kids[0] : NULL;
    const cu_api *api = fn ? NULL : cu_api_lookup(n->name);
    char norm[96];
    const char *name = n->name;
    if (api) { cu_api_normalize(n->name, norm, sizeof norm); name = cg_arena_strdup(ctx->arena, norm); }

    cu_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = CU_EV_CALL;
    ev.node = n;
    ev.name = name;
    ev.api = api;
    ev.usr = n->usr;
    ev.obj = obj && obj->kind != CU_N_EMPTY ? obj : NULL;
    ev.nargs = nargs;
    ev.argn = nargs ? (const cu_node *const *)n->kids + 1 : NULL;
    ev.args = args;
    if (ev.obj && active(ctx)) {
        const cu_node *root = lvalue_root(ev.obj);
        if (root) {
            if (root->storage == CU_S_GLOBAL || root->storage == CU_S_STATIC || root->storage == CU_S_FIELD ||
                root->kind == CU_N_MEMBER)
                ev.obj_outside = 1;
            else {
                cu_slot *s = slot_of(ctx, root, 0);
                int rid = ctx->st.region->id;
                ev.obj_outside = root->storage == CU_S_PARAM ? ctx->fr->entry_region != rid
                                                             : (!s || s->decl_region != rid);
            }
        }
    }
    if (api && api->stream >= 0) fill_stream(ctx, &ev, n, api->stream, args, nargs);
    ctx->fr->at = n;
    if (!api && n->name) {
        if (strcmp(n->name, "pthread_create") == 0 && nargs >= 3) {
            const cu_node *h = lvalue_root(n->kids[1]);
            thread_started(ctx, n, &args[2], h ? h->usr : NULL);
        } else if (strcmp(n->name, "async") == 0 && n->usr && strstr(n->usr, "@N@std@")) {
            for (int i = 0; i < nargs; i++)
                if (args[i].kind == CV_LAMBDA || args[i].kind == CV_FUNC) { thread_started(ctx, n, &args[i], NULL); break; }
        } else if (strcmp(n->name, "pthread_join") == 0 && nargs >= 1) {
            thread_joined(ctx, n->kids[1]);
        } else if (strcmp(n->name, "join") == 0 && ev.obj) {
            thread_joined(ctx, ev.obj);
        }
    }

    if (api && (api->flags & API_BEGIN)) {
        region_begin(ctx, n, api, name, args, nargs);
        return 1;
    }
    if (api && (api->flags & API_END)) {
        emit(ctx, &ev);
        region_end(ctx, n, api, args, nargs);
        return 1;
    }
    emit(ctx, &ev);
    if (api && (api->flags & API_LAUNCH)) api_launch_event(ctx, &ev, n, api, args, nargs);
    if (api) {
        api_effects(ctx, n, api, args, nargs, &ev);
        return 1;
    }
    /* a noreturn function (ggml_abort, a project's fatal-error helper) is an
     * error path: it ends the program, and what it prints on the way is not
     * work of the capture */
    if (is_terminator_name(n->name) || (n->flags & CU_F_NORETURN)) { ctx->fr->terminated = 1; return 1; }
    return 0;
}

__attribute__((noinline)) static cu_val eval_call(cu_ctx *ctx, const cu_node *n)
{
    cu_val objv = UNKNOWN;
    const cu_node *obj = n->nkids ? n->kids[0] : NULL;
    if (obj && obj->kind != CU_N_EMPTY) objv = eval(ctx, obj);
    int nargs = n->nkids > 1 ? n->nkids - 1 : 0;
    cu_val *args = nargs ? xmalloc((size_t)nargs * sizeof *args) : NULL;
    for (int i = 0; i < nargs; i++) args[i] = eval(ctx, n->kids[i + 1]);
    cu_val r = UNKNOWN;
    if (!ctx->fr->terminated) {
        cu_func *fn = (n->flags & CU_F_DEPENDENT) ? NULL : func_of(ctx, n->usr);
        if (!call_site(ctx, n, fn, args, nargs)) {
            if (fn) r = call_function(ctx, fn, n, args, nargs);
            else if (objv.kind == CV_LAMBDA) r = call_lambda(ctx, &objv, n);
            else if (objv.kind == CV_FUNC && objv.fn) r = call_function(ctx, objv.fn, n, args, nargs);
            /* a callback passed to an unknown function (std::for_each, a thread pool...) is not followed */
        }
    }
    free(args);
    return r;
}

/* dim3(x, y, z) from the constructor's argument values. */
__attribute__((noinline)) static cu_val dim3_construct(const cu_node *n, const cu_val *args)
{
    cu_val d = UNKNOWN;
    d.kind = CV_DIM3;
    for (int i = 0; i < 3; i++) {
        int64_t c = 1;
        int known = 1;
        if (i < n->nkids && n->kids[i]->kind != CU_N_EMPTY) {
            if (args[i].kind == CV_INT && (args[i].known & 1)) c = args[i].x;
            else if (args[i].kind == CV_DIM3 && i == 0 && n->nkids == 1) return args[0];
            else known = 0;
            if (!d.src.usr) d.src = args[i].src;
            if (!d.src2.usr) d.src2 = args[i].src2;
        }
        (&d.x)[i] = c;
        if (known) d.known |= (uint8_t)(1 << i);
    }
    return d;
}

__attribute__((noinline)) static cu_val eval_construct(cu_ctx *ctx, const cu_node *n)
{
    int nargs = n->nkids;
    cu_val *args = nargs ? xmalloc((size_t)nargs * sizeof *args) : NULL;
    for (int i = 0; i < nargs; i++) args[i] = n->kids[i]->kind == CU_N_EMPTY ? UNKNOWN : eval(ctx, n->kids[i]);
    cu_val r = UNKNOWN;
    if (n->tclass == CU_T_DIM3) {
        r = dim3_construct(n, args);
    } else if (n->usr && (strncmp(n->usr, "c:@N@std@S@thread@", 18) == 0 ||
                          strncmp(n->usr, "c:@N@std@S@jthread@", 19) == 0) &&
               nargs >= 1 && (args[0].kind == CV_LAMBDA || args[0].kind == CV_FUNC)) {
        thread_started(ctx, n, &args[0], NULL);
        ctx->last_thread_start = n;
    } else {
        cu_func *fn = func_of(ctx, n->usr);
        ctx->fr->at = n;
        if (fn) call_function(ctx, fn, n, args, nargs);
        /* copying a value keeps what it is (a stream in a wrapper's copy is still that stream) */
        if (nargs == 1 && (args[0].kind == CV_LAMBDA || args[0].kind == CV_FUNC)) r = args[0];
    }
    free(args);
    return r;
}

__attribute__((noinline)) static void store_event(cu_ctx *ctx, const cu_node *n, const cu_node *lhs, const cu_node *rhs, int op)
{
    if (!active(ctx)) return;
    const cu_node *root = lvalue_root(lhs);
    if (!root) return;
    cu_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = CU_EV_STORE;
    ev.node = n;
    ev.target = root;
    ev.store_op = op;
    ev.self_ref = op == 0 && rhs && root->usr && mentions_usr(rhs, root->usr, 0);
    int rid = ctx->st.region->id;
    if (root->storage == CU_S_GLOBAL || root->storage == CU_S_STATIC || root->storage == CU_S_FIELD ||
        root->kind == CU_N_MEMBER) {
        ev.target_outside = 1;
    } else if (root->storage == CU_S_PARAM) {
        ev.target_outside = ctx->fr->entry_region != rid;
    } else {
        cu_slot *s = slot_of(ctx, root, 0);
        ev.target_outside = !s || s->decl_region != rid;
    }
    for (int i = 0; i < ctx->fr->nloop_vars; i++)
        if (eq(ctx->fr->loop_vars[i], root->usr)) ev.loop_var = 1;
    emit(ctx, &ev);
}

static void set_src(cu_ctx *ctx, cu_val *v, const cu_node *ref)
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
    if (v->src.usr && !eq(v->src.usr, ref->usr) && !v->src2.usr) v->src2 = v->src;
    v->src = s;
}

__attribute__((noinline)) static cu_val eval_ref(cu_ctx *ctx, const cu_node *n)
{
    if (n->flags & CU_F_IVAL) {
        cu_val v = vint(n->ival);
        v.name = n->name;
        return v;
    }
    cu_func *fn = func_of(ctx, n->usr);
    if (fn && n->storage == CU_S_NONE) {
        cu_val v = UNKNOWN;
        v.kind = CV_FUNC;
        v.fn = fn;
        return v;
    }
    cu_val v = UNKNOWN;
    cu_slot *s = n->storage != CU_S_NONE ? slot_of(ctx, n, 0) : NULL;
    if (s) {
        v = s->v;
    } else if (n->storage != CU_S_NONE) {
        if (n->tclass == CU_T_STREAM)
            v = stream_of_var(ident_of(ctx, n), n->storage == CU_S_PARAM);
        else if (n->tclass == CU_T_EVENT || n->tclass == CU_T_GRAPH) {
            v.kind = n->tclass == CU_T_EVENT ? CV_EVENT : CV_GRAPH;
            v.id = ident_of(ctx, n);
        }
    }
    if (v.kind != CV_STREAM && v.kind != CV_EVENT && v.kind != CV_GUARD && v.kind != CV_LAMBDA)
        set_src(ctx, &v, n);
    return v;
}

__attribute__((noinline)) static cu_val eval_unary(cu_ctx *ctx, const cu_node *n)
{
    const cu_node *k = n->nkids ? n->kids[0] : NULL;
    if (n->op == CXUnaryOperator_PostInc || n->op == CXUnaryOperator_PostDec ||
        n->op == CXUnaryOperator_PreInc || n->op == CXUnaryOperator_PreDec) {
        cu_val old = eval(ctx, k);
        store_event(ctx, n, k, NULL, 2);
        cu_val nv = UNKNOWN;
        nv.src = old.src;
        assign_to(ctx, k, nv);
        return nv;
    }
    cu_val v = eval(ctx, k);
    switch (n->op) {
    case CXUnaryOperator_LNot:
        if (v.kind == CV_GUARD) return guard(v.guard == CG_POS ? CG_NEG : CG_POS);
        if (v.kind == CV_INT && (v.known & 1)) return vint(!v.x);
        return UNKNOWN;
    case CXUnaryOperator_Minus:
        if (v.kind == CV_INT && (v.known & 1)) { v.x = (int64_t)(0 - (uint64_t)v.x); return v; }
        return UNKNOWN;
    case CXUnaryOperator_AddrOf:
        v.flags |= CVF_ADDR;
        return v;
    case CXUnaryOperator_Plus:
        return v;
    default:
        return UNKNOWN;
    }
}

/* x = y, x += y ... */
__attribute__((noinline)) static cu_val eval_assign(cu_ctx *ctx, const cu_node *n)
{
    const cu_node *l = n->kids[0], *r = n->kids[1];
    cu_val rv = eval(ctx, r);
    cu_val lv = eval(ctx, l);
    store_event(ctx, n, l, r, n->op == CXBinaryOperator_Assign ? 0 : 1);
    if (n->op == CXBinaryOperator_Assign) {
        assign_to(ctx, l, rv);
        return rv;
    }
    cu_val nv = UNKNOWN;
    nv.src = lv.src;
    assign_to(ctx, l, nv);
    return nv;
}

__attribute__((noinline)) static cu_val eval_binary(cu_ctx *ctx, const cu_node *n)
{
    if (n->nkids < 2) return UNKNOWN;
    const cu_node *l = n->kids[0], *r = n->kids[1];
    if (n->op >= CXBinaryOperator_Assign && n->op <= CXBinaryOperator_OrAssign) return eval_assign(ctx, n);
    cu_val a = eval(ctx, l);
    if (n->op == CXBinaryOperator_LAnd || n->op == CXBinaryOperator_LOr) {
        cu_val b = eval(ctx, r);
        if (n->op == CXBinaryOperator_LAnd) {
            if (a.kind == CV_GUARD && a.guard == CG_NEG) return a;
            if (b.kind == CV_GUARD && b.guard == CG_NEG) return b;
            if (a.kind == CV_GUARD) return a;
            if (b.kind == CV_GUARD) return b;
        } else {
            if (a.kind == CV_GUARD && b.kind == CV_GUARD && a.guard == b.guard) return a;
        }
        return UNKNOWN;
    }
    cu_val b = eval(ctx, r);
    if (n->op == CXBinaryOperator_Comma) return b;
    if (n->op == CXBinaryOperator_EQ || n->op == CXBinaryOperator_NE) {
        cu_val g = compare_guard(&a, &b, n->op);
        if (g.kind == CV_GUARD) return g;
    }
    cu_val out = UNKNOWN;
    int64_t folded;
    if (a.kind == CV_INT && b.kind == CV_INT && (a.known & 1) && (b.known & 1) &&
        fold_op(n->op, a.x, b.x, &folded))
        out = vint(folded);
    const cu_src *srcs[4] = { &a.src, &b.src, &a.src2, &b.src2 };
    int k = 0;
    for (int i = 0; i < 4; i++) {
        if (!srcs[i]->usr) continue;
        if (k == 0) { out.src = *srcs[i]; k++; }
        else if (k == 1 && !eq(srcs[i]->usr, out.src.usr)) { out.src2 = *srcs[i]; k++; }
    }
    return out;
}

__attribute__((noinline)) static cu_val eval_member(cu_ctx *ctx, const cu_node *n)
{
    cu_val base = n->nkids ? eval(ctx, n->kids[0]) : UNKNOWN;
    if (base.kind == CV_DIM3 && n->name && !n->name[1] && n->name[0] >= 'x' && n->name[0] <= 'z') {
        int c = n->name[0] - 'x';
        cu_val v = UNKNOWN;
        if (base.known & (1 << c)) v = vint((&base.x)[c]);
        v.src = base.src;
        return v;
    }
    cu_slot *s = n->usr ? slot_of(ctx, n, 0) : NULL;
    cu_val v = s ? s->v : UNKNOWN;
    if (!s && n->tclass == CU_T_STREAM && n->usr) v = stream_of_var(ident_of(ctx, n), 0);
    if (!s && n->tclass == CU_T_EVENT && n->usr) { v.kind = CV_EVENT; v.id = ident_of(ctx, n); }
    if (v.kind != CV_STREAM && v.kind != CV_EVENT && v.kind != CV_GUARD) set_src(ctx, &v, n);
    return v;
}

__attribute__((noinline)) static cu_val eval_cast(cu_ctx *ctx, const cu_node *n)
{
    cu_val v = n->nkids ? eval(ctx, n->kids[0]) : UNKNOWN;
    if (n->tclass == CU_T_STREAM && v.kind == CV_INT && (v.known & 1)) {
        cu_val s = UNKNOWN;
        s.kind = CV_STREAM;
        if (v.x == 0) { s.flags = CVF_NULL; s.skind = CS_LEGACY; }
        else if (v.x == 1) s.skind = CS_LEGACY;
        else if (v.x == 2) s.skind = CS_PERTHREAD;
        else return UNKNOWN;
        return s;
    }
    return v;
}

/* Leaves: no recursion. */
__attribute__((noinline)) static cu_val eval_leaf(cu_ctx *ctx, const cu_node *n)
{
    cu_val v = UNKNOWN;
    switch (n->kind) {
    case CU_N_INT:
    case CU_N_SIZEOF:
        if (n->flags & CU_F_IVAL) v = vint(n->ival);
        break;
    case CU_N_NULL:
        v = vint(0);
        v.flags |= CVF_NULL;
        break;
    case CU_N_LAMBDA:
        v.kind = CV_LAMBDA;
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
    for (int i = 0; i < n->nkids; i++) eval(ctx, n->kids[i]);
    return UNKNOWN;
}

/* Anything else: its children in order; one child is what it is. */
__attribute__((noinline)) static cu_val eval_other(cu_ctx *ctx, const cu_node *n)
{
    if (n->nkids == 1) return eval(ctx, n->kids[0]);
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
        return eval_all(ctx, n);
    case CU_N_CALL:
        return eval_call(ctx, n);
    case CU_N_LAUNCH:
        return eval_launch(ctx, n);
    case CU_N_CONSTRUCT:
        return eval_construct(ctx, n);
    case CU_N_DECL:
    case CU_N_COMPOUND: case CU_N_IF: case CU_N_LOOP: case CU_N_SWITCH: case CU_N_RETURN:
    case CU_N_BREAK: case CU_N_GOTO: case CU_N_THROW:
        return exec_or_eval(ctx, n);
    case CU_N_EMPTY: case CU_N_STRING:
        return UNKNOWN;
    default:
        return eval_other(ctx, n);
    }
}

static cu_val eval(cu_ctx *ctx, const cu_node *n)
{
    if (!n || !nest_enter(ctx, n)) return UNKNOWN;
    cu_val v = eval_node(ctx, n);
    ctx->nest--;
    return v;
}

/* ---- statements -------------------------------------------------------------------------- */
static void exec_decl(cu_ctx *ctx, const cu_node *n)
{
    cu_val v = UNKNOWN;
    if (n->nkids) v = eval(ctx, n->kids[0]);
    else if (n->tclass == CU_T_DIM3) { v.kind = CV_DIM3; v.x = v.y = v.z = 1; v.known = 7; }
    if (n->tclass == CU_T_STREAM && v.kind == CV_INT) v = as_stream(&v, ctx->fr->fn ? ctx->fr->fn->ptds : 0);
    if (n->tclass == CU_T_STREAM && v.kind == CV_UNKNOWN && !n->nkids)
        v = stream_of_var(cg_arena_printf(ctx->arena, "v:%s", n->usr ? n->usr : "?"), 0);
    if (n->nkids && n->kids[0]->kind == CU_N_CONSTRUCT && n->tclass == CU_T_DIM3 && v.kind != CV_DIM3) {
        v.kind = CV_DIM3;
        v.known = 0;
    }
    if (ctx->last_thread_start && n->nkids && ctx->last_thread_start == n->kids[0] && n->usr) {
        for (int i = 0; i < ctx->nthreads; i++)   /* std::thread t(...): t names it for t.join() */
            if (ctx->threads[i].start == ctx->last_thread_start) ctx->threads[i].handle = n->usr;
        ctx->last_thread_start = NULL;
    }
    int rid = ctx->st.region ? ctx->st.region->id : 0;
    if (n->storage == CU_S_STATIC || n->storage == CU_S_GLOBAL) {
        cu_slot *s = slot_of(ctx, n, 1);
        if (s && s->decl_region == -1) { s->v = v; s->decl_region = 0; }
    } else {
        bind_var(ctx, n->usr, v, rid);
    }
    cu_func *d = n->dtor ? func_of(ctx, n->dtor) : NULL;
    if (d) {
        ctx->fr->dtors = grow(ctx->fr->dtors, &ctx->fr->capdtors, ctx->fr->ndtors, sizeof *ctx->fr->dtors);
        ctx->fr->dtors[ctx->fr->ndtors].fn = d;
        ctx->fr->dtors[ctx->fr->ndtors].decl = n;
        ctx->fr->dtors[ctx->fr->ndtors].scope = ctx->fr->scope;
        ctx->fr->ndtors++;
    }
}

static int walk_branch(cu_ctx *ctx, const cu_node *n, int err)
{
    cu_frame *fr = ctx->fr;
    cond_push(fr, 'I', NULL);
    fr->cond_depth++;
    fr->error_path += err;
    exec(ctx, n);
    int t = fr->terminated || fr->broken;
    int ended_fn = fr->terminated;
    fr->terminated = fr->broken = 0;
    fr->error_path -= err;
    fr->cond_depth--;
    cond_pop(fr);
    return t ? (ended_fn ? 2 : 1) : 0;
}

static void collect_loop_vars(cu_frame *fr, const cu_node *n, int depth)
{
    if (!n || depth > 8) return;
    if ((n->kind == CU_N_REF || n->kind == CU_N_DECL) && n->usr) {
        fr->loop_vars = grow(fr->loop_vars, &fr->caploop_vars, fr->nloop_vars, sizeof *fr->loop_vars);
        fr->loop_vars[fr->nloop_vars++] = n->usr;
    }
    for (int i = 0; i < n->nkids; i++) collect_loop_vars(fr, n->kids[i], depth + 1);
}

/* The function returns here (while a capture is open: CG707's event). */
__attribute__((noinline)) static void return_event(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    cu_region *r = ctx->st.region;
    if (!r || r->raii) return;
    cu_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = CU_EV_RETURN;
    ev.node = n;
    if (ctx->depth == r->depth) ev.cond_depth = fr->cond_depth - r->cond_depth;
    else if (ctx->depth < r->depth) ev.cond_depth = fr->cond_depth;
    else ev.cond_depth = -1;     /* a callee returning inside the capture: fine */
    if (ev.cond_depth > 0 && !(n->flags & CU_F_MACRO)) emit(ctx, &ev);
}

static void exec_if(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    cu_val c = eval(ctx, n->kids[0]);
    if (fr->terminated) return;
    int err = is_error_cond(n->kids[0], 0);
    int g = c.kind == CV_GUARD ? c.guard : 0;
    int walk_then = !(active(ctx) && g == CG_NEG);
    int walk_else = !(active(ctx) && g == CG_POS);
    if (c.kind == CV_INT && (c.known & 1) && !c.src.usr) { walk_then = c.x != 0; walk_else = c.x == 0; }
    /* s0: the state before; s1, s2: after each arm (an arm not walked leaves s0) */
    cu_state s0 = state_copy(&ctx->st);
    int t1 = 1, t2 = 0;
    if (walk_then) t1 = walk_branch(ctx, n->kids[1], err || ends_program(n->kids[1], 0));
    cu_state s1 = ctx->st;
    ctx->st = state_copy(&s0);
    if (n->nkids > 2) {
        if (walk_else) t2 = walk_branch(ctx, n->kids[2], ends_program(n->kids[2], 0));
        else t2 = 1;
    } else if (!walk_else) {
        t2 = 1;
    }
    cu_state s2 = ctx->st;
    if (t1 && t2) {
        ctx->st = s0;
        state_free(&s1);
        state_free(&s2);
        if (t1 == 2 && t2 == 2) fr->terminated = 1;
        else fr->broken = 1;
        return;
    }
    state_free(&s0);
    if (t1) { ctx->st = s2; state_free(&s1); }
    else if (t2) { ctx->st = s1; state_free(&s2); }
    else ctx->st = merge(s1, s2);
}

static void exec_loop(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    int body_i = n->op == 1 ? 0 : n->nkids - 1;
    /* do { ... } while (0): a macro's block, not a loop */
    int64_t cv;
    if (n->op == 1 && n->nkids == 2 && fold_static(n->kids[1], &cv, 0) && cv == 0) {
        exec(ctx, n->kids[0]);
        fr->broken = 0;
        return;
    }
    int saved_lv = fr->nloop_vars;
    const cu_node *saved_outer = fr->outer_loop;
    if (!fr->outer_loop) fr->outer_loop = n;
    for (int i = 0; i < n->nkids; i++)
        if (i != body_i) collect_loop_vars(fr, n->kids[i], 0);
    cu_state s0 = state_copy(&ctx->st);
    fr->scope++;
    int my = fr->scope;
    if (n->op != 1) {
        fr->loop_header++;
        for (int i = 0; i < body_i && !fr->terminated; i++) exec_or_eval(ctx, n->kids[i]);
        fr->loop_header--;
    }
    cond_push(fr, 'L', n);
    fr->cond_depth++;
    exec(ctx, n->kids[body_i]);
    fr->cond_depth--;
    cond_pop(fr);
    int term = fr->terminated;
    fr->broken = 0;
    if (n->op == 1) {
        /* a do-while body runs at least once: its state flows on */
        fr->loop_header++;
        for (int i = 1; i < n->nkids && !fr->terminated; i++) exec_or_eval(ctx, n->kids[i]);
        fr->loop_header--;
        state_free(&s0);
    } else if (term) {
        fr->terminated = 0;   /* the loop may run zero times */
        state_free(&ctx->st);
        ctx->st = s0;
    } else {
        ctx->st = merge(ctx->st, s0);
    }
    if (!fr->terminated) run_dtors(ctx, my);
    fr->scope--;
    fr->nloop_vars = saved_lv;
    fr->outer_loop = saved_outer;
}

static void exec_switch(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    for (int i = 0; i + 1 < n->nkids; i++) exec_or_eval(ctx, n->kids[i]);
    const cu_node *body = n->kids[n->nkids - 1];
    cond_push(fr, 'S', NULL);
    fr->cond_depth++;
    cu_state s0 = state_copy(&ctx->st);
    if (body->kind == CU_N_COMPOUND) {
        for (int i = 0; i < body->nkids; i++) {
            if (body->kids[i]->kind == CU_N_OTHER && body->kids[i]->op == 1) {
                if (fr->terminated || fr->broken) {
                    state_free(&ctx->st);
                    ctx->st = state_copy(&s0);
                }
                fr->terminated = fr->broken = 0;
            }
            exec(ctx, body->kids[i]);
        }
    } else {
        exec(ctx, body);
    }
    state_free(&s0);
    fr->terminated = fr->broken = 0;
    fr->cond_depth--;
    cond_pop(fr);
}

static void exec_node(cu_ctx *ctx, const cu_node *n)
{
    cu_frame *fr = ctx->fr;
    switch (n->kind) {
    case CU_N_COMPOUND: {
        fr->scope++;
        int my = fr->scope;
        for (int i = 0; i < n->nkids && !fr->terminated && !fr->broken; i++) exec(ctx, n->kids[i]);
        if (!fr->terminated) run_dtors(ctx, my);
        fr->scope--;
        return;
    }
    case CU_N_DECL:
        exec_decl(ctx, n);
        return;
    case CU_N_IF:
        if (n->nkids >= 2) exec_if(ctx, n);
        return;
    case CU_N_LOOP:
        if (n->nkids) exec_loop(ctx, n);
        return;
    case CU_N_SWITCH:
        if (n->nkids) exec_switch(ctx, n);
        return;
    case CU_N_RETURN: {
        cu_val v = n->nkids ? eval(ctx, n->kids[0]) : UNKNOWN;
        if (fr->terminated) return;
        fr->ret = v;
        return_event(ctx, n);
        run_dtors(ctx, 0);
        fr->terminated = 1;
        return;
    }
    case CU_N_BREAK:
    case CU_N_GOTO:
        fr->broken = 1;
        return;
    case CU_N_THROW:
        for (int i = 0; i < n->nkids; i++) eval(ctx, n->kids[i]);
        fr->terminated = 1;
        return;
    case CU_N_OTHER:
        if (n->op == 1) {   /* case label: its statement */
            for (int i = 0; i < n->nkids; i++) exec(ctx, n->kids[i]);
            return;
        }
        for (int i = 0; i < n->nkids && !fr->terminated && !fr->broken; i++) exec_or_eval(ctx, n->kids[i]);
        return;
    default:
        eval(ctx, n);
        return;
    }
}

/* Every recursive path of the walk goes through exec() or eval(): each level
 * is counted, in the function (CU_MAX_EVAL_NEST) and in the whole call chain
 * (CU_MAX_TOTAL_NEST).  Lowering keeps bodies under the first and
 * call_body() keeps chains under the second, so neither is reached; if one
 * were, the construct is reported as too deeply nested and not walked. */
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

static void exec(cu_ctx *ctx, const cu_node *n)
{
    if (!n || ctx->fr->terminated || ctx->fr->broken) return;
    if (!nest_enter(ctx, n)) return;
    exec_node(ctx, n);
    ctx->nest--;
}

static cu_val exec_or_eval(cu_ctx *ctx, const cu_node *n)
{
    switch (n->kind) {
    case CU_N_DECL: {
        exec_decl(ctx, n);
        cu_slot *s = n->usr ? cg_map_get(&ctx->fr->env, n->usr, strlen(n->usr)) : NULL;
        return s ? s->v : UNKNOWN;
    }
    case CU_N_COMPOUND: case CU_N_IF: case CU_N_LOOP: case CU_N_SWITCH: case CU_N_RETURN:
    case CU_N_BREAK: case CU_N_GOTO: case CU_N_THROW:
        exec(ctx, n);
        return UNKNOWN;
    default:
        return eval(ctx, n);
    }
}

/* ---- whole-tree indexes -------------------------------------------------------------- */
static void add_write(cu_ctx *ctx, const cu_node *root, const cu_node *at, cu_func *fn,
                      const cu_node *loop, int is_decl)
{
    if (!root || !root->usr) return;
    if (fn && fn->is_ctor && (root->kind == CU_N_MEMBER || root->storage == CU_S_FIELD)) return;
    cu_write *w = cg_arena_alloc(ctx->arena, sizeof *w);
    w->at = at;
    w->fn = fn;
    w->loop = loop;
    w->is_decl = is_decl;
    size_t len = strlen(root->usr);
    w->next = cg_map_get(&ctx->writes, root->usr, len);
    cg_map_put(&ctx->writes, root->usr, len, w);
}

typedef struct scan {
    cu_ctx *ctx;
    cu_func *fn;
    const cu_node *loop;
    int begins, ends;
    cu_func **callees;        /* malloc, grows */
    int ncallees, capcallees;
    cg_map seen;              /* callees already listed */
    int height;               /* the body's depth */
} scan;

static void add_callee(scan *s, cu_func *f)
{
    if (!f) return;
    char key[32];
    int kl = snprintf(key, sizeof key, "%p", (void *)f);
    if (cg_map_get(&s->seen, key, (size_t)kl)) return;
    cg_map_put(&s->seen, cg_arena_strndup(s->ctx->arena, key, (size_t)kl), (size_t)kl, (void *)1);
    s->callees = grow(s->callees, &s->capcallees, s->ncallees, sizeof *s->callees);
    s->callees[s->ncallees++] = f;
}

static int flag_autofree(const cu_node *n)
{
    int64_t x;
    if (mentions_name(n, "cudaGraphInstantiateFlagAutoFreeOnLaunch", 0) ||
        mentions_name(n, "CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH", 0))
        return 1;
    return fold_static(n, &x, 0) && (x & 1);
}

#define func_of(ctx, usr) func_in((ctx)->p, (usr), s->fn->file)
static void scan_node(scan *s, const cu_node *n, int depth)
{
    if (!n || depth > CU_MAX_EVAL_NEST) return;
    if (depth + 1 > s->height) s->height = depth + 1;
    cu_ctx *ctx = s->ctx;
    const cu_node *saved_loop = s->loop;
    switch (n->kind) {
    case CU_N_LOOP:
        if (!s->loop) s->loop = n;
        break;
    case CU_N_DECL:
        if (n->nkids) add_write(ctx, n, n, s->fn, s->loop, 1);
        add_callee(s, n->dtor ? func_of(ctx, n->dtor) : NULL);
        break;
    case CU_N_BINARY:
        if (n->op >= CXBinaryOperator_Assign && n->op <= CXBinaryOperator_OrAssign && n->nkids)
            add_write(ctx, lvalue_root(n->kids[0]), n, s->fn, s->loop, 0);
        break;
    case CU_N_UNARY:
        if ((n->op >= CXUnaryOperator_PostInc && n->op <= CXUnaryOperator_PreDec) && n->nkids)
            add_write(ctx, lvalue_root(n->kids[0]), n, s->fn, s->loop, 0);
        break;
    case CU_N_CONSTRUCT:
        add_callee(s, func_of(ctx, n->usr));
        break;
    case CU_N_REF:
        if (n->storage == CU_S_NONE) add_callee(s, func_of(ctx, n->usr));
        break;
    case CU_N_CALL: {
        cu_func *f = (n->flags & CU_F_DEPENDENT) ? NULL : func_of(ctx, n->usr);
        add_callee(s, f);
        const cu_api *api = f ? NULL : cu_api_lookup(n->name);
        if (api && (api->flags & API_BEGIN)) s->begins = 1;
        if (api && (api->flags & API_END)) s->ends = 1;
        /* an argument &x is an out-parameter: a write to x (not for the CUDA API's own handles) */
        if (!api || (api->flags & (API_SYNC_MEM | API_WORK))) {
            for (int i = 1; i < n->nkids; i++) {
                const cu_node *a = n->kids[i];
                if (a && (a->flags & CU_F_OUTARG) && (a->kind == CU_N_REF || a->kind == CU_N_MEMBER)) {
                    add_write(ctx, a, n, s->fn, s->loop, 0);   /* passed to T& */
                    continue;
                }
                while (a && a->kind == CU_N_CAST && a->nkids) a = a->kids[0];
                if (a && a->kind == CU_N_UNARY && a->op == CXUnaryOperator_AddrOf && a->nkids)
                    add_write(ctx, lvalue_root(a->kids[0]), n, s->fn, s->loop, 0);
            }
        }
        if (api && (api->flags & API_INSTANTIATE)) {
            int autof = api->aux + 1 < n->nkids && flag_autofree(n->kids[api->aux + 1]);
            if (!autof && strstr(api->name, "WithParams")) autof = 1;   /* checked by the params' flags */
            if (autof) {
                const cu_node *g = n->nkids > 2 ? lvalue_root(n->kids[2]) : NULL;
                if (g && g->usr) cg_map_put(&ctx->autofree, g->usr, strlen(g->usr), (void *)1);
                else ctx->autofree_unknown = 1;
            }
        }
        if (api && (api->flags & API_SET_ATTR) && n->nkids > 3) {
            const cu_node *attr = n->kids[2];
            int64_t av = -1;
            int is_smem = mentions_name(attr, "cudaFuncAttributeMaxDynamicSharedMemorySize", 0) ||
                          mentions_name(attr, "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES", 0) ||
                          (fold_static(attr, &av, 0) && av == 8);
            const cu_node *k = lvalue_root(n->kids[1]);
            if (is_smem && k && k->usr) {
                cu_attr *a = cg_arena_alloc(ctx->arena, sizeof *a);
                a->at = n;
                a->fn = s->fn;
                a->known = fold_static(n->kids[3], &a->value, 0);
                a->next = cg_map_get(&ctx->attrs, k->usr, strlen(k->usr));
                cg_map_put(&ctx->attrs, k->usr, strlen(k->usr), a);
            }
        }
        break;
    }
    default:
        break;
    }
    for (int i = 0; i < n->nkids; i++) scan_node(s, n->kids[i], depth + 1);
    s->loop = saved_loop;
}

#undef func_of

static int loc_before(const cu_loc *a, const cu_loc *b)
{
    if (a->file != b->file) return 0;
    return a->line < b->line || (a->line == b->line && a->col < b->col);
}

static const cu_loc *chain_loc(const cu_region *r, cu_func *fn, int end)
{
    int n = end ? r->nend : r->nbegin;
    for (int i = 0; i < n; i++) {
        cu_func *f = end ? r->end_chain[i].fn : r->begin_chain[i].fn;
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

/* Does f call w, directly or through other functions? */
static int reaches_dfs(cu_ctx *ctx, cu_func *f, cu_func *w, int depth)
{
    if (f == w) return 1;
    if (depth > 64 || ctx->seen[f->idx]) return 0;
    ctx->seen[f->idx] = 1;
    for (int i = 0; i < ctx->ncallees[f->idx]; i++)
        if (reaches_dfs(ctx, ctx->callees[f->idx][i], w, depth + 1)) return 1;
    return 0;
}

static int reaches(cu_ctx *ctx, cu_func *f, cu_func *w)
{
    if (!f || !w) return 0;
    memset(ctx->seen, 0, ctx->nall);
    return reaches_dfs(ctx, f, w, 0);
}

/* Is `at` (in function fn) after the capture there, or in a loop around its
 * beginning?  Writes between the beginning and the end are the capture's own. */
static int after_capture_in(const cu_region *r, cu_func *fn, const cu_loc *at, const cu_node *loop)
{
    const cu_loc *b = chain_loc(r, fn, 0);
    if (!b) return 0;
    const cu_loc *e = chain_loc(r, fn, 1);
    int inside = loc_before(b, at) && (!e || loc_before(at, e));
    if (inside) return 0;
    if (e && loc_before(e, at)) return 1;
    return loop && loop_contains(loop, b);
}

typedef struct call_scan {
    cu_ctx *ctx;
    const cu_region *r;
    cu_func *fn, *target;
    const cu_node *loop;
    const cu_node *hit;
} call_scan;

/* A call in fn, after the capture or in a loop around it, to a function that reaches target. */
static void find_late_call(call_scan *cs, const cu_node *n, int depth)
{
    if (!n || cs->hit || depth > CU_MAX_EVAL_NEST) return;
    const cu_node *saved = cs->loop;
    if (n->kind == CU_N_LOOP && !cs->loop) cs->loop = n;
    if ((n->kind == CU_N_CALL || n->kind == CU_N_CONSTRUCT) && n->usr) {
        cu_func *c = func_in(cs->ctx->p, n->usr, cs->fn->file);
        if (c && after_capture_in(cs->r, cs->fn, &n->loc, cs->loop) && reaches(cs->ctx, c, cs->target)) {
            cs->hit = n;
            return;
        }
    }
    for (int i = 0; i < n->nkids; i++) find_late_call(cs, n->kids[i], depth + 1);
    cs->loop = saved;
}

int cu_changed_after(cu_ctx *ctx, const cu_region *r, const cu_src *src, const cu_node **where)
{
    if (!src || !src->usr || !src->at) return 0;
    int shared = src->storage == CU_S_GLOBAL || src->storage == CU_S_STATIC || src->storage == CU_S_FIELD;
    for (cu_write *w = cg_map_get(&ctx->writes, src->usr, strlen(src->usr)); w; w = w->next) {
        if (w->fn == src->fn || (shared && chain_loc(r, w->fn, 0))) {
            /* the write is in a function the capture runs in: order by position */
            cu_func *fn = w->fn;
            const cu_loc *b = chain_loc(r, fn, 0);
            if (!b) continue;             /* the function runs inside the capture */
            if (w->is_decl) {
                if (w->loop && loop_contains(w->loop, b)) { *where = w->at; return 1; }
                continue;
            }
            if (after_capture_in(r, fn, &w->at->loc, w->loop)) { *where = w->at; return 1; }
            continue;
        }
        if (!shared || w->is_decl || !w->fn) continue;
        /* a global or member written in another function: does a function of
         * the capture's call chain call it after the capture, or in a loop
         * around it?  (A setup function called before the capture does not
         * count; one nothing in the chain calls cannot be ordered, and is
         * not reported.) */
        for (int i = 0; i < r->nbegin; i++) {
            cu_func *a = r->begin_chain[i].fn;
            call_scan cs = { .ctx = ctx, .r = r, .fn = a, .target = w->fn };
            find_late_call(&cs, a->body, 0);
            if (cs.hit) { *where = w->at; return 1; }
        }
    }
    return 0;
}

void cu_defer(cu_ctx *ctx, const cu_event *ev, int rule, const cu_node *at, const cu_val *v, const char *what)
{
    if (!v->src.usr && !v->src2.usr) return;
    if (!ev->region || !at || at->loc.file < 0) return;
    if (ctx->npend == ctx->cappend) {
        int nc = ctx->cappend ? ctx->cappend * 2 : 32;
        cu_pending *np = cg_arena_alloc(ctx->arena, (size_t)nc * sizeof *np);
        if (ctx->npend) memcpy(np, ctx->pend, (size_t)ctx->npend * sizeof *np);
        ctx->pend = np;
        ctx->cappend = nc;
    }
    cu_pending *p = &ctx->pend[ctx->npend++];
    p->rule = rule;
    p->at = at;
    p->src = v->src;
    p->src2 = v->src2;
    p->what = what;
    p->region = ev->region;
    p->path = snapshot_path(ctx, &p->npath);
}

int cu_attr_allows(cu_ctx *ctx, const cu_event *ev, const char *kernel_usr, int64_t smem,
                   const cu_node **late)
{
    *late = NULL;
    if (!kernel_usr) return 0;
    const cu_region *r = ev->region;
    for (cu_attr *a = cg_map_get(&ctx->attrs, kernel_usr, strlen(kernel_usr)); a; a = a->next) {
        if (a->known && a->value < smem) continue;
        if (r && a->fn == r->begin_fn && !loc_before(&a->at->loc, &r->site)) { *late = a->at; continue; }
        return 1;
    }
    return 0;
}

/* ---- entries and the run --------------------------------------------------------------- */
/* Calls the walk did not follow because of one of its bounds: findings past
 * them may be missing, which a note says (once per run, naming the first). */
static void note_cuts(cu_ctx *ctx)
{
    const struct { const cu_node *at; const char *what; } cuts[] = {
        { ctx->cut_depth, "call chains more than " CU_STR(CU_MAX_DEPTH) " calls deep are not followed further" },
        { ctx->cut_walks, "a function called from captures more than " CU_STR(MAX_ACTIVE_WALKS)
                          " times (with different arguments) is not walked again" },
        { ctx->cut_nest, "a call is not followed where the bodies of the call chain together nest more than "
                         CU_STR(CU_MAX_TOTAL_NEST) " levels deep" },
    };
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        if (!cuts[i].at) continue;
        cg_loc l = cu_cg_loc(ctx->p, &cuts[i].at->loc);
        cg_report_notice(ctx->p->report, CG_NOTE, NULL, 0, 0,
                         "%s (first: %s:%u:%u); findings past that point may be missing",
                         cuts[i].what, l.path ? l.path : "?", l.line, l.col);
    }
}
static int cmp_func(const void *a, const void *b)
{
    const cu_func *x = *(cu_func *const *)a, *y = *(cu_func *const *)b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->loc.line != y->loc.line) return x->loc.line < y->loc.line ? -1 : 1;
    return strcmp(x->usr, y->usr);
}

static void walk_entry(cu_ctx *ctx, cu_func *fn)
{
    state_free(&ctx->st);
    ctx->npath = 0;
    ctx->depth = 0;
    ctx->nest = 0;
    ctx->nthreads = 0;
    cu_frame root;
    frame_push(ctx, &root, NULL);
    fn->walked = 1;
    if (getenv("CGLINT_CU_DUMP")) fprintf(stderr, "walk entry %s\n", fn->qualname);
    call_body(ctx, fn, fn->body, fn->qualname, NULL, NULL, 0, 1);
    frame_pop(ctx, &root);
    ctx->fr = NULL;
}

/* ---- what to parse next (cu_project.c's rounds) ------------------------------------- */
typedef struct names_scan {
    cu_project *p;
    cg_map *names;
    cg_arena *a;
    int begins;
    int collect;              /* add unresolved callees to names */
    cu_func **out;            /* resolved callees */
    int nout, capout;
} names_scan;

/* An undeclared name from the CUDA ecosystem (a library whose header is not
 * there, a helper macro whose header failed): not something the project's
 * unparsed files define. */
static int library_name(const char *name)
{
    static const char *const pre[] = { "cuda", "cublas", "cusparse", "cufft", "curand", "cusolver",
        "cudnn", "nccl", "nvtx", "nvjpeg", "npp", "nvrtc", "nvml", "make_", "__", NULL };
    if (!name) return 1;
    for (int i = 0; pre[i]; i++)
        if (strncmp(name, pre[i], strlen(pre[i])) == 0) return 1;
    if (name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' && name[2] <= 'Z') return 1;   /* cuMemAlloc */
    return strstr(name, "Cuda") != NULL;   /* checkCudaErrors, getLastCudaError, findCudaDevice */
}

static const char *simple_name(const char *name)
{
    const char *c = strrchr(name, ':');
    if (c) name = c + 1;
    if (name[0] == '~') name++;
    return name;
}

/* how: CU_WANT_CALLER (a file that mentions it may call it) or CU_WANT_DEF
 * (only a file that seems to define it is wanted: see cu_project.c) */
static void add_name(names_scan *ns, const char *name, uintptr_t how)
{
    if (!name || !*name || strncmp(name, "operator", 8) == 0) return;
    name = simple_name(name);
    if (strcmp(name, "main") == 0) return;   /* nothing calls it */
    size_t len = strlen(name);
    if (len < 2) return;
    uintptr_t had = (uintptr_t)cg_map_get(ns->names, name, len);
    if (had) { cg_map_put(ns->names, name, len, (void *)(had | how)); return; }   /* keeps the key */
    cg_map_put(ns->names, cg_arena_strndup(ns->a, name, len), len, (void *)how);
}

static void add_out(names_scan *ns, cu_func *f)
{
    if (!f) return;
    if (ns->nout == ns->capout) {
        ns->capout = ns->capout ? ns->capout * 2 : 64;
        ns->out = realloc(ns->out, (size_t)ns->capout * sizeof *ns->out);
        if (!ns->out) { fputs("cglint: out of memory\n", stderr); abort(); }
    }
    ns->out[ns->nout++] = f;
}

/* Callees of a body: resolved ones into ns->out, unresolved names into ns->names. */
static void names_node(names_scan *ns, const cu_node *n, int depth)
{
    if (!n || depth > CU_MAX_EVAL_NEST) return;
    cu_func *f = NULL;
    switch (n->kind) {
    case CU_N_CALL: {
        const cu_api *api = cu_api_lookup(n->name);
        if (api && (api->flags & (API_BEGIN | API_END))) ns->begins = 1;
        if (api) break;
        f = (n->flags & CU_F_DEPENDENT) ? NULL : func_in(ns->p, n->usr, -1);
        if (f) add_out(ns, f);
        /* only the project's own functions (or undeclared ones) can be in an unparsed file */
        else if (ns->collect && ((n->flags & CU_F_PROJDECL) ||
                                 ((n->flags & CU_F_UNDECLARED) && !library_name(n->name))))
            add_name(ns, n->name, CU_WANT_DEF);
        break;
    }
    case CU_N_CONSTRUCT:
        f = func_in(ns->p, n->usr, -1);
        if (f) add_out(ns, f);
        else if (ns->collect && (n->flags & CU_F_PROJDECL)) add_name(ns, n->name, CU_WANT_DEF);
        break;
    case CU_N_DECL:
        add_out(ns, func_in(ns->p, n->dtor, -1));
        break;
    case CU_N_REF:
        if (n->storage == CU_S_NONE && n->usr && strstr(n->usr, "@F@")) {
            f = func_in(ns->p, n->usr, -1);
            if (f) add_out(ns, f);
            else if (ns->collect && (n->flags & CU_F_PROJDECL)) add_name(ns, n->name, CU_WANT_DEF);
        }
        break;
    default:
        break;
    }
    for (int i = 0; i < n->nkids; i++) names_node(ns, n->kids[i], depth + 1);
}

void cu_collect_names(cu_project *p, cg_map *names, cg_arena *arena)
{
    size_t nf = 0;
    for (size_t i = 0; i < p->funcs.cap; i++)
        for (cu_func *f = p->funcs.keys[i] ? p->funcs.vals[i] : NULL; f; f = f->next_same_usr) f->idx = (int)nf++;
    if (!nf) return;
    cu_func **all = calloc(nf, sizeof *all);
    int *first = calloc(nf + 1, sizeof *first);
    unsigned char *bear = calloc(nf, 1), *reach = calloc(nf, 1);
    names_scan ns = { .p = p, .names = names, .a = arena };
    for (size_t i = 0; i < p->funcs.cap; i++)
        for (cu_func *f = p->funcs.keys[i] ? p->funcs.vals[i] : NULL; f; f = f->next_same_usr) all[f->idx] = f;
    /* the call graph of what is parsed so far */
    for (size_t i = 0; i < nf; i++) {
        first[i] = ns.nout;
        ns.begins = 0;
        names_node(&ns, all[i]->body, 0);
        bear[i] = (unsigned char)ns.begins;
    }
    first[nf] = ns.nout;
    /* functions that lead to a capture API, and what those reach */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < nf; i++)
            for (int k = first[i]; k < first[i + 1] && !bear[i]; k++)
                if (bear[ns.out[k]->idx]) { bear[i] = 1; changed = 1; }
    }
    for (size_t i = 0; i < nf; i++) reach[i] = bear[i];
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < nf; i++)
            if (reach[i])
                for (int k = first[i]; k < first[i + 1]; k++)
                    if (!reach[ns.out[k]->idx]) { reach[ns.out[k]->idx] = 1; changed = 1; }
    }
    /* names to look for: the bearing functions (their callers), and what the
     * reachable functions call but nobody parsed defines */
    ns.collect = 1;
    for (size_t i = 0; i < nf; i++) {
        if (bear[i]) add_name(&ns, all[i]->qualname, CU_WANT_CALLER);
        if (reach[i]) {
            int keep = ns.nout;
            names_node(&ns, all[i]->body, 0);
            ns.nout = keep;
        }
    }
    free(ns.out);
    free(all);
    free(first);
    free(bear);
    free(reach);
}

/* CGLINT_CU_DUMP=1: print the lowered functions (for developing the front end). */
static void dump_node(const cu_node *n, int depth)
{
    if (depth > CU_MAX_EVAL_NEST) return;
    static const char *const kinds[] = { "other", "compound", "if", "loop", "switch", "return", "break",
        "goto", "throw", "decl", "call", "launch", "construct", "ref", "member", "int", "null", "string",
        "unary", "binary", "condop", "cast", "lambda", "sizeof", "empty" };
    if (!n) return;
    fprintf(stderr, "%*s%s", depth * 2, "", n->kind < sizeof kinds / sizeof *kinds ? kinds[n->kind] : "?");
    if (n->name) fprintf(stderr, " '%s'", n->name);
    if (n->op) fprintf(stderr, " op=%d", n->op);
    if (n->flags & CU_F_IVAL) fprintf(stderr, " =%lld", (long long)n->ival);
    if (n->tclass) fprintf(stderr, " t=%d", n->tclass);
    if (n->storage) fprintf(stderr, " s=%d", n->storage);
    if (n->flags & CU_F_MACRO) fprintf(stderr, " macro");
    if (n->flags & CU_F_DEPENDENT) fprintf(stderr, " dep");
    fprintf(stderr, " @%u:%u\n", n->loc.line, n->loc.col);
    for (int i = 0; i < n->nkids; i++) dump_node(n->kids[i], depth + 1);
}

void cu_analyze_project(cu_project *p)
{
    if (getenv("CGLINT_CU_DUMP"))
        for (size_t i = 0; i < p->funcs.cap; i++)
            for (cu_func *f = p->funcs.keys[i] ? p->funcs.vals[i] : NULL; f; f = f->next_same_usr) {
                fprintf(stderr, "== %s (%s) in %s\n", f->qualname, f->usr, p->files[f->file].path);
                dump_node(f->body, 1);
            }
    cu_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.p = p;
    ctx.arena = cg_arena_new();
    cg_map_init(&ctx.fields);
    cg_map_init(&ctx.globals);
    cg_map_init(&ctx.writes);
    cg_map_init(&ctx.attrs);
    cg_map_init(&ctx.memo);
    cg_map_init(&ctx.autofree);
    cg_map_init(&ctx.cuda_work);

    /* every function once: writes, attributes, callees, direct capture calls */
    size_t nf = 0;
    for (size_t i = 0; i < p->funcs.cap; i++)
        if (p->funcs.keys[i])
            for (cu_func *q = p->funcs.vals[i]; q; q = q->next_same_usr) nf++;
    cu_func **all = calloc(nf ? nf : 1, sizeof *all);
    cu_func ***callees = calloc(nf ? nf : 1, sizeof *callees);
    int *ncallees = calloc(nf ? nf : 1, sizeof *ncallees);
    size_t k = 0;
    for (size_t i = 0; i < p->funcs.cap; i++)
        if (p->funcs.keys[i])
            for (cu_func *q = p->funcs.vals[i]; q; q = q->next_same_usr) all[k++] = q;
    qsort(all, nf, sizeof *all, cmp_func);
    for (size_t i = 0; i < nf; i++) all[i]->idx = (int)i;
    ctx.all = all;
    ctx.callees = callees;
    ctx.ncallees = ncallees;
    ctx.nall = nf;
    ctx.seen = calloc(nf ? nf : 1, 1);
    for (size_t i = 0; i < nf; i++) {
        scan s;
        memset(&s, 0, sizeof s);
        s.ctx = &ctx;
        s.fn = all[i];
        cg_map_init(&s.seen);
        scan_node(&s, all[i]->body, 0);
        all[i]->begins = s.begins;
        all[i]->ends = s.ends;
        all[i]->bearing = s.begins || s.ends;
        all[i]->reaches_end = s.ends;
        all[i]->height = s.height;
        callees[i] = cg_arena_alloc(ctx.arena, (size_t)(s.ncallees ? s.ncallees : 1) * sizeof **callees);
        if (s.ncallees) memcpy(callees[i], s.callees, (size_t)s.ncallees * sizeof **callees);
        ncallees[i] = s.ncallees;
        free(s.callees);
        cg_map_free(&s.seen);
    }
    /* bearing: reaches a capture API through calls */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < nf; i++)
            for (int c = 0; c < ncallees[i]; c++) {
                if (callees[i][c]->bearing && !all[i]->bearing) { all[i]->bearing = 1; changed = 1; }
                if (callees[i][c]->reaches_end && !all[i]->reaches_end) { all[i]->reaches_end = 1; changed = 1; }
            }
    }
    for (size_t i = 0; i < nf; i++)
        if (all[i]->bearing)
            for (int c = 0; c < ncallees[i]; c++)
                if (callees[i][c] != all[i]) callees[i][c]->called_by_bearing = 1;
    /* entries: bearing functions no bearing function calls; then any begin not yet walked */
    for (size_t i = 0; i < nf; i++)
        if (all[i]->bearing && !all[i]->called_by_bearing) walk_entry(&ctx, all[i]);
    for (size_t i = 0; i < nf; i++)
        if (all[i]->begins && !all[i]->walked) walk_entry(&ctx, all[i]);
    note_cuts(&ctx);

    state_free(&ctx.st);
    free(ctx.threads);
    free(all);
    free(callees);
    free(ncallees);
    free(ctx.seen);
    cg_map_free(&ctx.fields);
    cg_map_free(&ctx.globals);
    cg_map_free(&ctx.writes);
    cg_map_free(&ctx.attrs);
    cg_map_free(&ctx.memo);
    cg_map_free(&ctx.autofree);
    cg_map_free(&ctx.cuda_work);
    cg_arena_free(ctx.arena);
}

