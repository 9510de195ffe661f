/* py_expr.c - expressions: what each one is (a py_val), and the events the
 * rules see while one is evaluated.
 *
 * py_eval() dispatches on the node's grammar symbol to one function per kind
 * of expression.  Events raised here: PY_EV_COND (Python converts a value to
 * bool), PY_EV_SCALAR_MATH (a Python number meets a tensor), PY_EV_FORMAT
 * (an f-string interpolation), PY_EV_SUBSCRIPT and PY_EV_SIZE_USE; calls are
 * py_call.c's.  When the evaluator cannot tell what a value is it says
 * PY_V_UNKNOWN, and the rules stay silent on unknowns except for methods
 * only tensors have. */
#include "py_eval.h"
#include <stdio.h>
#include <string.h>

/* ---- values: one of several, and elements ----------------------------------------------
 * A value may be one of several (py_val.alt): both arms of a conditional,
 * what every call site passes, every assignment of an attribute.  py_join
 * keeps one alternative per identity (a class, a function, an external
 * name; one tensor, one number...), most telling first: the rules read
 * the first.  An unknown or None alternative says nothing when another is
 * known and is dropped; unknown beside None stays unknown. */
static int rank_of(int kind)
{
    switch (kind) {
    case PY_V_INSTANCE: case PY_V_MODLIST: return 9;
    case PY_V_CLASS: case PY_V_FUNC: return 8;
    case PY_V_TENSOR: return 7;
    case PY_V_STREAM: case PY_V_EVENT: case PY_V_GUARD: case PY_V_EXTOBJ: return 6;
    case PY_V_EXT: case PY_V_MODULE: return 5;
    case PY_V_NDARRAY: return 4;
    case PY_V_LIST: case PY_V_DICT: case PY_V_TUPLE: case PY_V_SET: return 3;
    case PY_V_NUMBER: case PY_V_STR: return 2;
    case PY_V_NONE: return 1;
    default: return 0;
    }
}

static int same_identity(const py_val *a, const py_val *b)
{
    if (a->kind != b->kind || a->cls != b->cls || a->fn != b->fn || a->mod != b->mod) return 0;
    if ((a->qual || b->qual) && !(a->qual && b->qual && strcmp(a->qual, b->qual) == 0)) return 0;
    if (a->kind == PY_V_MODLIST &&
        (a->nelems != b->nelems || memcmp(a->elems, b->elems, a->nelems * sizeof *a->elems) != 0))
        return 0;
    return 1;
}

/* Two values of one identity: what both say. */
static py_val merge_same(py_ctx *ctx, py_val a, const py_val *b)
{
    if (a.dev != b->dev) a.dev = PY_DEV_UNKNOWN;
    /* `True` or `False`: a bool, which one not known */
    if (a.lit && !(b->lit && strcmp(a.lit, b->lit) == 0)) a.lit = NULL;
    a.flags &= b->flags;
    if (!a.origin && b->origin) {
        a.origin = b->origin;
        a.oname = b->oname;
        a.ofn = b->ofn;
        a.ocls = b->ocls;
        a.omod = b->omod;
    }
    if (a.keys != b->keys) a.keys = NULL;
    if (a.nitems && a.nitems == b->nitems) {
        py_val *items = cg_arena_alloc(ctx->arena, a.nitems * sizeof *items);
        for (int i = 0; i < a.nitems; i++) items[i] = py_join(ctx, a.items[i], b->items[i]);
        a.items = items;
    } else {
        a.items = NULL;
        a.keys = NULL;
        a.nitems = 0;
    }
    return a;
}

static void add_alt(py_ctx *ctx, py_val *alts, int *n, py_val x)
{
    x.alt = NULL;
    for (int i = 0; i < *n; i++)
        if (same_identity(&alts[i], &x)) {
            alts[i] = merge_same(ctx, alts[i], &x);
            return;
        }
    if (*n < PY_MAX_ALTS) alts[(*n)++] = x;
}

py_val py_join(py_ctx *ctx, py_val a, py_val b)
{
    if (!a.alt && !b.alt && same_identity(&a, &b)) return merge_same(ctx, a, &b);
    py_val alts[PY_MAX_ALTS];
    int n = 0, known = 0, unknown = 0;
    for (const py_val *v = &a; v; v = v->alt) add_alt(ctx, alts, &n, *v);
    for (const py_val *v = &b; v; v = v->alt) add_alt(ctx, alts, &n, *v);
    for (int i = 0; i < n; i++) {
        known += rank_of(alts[i].kind) > 1;
        unknown += alts[i].kind == PY_V_UNKNOWN;
    }
    if (!known) return py_vk(unknown ? PY_V_UNKNOWN : PY_V_NONE);
    /* the known ones, most telling first (stable); a literal beside a value
     * dropped here (unknown, None) is no longer the only thing it may be */
    int m = 0;
    for (int i = 0; i < n; i++)
        if (rank_of(alts[i].kind) > 1) alts[m++] = alts[i];
    if (m < n)
        for (int i = 0; i < m; i++) alts[i].lit = NULL;
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && rank_of(alts[j].kind) > rank_of(alts[j - 1].kind); j--) {
            py_val t = alts[j];
            alts[j] = alts[j - 1];
            alts[j - 1] = t;
        }
    if (m == 1) return alts[0];
    py_val *rest = cg_arena_alloc(ctx->arena, (size_t)(m - 1) * sizeof *rest);
    for (int i = 1; i < m; i++) {
        rest[i - 1] = alts[i];
        rest[i - 1].alt = i + 1 < m ? &rest[i] : NULL;
    }
    alts[0].alt = rest;
    return alts[0];
}

py_val py_seq(py_ctx *ctx, int kind, const py_val *items, int n)
{
    py_val v = py_vk(kind);
    if (n <= 0 || n > 0xffff) return v;
    py_val *copy = cg_arena_alloc(ctx->arena, (size_t)n * sizeof *copy);
    memcpy(copy, items, (size_t)n * sizeof *copy);
    v.items = copy;
    v.nitems = (uint16_t)n;
    return v;
}

/* One alternative of py_unpack. */
static py_val unpack_one(py_ctx *ctx, const py_val *v, int i, int n, int star)
{
    if (v->kind == PY_V_TENSOR) return i == star ? py_vk(PY_V_LIST) : py_vtensor(v->dev);
    if (!v->nitems || (star < 0 && v->nitems != n) || (star >= 0 && v->nitems < n - 1))
        return i == star ? py_vk(PY_V_LIST) : py_vk(PY_V_UNKNOWN);
    if (star < 0 || i < star) return v->items[i];
    if (i > star) return v->items[v->nitems - (n - i)];
    return py_seq(ctx, PY_V_LIST, v->items + star, v->nitems - (n - 1));
}

py_val py_unpack(py_ctx *ctx, const py_val *v, int i, int n, int star)
{
    py_val out = unpack_one(ctx, v, i, n, star);
    for (const py_val *a = v->alt; a; a = a->alt) out = py_join(ctx, out, unpack_one(ctx, a, i, n, star));
    return out;
}

/* ---- literals: values known exactly ---------------------------------------------------- */
static int has_lit(const py_val *v)
{
    for (; v; v = v->alt)
        if (v->lit) return 1;
    return 0;
}

py_val py_nolit(py_ctx *ctx, py_val v)
{
    if (!has_lit(&v)) return v;
    v.lit = NULL;
    if (!has_lit(v.alt)) return v;
    int n = 0;
    for (const py_val *a = v.alt; a; a = a->alt) n++;
    py_val *rest = cg_arena_alloc(ctx->arena, (size_t)n * sizeof *rest);
    int i = 0;
    for (const py_val *a = v.alt; a; a = a->alt, i++) {
        rest[i] = *a;
        rest[i].lit = NULL;
        rest[i].alt = i + 1 < n ? &rest[i + 1] : NULL;
    }
    v.alt = rest;
    return v;
}

/* The text of a plain string literal ('x', "x", r"x", a triple-quoted one):
 * no prefix but r/u (an f-string is not one), no backslash; NULL otherwise. */
static const char *string_lit(py_ctx *ctx, py_module *m, TSNode n)
{
    size_t len;
    const char *t = py_text(m, n, &len);
    size_t p = 0;
    while (p < len && (t[p] == 'r' || t[p] == 'R' || t[p] == 'u' || t[p] == 'U')) p++;
    if (p >= len || (t[p] != '"' && t[p] != '\'')) return NULL;
    size_t q = len - p >= 6 && t[p + 1] == t[p] && t[p + 2] == t[p] ? 3 : 1;
    if (len < p + 2 * q) return NULL;
    const char *c = t + p + q;
    size_t cl = len - p - 2 * q;
    if (memchr(c, '\\', cl) || cl > 200) return NULL;
    return cg_arena_strndup(ctx->arena, c, cl);
}

py_val py_literal(py_ctx *ctx, py_module *m, TSNode n)
{
    TSSymbol s = py_symbol(n);
    if (s == PY.true_ || s == PY.false_) {
        py_val v = py_vk(PY_V_NUMBER);
        v.lit = s == PY.true_ ? "True" : "False";
        return v;
    }
    if (s == PY.integer) {
        py_val v = py_vk(PY_V_NUMBER);
        size_t len;
        const char *t = py_text(m, n, &len);
        int dec = len > 0 && len < 19 && (len == 1 || t[0] != '0');
        for (size_t i = 0; dec && i < len; i++) dec = t[i] >= '0' && t[i] <= '9';
        if (dec) v.lit = cg_arena_strndup(ctx->arena, t, len);
        return v;
    }
    if (s == PY.float_) return py_vk(PY_V_NUMBER);
    if (s == PY.none) return py_vk(PY_V_NONE);
    if (s == PY.string) {
        py_val v = py_vk(PY_V_STR);
        v.lit = string_lit(ctx, m, n);
        return v;
    }
    return py_vk(PY_V_UNKNOWN);
}

/* A literal's truth: +1, -1; 0 when v is not (only) literals of one truth. */
static int val_truth(const py_val *v)
{
    int out = 0;
    for (const py_val *a = v; a; a = a->alt) {
        int t;
        if (a->kind == PY_V_NONE) t = -1;
        else if (!a->lit) return 0;
        else if (a->kind == PY_V_NUMBER) t = strcmp(a->lit, "False") == 0 || strcmp(a->lit, "0") == 0 ? -1 : 1;
        else if (a->kind == PY_V_STR) t = a->lit[0] ? 1 : -1;
        else return 0;
        if (out && t != out) return 0;
        out = t;
    }
    return out;
}

/* a == b for two single values: +1, -1, 0 (not known).  True == 1, False == 0. */
static int lit_eq1(const py_val *a, const py_val *b)
{
    if (a->kind == PY_V_NONE || b->kind == PY_V_NONE) {
        if (a->kind == PY_V_NONE && b->kind == PY_V_NONE) return 1;
        return (a->kind == PY_V_NONE ? b : a)->lit ? -1 : 0;
    }
    if (!a->lit || !b->lit) return 0;
    if (a->kind != b->kind) return (a->kind == PY_V_STR) != (b->kind == PY_V_STR) ? -1 : 0;
    if (a->kind == PY_V_STR) return strcmp(a->lit, b->lit) == 0 ? 1 : -1;
    const char *x = strcmp(a->lit, "True") == 0 ? "1" : strcmp(a->lit, "False") == 0 ? "0" : a->lit;
    const char *y = strcmp(b->lit, "True") == 0 ? "1" : strcmp(b->lit, "False") == 0 ? "0" : b->lit;
    return strcmp(x, y) == 0 ? 1 : -1;
}

/* ...over every alternative of each: one answer, or 0. */
static int lit_eq(const py_val *a, const py_val *b)
{
    int out = 0;
    for (const py_val *x = a; x; x = x->alt)
        for (const py_val *y = b; y; y = y->alt) {
            int e = lit_eq1(x, y);
            if (!e || (out && e != out)) return 0;
            out = e;
        }
    return out;
}

/* A leaf of a decidable condition: a name or a literal (its value in *v). */
static int const_leaf(py_ctx *ctx, py_frame *fr, TSNode n, py_val *v)
{
    n = py_unparen(n);
    if (IS(n, identifier)) {
        *v = py_eval_quiet(ctx, fr, n);
        return 1;
    }
    *v = py_literal(ctx, fr->mod, n);
    return v->kind != PY_V_UNKNOWN;
}

/* `x in ("a", "b")`: +1, -1 or 0. */
static int const_in(py_ctx *ctx, py_frame *fr, const py_val *x, TSNode seq)
{
    seq = py_unparen(seq);
    if (!(IS(seq, tuple) || IS(seq, list) || IS(seq, set))) return 0;
    uint32_t k = py_named_child_count(seq);
    if (k == 0 || k > 16) return 0;
    int any_unknown = 0;
    for (uint32_t i = 0; i < k; i++) {
        py_val e = py_literal(ctx, fr->mod, py_named_child(seq, i));
        int eq = lit_eq(x, &e);
        if (eq == 1) return 1;
        if (eq == 0) any_unknown = 1;
    }
    return any_unknown ? 0 : -1;
}

int py_const_truth(py_ctx *ctx, py_frame *fr, TSNode c)
{
    c = py_unparen(c);
    if (IS(c, not_operator)) return -py_const_truth(ctx, fr, py_field(c, PY.f_argument));
    if (IS(c, boolean_operator)) {
        int l = py_const_truth(ctx, fr, py_field(c, PY.f_left));
        int r = py_const_truth(ctx, fr, py_field(c, PY.f_right));
        if (py_text_eq(fr->mod, py_field(c, PY.f_operator), "and"))
            return l == -1 || r == -1 ? -1 : l == 1 ? r : 0;
        return l == 1 || r == 1 ? 1 : l == -1 ? r : 0;
    }
    py_val a, b;
    if (IS(c, comparison_operator) && py_named_child_count(c) == 2 && py_child_count(c) == 3) {
        const char *op = py_type(py_child(c, 1));
        if (!const_leaf(ctx, fr, py_named_child(c, 0), &a)) return 0;
        if (strcmp(op, "in") == 0) return const_in(ctx, fr, &a, py_named_child(c, 1));
        if (strcmp(op, "not in") == 0) return -const_in(ctx, fr, &a, py_named_child(c, 1));
        int eq = strcmp(op, "==") == 0, ne = strcmp(op, "!=") == 0;
        /* `x is None`, `x is not None`: identity with None is equality with it */
        int is = strcmp(op, "is") == 0, is_not = strcmp(op, "is not") == 0;
        if ((!eq && !ne && !is && !is_not) || !const_leaf(ctx, fr, py_named_child(c, 1), &b)) return 0;
        if ((is || is_not) && !IS(py_unparen(py_named_child(c, 1)), none)) return 0;
        int e = lit_eq(&a, &b);
        return eq || is ? e : -e;
    }
    if (IS(c, identifier) || IS(c, true_) || IS(c, false_) || IS(c, integer) || IS(c, string) || IS(c, none))
        return const_leaf(ctx, fr, c, &a) ? val_truth(&a) : 0;
    return 0;
}

/* ---- events ------------------------------------------------------------------------- */
void py_emit_at(py_ctx *ctx, py_frame *fr, py_event_kind k, TSNode n, py_val v)
{
    py_event ev;
    py_event_init(&ev, k, fr->mod, n);
    ev.val = v;
    py_emit(ctx, &ev);
}

py_val py_eval_cond(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode u = py_unparen(n);
    if (IS(u, boolean_operator)) {
        py_eval_cond(ctx, fr, py_field(u, PY.f_left));
        py_eval_cond(ctx, fr, py_field(u, PY.f_right));
        return py_vk(PY_V_NUMBER);
    }
    if (IS(u, not_operator)) {
        py_eval_cond(ctx, fr, py_field(u, PY.f_argument));
        return py_vk(PY_V_NUMBER);
    }
    py_val v = py_eval(ctx, fr, u);
    py_emit_at(ctx, fr, PY_EV_COND, u, v);
    return v;
}

void py_scalar_math(py_ctx *ctx, py_frame *fr, TSNode num, const py_val *v)
{
    if (v->kind != PY_V_NUMBER || v->origin == PY_O_NONE || (v->flags & PY_VF_HOSTSCALAR)) return;
    py_emit_at(ctx, fr, PY_EV_SCALAR_MATH, num, *v);
}

py_val py_eval_quiet(py_ctx *ctx, py_frame *fr, TSNode n)
{
    int q = ctx->quiet;
    ctx->quiet = 1;
    py_val v = py_eval(ctx, fr, n);
    ctx->quiet = q;
    return v;
}

/* ---- one function per kind of expression ------------------------------------------------ */
static py_val eval_identifier(py_ctx *ctx, py_frame *fr, TSNode n)
{
    size_t len;
    const char *t = py_text(fr->mod, n, &len);
    py_val *v = py_lookup(ctx, fr, t, len);
    if (v) {
        py_region_note_input(ctx, fr, n, v);
        return *v;
    }
    if (fr->self_name && len == fr->self_len && memcmp(t, fr->self_name, len) == 0) return fr->self;
    /* a nested def sees the bindings of the defs around it (closures) */
    /* (a literal there may be rebound after the def, or by another module) */
    const py_val *ov = py_closure_lookup(fr, t, len);
    if (ov) return py_nolit(ctx, *ov);
    return py_nolit(ctx, py_val_of_sym(ctx, py_resolve_name(ctx->p, fr->mod, t, len), t, len));
}

static py_val eval_binary(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode l = py_field(n, PY.f_left), r = py_field(n, PY.f_right);
    py_val a = py_eval(ctx, fr, l), b = py_eval(ctx, fr, r);
    TSNode op = py_field(n, PY.f_operator);
    if (a.kind == PY_V_TENSOR || b.kind == PY_V_TENSOR) {
        /* math on a CPU tensor runs on the host, not in the graph (CG305 speaks of those) */
        if (a.kind == PY_V_TENSOR && a.dev != PY_DEV_CPU) py_scalar_math(ctx, fr, r, &b);
        if (b.kind == PY_V_TENSOR && b.dev != PY_DEV_CPU) py_scalar_math(ctx, fr, l, &a);
        py_val out = py_vtensor(a.kind == PY_V_TENSOR ? a.dev : b.dev);
        if ((py_text_eq(fr->mod, op, "&") || py_text_eq(fr->mod, op, "|") || py_text_eq(fr->mod, op, "^")) &&
            ((a.flags & PY_VF_BOOL) || (b.flags & PY_VF_BOOL)))
            out.flags |= PY_VF_BOOL;
        py_region_note_grad_op(ctx, fr, n, a.flags | b.flags, &out);
        return out;
    }
    if (a.kind == PY_V_NDARRAY || b.kind == PY_V_NDARRAY) return py_vk(PY_V_NDARRAY);
    if (a.kind == PY_V_NUMBER && b.kind == PY_V_NUMBER) {
        /* keep an origin so `lr * 0.5` still names lr */
        py_val out = a.origin ? a : b.origin ? b : py_vk(PY_V_NUMBER);
        py_val num = py_vk(PY_V_NUMBER);
        num.flags = (a.flags | b.flags) & (PY_VF_HOSTSCALAR | PY_VF_LOOPVAR);
        num.origin = out.origin;
        num.oname = out.oname;
        num.ofn = out.ofn;
        num.ocls = out.ocls;
        num.omod = out.omod;
        num.ctor = out.ctor;
        /* computed in the capture from a number with an origin: CG304 reports here */
        if (num.origin && ctx->active && py_is_null(num.ctor)) num.ctor = n;
        return num;
    }
    if (a.kind == PY_V_STR || b.kind == PY_V_STR) {
        /* "%s" % t formats a tensor */
        py_val out = py_vk(PY_V_STR);
        if (a.kind == PY_V_STR && py_text_eq(fr->mod, op, "%") && b.kind == PY_V_TENSOR) out.flags |= PY_VF_FMT_TENSOR;
        return out;
    }
    if (a.kind == PY_V_LIST && b.kind == PY_V_LIST) return py_vk(PY_V_LIST);
    py_val out = py_vk(PY_V_UNKNOWN);
    out.flags = (a.flags | b.flags) & PY_VF_HOSTSCALAR;
    return out;
}

/* obj.attr on a project instance: a bound method, or what the class stores there. */
static py_val instance_attribute(py_ctx *ctx, py_frame *fr, TSNode n, TSNode obj, const py_val *o,
                                 const char *a, size_t al)
{
    char *name = cg_arena_strndup(ctx->arena, a, al);
    py_func *m = NULL;
    if (py_class_lookup_method_owner(ctx->p, o->cls, name, &m)) {
        py_val v = py_vk(PY_V_FUNC);
        v.fn = m;
        v.cls = o->cls;
        return v;
    }
    py_val av = py_val_of_attr(ctx, o->cls, o, name);
    if (IS(obj, identifier) && fr->self_name && py_text_eq(fr->mod, obj, "self")) {
        py_region_note_input(ctx, fr, n, &av);
        if (py_region_attr_is_output(ctx, fr, n)) {
            if (av.kind == PY_V_UNKNOWN) av = py_vtensor(PY_DEV_CUDA);
            av.flags |= PY_VF_OUTPUT;
        }
    }
    return av;
}

/* Attribute a (al bytes) of one alternative o of the object at node obj. */
static py_val attribute_of(py_ctx *ctx, py_frame *fr, TSNode n, TSNode obj, const py_val *o, const char *a,
                           size_t al)
{
    switch (o->kind) {
    case PY_V_EXT: return py_vext(cg_arena_printf(ctx->arena, "%s.%.*s", o->qual, (int)al, a));
    case PY_V_MODULE:
        if (py_module_ensure(ctx->p, o->mod) != 0) return py_vk(PY_V_UNKNOWN);
        return py_val_of_sym(ctx, py_resolve_member(ctx->p, o->mod, a, al), a, al);
    case PY_V_INSTANCE: return instance_attribute(ctx, fr, n, obj, o, a, al);
    case PY_V_TENSOR: return py_api_tensor_attr(o, a, al);
    case PY_V_NDARRAY: return py_vk(PY_V_NDARRAY);
    default: return py_vk(PY_V_UNKNOWN);
    }
}

static py_val eval_attribute(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode obj = py_field(n, PY.f_object), attr = py_field(n, PY.f_attribute);
    py_val o = py_eval(ctx, fr, obj);
    size_t al;
    const char *a = py_text(fr->mod, attr, &al);
    py_val out = attribute_of(ctx, fr, n, obj, &o, a, al);
    for (const py_val *alt = o.alt; alt; alt = alt->alt)
        out = py_join(ctx, out, attribute_of(ctx, fr, n, obj, alt, a, al));
    return out;
}

/* An element of one alternative of py_element_of. */
static py_val element_one(py_ctx *ctx, const py_val *it, int keep_modlist)
{
    if (it->kind == PY_V_MODLIST && it->nelems == 1) {
        py_val el = py_vk(PY_V_INSTANCE);
        el.cls = it->elems[0];
        return el;
    }
    if (it->kind == PY_V_MODLIST && keep_modlist) {   /* several classes: a call reaches each */
        py_val l = *it;
        l.alt = NULL;
        return l;
    }
    if (it->kind == PY_V_MODLIST) {
        py_val out = py_vk(PY_V_UNKNOWN);
        for (int i = 0; i < it->nelems; i++) {
            py_val el = py_vk(PY_V_INSTANCE);
            el.cls = it->elems[i];
            out = i ? py_join(ctx, out, el) : el;
        }
        return out;
    }
    if (it->kind == PY_V_EXTOBJ && cg_eq(it->qual, "builtins.range")) return py_vk(PY_V_NUMBER);
    if (it->kind == PY_V_TENSOR) return py_vtensor(it->dev);
    if (it->nitems) {
        py_val out = it->items[0];
        for (int i = 1; i < it->nitems; i++) out = py_join(ctx, out, it->items[i]);
        return out;
    }
    return py_vk(PY_V_UNKNOWN);
}

py_val py_element_of(py_ctx *ctx, const py_val *it, int keep_modlist)
{
    py_val out = element_one(ctx, it, keep_modlist);
    for (const py_val *a = it->alt; a; a = a->alt) out = py_join(ctx, out, element_one(ctx, a, keep_modlist));
    return out;
}

static py_val eval_comprehension(py_ctx *ctx, py_frame *fr, TSNode n, int kind)
{
    /* bind each for_in_clause's target, then evaluate the body */
    uint32_t k = py_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(n, i);
        if (IS(c, for_in_clause)) {
            py_val it = py_eval(ctx, fr, py_field(c, PY.f_right));
            py_bind_target(ctx, fr, py_field(c, PY.f_left), py_element_of(ctx, &it, 0));
        } else if (IS(c, if_clause) && py_named_child_count(c)) {
            py_eval_cond(ctx, fr, py_named_child(c, 0));
        }
    }
    TSNode body = py_field(n, PY.f_body);
    py_val b = py_is_null(body) ? py_vk(PY_V_UNKNOWN) : py_eval(ctx, fr, body);
    if ((kind == PY_V_LIST || kind == PY_V_UNKNOWN) && b.kind == PY_V_INSTANCE) {
        /* [Block() for _ in range(n)], (Block() for ...): the element class, for ModuleList */
        py_val l = py_vk(PY_V_MODLIST);
        l.elems[0] = b.cls;
        l.nelems = 1;
        return l;
    }
    return py_vk(kind);
}

/* A string; f-string interpolations of tensors raise PY_EV_FORMAT. */
static py_val eval_string(py_ctx *ctx, py_frame *fr, TSNode n)
{
    py_val out = py_vk(PY_V_STR);
    uint32_t k = py_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(n, i);
        if (IS(c, string)) {
            py_val sv = py_eval(ctx, fr, c);
            out.flags |= sv.flags & PY_VF_FMT_TENSOR;
            continue;
        }
        if (!IS(c, interpolation)) continue;
        TSNode e = py_field(c, PY.f_expression);
        py_val v = py_eval(ctx, fr, e);
        if (v.kind != PY_V_TENSOR) continue;
        out.flags |= PY_VF_FMT_TENSOR;
        py_event ev;
        py_event_init(&ev, PY_EV_FORMAT, fr->mod, c);
        ev.val = v;
        ev.recv_node = e;
        py_emit(ctx, &ev);
    }
    return out;
}

/* a < b, x is None, k in d: a boolean tensor when a tensor is compared */
static py_val eval_comparison(py_ctx *ctx, py_frame *fr, TSNode n)
{
    uint32_t k = py_named_child_count(n);
    int tensor = 0, dev = PY_DEV_UNKNOWN;
    py_val vals[8];
    TSNode nodes[8];
    int nv = 0;
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(n, i);
        py_val v = py_eval(ctx, fr, c);
        if (nv < 8) { vals[nv] = v; nodes[nv] = c; nv++; }
        if (v.kind == PY_V_TENSOR) { tensor = 1; dev = v.dev; }
    }
    if (!tensor) {
        /* `step % 2 == 0`: a loop variable's comparison keeps its name (CG304) */
        for (int i = 0; i < nv; i++)
            if (vals[i].kind == PY_V_NUMBER && (vals[i].flags & PY_VF_LOOPVAR)) return vals[i];
        return py_vk(PY_V_NUMBER);
    }
    /* `x is None` compares identities, no tensor made */
    size_t len;
    const char *t = py_text(fr->mod, n, &len);
    if (memmem(t, len, " is ", 4) || memmem(t, len, " in ", 4)) return py_vk(PY_V_NUMBER);
    for (int i = 0; i < nv; i++)
        if (vals[i].kind != PY_V_TENSOR) py_scalar_math(ctx, fr, nodes[i], &vals[i]);
    py_val out = py_vtensor(dev);
    out.flags |= PY_VF_BOOL;
    return out;
}

/* a and b, a or b as an expression: the left operand is converted to bool */
/* ---- isinstance narrowing ------------------------------------------------------------ */
/* A type expression of number types only: `float`, `(int, float)`. */
static int number_types(const char *t, size_t len)
{
    static const char *const names[] = { "int", "float", "bool", "complex", NULL };
    int any = 0;
    for (size_t i = 0; i < len;) {
        char c = t[i];
        if (c == '(' || c == ')' || c == ',' || c == ' ' || c == '\n') { i++; continue; }
        size_t s = i;
        while (i < len && (t[i] == '_' || (t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z'))) i++;
        if (i == s) return 0;
        int ok = 0;
        for (int k = 0; names[k]; k++) ok |= strlen(names[k]) == i - s && memcmp(names[k], t + s, i - s) == 0;
        if (!ok) return 0;
        any = 1;
    }
    return any;
}

/* `isinstance(x, torch.Tensor)`: +1; `isinstance(x, (int, float))`: +2;
 * under `not`, negated; 0 for anything else.  *x: the name tested. */
static int isinstance_test(py_frame *fr, TSNode c, TSNode *x)
{
    c = py_unparen(c);
    if (IS(c, not_operator)) return -isinstance_test(fr, py_field(c, PY.f_argument), x);
    if (!IS(c, call) || !py_text_eq(fr->mod, py_field(c, PY.f_function), "isinstance")) return 0;
    TSNode args = py_field(c, PY.f_arguments);
    if (py_named_child_count(args) != 2 || !IS(py_named_child(args, 0), identifier)) return 0;
    size_t len;
    const char *t = py_text(fr->mod, py_named_child(args, 1), &len);
    *x = py_named_child(args, 0);
    if ((len == 12 && memcmp(t, "torch.Tensor", 12) == 0) || (len == 6 && memcmp(t, "Tensor", 6) == 0)) return 1;
    return number_types(t, len) ? 2 : 0;
}

/* ---- device tests ------------------------------------------------------------------------ */
static int text_is(py_module *m, TSNode n, const char *name, size_t len)
{
    size_t l;
    const char *t = py_text(m, n, &l);
    return l == len && memcmp(t, name, len) == 0;
}

/* Count the bindings of `name` in n (nested defs and classes not searched):
 * a plain `name = v` counts one (v into *rhs), any other (`name += 1`, a
 * tuple or loop target naming it) two. */
static int count_binds(py_module *m, TSNode n, const char *name, size_t len, TSNode *rhs, int depth)
{
    if (depth > 60) return 2;
    if (IS(n, function_definition) || IS(n, class_definition) || IS(n, lambda)) return 0;
    /* a subtree whose text does not name it binds nothing (most of a body) */
    size_t tl;
    const char *tt = py_text(m, n, &tl);
    if (!memmem(tt, tl, name, len)) return 0;
    int c = 0;
    if (IS(n, assignment) || IS(n, augmented_assignment) || IS(n, for_statement) || IS(n, named_expression)) {
        TSNode l = IS(n, named_expression) ? py_field(n, PY.f_name) : py_field(n, PY.f_left);
        size_t ll;
        const char *lt = py_is_null(l) ? "" : py_text(m, l, &ll);
        if (IS(n, assignment) && IS(l, identifier) && text_is(m, l, name, len)) {
            c = 1;
            *rhs = py_field(n, PY.f_right);
        } else if (!py_is_null(l) && !IS(l, attribute) && !IS(l, subscript) && memmem(lt, ll, name, len)) {
            c = 2;
        }
    }
    py_kids kids = py_kids_of(n);
    for (TSNode ch; c < 2 && !py_is_null(ch = py_kids_next(&kids));) c += count_binds(m, ch, name, len, rhs, depth + 1);
    py_kids_free(&kids);
    return c;
}

/* `x.is_cuda`, `x.device.type == "cuda"` (+1: true when x is a CUDA tensor),
 * `x.is_cpu`, `x.device.type == "cpu"`, `!=` (-1: true when x is not one);
 * negated under `not`; a name assigned once in the function from such a
 * test (`is_cuda = value.is_cuda`) is that test.  *x: the tensor's name. */
static int device_test(py_ctx *ctx, py_frame *fr, TSNode c, TSNode *x, int depth)
{
    c = py_unparen(c);
    if (depth > 2) return 0;
    if (IS(c, not_operator)) return -device_test(ctx, fr, py_field(c, PY.f_argument), x, depth);
    if (IS(c, attribute)) {
        TSNode o = py_field(c, PY.f_object), a = py_field(c, PY.f_attribute);
        if (!IS(o, identifier)) return 0;
        *x = o;
        return py_text_eq(fr->mod, a, "is_cuda") ? 1 : py_text_eq(fr->mod, a, "is_cpu") ? -1 : 0;
    }
    if (IS(c, comparison_operator) && py_named_child_count(c) == 2 && py_child_count(c) == 3) {
        const char *op = py_type(py_child(c, 1));
        int eq = strcmp(op, "==") == 0, ne = strcmp(op, "!=") == 0;
        TSNode l = py_unparen(py_named_child(c, 0)), r = py_unparen(py_named_child(c, 1));
        if ((!eq && !ne) || !IS(l, attribute) || !IS(r, string)) return 0;
        TSNode dev = py_field(l, PY.f_object);
        if (!py_text_eq(fr->mod, py_field(l, PY.f_attribute), "type") || !IS(dev, attribute) ||
            !py_text_eq(fr->mod, py_field(dev, PY.f_attribute), "device") || !IS(py_field(dev, PY.f_object), identifier))
            return 0;
        const char *lit = py_literal(ctx, fr->mod, r).lit;
        int k = !lit ? 0 : strcmp(lit, "cuda") == 0 ? 1 : strcmp(lit, "cpu") == 0 ? -1 : 0;
        *x = py_field(dev, PY.f_object);
        return eq ? k : -k;
    }
    if (IS(c, identifier) && fr->fn && !fr->fn->is_module_body && !py_is_null(fr->fn->body)) {
        size_t len;
        const char *t = py_text(fr->mod, c, &len);
        /* the search walks the function: once per function and name */
        char key[160];
        int kl = snprintf(key, sizeof key, "bind1/%p/%.*s", (void *)fr->fn, (int)(len < 120 ? len : 120), t);
        TSNode *v = cg_map_get(&ctx->memo, key, (size_t)kl);
        if (!v) {
            v = cg_arena_alloc(ctx->arena, sizeof *v);
            *v = (TSNode){ 0 };
            if (count_binds(fr->mod, fr->fn->body, t, len, v, 0) != 1) *v = (TSNode){ 0 };
            cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, v);
        }
        return py_is_null(*v) || IS(py_unparen(*v), identifier) ? 0 : device_test(ctx, fr, *v, x, depth + 1);
    }
    return 0;
}

/* Where `cond` is `truth`, what isinstance says of its name: not a tensor
 * (`else` of `isinstance(x, torch.Tensor)`: the tensor alternatives dropped)
 * or a number (`isinstance(x, float) and x == 1.0`).  Rebinds the name for
 * the code that runs there; py_narrow_end puts the old value back. */
void py_narrow_begin(py_ctx *ctx, py_frame *fr, TSNode cond, int truth, py_narrow *nw)
{
    nw->on = 0;
    TSNode x = { 0 };
    /* `if not x.is_cuda:`: x there is no CUDA tensor (a CPU one, for the rules) */
    int d = device_test(ctx, fr, cond, &x, 0);
    if ((truth ? d : -d) == -1) {
        size_t len;
        const char *t = py_text(fr->mod, x, &len);
        py_val *slot = cg_map_get(&fr->env, t, len);
        if (!slot) return;
        int any = 0;
        for (const py_val *v = slot; v; v = v->alt) any |= v->kind == PY_V_TENSOR || v->kind == PY_V_UNKNOWN;
        if (!any) return;
        *nw = (py_narrow){ slot, *slot, t, len, 1 };
        py_val keep = py_vk(PY_V_UNKNOWN);
        int first = 1;
        for (const py_val *v = &nw->old; v; v = v->alt) {
            py_val one = *v;
            one.alt = NULL;
            /* it has .is_cuda or .device: a tensor, when not known */
            if (one.kind == PY_V_UNKNOWN) one = py_vtensor(PY_DEV_CPU);
            if (one.kind == PY_V_TENSOR) one.dev = PY_DEV_CPU;
            keep = first ? one : py_join(ctx, keep, one);
            first = 0;
        }
        *slot = keep;
        return;
    }
    int k = isinstance_test(fr, cond, &x);
    if (!truth) k = -k;
    if (k != -1 && k != 2) return;
    size_t len;
    const char *t = py_text(fr->mod, x, &len);
    py_val *slot = cg_map_get(&fr->env, t, len);
    if (!slot) return;
    nw->slot = slot;
    nw->old = *slot;
    nw->name = t;
    nw->len = len;
    nw->on = 1;
    if (k == 2) {
        *slot = py_vk(PY_V_NUMBER);
        return;
    }
    py_val keep = py_vk(PY_V_UNKNOWN);
    int any = 0;
    for (const py_val *v = &nw->old; v; v = v->alt) {
        if (v->kind == PY_V_TENSOR) continue;
        py_val one = *v;
        one.alt = NULL;
        keep = any ? py_join(ctx, keep, one) : one;
        any = 1;
    }
    *slot = keep;
}

void py_narrow_end(py_narrow *nw)
{
    if (nw->on) *nw->slot = nw->old;
    nw->on = 0;
}

static py_val eval_boolean(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode left = py_field(n, PY.f_left);
    py_val l = py_eval(ctx, fr, left);
    py_emit_at(ctx, fr, PY_EV_COND, py_unparen(left), l);
    /* `isinstance(v, float) and v == 1.0`: the right side runs where the left holds */
    py_narrow nw;
    py_narrow_begin(ctx, fr, left, py_text_eq(fr->mod, py_field(n, PY.f_operator), "and"), &nw);
    py_val r = py_eval(ctx, fr, py_field(n, PY.f_right));
    py_narrow_end(&nw);
    return py_join(ctx, l, r);
}

/* a if c else b */
static py_val eval_conditional(py_ctx *ctx, py_frame *fr, TSNode n)
{
    if (py_named_child_count(n) != 3) return py_vk(PY_V_UNKNOWN);
    TSNode c = py_named_child(n, 1);
    /* a condition literals decide: only the arm Python evaluates */
    int k = ctx->active ? py_const_truth(ctx, fr, c) : 0;
    if (k) return py_eval(ctx, fr, py_named_child(n, k == 1 ? 0 : 2));
    py_narrow nw;
    py_narrow_begin(ctx, fr, c, 1, &nw);
    py_val a = py_eval(ctx, fr, py_named_child(n, 0));
    py_narrow_end(&nw);
    py_eval_cond(ctx, fr, c);
    py_narrow_begin(ctx, fr, c, 0, &nw);
    py_val b = py_eval(ctx, fr, py_named_child(n, 2));
    py_narrow_end(&nw);
    return py_join(ctx, a, b);
}

/* The bounds of slice c of a tensor (or a value that may be one) are sizes:
 * a name holding a value read from a tensor is CG203's. */
static void eval_slice(py_ctx *ctx, py_frame *fr, TSNode c, const py_val *o)
{
    uint32_t sk = py_named_child_count(c);
    for (uint32_t j = 0; j < sk; j++) {
        int old = ctx->size_arg;
        ctx->size_arg = o->kind == PY_V_TENSOR || o->kind == PY_V_UNKNOWN;
        TSNode b = py_named_child(c, j);
        py_val bv = py_eval(ctx, fr, b);
        if (ctx->size_arg && (bv.flags & PY_VF_HOSTSCALAR) && IS(py_unparen(b), identifier))
            py_emit_at(ctx, fr, PY_EV_SIZE_USE, b, bv);
        ctx->size_arg = old;
    }
}

/* A literal integer index (`t[0]`, `t[-1]`) in *i. */
static int literal_index(py_frame *fr, TSNode n, long *i)
{
    n = py_unparen(n);
    int neg = 0;
    if (IS(n, unary_operator) && py_text_eq(fr->mod, py_field(n, PY.f_operator), "-")) {
        neg = 1;
        n = py_field(n, PY.f_argument);
    }
    if (!IS(n, integer)) return 0;
    size_t len;
    const char *t = py_text(fr->mod, n, &len);
    if (len == 0 || len > 6) return 0;
    long v = 0;
    for (size_t k = 0; k < len; k++) {
        if (t[k] < '0' || t[k] > '9') return 0;
        v = v * 10 + (t[k] - '0');
    }
    *i = neg ? -v : v;
    return 1;
}

/* Same string literal, whatever its quotes: "a" and 'a'. */
static int same_key(const char *k, const char *t, size_t len)
{
    size_t kl = strlen(k);
    return kl == len && kl >= 2 && memcmp(k + 1, t + 1, kl - 2) == 0 && (k[0] == '"' || k[0] == '\'') &&
           (t[0] == '"' || t[0] == '\'');
}

/* d["key"] on a dict whose keys are known: that item (unknown if absent). */
static int dict_item(py_frame *fr, const py_val *o, TSNode idxn, py_val *out)
{
    if (o->kind != PY_V_DICT || !o->keys || !IS(py_unparen(idxn), string)) return 0;
    size_t len;
    const char *t = py_text(fr->mod, py_unparen(idxn), &len);
    *out = py_vk(PY_V_UNKNOWN);
    for (int i = 0; i < o->nitems; i++)
        if (o->keys[i] && same_key(o->keys[i], t, len)) *out = o->items[i];
    return 1;
}

/* o[idx] for one alternative o (idxn null: a slice). */
static py_val subscript_one(py_ctx *ctx, py_frame *fr, const py_val *o, TSNode idxn)
{
    if (o->kind == PY_V_TENSOR) return py_vtensor(o->dev);
    if (o->kind == PY_V_NDARRAY) return py_vk(PY_V_NDARRAY);
    if (o->kind == PY_V_MODLIST) return py_element_of(ctx, o, 1);
    long i;
    py_val item;
    if (o->nitems && py_is_null(idxn)) return py_vk(o->kind);   /* a slice of a sequence */
    if (dict_item(fr, o, idxn, &item)) return item;
    if (o->nitems && o->kind != PY_V_DICT && literal_index(fr, idxn, &i)) {
        if (i < 0) i += o->nitems;
        return i >= 0 && i < o->nitems ? o->items[i] : py_vk(PY_V_UNKNOWN);
    }
    if (o->nitems) {
        py_val el = *o;
        el.alt = NULL;
        return py_element_of(ctx, &el, 0);
    }
    return py_vk(PY_V_UNKNOWN);
}

static py_val subscript_value(py_ctx *ctx, py_frame *fr, const py_val *o, TSNode idxn)
{
    py_val out = subscript_one(ctx, fr, o, idxn);
    for (const py_val *a = o->alt; a; a = a->alt) out = py_join(ctx, out, subscript_one(ctx, fr, a, idxn));
    return out;
}

/* x[i] read (not a store target): PY_EV_SUBSCRIPT, for masks (CG202) */
static py_val eval_subscript(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode val = py_field(n, PY.f_value);
    py_val o = py_eval(ctx, fr, val);
    uint32_t k = py_named_child_count(n);
    py_val idx = py_vk(PY_V_UNKNOWN);
    TSNode idxn = {0};
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(n, i);
        if (py_eq(c, val) || IS(c, comment)) continue;
        if (IS(c, slice)) {
            eval_slice(ctx, fr, c, &o);
            continue;
        }
        int old = ctx->size_arg;
        ctx->size_arg = 0;
        idx = py_eval(ctx, fr, c);
        idxn = c;
        ctx->size_arg = old;
    }
    TSNode parent = py_parent(n);
    int is_store = (IS(parent, assignment) || IS(parent, augmented_assignment)) && py_eq(py_field(parent, PY.f_left), n);
    if (!is_store && !py_is_null(idxn)) {
        py_event ev;
        py_event_init(&ev, PY_EV_SUBSCRIPT, fr->mod, n);
        ev.recv = o;
        ev.recv_node = val;
        ev.val = idx;
        ev.argn[0] = idxn;
        py_emit(ctx, &ev);
    }
    return subscript_value(ctx, fr, &o, idxn);
}

/* (a, b), [a, b], {k: a}: the elements' values, in order (a dict's values);
 * none when a splat (`*xs`) makes their number unknown. */
static py_val eval_sequence(py_ctx *ctx, py_frame *fr, TSNode n, int kind)
{
    py_val items[32];
    const char *keys[32];
    int m = 0, exact = 1;
    uint32_t k = py_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(n, i);
        const char *key = NULL;
        if (IS(c, comment)) continue;
        if (IS(c, pair)) {
            TSNode kn = py_field(c, PY.f_key);
            py_eval(ctx, fr, kn);
            if (IS(kn, string)) key = py_ctx_text_dup(ctx, fr->mod, kn);
            c = py_field(c, PY.f_value);
        } else if (kind == PY_V_DICT) {
            exact = 0;   /* **other */
        }
        py_val v = py_eval(ctx, fr, c);
        if (IS(c, list_splat) || IS(c, dictionary_splat) || m == 32) {
            exact = 0;
            continue;
        }
        keys[m] = key;
        items[m++] = v;
    }
    if (!exact) return py_vk(kind);
    py_val out = py_seq(ctx, kind, items, m);
    if (kind == PY_V_DICT && m) {
        const char **kc = cg_arena_alloc(ctx->arena, (size_t)m * sizeof *kc);
        memcpy(kc, keys, (size_t)m * sizeof *kc);
        out.keys = kc;
    }
    return out;
}

/* [a, b]: a list of project instances is kept as their classes (for nn.ModuleList) */
static py_val eval_list(py_ctx *ctx, py_frame *fr, TSNode n)
{
    py_val out = eval_sequence(ctx, fr, n, PY_V_LIST);
    int inst = 0;
    for (int i = 0; i < out.nitems; i++)
        if (out.items[i].kind == PY_V_INSTANCE) {
            inst = 1;
            for (const py_val *a = &out.items[i]; a && out.nelems < 4; a = a->alt)
                if (a->kind == PY_V_INSTANCE) out.elems[out.nelems++] = a->cls;
        }
    if (inst) {   /* [Block(), Block()]: for nn.ModuleList */
        out.kind = PY_V_MODLIST;
        out.items = NULL;
        out.nitems = 0;
    }
    return out;
}

/* Every named child, for its events; the value is `kind`. */
static py_val eval_children(py_ctx *ctx, py_frame *fr, TSNode n, int kind)
{
    uint32_t k = py_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) py_eval(ctx, fr, py_named_child(n, i));
    return py_vk(kind);
}

/* x := v */
static py_val eval_named(py_ctx *ctx, py_frame *fr, TSNode n)
{
    py_val v = py_eval(ctx, fr, py_field(n, PY.f_value));
    py_bind_target(ctx, fr, py_field(n, PY.f_name), v);
    return v;
}

/* *x, **x: the operand, marked spread (a call's arguments spread it);
 * await x: the operand, for its events */
static py_val eval_operand(py_ctx *ctx, py_frame *fr, TSNode n)
{
    py_val v = py_named_child_count(n) ? py_eval(ctx, fr, py_named_child(n, 0)) : py_vk(PY_V_UNKNOWN);
    if (IS(n, await_)) return py_vk(PY_V_UNKNOWN);
    v.flags |= PY_VF_SPREAD;
    return v;
}

static py_val eval_node(py_ctx *ctx, py_frame *fr, TSNode n)
{
    if (ctx->depth > 200) return py_vk(PY_V_UNKNOWN);
    TSSymbol s = py_symbol(n);
    if (s == PY.identifier) return eval_identifier(ctx, fr, n);
    if (s == PY.call) return py_eval_call(ctx, fr, n);
    if (s == PY.attribute) return eval_attribute(ctx, fr, n);
    if (s == PY.integer || s == PY.float_ || s == PY.true_ || s == PY.false_ || s == PY.none)
        return py_literal(ctx, fr->mod, n);
    if (s == PY.string) {
        py_val v = eval_string(ctx, fr, n);
        if (!v.flags) v.lit = py_literal(ctx, fr->mod, n).lit;
        return v;
    }
    if (s == PY.concatenated_string) return eval_string(ctx, fr, n);
    if (s == PY.parenthesized_expression)
        return py_named_child_count(n) == 1 ? py_eval(ctx, fr, py_named_child(n, 0)) : py_vk(PY_V_UNKNOWN);
    if (s == PY.binary_operator) return eval_binary(ctx, fr, n);
    if (s == PY.unary_operator) return py_eval(ctx, fr, py_field(n, PY.f_argument));
    if (s == PY.comparison_operator) return eval_comparison(ctx, fr, n);
    if (s == PY.boolean_operator) return eval_boolean(ctx, fr, n);
    if (s == PY.not_operator) {
        py_eval_cond(ctx, fr, py_field(n, PY.f_argument));
        return py_vk(PY_V_NUMBER);
    }
    if (s == PY.conditional_expression) return eval_conditional(ctx, fr, n);
    if (s == PY.subscript) return eval_subscript(ctx, fr, n);
    if (s == PY.list) return eval_list(ctx, fr, n);
    if (s == PY.dictionary) return eval_sequence(ctx, fr, n, PY_V_DICT);
    if (s == PY.set) return eval_children(ctx, fr, n, PY_V_SET);
    if (s == PY.tuple || s == PY.expression_list) return eval_sequence(ctx, fr, n, PY_V_TUPLE);
    if (s == PY.list_comprehension) return eval_comprehension(ctx, fr, n, PY_V_LIST);
    if (s == PY.set_comprehension) return eval_comprehension(ctx, fr, n, PY_V_SET);
    if (s == PY.dictionary_comprehension) return eval_comprehension(ctx, fr, n, PY_V_DICT);
    if (s == PY.generator_expression) return eval_comprehension(ctx, fr, n, PY_V_UNKNOWN);
    if (s == PY.named_expression) return eval_named(ctx, fr, n);
    if (s == PY.keyword_argument) return py_eval(ctx, fr, py_field(n, PY.f_value));
    if (s == PY.list_splat || s == PY.dictionary_splat || s == PY.await_) return eval_operand(ctx, fr, n);
    if (s == PY.lambda) return py_vk(PY_V_UNKNOWN);
    /* anything else: evaluate children for their events */
    return eval_children(ctx, fr, n, PY_V_UNKNOWN);
}

/* Expression nesting is bounded: a file of 10 000 nested parentheses must
 * not exhaust the stack.  Past the bound the value is unknown (silence). */
py_val py_eval(py_ctx *ctx, py_frame *fr, TSNode n)
{
    if (py_is_null(n) || ctx->edepth >= 300) return py_vk(PY_V_UNKNOWN);
    ctx->edepth++;
    py_val v = eval_node(ctx, fr, n);
    ctx->edepth--;
    /* a literal stays one through names, parentheses and choices between
     * literals; anything else computes a new value, and an attribute, a
     * subscript or a call's result may be changed elsewhere: not kept */
    TSSymbol s = py_symbol(n);
    if (s != PY.identifier && s != PY.integer && s != PY.true_ && s != PY.false_ && s != PY.string &&
        s != PY.parenthesized_expression && s != PY.conditional_expression && s != PY.boolean_operator &&
        s != PY.keyword_argument && s != PY.named_expression)
        v = py_nolit(ctx, v);
    return v;
}
