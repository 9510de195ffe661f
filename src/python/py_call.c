/* py_call.c - calls: what is called, with what, and what it gives.
 *
 * A call is resolved through the abstract value of its callee: a project
 * function, a class (its __init__), an instance (its forward/__call__), a
 * bound method, an nn.ModuleList/Sequential of project classes, or an
 * external name (py_api.c says what those give).  Instances come from
 * constructor calls and from what a class stores in self attributes
 * (py_index.c).  Modules of other files are parsed on demand, so files no
 * capture reaches cost only their read.
 *
 * In capture context a project function is followed: its body is walked
 * with its parameters bound, once per combination of argument kinds (the
 * memo), with the call path kept for the report; recursion stops at the
 * stack.  Outside capture a call is followed only quietly, a few levels
 * deep, for the type of its result.  Calls that begin or end a capture are
 * py_region.c's. */
#include "py_eval.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- frames and names ------------------------------------------------------------ */
void py_frame_init(py_frame *fr, py_func *fn, py_module *mod)
{
    memset(fr, 0, sizeof *fr);
    fr->fn = fn;
    fr->mod = mod;
    cg_map_init(&fr->env);
    cg_map_init(&fr->globals_declared);
}

void py_frame_free(py_frame *fr)
{
    cg_map_free(&fr->env);
    cg_map_free(&fr->globals_declared);
}

const py_closure *py_closure_of(py_ctx *ctx, py_frame *fr)
{
    if (!fr->fn || fr->fn->is_module_body) return NULL;
    py_closure *c = cg_arena_alloc(ctx->arena, sizeof *c);
    memset(c, 0, sizeof *c);
    size_t n = fr->env.count;
    const char **names = cg_arena_alloc(ctx->arena, (n + 1) * sizeof *names);
    size_t *lens = cg_arena_alloc(ctx->arena, (n + 1) * sizeof *lens);
    py_val *vals = cg_arena_alloc(ctx->arena, (n + 1) * sizeof *vals);
    for (size_t i = 0; i < fr->env.cap && c->n < (int)n; i++) {
        if (!fr->env.keys[i]) continue;
        names[c->n] = fr->env.keys[i];
        lens[c->n] = fr->env.klen[i];
        vals[c->n] = *(const py_val *)fr->env.vals[i];
        if (vals[c->n].flags & (PY_VF_CALLERS | PY_VF_FROM_CALLERS)) vals[c->n] = py_vk(PY_V_UNKNOWN);
        c->n++;
    }
    c->names = names;
    c->lens = lens;
    c->vals = vals;
    c->self = fr->self;
    c->self_name = fr->self_name;
    c->self_len = fr->self_len;
    c->outer = fr->closed;
    return c;
}

const py_val *py_closure_lookup(py_frame *fr, const char *name, size_t len)
{
    /* the frames of the defs around, while they run; then what the last one closed over */
    py_frame *last = fr;
    for (py_frame *o = fr->outer; o; o = o->outer) {
        const py_val *ov = cg_map_get(&o->env, name, len);
        /* what callers pass, two closures and a call away, is too far to follow */
        if (ov && (ov->flags & PY_VF_FROM_CALLERS)) return NULL;
        if (ov) return ov;
        if (o->self_name && len == o->self_len && memcmp(name, o->self_name, len) == 0) return &o->self;
        last = o;
    }
    for (const py_closure *c = last->closed; c; c = c->outer) {
        for (int i = 0; i < c->n; i++)
            if (c->lens[i] == len && memcmp(c->names[i], name, len) == 0) return &c->vals[i];
        if (c->self_name && len == c->self_len && memcmp(name, c->self_name, len) == 0) return &c->self;
    }
    return NULL;
}

void py_bind(py_ctx *ctx, py_frame *fr, const char *name, size_t len, py_val v)
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
    *slot = v;
    /* a name bound inside the capture, in the capturing function: a graph output (CG505) */
    if (ctx->active && ctx->region && fr->fn == ctx->region->fn && v.kind == PY_V_TENSOR)
        slot->flags |= PY_VF_OUTPUT;
}

/* A decorator of f whose text `match` accepts. */
static int has_decorator(const py_func *f, int (*match)(const char *t, size_t len))
{
    TSNode parent = py_parent(f->node);
    if (py_is_null(parent) || !IS(parent, decorated_definition)) return 0;
    uint32_t n = py_named_child_count(parent);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = py_named_child(parent, i);
        size_t len;
        const char *t = py_text(f->mod, d, &len);
        if (IS(d, decorator) && match(t, len)) return 1;
    }
    return 0;
}

/* @torch.compiler.disable, @torch._dynamo.disable, TE's @no_torch_dynamo(...) */
static int dynamo_disable(const char *t, size_t len)
{
    return memmem(t, len, "no_torch_dynamo", 15) ||
           ((memmem(t, len, "dynamo", 6) || memmem(t, len, "compiler", 8)) && memmem(t, len, "disable", 7));
}

/* @functools.cache, @functools.lru_cache(...), @cache, @lru_cache: the body
 * runs once per arguments, on the first call */
static int memo_decorator(const char *t, size_t len)
{
    while (len && (*t == '@' || *t == ' ')) t++, len--;
    if (len > 10 && memcmp(t, "functools.", 10) == 0) t += 10, len -= 10;
    return (len >= 5 && memcmp(t, "cache", 5) == 0 && (len == 5 || t[5] == '(' || t[5] == '\n' || t[5] == ' ')) ||
           (len >= 9 && memcmp(t, "lru_cache", 9) == 0);
}

/* @torch.compile / @torch.compile(...) */
static int compile_decorator(const char *t, size_t len) { return memmem(t, len, "compile", 7) != NULL; }

/* A number or unknown read from a module-level name remembers it (CG304). */
static py_val global_origin(py_ctx *ctx, py_val v, py_module *m, const char *name, size_t len)
{
    if (v.kind == PY_V_NUMBER || v.kind == PY_V_UNKNOWN) {
        v.origin = PY_O_GLOBAL;
        v.oname = cg_arena_strndup(ctx->arena, name, len);
        v.omod = m;
    }
    return v;
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
    if (memo && memo != &in_progress) return *memo;
    TSNode *rhs = cg_map_get(&m->global_values, name, len);
    if (memo || !rhs || ctx->depth >= PY_MAX_CALL_DEPTH) return global_origin(ctx, py_vk(PY_V_UNKNOWN), m, name, len);
    const char *k = cg_arena_strndup(ctx->arena, key, (size_t)kl);
    cg_map_put(&ctx->globals, k, (size_t)kl, &in_progress);
    py_frame fr;
    py_frame_init(&fr, m->body, m);
    int a = ctx->active;
    ctx->depth++;
    py_val v = py_eval_quiet(ctx, &fr, *rhs);
    ctx->depth--;
    ctx->active = a;
    py_frame_free(&fr);
    v = global_origin(ctx, v, m, name, len);
    py_val *save = cg_arena_alloc(ctx->arena, sizeof *save);
    *save = v;
    cg_map_put(&ctx->globals, k, (size_t)kl, save);
    return v;
}

py_val py_val_of_sym(py_ctx *ctx, py_sym s, const char *name, size_t len)
{
    switch (s.kind) {
    case PY_SYM_FUNC: {
        py_val v = py_vk(PY_V_FUNC);
        v.fn = s.func;
        if (has_decorator(s.func, compile_decorator)) v.flags |= PY_VF_COMPILED;
        return v;
    }
    case PY_SYM_CLASS: { py_val v = py_vk(PY_V_CLASS); v.cls = s.cls; return v; }
    case PY_SYM_MODULE: { py_val v = py_vk(PY_V_MODULE); v.mod = s.mod; return v; }
    case PY_SYM_EXTERNAL: return py_vext(s.qual);
    case PY_SYM_GLOBAL: return val_of_global(ctx, s.mod, name, len);
    default: return py_vk(PY_V_UNKNOWN);
    }
}

/* ---- annotations ---------------------------------------------------------------------- */
/* An instance of what the dotted name t (len bytes) names in module m: a
 * project class, an external class the library tables know, None. */
static py_val annotation_name(py_ctx *ctx, py_module *m, const char *t, size_t len)
{
    if (len == 4 && memcmp(t, "None", 4) == 0) return py_vk(PY_V_NONE);
    const char *dot = memchr(t, '.', len);
    size_t fl = dot ? (size_t)(dot - t) : len;
    py_sym s = py_resolve_name(ctx->p, m, t, fl);
    if (dot) {
        const char *base = s.kind == PY_SYM_EXTERNAL ? s.qual : s.kind == PY_SYM_MODULE ? s.mod->name : NULL;
        if (!base) return py_vk(PY_V_UNKNOWN);
        s = py_resolve_dotted(ctx->p, cg_arena_printf(ctx->arena, "%s%.*s", base, (int)(len - fl), dot), m, 0);
    }
    if (s.kind == PY_SYM_CLASS) {
        py_val v = py_vk(PY_V_INSTANCE);
        v.cls = s.cls;
        return v;
    }
    return s.kind == PY_SYM_EXTERNAL ? py_api_instance_of(s.qual) : py_vk(PY_V_UNKNOWN);
}

static const char *trim(const char *t, size_t *len)
{
    while (*len && (t[0] == ' ' || t[0] == '\n' || t[0] == '\t')) { t++; (*len)--; }
    while (*len && (t[*len - 1] == ' ' || t[*len - 1] == '\n' || t[*len - 1] == '\t')) (*len)--;
    return t;
}

/* The first top-level `sep` in t (outside brackets), or NULL. */
static const char *top_level(const char *t, size_t len, char sep)
{
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '[' || t[i] == '(') depth++;
        else if (t[i] == ']' || t[i] == ')') depth--;
        else if (t[i] == sep && depth == 0) return t + i;
    }
    return NULL;
}

static py_val annotation_text(py_ctx *ctx, py_module *m, const char *t, size_t len, int depth);

/* Each of the `sep`-separated parts of t, joined. */
static py_val annotation_parts(py_ctx *ctx, py_module *m, const char *t, size_t len, char sep, int depth)
{
    py_val out = py_vk(PY_V_UNKNOWN);
    int first = 1;
    while (len) {
        const char *s = top_level(t, len, sep);
        size_t pl = s ? (size_t)(s - t) : len;
        py_val v = annotation_text(ctx, m, t, pl, depth + 1);
        out = first ? v : py_join(ctx, out, v);
        first = 0;
        if (!s) break;
        len -= pl + 1;
        t = s + 1;
    }
    return out;
}

/* X[...]: Optional/Union of their arguments, Type[C] the class, a list of
 * project classes their elements; else what X names. */
static py_val annotation_generic(py_ctx *ctx, py_module *m, const char *t, size_t len, const char *br, int depth)
{
    static const char *const seqs[] = { "List", "list", "Sequence", "Iterable", "Iterator", "MutableSequence",
        "Tuple", "tuple", "ModuleList", NULL };
    size_t hl = (size_t)(br - t);
    const char *head = trim(t, &hl);
    const char *last = head;
    for (size_t i = 0; i < hl; i++) if (head[i] == '.') last = head + i + 1;
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)(hl - (size_t)(last - head) < 31 ? hl - (size_t)(last - head) : 31), last);
    const char *in = br + 1;
    size_t il = len - hl - 2;
    if (cg_eq(name, "Optional") || cg_eq(name, "Union")) return annotation_parts(ctx, m, in, il, ',', depth);
    if (cg_eq(name, "Annotated")) {
        const char *c = top_level(in, il, ',');
        return annotation_text(ctx, m, in, c ? (size_t)(c - in) : il, depth + 1);
    }
    const char *c = top_level(in, il, ',');
    py_val el = annotation_text(ctx, m, in, c ? (size_t)(c - in) : il, depth + 1);
    if (cg_eq(name, "Type") || cg_eq(name, "type")) {
        if (el.kind == PY_V_INSTANCE) el.kind = PY_V_CLASS;
        return el.kind == PY_V_CLASS ? el : py_vk(PY_V_UNKNOWN);
    }
    if (cg_one_of(name, seqs)) {
        py_val l = py_vk(PY_V_LIST);
        for (const py_val *a = &el; a && l.nelems < 4; a = a->alt)
            if (a->kind == PY_V_INSTANCE) l.elems[l.nelems++] = a->cls;
        if (l.nelems) l.kind = PY_V_MODLIST;
        return l;
    }
    return annotation_name(ctx, m, head, hl);
}

static py_val annotation_text(py_ctx *ctx, py_module *m, const char *t, size_t len, int depth)
{
    t = trim(t, &len);
    if (!len || depth > 6) return py_vk(PY_V_UNKNOWN);
    if (len >= 2 && (t[0] == '"' || t[0] == '\'') && t[len - 1] == t[0])   /* "Net": a forward reference */
        return annotation_text(ctx, m, t + 1, len - 2, depth + 1);
    if (top_level(t, len, '|')) return annotation_parts(ctx, m, t, len, '|', depth);
    const char *br = memchr(t, '[', len);
    if (br && t[len - 1] == ']') return annotation_generic(ctx, m, t, len, br, depth);
    for (size_t i = 0; i < len; i++)
        if (!(t[i] == '.' || t[i] == '_' || (t[i] >= '0' && t[i] <= '9') || ((t[i] | 32) >= 'a' && (t[i] | 32) <= 'z')))
            return py_vk(PY_V_UNKNOWN);
    return annotation_name(ctx, m, t, len);
}

py_val py_annotation(py_ctx *ctx, py_module *m, TSNode type)
{
    if (py_is_null(type)) return py_vk(PY_V_UNKNOWN);
    size_t len;
    const char *t = py_text(m, type, &len);
    py_val v = annotation_text(ctx, m, t, len, 0);
    /* `List[Tensor]`, `Tuple[Tensor, ...]`: tensors, as far as the rules go */
    if (v.kind == PY_V_UNKNOWN && memmem(t, len, "Tensor", 6)) v = py_vtensor(PY_DEV_UNKNOWN);
    return v;
}

/* v, or what annotation `type` of module m says when v says nothing (unknown or None). */
static py_val annotated(py_ctx *ctx, py_module *m, TSNode type, py_val v)
{
    if (py_is_null(type) || (v.kind != PY_V_UNKNOWN && v.kind != PY_V_NONE)) return v;
    py_val a = py_annotation(ctx, m, type);
    return a.kind == PY_V_UNKNOWN ? v : py_join(ctx, v, a);
}

py_val py_annotated(py_ctx *ctx, py_module *m, TSNode type, py_val v) { return annotated(ctx, m, type, v); }

/* The annotation of the assignment whose right-hand side is rhs (`self.x: T = v`). */
static TSNode rhs_annotation(TSNode rhs)
{
    TSNode parent = py_parent(rhs);
    return IS(parent, assignment) && py_eq(py_field(parent, PY.f_right), rhs) ? py_field(parent, PY.f_type)
                                                                              : (TSNode){0};
}

/* The walk state a caller walk sets aside. */
typedef struct walk_state {
    py_region *region, *after;
    int active, phase, quiet, loops, conds_in_loop, autocast, size_arg;
    TSNode loop_node, watch;
    const char *cur_stream;
    py_func *watch_fn;
    struct py_args *watch_args;
} walk_state;
static void walk_save(py_ctx *ctx, walk_state *w);
static void walk_restore(py_ctx *ctx, const walk_state *w);
static void walk_quiet(py_ctx *ctx);

/* Two stores of one attribute joined.  A tensor on the host in one and on
 * the GPU in the other (pinned host memory in eager mode): which one a read
 * sees is not known, and a host read of a CPU tensor does not synchronize;
 * the CPU one is kept.  Unknown gives way to what is known. */
static py_val join_stores(py_ctx *ctx, py_val a, py_val b)
{
    if (a.kind == PY_V_UNKNOWN && !a.alt) return b;
    if (b.kind == PY_V_UNKNOWN && !b.alt) return a;
    if (a.kind == PY_V_TENSOR && b.kind == PY_V_TENSOR && (a.dev == PY_DEV_CPU || b.dev == PY_DEV_CPU))
        return a.dev == PY_DEV_CPU ? a : b;
    return py_join(ctx, a, b);
}

/* What one walk of a method stored in self's attributes: a list in the arena. */
typedef struct py_attr_store {
    const char *name;
    size_t len;
    py_val v;
    struct py_attr_store *next;
} py_attr_store;

static py_val *store_of(py_attr_store *list, const char *name, size_t len)
{
    for (py_attr_store *s = list; s; s = s->next)
        if (s->len == len && memcmp(s->name, name, len) == 0) return &s->v;
    return NULL;
}

/* In a walk for every attribute stored (watch_attr_all): v joins what name
 * (len bytes) holds. */
static void note_store_all(py_ctx *ctx, const char *name, size_t len, py_val v)
{
    py_val *slot = store_of(*ctx->watch_attr_all, name, len);
    if (!slot) {
        py_attr_store *s = cg_arena_alloc(ctx->arena, sizeof *s);
        s->name = cg_arena_strndup(ctx->arena, name, len);
        s->len = len;
        s->v = py_vk(PY_V_UNKNOWN);
        s->next = *ctx->watch_attr_all;
        *ctx->watch_attr_all = s;
        slot = &s->v;
    }
    *slot = join_stores(ctx, *slot, v);
}

void py_note_attr_store(py_ctx *ctx, py_frame *fr, TSNode t, py_val v)
{
    if (!ctx->watch_attr || fr->fn != ctx->watch_attr_fn || !IS(t, attribute) || !fr->self_name) return;
    TSNode obj = py_field(t, PY.f_object);
    size_t ol;
    const char *o = py_text(fr->mod, obj, &ol);
    if (!IS(obj, identifier) || ol != fr->self_len || memcmp(o, fr->self_name, ol) != 0) return;
    v.flags &= ~(uint32_t)PY_VF_CALLERS;
    if (ctx->watch_attr_all) {
        size_t al;
        const char *a = py_text(fr->mod, py_field(t, PY.f_attribute), &al);
        note_store_all(ctx, a, al, v);
        return;
    }
    if (!py_text_eq(fr->mod, py_field(t, PY.f_attribute), ctx->watch_attr)) return;
    *ctx->watch_attr_val = join_stores(ctx, *ctx->watch_attr_val, v);
}

/* Might text t (n bytes) store attribute `name` (l bytes): `.name =` (not
 * `==`), `.name, ...=` in a tuple target, or the string "name" (register_buffer)? */
static int stores_attr(const char *t, size_t n, const char *name, size_t l)
{
    for (const char *p = t, *end = t + n; (p = memmem(p, (size_t)(end - p), name, l)) != NULL; p += l) {
        const char *q = p + l;
        if (q < end && (*q == '_' || (*q >= '0' && *q <= '9') || ((*q | 32) >= 'a' && (*q | 32) <= 'z'))) continue;
        if (p > t && (p[-1] == '"' || p[-1] == '\'') && q < end && *q == p[-1]) return 1;
        if (p == t || p[-1] != '.') continue;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q < end && (*q == ',' || *q == ')' || *q == ':')) return 1;   /* a tuple target, an annotation */
        if (q + 1 < end && *q == '=' && q[1] != '=') return 1;
    }
    return 0;
}

/* Every store into self.<name> in the methods of c (and its bases) that
 * spell it, each method walked quietly from its top: joined.  Unknown when
 * none says. */
static py_val attr_from_methods(py_ctx *ctx, py_class *c, py_class *derived, const py_val *self, const char *name,
                                int guard)
{
    py_val out = py_vk(PY_V_UNKNOWN);
    if (!c || guard > 4 || ctx->depth >= PY_MAX_CALL_DEPTH - 2) return out;
    /* `self.name = ...`, `self.register_buffer("name", ...)` */
    const char *pat = name;
    size_t pl = strlen(name);
    for (size_t i = 0; i < c->methods.cap; i++) {
        if (!c->methods.keys[i]) continue;
        py_func *f = c->methods.vals[i];
        if (!f || py_busy(ctx, f) || py_is_null(f->body)) continue;
        /* a base's method that the class overrides never runs on it */
        py_func *owner = NULL;
        if (c != derived && f->name && py_class_lookup_method_owner(ctx->p, derived, f->name, &owner) && owner != f)
            continue;
        uint32_t s = py_start_byte(f->body), e = py_end_byte(f->body);
        if (!stores_attr(f->mod->src.text + s, e - s, pat, pl)) continue;
        py_val inst = self && self->kind == PY_V_INSTANCE ? *self : py_vk(PY_V_INSTANCE);
        if (inst.kind == PY_V_INSTANCE && !inst.cls) inst.cls = c;
        inst.alt = NULL;
        /* one walk of f per self class gives every attribute it stores */
        char key[96];
        int kl = snprintf(key, sizeof key, "stores/%p/%p", (void *)f, (void *)inst.cls);
        py_attr_store **all = cg_map_get(&ctx->memo, key, (size_t)kl);
        if (all) {
            py_val *got = store_of(*all, name, pl);
            out = join_stores(ctx, out, got ? *got : py_vk(PY_V_UNKNOWN));
            continue;
        }
        all = cg_arena_alloc(ctx->arena, sizeof *all);
        *all = NULL;
        walk_state w0, *w = &w0;
        walk_save(ctx, w);
        walk_quiet(ctx);
        const char *sa = ctx->watch_attr;
        py_func *sf = ctx->watch_attr_fn;
        py_val *sv = ctx->watch_attr_val, got = py_vk(PY_V_UNKNOWN);
        py_attr_store **sall = ctx->watch_attr_all;
        ctx->watch_attr = name;
        ctx->watch_attr_fn = f;
        ctx->watch_attr_val = &got;
        ctx->watch_attr_all = all;
        py_busy_push(ctx, f);
        /* calls it makes are followed one level (`a, b = make_pair()`), no deeper */
        int saved_depth = ctx->depth;
        if (ctx->depth < 4) ctx->depth = 4;
        py_frame fr;
        py_frame_init(&fr, f, f->mod);
        py_bind_params(ctx, &fr, f, &inst, NULL, 0);
        py_exec_block(ctx, &fr, f->body);
        py_frame_free(&fr);
        ctx->depth = saved_depth;
        py_busy_pop(ctx);
        ctx->watch_attr = sa;
        ctx->watch_attr_fn = sf;
        ctx->watch_attr_val = sv;
        ctx->watch_attr_all = sall;
        walk_restore(ctx, w);
        cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, all);
        py_val *stored = store_of(*all, name, pl);
        out = join_stores(ctx, out, stored ? *stored : got);
    }
    py_class_resolve_bases(ctx->p, c);
    for (int i = 0; i < c->nbase; i++) {
        py_val b = attr_from_methods(ctx, c->base[i], derived, self, name, guard + 1);
        out = join_stores(ctx, out, b);
    }
    return out;
}

static py_val val_of_attr(py_ctx *ctx, py_class *c, const py_val *self, const char *name);

/* py_val_of_attr, memoized per class, name, and the state what callers pass
 * depends on (read only in a capture, and not in caller walks but for the
 * watched call); not inside an attribute walk. */
py_val py_val_of_attr(py_ctx *ctx, py_class *c, const py_val *self, const char *name)
{
    if (ctx->watch_attr) return val_of_attr(ctx, c, self, name);
    char key[200];
    int kl = snprintf(key, sizeof key, "val/%p/%p/%d%d%d/%s", (void *)c, self ? (void *)self->cls : NULL,
                      ctx->active, ctx->callers_depth > 0, ctx->in_watched > 0, name);
    if (kl <= 0 || kl >= (int)sizeof key) return val_of_attr(ctx, c, self, name);
    py_val *memo = cg_map_get(&ctx->memo, key, (size_t)kl);
    if (memo) return *memo;
    py_val v = val_of_attr(ctx, c, self, name);
    py_val *save = cg_arena_alloc(ctx->arena, sizeof *save);
    *save = v;
    cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, save);
    return v;
}

static py_val val_of_attr(py_ctx *ctx, py_class *c, const py_val *self, const char *name)
{
    py_attr *a = py_class_attr(ctx->p, c, name);
    py_val v = py_vk(PY_V_UNKNOWN);
    if (a && !py_is_null(a->value) && ctx->depth < PY_MAX_CALL_DEPTH) {
        py_module *m = a->value_fn ? a->value_fn->mod : a->type_mod ? a->type_mod : c->mod;
        py_frame fr;
        py_frame_init(&fr, a->value_fn ? a->value_fn : m->body, m);
        if (a->value_fn) {
            /* only the parameters the right-hand side names: a large __init__'s
             * annotations are not resolved for every attribute */
            const char *saved_only = ctx->bind_only;
            size_t saved_len = ctx->bind_only_len;
            ctx->bind_only = py_text(m, a->value, &ctx->bind_only_len);
            py_bind_params(ctx, &fr, a->value_fn, self, NULL, 0);
            ctx->bind_only = saved_only;
            ctx->bind_only_len = saved_len;
        }
        ctx->depth++;
        v = py_eval_quiet(ctx, &fr, a->value);
        ctx->depth--;
        py_frame_free(&fr);
        v = annotated(ctx, m, rhs_annotation(a->value), v);
    }
    /* a value the right-hand side alone does not say (a local of the method,
     * an element of a tuple), or several assignments: every store counts */
    if ((!a || v.kind == PY_V_UNKNOWN || v.kind == PY_V_NONE || a->assigns > 1 || py_is_null(a->value)) &&
        !ctx->watch_attr && ctx->active) {
        char key[200];
        int kl = snprintf(key, sizeof key, "attr/%p/%s", (void *)c, name);
        py_val *memo = kl > 0 && kl < (int)sizeof key ? cg_map_get(&ctx->memo, key, (size_t)kl) : NULL;
        py_val all;
        if (memo) {
            all = *memo;
        } else {
            all = attr_from_methods(ctx, c, c, self, name, 0);
            if (kl > 0 && kl < (int)sizeof key) {
                py_val *save = cg_arena_alloc(ctx->arena, sizeof *save);
                *save = all;
                cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, save);
            }
        }
        v = join_stores(ctx, v, all);
    }
    if (a && !py_is_null(a->type)) v = annotated(ctx, a->type_mod, a->type, v);
    /* a number (CG304) or a host container (CG303: written through a parameter) kept on self */
    if (v.kind == PY_V_NUMBER || v.kind == PY_V_UNKNOWN || v.kind == PY_V_LIST || v.kind == PY_V_DICT ||
        v.kind == PY_V_SET) {
        v.origin = PY_O_SELF_ATTR;
        v.oname = cg_arena_strdup(ctx->arena, name);
        v.ocls = c;
    }
    return v;
}

/* ---- following project functions ---------------------------------------------------- */
py_val py_call_instance(py_ctx *ctx, py_frame *fr, TSNode call, py_class *c, const py_val *self, const py_args *args)
{
    py_func *f = NULL;
    if (!py_class_lookup_method_owner(ctx->p, c, "__call__", &f))
        py_class_lookup_method_owner(ctx->p, c, "forward", &f);
    if (f) return py_call_function(ctx, fr, call, f, self, args, strcmp(f->name, "forward") == 0);
    return c->is_nn_module ? py_vtensor(PY_DEV_UNKNOWN) : py_vk(PY_V_UNKNOWN);
}

void py_call_captured(py_ctx *ctx, py_frame *fr, TSNode call, const py_val *target)
{
    py_val targs[4] = { py_vtensor(PY_DEV_CUDA), py_vtensor(PY_DEV_CUDA), py_vtensor(PY_DEV_CUDA),
                        py_vtensor(PY_DEV_CUDA) };
    py_args a = py_args_pos(targs, 4);
    for (const py_val *t = target; t; t = t->alt) {
        if (t->kind == PY_V_INSTANCE) py_call_instance(ctx, fr, call, t->cls, t, &a);
        else if (t->kind == PY_V_FUNC) py_call_function(ctx, fr, call, t->fn, NULL, &a, 1);
    }
}

/* What a call passes for parameter `name` (nl bytes), the ai-th positional
 * one: the value, or NULL when it passes nothing for it.  After a spread
 * (`*xs`, `**kw`) of unknown length every parameter may be passed: unknown. */
static const py_val *passed(const py_args *a, int ai, const char *name, size_t nl, int kwonly, int *spread)
{
    static const py_val unknown;
    for (int i = 0; i < a->npos && (i <= ai || kwonly); i++)
        if (a->pos[i].flags & PY_VF_SPREAD) *spread = 1;
    if (!*spread && !kwonly && ai < a->npos) return &a->pos[ai];
    for (int i = 0; i < a->nkw; i++)
        if (a->kwname[i] && strlen(a->kwname[i]) == nl && memcmp(a->kwname[i], name, nl) == 0) return &a->kw[i];
    return *spread ? &unknown : NULL;
}

/* What parameter pn (the i-th of f, the ai-th after self) holds: the
 * argument's kind when known; else, for forward() and graphed callables, a
 * tensor only when nothing says otherwise (no default, no annotation or a
 * Tensor one).  `mask=None`, `kwargs: dict = None`, `flag: bool` are not
 * tensors.  An annotation naming a class says what an unknown argument is. */
static py_val param_value(py_ctx *ctx, py_func *f, TSNode type, TSNode def, const py_val *given,
                          int params_are_tensors, int called)
{
    /* a call that leaves a parameter at its literal default (`do_shuffle=False`):
     * that literal, exactly (walked from its top, callers may pass anything) */
    if (called && !given && !py_is_null(def)) {
        py_val d = py_literal(ctx, f->mod, def);
        if (d.lit || d.kind == PY_V_NONE) return d;   /* `scaler=None` left alone is None, not its annotation */
    }
    py_val v = py_vk(PY_V_UNKNOWN);
    int has_def = !py_is_null(def), has_type = !py_is_null(type);
    size_t tl = 0;
    const char *tt = has_type ? py_text(f->mod, type, &tl) : "";
    int ann_tensor = has_type && memmem(tt, tl, "Tensor", 6) != NULL;
    int tensor_shaped = !has_def && (!has_type || ann_tensor);
    if (given) v = *given;
    else if (params_are_tensors && tensor_shaped) v = py_vtensor(PY_DEV_UNKNOWN);
    v.flags &= ~(uint32_t)PY_VF_SPREAD;
    if (!given && has_def && (IS(def, integer) || IS(def, float_))) v = py_vk(PY_V_NUMBER);
    if (v.kind == PY_V_UNKNOWN || (v.kind == PY_V_NONE && !given)) v = annotated(ctx, f->mod, type, v);
    if (params_are_tensors && v.kind == PY_V_UNKNOWN && given && tensor_shaped) v = py_vtensor(PY_DEV_UNKNOWN);
    /* the tensors a reduce-overhead function is given (CG902: mutated inputs) */
    if (ctx->active && ctx->path.n == 0 && py_region_is_compiled(ctx->region) && v.kind == PY_V_TENSOR)
        v.flags |= PY_VF_PARAM;
    return v;
}

/* Parameter pn's name, annotation and default. */
static TSNode param_parts(TSNode pn, TSNode *type, TSNode *def)
{
    *type = *def = (TSNode){0};
    if (IS(pn, typed_parameter)) {
        *type = py_field(pn, PY.f_type);
        return py_named_child(pn, 0);
    }
    if (IS(pn, default_parameter) || IS(pn, typed_default_parameter)) {
        *def = py_field(pn, PY.f_value);
        if (IS(pn, typed_default_parameter)) *type = py_field(pn, PY.f_type);
        return py_field(pn, PY.f_name);
    }
    return pn;
}

/* `*args` (kind PY_V_TUPLE: the positional arguments from the ai-th on) or
 * `**kwargs` (PY_V_DICT: the keywords no parameter took) of f, named by
 * pattern pn: bound in fr. */
static void bind_rest(py_ctx *ctx, py_frame *fr, py_func *f, TSNode pn, int kind, const py_args *a, int ai,
                      const unsigned char *taken, int spread)
{
    TSNode name = py_named_child(pn, 0);
    if (!IS(name, identifier)) return;
    size_t nl;
    const char *nt = py_text(f->mod, name, &nl);
    py_val items[PY_MAX_ARGS];
    const char *keys[PY_MAX_ARGS];
    int n = 0;
    if (kind == PY_V_TUPLE)
        for (int i = ai; i < a->npos && n < PY_MAX_ARGS; i++) items[n++] = a->pos[i];
    else
        for (int i = 0; i < a->nkw && n < PY_MAX_ARGS; i++)
            if (!taken[i] && a->kwname[i]) {
                keys[n] = cg_arena_printf(ctx->arena, "\"%s\"", a->kwname[i]);
                items[n++] = a->kw[i];
            }
    py_val v = spread ? py_vk(kind) : py_seq(ctx, kind, items, n);
    if (kind == PY_V_DICT && !spread && n) {
        const char **kc = cg_arena_alloc(ctx->arena, (size_t)n * sizeof *kc);
        memcpy(kc, keys, (size_t)n * sizeof *kc);
        v.keys = kc;
    }
    py_bind(ctx, fr, nt, nl, v);
}

/* The keyword argument of a that names a parameter (nl bytes), marked taken. */
static void take_keyword(const py_args *a, const char *name, size_t nl, unsigned char *taken)
{
    for (int i = 0; i < a->nkw && i < PY_MAX_ARGS; i++)
        if (a->kwname[i] && strlen(a->kwname[i]) == nl && memcmp(a->kwname[i], name, nl) == 0) taken[i] = 1;
}

/* Bind f's parameters in its frame: self, then the arguments in order and by
 * name; `*args` and `**kwargs` get what is left. */
void py_bind_params(py_ctx *ctx, py_frame *fr, py_func *f, const py_val *self, const py_args *args,
                    int params_are_tensors)
{
    static const py_args none;
    int from_top = !args && !f->is_module_body;
    if (!args) args = &none;
    TSNode params = py_field(f->node, PY.f_parameters);
    uint32_t np = py_is_null(params) ? 0 : py_named_child_count(params);
    int ai = 0, spread = 0, kwonly = 0;
    unsigned char taken[PY_MAX_ARGS] = { 0 };
    TSNode kwargs = { 0 };
    py_kids kids = py_kids_of(params);
    for (uint32_t i = 0; i < np; i++) {
        TSNode type, def, pn = py_kids_next(&kids);
        if (IS(pn, typed_parameter) && !IS(py_named_child(pn, 0), identifier)) pn = py_named_child(pn, 0);
        if (IS(pn, list_splat_pattern)) {
            passed(args, ai, "", 0, 1, &spread);
            bind_rest(ctx, fr, f, pn, PY_V_TUPLE, args, ai, taken, spread);
            kwonly = 1;
            continue;
        }
        if (IS(pn, dictionary_splat_pattern)) kwargs = pn;
        if (strcmp(py_type(pn), "keyword_separator") == 0) kwonly = 1;
        TSNode name = param_parts(pn, &type, &def);
        if (!IS(name, identifier)) continue;   /* **kwargs, / and * markers */
        size_t nl;
        const char *nt = py_text(f->mod, name, &nl);
        if (i == 0 && f->cls) {
            py_val sv = self ? *self : py_vk(PY_V_INSTANCE);
            if (!self) sv.cls = f->cls;
            fr->self = sv;
            fr->self_name = nt;
            fr->self_len = nl;
            py_bind(ctx, fr, nt, nl, sv);
            continue;
        }
        const py_val *given = passed(args, ai, nt, nl, kwonly, &spread);
        take_keyword(args, nt, nl, taken);
        /* only the parameters an expression evaluated next may read (py_val_of_attr) */
        if (ctx->bind_only && !memmem(ctx->bind_only, ctx->bind_only_len, nt, nl)) {
            if (!kwonly) ai++;
            continue;
        }
        py_val v = param_value(ctx, f, type, def, given, params_are_tensors, args != &none);
        if (from_top) v.flags |= PY_VF_CALLERS;   /* what callers pass: when read (py_lookup) */
        py_bind(ctx, fr, nt, nl, v);
        if (!kwonly) ai++;
    }
    py_kids_free(&kids);
    if (!py_is_null(kwargs)) bind_rest(ctx, fr, f, kwargs, PY_V_DICT, args, ai, taken, spread);
}

/* The memo's word for a value: its kind and identity, a level into its elements. */
static uint64_t hash_val(uint64_t h, const py_val *v, int depth)
{
    for (; v; v = v->alt) {
        const void *id[5] = { (void *)(uintptr_t)v->kind, v->cls, v->fn, v->mod, (void *)(uintptr_t)v->nelems };
        h = (h ^ cg_hash_bytes(id, sizeof id)) * 1099511628211ull;
        if (v->kind == PY_V_MODLIST) h = (h ^ cg_hash_bytes(v->elems, sizeof v->elems)) * 1099511628211ull;
        if (v->kind == PY_V_EXTOBJ && v->qual) h = (h ^ cg_hash_bytes(v->qual, strlen(v->qual))) * 1099511628211ull;
        /* a literal decides branches: `backend="cuda"` and `backend="cpu"` are two walks */
        if (v->lit) h = (h ^ cg_hash_bytes(v->lit, strlen(v->lit))) * 1099511628211ull;
        for (int i = 0; depth < 1 && i < v->nitems && i < 8; i++) h = hash_val(h, &v->items[i], depth + 1);
    }
    return h;
}

/* One analysis per (function, self, arguments' kinds and classes, region, quiet). */
static int memo_key(char *key, size_t n, py_ctx *ctx, py_func *f, const py_val *self, const py_args *a, int quiet)
{
    uint64_t h = 1469598103934665603ull;
    if (self) h = hash_val(h, self, 1);
    for (int i = 0; i < a->npos && i < 12; i++) h = hash_val(h, &a->pos[i], 0);
    for (int i = 0; i < a->nkw && i < 12; i++) {
        if (a->kwname[i]) h = (h ^ cg_hash_bytes(a->kwname[i], strlen(a->kwname[i]))) * 1099511628211ull;
        h = hash_val(h, &a->kw[i], 0);
    }
    return snprintf(key, n, "%p/%p/%d/%d/%016llx", (void *)f, (void *)ctx->region, quiet, a->npos,
                    (unsigned long long)h);
}

/* The def around nested def f (a null node for a module-level def or a method). */
static TSNode outer_def(py_func *f)
{
    if (f->is_module_body) return (TSNode){ 0 };
    for (TSNode n = py_parent(f->node); !py_is_null(n); n = py_parent(n)) {
        if (IS(n, function_definition)) return n;
        if (IS(n, class_definition) || IS(n, module)) break;
    }
    return (TSNode){ 0 };
}

/* Is f a nested def?  (Memoized: finding a node's parent walks from the root.) */
static int is_nested(py_ctx *ctx, py_func *f)
{
    char key[40];
    int kl = snprintf(key, sizeof key, "nest/%p", (void *)f);
    void *m = cg_map_get(&ctx->memo, key, (size_t)kl);
    if (m) return m == (void *)2;
    int nested = !py_is_null(outer_def(f));
    cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, (void *)(uintptr_t)(nested ? 2 : 1));
    return nested;
}

/* Closures: the frame of the def around nested def f, when it is still
 * running (on the chain of callers); NULL otherwise. */
static py_frame *closure_frame(py_ctx *ctx, py_frame *caller, py_func *f)
{
    if (!is_nested(ctx, f)) return NULL;
    TSNode def = outer_def(f);
    if (py_is_null(def)) return NULL;
    for (py_frame *c = caller; c; c = c->caller ? c->caller : c->outer)
        if (c->fn && c->fn->mod == f->mod && py_eq(c->fn->node, def)) return c;
    return NULL;
}

py_val py_call_function(py_ctx *ctx, py_frame *caller, TSNode callnode, py_func *f, const py_val *self,
                        const py_args *args, int params_are_tensors)
{
    /* Outside capture a call is followed only quietly, for the type of its
     * result (`lr = lr_at(0)` is a float), and only a few levels deep. */
    int quiet_call = !ctx->active || ctx->quiet;
    if (quiet_call && ctx->depth > 6) return py_vk(PY_V_UNKNOWN);
    /* a memoised function (a lazy JIT build, a cached table) did its work on the
     * warm-up's call: in a warmed capture it only returns what it kept */
    if (!quiet_call && ctx->region && ctx->region->warm && has_decorator(f, memo_decorator)) quiet_call = 1;
    int saved_quiet = ctx->quiet;
    if (py_busy(ctx, f) || ctx->depth >= PY_MAX_CALL_DEPTH || cg_callpath_full(&ctx->path))
        return py_vk(PY_V_UNKNOWN);
    if (py_module_ensure(ctx->p, f->mod) != 0) return py_vk(PY_V_UNKNOWN);
    /* torch.compile does not trace a function it is told to skip */
    if (ctx->active && py_region_is_compiled(ctx->region) && has_decorator(f, dynamo_disable))
        return py_vk(PY_V_UNKNOWN);

    char key[96];
    int kl = memo_key(key, sizeof key, ctx, f, self, args, quiet_call);
    /* a nested def reads its enclosing frame's bindings: not memoized */
    int nested = is_nested(ctx, f);
    py_val *memo = nested ? NULL : cg_map_get(&ctx->memo, key, (size_t)kl);
    if (memo) return *memo;

    py_frame fr;
    py_frame_init(&fr, f, f->mod);
    fr.caller = caller;
    fr.outer = closure_frame(ctx, caller, f);
    if (!fr.outer && ctx->call_closure) fr.closed = ctx->call_closure;
    ctx->call_closure = NULL;
    py_bind_params(ctx, &fr, f, self, args, params_are_tensors);

    cg_callpath_push(&ctx->path, f->qualname, py_loc(caller->mod, callnode));
    py_busy_push(ctx, f);
    ctx->depth++;
    if (quiet_call) ctx->quiet = 1;
    int saved_loops = ctx->loops, saved_conds = ctx->conds_in_loop, saved_phase = ctx->phase;
    py_region *saved_after = ctx->after;
    if (!py_is_null(f->body)) py_exec_block(ctx, &fr, f->body);
    ctx->loops = saved_loops;
    ctx->conds_in_loop = saved_conds;
    ctx->phase = saved_phase;
    ctx->after = saved_after;
    ctx->quiet = saved_quiet;
    ctx->depth--;
    py_busy_pop(ctx);
    cg_callpath_pop(&ctx->path);
    py_val ret = fr.has_ret ? fr.ret : py_vk(PY_V_NONE);
    py_frame_free(&fr);
    if (nested) return ret;
    py_val *save = cg_arena_alloc(ctx->arena, sizeof *save);
    *save = ret;
    cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, save);
    return ret;
}

/* ---- what callers pass ------------------------------------------------------------------
 * A function walked from its top (it holds a capture, or an attribute's
 * value is computed in it) does not know its parameters.  Its call sites
 * do: they are found by name (each module's filter of called names, then
 * its tree), and each caller is walked quietly up to the call, which is
 * confirmed to reach the function before what it passes is kept.  A
 * caller's own parameters come from its callers in turn, two levels up.
 * Once per function per run, and only for parameters that are read. */
typedef struct py_sites {
    int n;
    py_args site[12];
    int cold[12];   /* the caller ran nothing before the call (CG701) */
} py_sites;

#define MAX_CALLER_MODULES 48
#define MAX_CALLER_DEPTH 2
#define MAX_CALLER_PARSES 4


static void walk_save(py_ctx *ctx, walk_state *w)
{
    *w = (walk_state){ ctx->region, ctx->after, ctx->active, ctx->phase, ctx->quiet, ctx->loops,
                       ctx->conds_in_loop, ctx->autocast, ctx->size_arg, ctx->loop_node, ctx->watch,
                       ctx->cur_stream, ctx->watch_fn, ctx->watch_args };
}

static void walk_restore(py_ctx *ctx, const walk_state *w)
{
    ctx->region = w->region;
    ctx->after = w->after;
    ctx->active = w->active;
    ctx->phase = w->phase;
    ctx->quiet = w->quiet;
    ctx->loops = w->loops;
    ctx->conds_in_loop = w->conds_in_loop;
    ctx->autocast = w->autocast;
    ctx->size_arg = w->size_arg;
    ctx->loop_node = w->loop_node;
    ctx->watch = w->watch;
    ctx->cur_stream = w->cur_stream;
    ctx->watch_fn = w->watch_fn;
    ctx->watch_args = w->watch_args;
}

/* Outside any capture, quiet: a walk for what code computes, not for its events. */
static void walk_quiet(py_ctx *ctx)
{
    ctx->active = 0;
    ctx->region = ctx->after = NULL;
    ctx->phase = PY_PH_OUTSIDE;
    ctx->quiet = 1;
    ctx->loops = ctx->conds_in_loop = ctx->autocast = ctx->size_arg = 0;
    ctx->loop_node = (TSNode){ 0 };
    ctx->cur_stream = NULL;
    ctx->watch = (TSNode){ 0 };
}

/* The watched call is met: keep what it passes when it calls watch_fn. */
static void note_watched(py_ctx *ctx, const py_event *ev, const py_val *callee, int cold)
{
    int hit = 0;
    for (const py_val *a = callee; a; a = a->alt) {
        py_func *f = NULL;
        if (a->kind == PY_V_FUNC) f = a->fn;
        else if (a->kind == PY_V_CLASS) py_class_lookup_method_owner(ctx->p, a->cls, "__init__", &f);
        hit |= f == ctx->watch_fn;
    }
    if (!hit || ctx->watch_args->pos) return;
    ctx->watch_cold = cold;
    py_args *a = ctx->watch_args;
    py_val *pos = cg_arena_alloc(ctx->arena, (size_t)(ev->nargs + 1) * sizeof *pos);
    py_val *kw = cg_arena_alloc(ctx->arena, (size_t)(ev->nkw + 1) * sizeof *kw);
    const char **kwname = cg_arena_alloc(ctx->arena, (size_t)(ev->nkw + 1) * sizeof *kwname);
    memcpy(pos, ev->args, (size_t)ev->nargs * sizeof *pos);
    memcpy(kw, ev->kw, (size_t)ev->nkw * sizeof *kw);
    memcpy(kwname, ev->kwname, (size_t)ev->nkw * sizeof *kwname);
    *a = (py_args){ pos, ev->nargs, kwname, kw, ev->nkw };
}

/* Walk `caller` quietly up to (and past) call node `node`; what the call
 * passes to f into *out.  Returns 1 when the call reaches f. */
static int walk_caller(py_ctx *ctx, py_func *caller, TSNode node, py_func *f, py_args *out)
{
    if (py_busy(ctx, caller) || ctx->depth >= PY_MAX_CALL_DEPTH || py_is_null(caller->body)) return 0;
    walk_state w;
    walk_save(ctx, &w);
    walk_quiet(ctx);
    ctx->watch = node;
    ctx->watch_fn = f;
    int saved_in = ctx->in_watched;
    ctx->in_watched = 0;
    memset(out, 0, sizeof *out);
    ctx->watch_args = out;
    ctx->callers_depth++;
    ctx->depth++;
    py_busy_push(ctx, caller);
    py_frame fr;
    py_frame_init(&fr, caller, caller->mod);
    py_bind_params(ctx, &fr, caller, NULL, NULL, 0);
    py_exec_block(ctx, &fr, caller->body);
    py_frame_free(&fr);
    py_busy_pop(ctx);
    ctx->depth--;
    ctx->callers_depth--;
    ctx->in_watched = saved_in;
    walk_restore(ctx, &w);
    return out->pos != NULL;
}

/* The call sites of f in module m, walked (into s).  A module not parsed
 * yet is parsed only within the run's budget (the search stays a small
 * part of a run's time on a large tree). */
static void sites_in(py_ctx *ctx, py_func *f, const char *name, py_module *m, py_sites *s)
{
    if (!py_ctx_has(ctx, m)) {
        if (ctx->callers_parses >= MAX_CALLER_PARSES) return;
        ctx->callers_parses++;
    }
    if (py_module_ensure(ctx->p, m) != 0) return;
    TSNode nodes[16];
    int k = py_module_call_nodes(m, name, nodes, 16);
    for (int i = 0; i < k && s->n < (int)(sizeof s->site / sizeof *s->site); i++) {
        py_func *caller = py_enclosing_func(m, nodes[i]);
        ctx->watch_cold = 0;
        if (caller && caller != f && walk_caller(ctx, caller, nodes[i], f, &s->site[s->n])) s->cold[s->n++] = ctx->watch_cold;
    }
}

/* Where f is called from, and what each call passes; NULL when unknown. */
static const py_sites *callers_of(py_ctx *ctx, py_func *f)
{
    static py_sites in_progress;
    char key[32];
    int kl = snprintf(key, sizeof key, "%p", (void *)f);
    py_sites *s = cg_map_get(&ctx->callers, key, (size_t)kl);
    if (s) return s == &in_progress ? NULL : s;
    if (ctx->callers_depth >= MAX_CALLER_DEPTH) return NULL;
    const char *name = cg_eq(f->name, "__init__") && f->cls ? f->cls->name : f->name;
    if (!name || f->is_module_body || cg_starts(name, "__") || cg_eq(name, "forward")) return NULL;
    const char *k = cg_arena_strndup(ctx->arena, key, (size_t)kl);
    cg_map_put(&ctx->callers, k, (size_t)kl, &in_progress);
    s = cg_arena_alloc(ctx->arena, sizeof *s);
    /* other modules: those that call the name and import it, its class or its module */
    const char *imported = f->cls ? f->cls->name : name;
    const char *base = strrchr(f->mod->name, '.');
    base = base ? base + 1 : f->mod->name;
    int candidates = 0;
    py_module *cand[MAX_CALLER_MODULES];
    for (size_t i = 0; i < ctx->p->nmods && candidates <= MAX_CALLER_MODULES; i++) {
        py_module *m = &ctx->p->mods[i];
        if (m == f->mod || !py_module_may_call(ctx->p, m, name) ||
            !(py_module_may_import(ctx->p, m, imported, strlen(imported)) ||
              py_module_may_import(ctx->p, m, base, strlen(base))))
            continue;
        if (candidates < MAX_CALLER_MODULES) cand[candidates] = m;
        candidates++;
    }
    if (getenv("CGLINT_TRACE_CALLERS")) fprintf(stderr, "callers of %s (%s): %d candidates\n", f->qualname, f->mod->name, candidates);
    if (py_module_may_call(ctx->p, f->mod, name)) sites_in(ctx, f, name, f->mod, s);
    /* parsed modules first: they cost nothing more */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; candidates <= MAX_CALLER_MODULES && i < candidates; i++)
            if (py_ctx_has(ctx, cand[i]) == (pass == 0)) sites_in(ctx, f, name, cand[i], s);
    cg_map_put(&ctx->callers, k, (size_t)kl, s);
    return s;
}

/* Is call node c kept: an argument of `.append(...)` and friends, or the
 * value stored into a subscript, inside a loop of its function? */
static int call_result_kept(py_module *m, TSNode c)
{
    static const char *const keep[] = { "append", "extend", "insert", "appendleft", NULL };
    TSNode p = py_parent(c), kept = { 0 };
    if (IS(p, argument_list)) {
        TSNode call = py_parent(p), fn = py_field(call, PY.f_function);
        if (IS(fn, attribute)) {
            size_t al;
            const char *a = py_text(m, py_field(fn, PY.f_attribute), &al);
            for (int i = 0; keep[i]; i++)
                if (strlen(keep[i]) == al && memcmp(keep[i], a, al) == 0) kept = call;
        }
    } else if (IS(p, assignment) && py_eq(py_field(p, PY.f_right), c) && IS(py_field(p, PY.f_left), subscript)) {
        kept = p;
    }
    for (TSNode n = kept; !py_is_null(n); n = py_parent(n)) {
        if (IS(n, for_statement) || IS(n, while_statement) || IS(n, list_comprehension)) return 1;
        if (IS(n, function_definition) || IS(n, class_definition)) break;
    }
    return 0;
}

int py_callers_keep_result(py_ctx *ctx, py_func *f)
{
    if (!f->name || cg_starts(f->name, "__")) return 0;
    for (size_t i = 0, seen = 0; i < ctx->p->nmods && seen < 32; i++) {
        py_module *m = &ctx->p->mods[i];
        /* (a partial run has not loaded the preloaded modules yet: py_cache.c) */
        if (!py_ctx_has(ctx, m) || m->state < 0 || !py_module_may_call(ctx->p, m, f->name) ||
            py_module_ensure(ctx->p, m) != 0)
            continue;
        seen++;
        TSNode nodes[16];
        int k = py_module_call_nodes(m, f->name, nodes, 16);
        for (int j = 0; j < k; j++)
            if (call_result_kept(m, nodes[j])) return 1;
    }
    return 0;
}

int py_callers_all_cold(py_ctx *ctx, py_func *f)
{
    const py_sites *s = callers_of(ctx, f);
    if (!s || s->n == 0) return 0;
    for (int i = 0; i < s->n; i++)
        if (!s->cold[i]) return 0;
    return 1;
}

const void *py_compiled_identity(const py_val *v)
{
    if (!(v->flags & PY_VF_COMPILED)) return NULL;
    if (v->kind == PY_V_FUNC) return v->fn;
    if (v->kind == PY_V_INSTANCE) return v->cls;
    return v->qual;
}

/* Where parameter `name` (len bytes) sits in f: *ai its position after self
 * (-1: keyword-only or none), the parameter node returned. */
static TSNode param_named(py_func *f, const char *name, size_t len, int *ai)
{
    TSNode params = py_field(f->node, PY.f_parameters);
    uint32_t np = py_named_child_count(params);
    int pos = 0, kwonly = 0;
    for (uint32_t i = f->cls ? 1 : 0; i < np; i++) {
        TSNode type, def, pn = py_named_child(params, i);
        if (IS(pn, list_splat_pattern) || strcmp(py_type(pn), "keyword_separator") == 0 ||
            (IS(pn, typed_parameter) && IS(py_named_child(pn, 0), list_splat_pattern))) {
            kwonly = 1;
            continue;
        }
        TSNode n = param_parts(pn, &type, &def);
        if (!IS(n, identifier)) continue;
        size_t nl;
        const char *nt = py_text(f->mod, n, &nl);
        if (nl == len && memcmp(nt, name, len) == 0) {
            *ai = kwonly ? -1 : pos;
            return n;
        }
        if (!kwonly) pos++;
    }
    *ai = -1;
    return (TSNode){ 0 };
}

int py_is_param(py_func *f, const char *name, size_t len)
{
    int ai;
    return !f->is_module_body && !py_is_null(param_named(f, name, len, &ai));
}

/* What f's callers pass for parameter `name`: joined; unknown if none. */
static py_val callers_value(py_ctx *ctx, py_func *f, const char *name, size_t len)
{
    int ai;
    if (py_is_null(param_named(f, name, len, &ai))) return py_vk(PY_V_UNKNOWN);
    const py_sites *s = callers_of(ctx, f);
    py_val out = py_vk(PY_V_UNKNOWN);
    for (int i = 0; s && i < s->n; i++) {
        int spread = 0;
        const py_val *v = passed(&s->site[i], ai < 0 ? INT32_MAX : ai, name, len, ai < 0, &spread);
        if (!v) continue;
        py_val pv = *v;
        pv.flags &= ~(uint32_t)(PY_VF_SPREAD | PY_VF_OUTPUT);
        out = py_join(ctx, out, pv);
    }
    return out;
}

py_val *py_lookup(py_ctx *ctx, py_frame *fr, const char *name, size_t len)
{
    py_val *v = cg_map_get(&fr->env, name, len);
    if (!v || !(v->flags & PY_VF_CALLERS)) return v;
    v->flags &= ~(uint32_t)PY_VF_CALLERS;
    /* in a caller's walk, only what it passes on as it is (`capture(model)`) */
    if (!fr->fn || !(ctx->in_watched || (ctx->callers_depth == 0 && (ctx->active || fr->fn == ctx->scan_fn))))
        return v;
    py_val c = callers_value(ctx, fr->fn, name, len);
    if (c.kind != PY_V_UNKNOWN) {
        *v = py_join(ctx, *v, c);
        v->flags |= PY_VF_FROM_CALLERS;
    }
    return v;
}

/* ---- a call expression ---------------------------------------------------------------- */
/* super(): an instance of the first project base of the method's class. */
static py_val super_value(py_ctx *ctx, py_frame *fr)
{
    py_val v = py_vk(PY_V_UNKNOWN);
    if (fr->self.kind == PY_V_INSTANCE) {
        py_class *c = fr->fn && fr->fn->cls ? fr->fn->cls : fr->self.cls;
        py_class_resolve_bases(ctx->p, c);
        if (c && c->nbase > 0) { v = py_vk(PY_V_INSTANCE); v.cls = c->base[0]; }
    }
    return v;
}

/* Member mname of one alternative recv of a receiver: a qualified external
 * name, a module member, a method or attribute of a project instance;
 * unknown when recv's kind says nothing (a method called on a value). */
static py_val member_of(py_ctx *ctx, const py_val *recv, const char *mname)
{
    py_val callee = py_vk(PY_V_UNKNOWN);
    if (recv->kind == PY_V_EXT) {
        callee = py_vext(cg_arena_printf(ctx->arena, "%s.%s", recv->qual, mname));
    } else if (recv->kind == PY_V_MODULE) {
        if (py_module_ensure(ctx->p, recv->mod) == 0)
            callee = py_val_of_sym(ctx, py_resolve_member(ctx->p, recv->mod, mname, strlen(mname)), mname,
                                   strlen(mname));
    } else if (recv->kind == PY_V_INSTANCE) {
        py_func *m = NULL;
        if (py_class_lookup_method_owner(ctx->p, recv->cls, mname, &m)) {
            callee = py_vk(PY_V_FUNC);
            callee.fn = m;
        } else {
            callee = py_val_of_attr(ctx, recv->cls, recv, mname);
            if (callee.kind == PY_V_UNKNOWN) callee = py_vk(PY_V_UNKNOWN);   /* no origin: nothing known */
        }
        if (callee.kind == PY_V_FUNC && !callee.cls) callee.cls = recv->cls;
    }
    return callee;
}

/* The callee of `obj.name(...)`, joined over the receiver's alternatives (a
 * project class's own method wins over a tensor method of that name); else
 * a method call on a value, said in ev (method, recv, recv_node) with an
 * unknown callee. */
static py_val attribute_callee(py_ctx *ctx, py_frame *fr, TSNode fn, py_event *ev)
{
    TSNode obj = py_field(fn, PY.f_object), attr = py_field(fn, PY.f_attribute);
    py_val recv = py_eval(ctx, fr, obj);
    const char *mname = py_ctx_text_dup(ctx, fr->mod, attr);
    py_val callee = py_vk(PY_V_UNKNOWN);
    int found = 0;
    for (const py_val *r = &recv; r; r = r->alt) {
        py_val c = member_of(ctx, r, mname);
        if (c.kind == PY_V_UNKNOWN) continue;
        callee = found ? py_join(ctx, callee, c) : c;
        found = 1;
    }
    if (!found && !(recv.kind == PY_V_CLASS && cg_eq(mname, "__init__"))) {
        ev->method = mname;
        ev->recv = recv;
        ev->recv_node = obj;
    }
    return callee;
}

/* A value read from a tensor, named and used as a size (CG203). */
static void size_use(py_ctx *ctx, py_frame *fr, TSNode a, const py_val *v)
{
    if (!(v->flags & PY_VF_HOSTSCALAR) || !IS(py_unparen(a), identifier)) return;
    py_emit_at(ctx, fr, PY_EV_SIZE_USE, a, *v);
}

/* f(**{"a": x}), f(**kwargs) with known keys: keywords.  Returns 0 when the
 * keys are not all known. */
static int spread_keywords(py_ctx *ctx, const py_val *v, TSNode a, py_event *ev)
{
    if (v->kind != PY_V_DICT || v->alt || !v->keys || v->nitems + ev->nkw > PY_MAX_ARGS) return 0;
    for (int i = 0; i < v->nitems; i++)
        if (!v->keys[i] || strlen(v->keys[i]) < 2 || (v->keys[i][0] != '"' && v->keys[i][0] != '\'')) return 0;
    for (int i = 0; i < v->nitems; i++) {
        ev->kwname[ev->nkw] = cg_arena_strndup(ctx->arena, v->keys[i] + 1, strlen(v->keys[i]) - 2);
        ev->kw[ev->nkw] = v->items[i];
        ev->kwn[ev->nkw++] = a;
    }
    return 1;
}

/* One argument `a` of the call in ev; `sizes`: the call's positional
 * arguments are sizes. */
static void eval_argument(py_ctx *ctx, py_frame *fr, TSNode a, int sizes, py_event *ev)
{
    const py_val *last;
    TSNode at = a;
    if (IS(a, keyword_argument)) {
        TSNode kn = py_field(a, PY.f_name), kv = py_field(a, PY.f_value);
        ctx->size_arg = sizes && (py_text_eq(fr->mod, kn, "size") || py_text_eq(fr->mod, kn, "end"));
        py_val v = py_eval(ctx, fr, kv);
        if (ev->nkw < PY_MAX_ARGS) {
            ev->kwname[ev->nkw] = py_ctx_text_dup(ctx, fr->mod, kn);
            ev->kw[ev->nkw] = v;
            ev->kwn[ev->nkw] = kv;
            ev->nkw++;
        }
        last = &ev->kw[ev->nkw - 1];
        at = kv;
    } else {
        ctx->size_arg = sizes && !IS(a, list_splat) && !IS(a, dictionary_splat);
        py_val v = py_eval(ctx, fr, a);
        if (IS(a, dictionary_splat) && spread_keywords(ctx, &v, a, ev)) {
            ctx->size_arg = 0;
            return;
        }
        /* f(*(a, b)): its elements, spread */
        int n = (v.flags & PY_VF_SPREAD) && v.nitems && !v.alt && IS(a, list_splat) ? v.nitems : 0;
        for (int i = 0; i < n && ev->nargs < PY_MAX_ARGS; i++) {
            ev->args[ev->nargs] = v.items[i];
            ev->argn[ev->nargs++] = a;
        }
        if (!n && ev->nargs < PY_MAX_ARGS) {
            ev->args[ev->nargs] = v;
            ev->argn[ev->nargs] = a;
            ev->nargs++;
        }
        last = &ev->args[ev->nargs - 1];
    }
    if (ctx->size_arg && ctx->active && !ctx->quiet) size_use(ctx, fr, at, last);
    ctx->size_arg = 0;
}

/* The call's arguments into ev (16 positional and 16 keyword at most). */
static void eval_arguments(py_ctx *ctx, py_frame *fr, TSNode args, py_event *ev)
{
    int sizes = py_api_takes_sizes(ev->qual, ev->method);
    int outer_size = ctx->size_arg;
    ev->size_arg = outer_size;
    if (!py_is_null(args) && IS(args, argument_list)) {
        py_kids kids = py_kids_of(args);
        for (TSNode a; !py_is_null(a = py_kids_next(&kids));)
            if (!IS(a, comment)) eval_argument(ctx, fr, a, sizes, ev);
        py_kids_free(&kids);
    } else if (!py_is_null(args)) {
        /* f(x for x in y) */
        ctx->size_arg = 0;
        ev->args[0] = py_eval(ctx, fr, args);
        ev->argn[0] = args;
        ev->nargs = 1;
    }
    ctx->size_arg = outer_size;
}

/* The first byte at or after `at` that is not blank, a line end, a line
 * continuation or a comment; 0 at the end of the text. */
static char next_token_byte(const py_module *m, uint32_t at)
{
    const char *t = m->src.text;
    for (size_t n = m->src.len; at < n;) {
        char c = t[at];
        if (c == '#') {
            while (at < n && t[at] != '\n') at++;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\\') {
            at++;
        } else {
            return c;
        }
    }
    return 0;
}

/* Where the call's result goes: straight to the GPU (torch.tensor(x).cuda(),
 * CG305) or into a print/log call that formats it anyway. */
static void result_use(py_frame *fr, TSNode call, py_event *ev)
{
    /* Only an attribute (`call.x`: a `.` next) or an argument list (`, ` or
     * `)` next) matters.  tree-sitter finds a node's parent by walking down
     * from the root, a large share of evaluating the calls of a long file:
     * the text says first whether it can be either, when the tree has no
     * error (where error recovery may have grouped the nodes otherwise). */
    if (fr->mod->tree && !py_has_error(ts_tree_root_node(fr->mod->tree))) {
        char c = next_token_byte(fr->mod, py_end_byte(call));
        if (c != '.' && c != ',' && c != ')') return;
    }
    TSNode parent = py_parent(call);
    if (IS(parent, attribute)) {
        TSNode gp = py_parent(parent);
        TSNode pa = py_field(parent, PY.f_attribute);
        if (IS(gp, call) && (py_text_eq(fr->mod, pa, "cuda") || py_text_eq(fr->mod, pa, "to")))
            ev->chained_to_device = 1;
        if (IS(gp, call) && py_text_eq(fr->mod, pa, "pin_memory")) ev->chained_to_pin = 1;
        /* torch.tensor([], dtype=d).element_size(): only the dtype's facts are read */
        static const char *const meta[] = { "element_size", "itemsize", "dtype", "is_floating_point",
                                            "is_complex", "is_signed", NULL };
        size_t al;
        const char *at = py_text(fr->mod, pa, &al);
        for (int i = 0; meta[i]; i++)
            if (strlen(meta[i]) == al && memcmp(at, meta[i], al) == 0) ev->only_meta = 1;
    }
    if (IS(parent, argument_list)) {
        TSNode gp = py_parent(parent);
        if (IS(gp, call)) {
            size_t l;
            const char *t = py_text(fr->mod, py_field(gp, PY.f_function), &l);
            if ((l == 5 && memcmp(t, "print", 5) == 0) || (l > 5 && (memmem(t, l, "log", 3) != NULL)))
                ev->consumed_by_print = 1;
        }
    }
}

/* checkpoint(fn, *args) runs fn: follow it, in capture context. */
static int follow_checkpoint(py_ctx *ctx, py_frame *fr, const py_event *ev, TSNode call)
{
    if (!(cg_eq(ev->qual, "torch.utils.checkpoint.checkpoint") || cg_eq(ev->qual, "torch.utils.checkpoint")) ||
        ev->nargs == 0 || !ctx->active)
        return 0;
    const py_val *fn = &ev->args[0];
    py_args a = py_args_pos(ev->args + 1, ev->nargs - 1);
    if (fn->kind == PY_V_FUNC) py_call_function(ctx, fr, call, fn->fn, NULL, &a, 0);
    else if (fn->kind == PY_V_INSTANCE) py_call_instance(ctx, fr, call, fn->cls, fn, &a);
    return 1;
}

/* Does project class c (an optimizer) say `_step_supports_amp_scaling = True`
 * (in its body or a method): GradScaler.step hands it the scale instead of
 * reading found_inf on the host? */
static int amp_scaling_class(py_ctx *ctx, py_class *c)
{
    py_attr *a = py_class_attr(ctx->p, c, "_step_supports_amp_scaling");
    return a && (a->bools_init | a->bools_out) == PY_AB_TRUE;
}

/* Calling one alternative of a callee; *known is 0 when its kind says nothing. */
static py_val callee_result_one(py_ctx *ctx, py_frame *fr, const py_event *ev, const py_val *callee, TSNode call,
                                int *known)
{
    py_args args = { ev->args, ev->nargs, ev->kwname, ev->kw, ev->nkw };
    *known = 1;
    switch (callee->kind) {
    case PY_V_EXT: {
        if (cg_eq(callee->qual, ev->qual)) return py_api_call_result(ctx, fr, ev, call);
        py_event other = *ev;   /* another alternative: `(Adam if c else SGD)(...)` */
        other.qual = callee->qual;
        return py_api_call_result(ctx, fr, &other, call);
    }
    case PY_V_FUNC: {
        py_val self = py_vk(PY_V_UNKNOWN);
        if (callee->cls) { self = py_vk(PY_V_INSTANCE); self.cls = callee->cls; }
        ctx->call_closure = callee->closure;
        py_val r = py_call_function(ctx, fr, call, callee->fn, callee->cls ? &self : NULL, &args, 0);
        ctx->call_closure = NULL;
        return r;
    }
    case PY_V_CLASS: {
        py_val inst = py_vk(PY_V_INSTANCE);
        inst.cls = callee->cls;
        if (amp_scaling_class(ctx, callee->cls)) inst.flags |= PY_VF_AMP_SCALING;
        py_func *init = NULL;
        if (ctx->active && py_class_lookup_method_owner(ctx->p, callee->cls, "__init__", &init))
            py_call_function(ctx, fr, call, init, &inst, &args, 0);
        return inst;
    }
    case PY_V_INSTANCE: return py_call_instance(ctx, fr, call, callee->cls, callee, &args);
    case PY_V_MODLIST:
        for (int i = 0; i < callee->nelems; i++) {
            py_val inst = py_vk(PY_V_INSTANCE);
            inst.cls = callee->elems[i];
            py_call_instance(ctx, fr, call, callee->elems[i], &inst, &args);
        }
        return (callee->flags & PY_VF_OPAQUE_CALL) ? py_vk(PY_V_UNKNOWN) : py_vtensor(PY_DEV_UNKNOWN);
    case PY_V_EXTOBJ:
        return cg_starts(callee->qual, "torch.nn.") ? py_vtensor(PY_DEV_UNKNOWN) : py_vk(PY_V_UNKNOWN);
    default:
        *known = 0;
        return py_vk(PY_V_UNKNOWN);
    }
}

/* Could f (a method: its first parameter is self) take these arguments?
 * No when a parameter without a default gets nothing, or a keyword names
 * no parameter of a function without **kwargs; a spread may fill anything. */
static int args_fit(py_func *f, const py_args *a)
{
    for (int i = 0; i < a->npos; i++)
        if (a->pos[i].flags & PY_VF_SPREAD) return 1;
    TSNode params = py_field(f->node, PY.f_parameters);
    uint32_t np = py_named_child_count(params);
    int ai = 0, kwonly = 0, kwstar = 0, matched = 0;
    for (uint32_t i = f->cls ? 1 : 0; i < np; i++) {
        TSNode type, def, pn = py_named_child(params, i);
        if (IS(pn, typed_parameter) && !IS(py_named_child(pn, 0), identifier)) pn = py_named_child(pn, 0);
        if (IS(pn, list_splat_pattern) || strcmp(py_type(pn), "keyword_separator") == 0) {
            kwonly = 1;
            if (IS(pn, list_splat_pattern)) ai = a->npos;
            continue;
        }
        if (IS(pn, dictionary_splat_pattern)) kwstar = 1;
        TSNode name = param_parts(pn, &type, &def);
        if (!IS(name, identifier)) continue;
        size_t nl;
        const char *nt = py_text(f->mod, name, &nl);
        int by_kw = 0;
        for (int k = 0; k < a->nkw; k++)
            if (a->kwname[k] && strlen(a->kwname[k]) == nl && memcmp(a->kwname[k], nt, nl) == 0) by_kw = 1;
        matched += by_kw;
        int by_pos = !kwonly && ai < a->npos;
        if (!kwonly) ai++;
        if (!by_pos && !by_kw && py_is_null(def)) return 0;
    }
    return kwstar || matched >= a->nkw;
}

/* The function calling alternative c runs (a class's __init__, an
 * instance's __call__ or forward), or NULL. */
static py_func *function_called(py_ctx *ctx, const py_val *c)
{
    py_func *f = NULL;
    if (c->kind == PY_V_FUNC) return c->fn;
    if (c->kind == PY_V_CLASS) py_class_lookup_method_owner(ctx->p, c->cls, "__init__", &f);
    if (c->kind == PY_V_INSTANCE && !py_class_lookup_method_owner(ctx->p, c->cls, "__call__", &f))
        py_class_lookup_method_owner(ctx->p, c->cls, "forward", &f);
    return f;
}

/* Calling a callee: each of its alternatives, their results joined.  Of
 * several, one the arguments cannot bind is not what the code calls (a
 * union from a helper that builds one of four modules, called with what
 * only three take). */
static py_val callee_result(py_ctx *ctx, py_frame *fr, const py_event *ev, const py_val *callee, TSNode call,
                            int *known)
{
    py_args args = { ev->args, ev->nargs, ev->kwname, ev->kw, ev->nkw };
    int fit[PY_MAX_ALTS + 1], nfit = 0, n = 0;
    for (const py_val *a = callee; a && n <= PY_MAX_ALTS; a = a->alt, n++) {
        py_func *f = callee->alt ? function_called(ctx, a) : NULL;
        fit[n] = !f || args_fit(f, &args);
        nfit += fit[n];
    }
    *known = 0;
    py_val out = py_vk(PY_V_UNKNOWN);
    n = 0;
    for (const py_val *a = callee; a && n <= PY_MAX_ALTS; a = a->alt, n++) {
        if (nfit && !fit[n]) continue;
        int k;
        py_val r = callee_result_one(ctx, fr, ev, a, call, &k);
        if (k) out = *known ? py_join(ctx, out, r) : r;
        *known |= k;
    }
    return out;
}

/* A method called on a value (ev->method, ev->recv). */
static py_val method_result(py_ctx *ctx, py_frame *fr, const py_event *ev)
{
    const py_val *r = &ev->recv;
    if (r->kind == PY_V_TENSOR || r->kind == PY_V_UNKNOWN || r->kind == PY_V_NDARRAY)
        return py_api_tensor_method(ctx, fr, ev);
    if ((r->kind == PY_V_INSTANCE || r->kind == PY_V_MODLIST ||
         (r->kind == PY_V_EXTOBJ && cg_starts(r->qual, "torch.nn."))) &&
        py_api_module_method_keeps_self(ev->method))
        return *r;
    if (r->kind == PY_V_STREAM && cg_eq(ev->method, "wait_stream")) return py_vk(PY_V_NONE);
    if (r->kind == PY_V_DICT &&
        (cg_eq(ev->method, "items") || cg_eq(ev->method, "keys") || cg_eq(ev->method, "values")))
        return py_vk(PY_V_LIST);
    return py_vk(PY_V_UNKNOWN);
}

py_val py_eval_call(py_ctx *ctx, py_frame *fr, TSNode call)
{
    py_event ev;
    py_event_init(&ev, PY_EV_CALL, fr->mod, call);
    TSNode fn = py_unparen(py_field(call, PY.f_function));
    if (IS(fn, identifier) && py_text_eq(fr->mod, fn, "super")) return super_value(ctx, fr);
    py_val callee = IS(fn, attribute) ? attribute_callee(ctx, fr, fn, &ev) : py_eval(ctx, fr, fn);
    if (callee.kind == PY_V_EXT) ev.qual = callee.qual;
    ev.callee = callee;
    int watched = !py_is_null(ctx->watch) && py_eq(call, ctx->watch);
    ctx->in_watched += watched;
    eval_arguments(ctx, fr, py_field(call, PY.f_arguments), &ev);
    ctx->in_watched -= watched;
    if (watched) note_watched(ctx, &ev, &callee, !fr->warm && fr->built_module);
    /* self.register_buffer("name", t) / register_parameter: self.name is a tensor */
    if (ctx->watch_attr && ev.method && ev.nargs >= 1 && IS(ev.argn[0], string) &&
        (cg_eq(ev.method, "register_buffer") || cg_eq(ev.method, "register_parameter")) &&
        IS(ev.recv_node, identifier) && fr->self_name) {
        size_t sl, rl;
        const char *st = py_text(fr->mod, ev.argn[0], &sl), *rt = py_text(fr->mod, ev.recv_node, &rl);
        if (ctx->watch_attr_all && sl >= 2 && fr->fn == ctx->watch_attr_fn && rl == fr->self_len &&
            memcmp(rt, fr->self_name, rl) == 0 && (st[0] == '"' || st[0] == '\'') && st[sl - 1] == st[0])
            note_store_all(ctx, st + 1, sl - 2, py_vtensor(PY_DEV_UNKNOWN));
        size_t nl = ctx->watch_attr_all ? (size_t)-1 : strlen(ctx->watch_attr);
        if (sl == nl + 2 && memcmp(st + 1, ctx->watch_attr, nl) == 0 && fr->fn == ctx->watch_attr_fn &&
            rl == fr->self_len && memcmp(rt, fr->self_name, rl) == 0)
            *ctx->watch_attr_val = join_stores(ctx, *ctx->watch_attr_val, py_vtensor(PY_DEV_UNKNOWN));
    }

    /* Python numbers handed to tensor math (CG304) */
    if (py_api_is_tensor_math(&ev)) {
        for (int i = 0; i < ev.nargs; i++) py_scalar_math(ctx, fr, ev.argn[i], &ev.args[i]);
        for (int i = 0; i < ev.nkw; i++) py_scalar_math(ctx, fr, ev.kwn[i], &ev.kw[i]);
    }
    result_use(fr, call, &ev);

    py_val out;
    if (py_region_open_call(ctx, fr, &ev, call, &out)) return out;
    py_emit(ctx, &ev);
    py_region_note_call(ctx, fr, &ev, &callee, call);
    if (follow_checkpoint(ctx, fr, &ev, call)) return py_vtensor(PY_DEV_UNKNOWN);

    /* a project logger writes to the host; what it does inside is its own */
    if (callee.kind == PY_V_FUNC && !callee.alt && py_api_is_log_method(callee.fn)) return py_vk(PY_V_NONE);
    /* the call's result, following project code in capture context */
    int known;
    out = callee_result(ctx, fr, &ev, &callee, call, &known);
    if (known || !ev.method) return out;
    return method_result(ctx, fr, &ev);
}
