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
#include <string.h>

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
    py_val *v = cg_map_get(&fr->env, t, len);
    if (v) {
        py_region_note_input(ctx, fr, n, v);
        return *v;
    }
    if (fr->self_name && len == fr->self_len && memcmp(t, fr->self_name, len) == 0) return fr->self;
    return py_val_of_sym(ctx, py_resolve_name(ctx->p, fr->mod, t, len), t, len);
}

static py_val eval_binary(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode l = py_field(n, PY.f_left), r = py_field(n, PY.f_right);
    py_val a = py_eval(ctx, fr, l), b = py_eval(ctx, fr, r);
    TSNode op = py_field(n, PY.f_operator);
    if (a.kind == PY_V_TENSOR || b.kind == PY_V_TENSOR) {
        if (a.kind == PY_V_TENSOR) py_scalar_math(ctx, fr, r, &b);
        if (b.kind == PY_V_TENSOR) py_scalar_math(ctx, fr, l, &a);
        py_val out = py_vtensor(a.kind == PY_V_TENSOR ? a.dev : b.dev);
        if ((py_text_eq(fr->mod, op, "&") || py_text_eq(fr->mod, op, "|") || py_text_eq(fr->mod, op, "^")) &&
            ((a.flags & PY_VF_BOOL) || (b.flags & PY_VF_BOOL)))
            out.flags |= PY_VF_BOOL;
        return out;
    }
    if (a.kind == PY_V_NDARRAY || b.kind == PY_V_NDARRAY) return py_vk(PY_V_NDARRAY);
    if (a.kind == PY_V_NUMBER && b.kind == PY_V_NUMBER) {
        /* keep an origin so `lr * 0.5` still names lr */
        py_val out = a.origin ? a : b.origin ? b : py_vk(PY_V_NUMBER);
        py_val num = py_vk(PY_V_NUMBER);
        num.flags = (a.flags | b.flags) & PY_VF_HOSTSCALAR;
        num.origin = out.origin;
        num.oname = out.oname;
        num.ofn = out.ofn;
        num.ocls = out.ocls;
        num.omod = out.omod;
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
    if (IS(obj, identifier) && fr->self_name && py_text_eq(fr->mod, obj, "self")) py_region_note_input(ctx, fr, n, &av);
    return av;
}

static py_val eval_attribute(py_ctx *ctx, py_frame *fr, TSNode n)
{
    TSNode obj = py_field(n, PY.f_object), attr = py_field(n, PY.f_attribute);
    py_val o = py_eval(ctx, fr, obj);
    size_t al;
    const char *a = py_text(fr->mod, attr, &al);
    switch (o.kind) {
    case PY_V_EXT: return py_vext(cg_arena_printf(ctx->arena, "%s.%.*s", o.qual, (int)al, a));
    case PY_V_MODULE:
        if (py_module_ensure(ctx->p, o.mod) != 0) return py_vk(PY_V_UNKNOWN);
        return py_val_of_sym(ctx, py_resolve_member(ctx->p, o.mod, a, al), a, al);
    case PY_V_INSTANCE: return instance_attribute(ctx, fr, n, obj, &o, a, al);
    case PY_V_TENSOR: return py_api_tensor_attr(&o, a, al);
    case PY_V_NDARRAY: return py_vk(PY_V_NDARRAY);
    default: return py_vk(PY_V_UNKNOWN);
    }
}

py_val py_element_of(const py_val *it, int keep_modlist)
{
    if (it->kind == PY_V_MODLIST && it->nelems == 1) {
        py_val el = py_vk(PY_V_INSTANCE);
        el.cls = it->elems[0];
        return el;
    }
    if (it->kind == PY_V_MODLIST && keep_modlist) return *it;   /* several classes: a call reaches each */
    if (it->kind == PY_V_EXTOBJ && cg_eq(it->qual, "builtins.range")) return py_vk(PY_V_NUMBER);
    if (it->kind == PY_V_TENSOR) return py_vtensor(it->dev);
    return py_vk(PY_V_UNKNOWN);
}

static py_val eval_comprehension(py_ctx *ctx, py_frame *fr, TSNode n, int kind)
{
    /* bind each for_in_clause's target, then evaluate the body */
    uint32_t k = py_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(n, i);
        if (IS(c, for_in_clause)) {
            py_val it = py_eval(ctx, fr, py_field(c, PY.f_right));
            py_bind_target(ctx, fr, py_field(c, PY.f_left), py_element_of(&it, 0));
        } else if (IS(c, if_clause) && py_named_child_count(c)) {
            py_eval_cond(ctx, fr, py_named_child(c, 0));
        }
    }
    TSNode body = py_field(n, PY.f_body);
    py_val b = py_is_null(body) ? py_vk(PY_V_UNKNOWN) : py_eval(ctx, fr, body);
    if (kind == PY_V_LIST && b.kind == PY_V_INSTANCE) {
        /* [Block() for _ in range(n)]: remember the element class for ModuleList */
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
    if (!tensor) return py_vk(PY_V_NUMBER);
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
static py_val eval_boolean(py_ctx *ctx, py_frame *fr, TSNode n)
{
    py_val l = py_eval(ctx, fr, py_field(n, PY.f_left));
    py_emit_at(ctx, fr, PY_EV_COND, py_unparen(py_field(n, PY.f_left)), l);
    py_val r = py_eval(ctx, fr, py_field(n, PY.f_right));
    return l.kind == r.kind ? r : py_vk(PY_V_UNKNOWN);
}

/* a if c else b */
static py_val eval_conditional(py_ctx *ctx, py_frame *fr, TSNode n)
{
    if (py_named_child_count(n) != 3) return py_vk(PY_V_UNKNOWN);
    py_val a = py_eval(ctx, fr, py_named_child(n, 0));
    py_eval_cond(ctx, fr, py_named_child(n, 1));
    py_val b = py_eval(ctx, fr, py_named_child(n, 2));
    return a.kind == b.kind ? a : py_vk(PY_V_UNKNOWN);
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
    if (o.kind == PY_V_TENSOR) return py_vtensor(o.dev);
    if (o.kind == PY_V_NDARRAY) return py_vk(PY_V_NDARRAY);
    if (o.kind == PY_V_MODLIST) return py_element_of(&o, 1);
    return py_vk(PY_V_UNKNOWN);
}

/* [a, b]: a list of project instances is kept as their classes (for nn.ModuleList) */
static py_val eval_list(py_ctx *ctx, py_frame *fr, TSNode n)
{
    uint32_t k = py_named_child_count(n);
    py_val out = py_vk(PY_V_LIST);
    for (uint32_t i = 0; i < k; i++) {
        py_val v = py_eval(ctx, fr, py_named_child(n, i));
        if (v.kind == PY_V_INSTANCE && out.nelems < 4) out.elems[out.nelems++] = v.cls;
    }
    if (out.nelems) out.kind = PY_V_MODLIST;   /* [Block(), Block()]: for nn.ModuleList */
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

/* *x, **x, await x: the operand, for its events */
static py_val eval_operand(py_ctx *ctx, py_frame *fr, TSNode n)
{
    if (py_named_child_count(n)) py_eval(ctx, fr, py_named_child(n, 0));
    return py_vk(PY_V_UNKNOWN);
}

static py_val eval_node(py_ctx *ctx, py_frame *fr, TSNode n)
{
    if (ctx->depth > 200) return py_vk(PY_V_UNKNOWN);
    TSSymbol s = py_symbol(n);
    if (s == PY.identifier) return eval_identifier(ctx, fr, n);
    if (s == PY.call) return py_eval_call(ctx, fr, n);
    if (s == PY.attribute) return eval_attribute(ctx, fr, n);
    if (s == PY.integer || s == PY.float_ || s == PY.true_ || s == PY.false_) return py_vk(PY_V_NUMBER);
    if (s == PY.none) return py_vk(PY_V_NONE);
    if (s == PY.string || s == PY.concatenated_string) return eval_string(ctx, fr, n);
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
    if (s == PY.dictionary) return eval_children(ctx, fr, n, PY_V_DICT);
    if (s == PY.set) return eval_children(ctx, fr, n, PY_V_SET);
    if (s == PY.tuple || s == PY.expression_list) return eval_children(ctx, fr, n, PY_V_TUPLE);
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
    return v;
}
