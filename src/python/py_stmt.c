/* py_stmt.c - statements and blocks: what binds names, where control goes,
 * and the events of stores.
 *
 * py_exec_block() walks a block's statements in order; exec_stmt()
 * dispatches on the statement's grammar symbol to one function per kind.
 * Names are bound in the frame for later reads; assignment targets raise
 * PY_EV_STORE.  Loops and ifs keep the counts the region facts need (a
 * capture in a loop, CG705; the replay loop's aftermath, CG505).  A guard on
 * "is a capture under way?" (py_region.c) decides which branch runs under
 * capture, and so do literals (`if per_row:` for a parameter left at its
 * default False: py_const_truth).  The arms of an if are each walked from
 * the bindings before it and joined after it.  `with` items that open or
 * change something are py_region.c's. */
#include "py_eval.h"
#include "core/alloc.h"
#include <stdlib.h>
#include <string.h>

/* ---- stores ------------------------------------------------------------------------ */
static int is_global_name(py_frame *fr, const char *t, size_t len)
{
    if (cg_map_get(&fr->globals_declared, t, len)) return 1;
    return fr->fn && fr->fn->is_module_body;
}

static int is_self_name(const py_frame *fr, const char *t, size_t len)
{
    return fr->self_name && len == fr->self_len && memcmp(t, fr->self_name, len) == 0;
}

/* Where the object of an attribute or subscript store lives (target_is_global
 * of PY_EV_STORE): 2 on self, 1 module-level or global, 0 local. */
static int store_scope(py_frame *fr, TSNode base)
{
    TSNode root = base;
    /* self.cache[k] = v: the container hangs off self */
    while (IS(root, attribute) || IS(root, subscript))
        root = IS(root, attribute) ? py_field(root, PY.f_object) : py_field(root, PY.f_value);
    if (!py_eq(root, base) && IS(root, identifier)) {
        size_t len;
        const char *t = py_text(fr->mod, root, &len);
        py_val *local = cg_map_get(&fr->env, t, len);
        if (is_self_name(fr, t, len)) return 2;
        return !local || is_global_name(fr, t, len) ? 1 : 0;
    }
    if (IS(base, identifier)) {
        size_t len;
        const char *t = py_text(fr->mod, base, &len);
        py_val *local = cg_map_get(&fr->env, t, len);
        int is_self = is_self_name(fr, t, len);
        if (local && local->kind == PY_V_INSTANCE && !is_self) return 0;
        /* a parameter holding the caller's container (`bump(self.counts)`): it outlives the call */
        if (local && (local->kind == PY_V_LIST || local->kind == PY_V_DICT || local->kind == PY_V_SET) &&
            (local->origin == PY_O_SELF_ATTR || local->origin == PY_O_GLOBAL) && fr->fn &&
            py_is_param(fr->fn, t, len))
            return 3;
        return is_self ? 2 : (!local || is_global_name(fr, t, len)) ? 1 : 0;
    }
    return 0;
}

static void store_event(py_ctx *ctx, py_frame *fr, TSNode target, py_val v, int augmented)
{
    py_event ev;
    py_event_init(&ev, PY_EV_STORE, fr->mod, target);
    ev.val = v;
    ev.augmented = augmented;
    if (IS(target, identifier)) {
        size_t len;
        const char *t = py_text(fr->mod, target, &len);
        ev.target_kind = 0;
        ev.target_is_global = is_global_name(fr, t, len);
    } else if (IS(target, attribute) || IS(target, subscript)) {
        TSNode base = IS(target, attribute) ? py_field(target, PY.f_object) : py_field(target, PY.f_value);
        ev.target_kind = IS(target, attribute) ? 1 : 2;
        ev.target_base = py_eval_quiet(ctx, fr, base);
        ev.target_base_node = base;
        ev.target_is_global = store_scope(fr, base);
        if (IS(target, subscript)) {
            /* evaluate the index for its events (a mask store is fine) */
            uint32_t k = py_named_child_count(target);
            for (uint32_t i = 0; i < k; i++) {
                TSNode c = py_named_child(target, i);
                if (!py_eq(c, base)) py_eval(ctx, fr, c);
            }
        }
    }
    py_emit(ctx, &ev);
}

static int is_pattern(TSNode t)
{
    return IS(t, pattern_list) || IS(t, tuple_pattern) || IS(t, expression_list) || IS(t, tuple) || IS(t, list) ||
           strcmp(py_type(t), "list_pattern") == 0;
}

/* The targets of pattern t (comments skipped) into out (16 at most), the
 * index of a starred one in *star (-1: none); returns how many. */
static int pattern_targets(TSNode t, TSNode *out, int *star)
{
    int n = 0;
    *star = -1;
    uint32_t k = py_named_child_count(t);
    for (uint32_t i = 0; i < k && n < 16; i++) {
        TSNode c = py_named_child(t, i);
        if (IS(c, comment)) continue;
        if (IS(c, list_splat_pattern) || IS(c, list_splat)) *star = n;
        out[n++] = c;
    }
    return n;
}

void py_bind_target(py_ctx *ctx, py_frame *fr, TSNode t, py_val v)
{
    if (py_is_null(t)) return;
    t = py_unparen(t);
    if (IS(t, identifier)) {
        size_t len;
        const char *s = py_text(fr->mod, t, &len);
        py_bind(ctx, fr, s, len, v);
    } else if (is_pattern(t)) {
        /* a, b = f(): each target its element (rows of a tensor are tensors) */
        TSNode ts[16];
        int star, n = pattern_targets(t, ts, &star);
        for (int i = 0; i < n; i++) py_bind_target(ctx, fr, ts[i], py_unpack(ctx, &v, i, n, star));
    } else if (IS(t, list_splat_pattern) || IS(t, list_splat)) {
        /* *rest: what py_unpack gave it (a list) */
        if (py_named_child_count(t)) py_bind_target(ctx, fr, py_named_child(t, 0), v.kind == PY_V_LIST ? v : py_vk(PY_V_LIST));
    }
}

static void store_target(py_ctx *ctx, py_frame *fr, TSNode t, py_val v, int aug)
{
    t = py_unparen(t);
    if (!aug && is_pattern(t)) {
        /* (a, self.b), c = ...: each part its element */
        TSNode ts[16];
        int star, n = pattern_targets(t, ts, &star);
        for (int i = 0; i < n; i++) store_target(ctx, fr, ts[i], py_unpack(ctx, &v, i, n, star), 0);
        return;
    }
    if (IS(t, attribute) || IS(t, subscript) || (IS(t, identifier) && aug)) store_event(ctx, fr, t, v, aug);
    else if (IS(t, identifier) && (ctx->active || ctx->phase == PY_PH_AFTER)) store_event(ctx, fr, t, v, 0);
    if (!aug) py_bind_target(ctx, fr, t, v);
    if (!aug && ctx->watch_attr) py_note_attr_store(ctx, fr, t, v);
    if (!aug && IS(t, attribute)) py_region_note_output(ctx, fr, t, &v);
}

/* ---- literals that code walked once may change ------------------------------------------
 * A loop body and a try statement are walked once, in order: a name that a
 * later iteration or an except clause rebinds is not the literal it held
 * before (`flag = False; for ...: if flag: ...; flag = True`).  Such names
 * lose their literal before the walk. */
static int word_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || (unsigned char)c >= 0x80;
}

/* Does text t (len bytes) maybe bind name n (nl bytes): `n = `, `n += `,
 * `n := `, `n, m = ` (or any `n,` / `n)`: a call's argument too, which is
 * only caution), `for n`, `as n`, `del n`, `import n`, `def n`? */
static int text_may_rebind(const char *t, size_t len, const char *n, size_t nl)
{
    for (const char *p = t, *end = t + len; p < end && (p = memmem(p, (size_t)(end - p), n, nl)) != NULL; p += nl) {
        if ((p > t && (word_char(p[-1]) || p[-1] == '.')) || (p + nl < end && word_char(p[nl]))) continue;
        const char *q = p + nl;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q < end && (*q == ',' || *q == ')' || *q == ']')) return 1;
        if (q < end && *q == '=' && !(q + 1 < end && q[1] == '=')) return 1;
        if (q + 1 < end && q[1] == '=' && strchr("+-*/%&|^@:", *q)) return 1;
        if (q + 2 < end && q[2] == '=' && ((q[0] == '*' && q[1] == '*') || (q[0] == '/' && q[1] == '/') ||
                                           (q[0] == '<' && q[1] == '<') || (q[0] == '>' && q[1] == '>')))
            return 1;
        const char *b = p;
        while (b > t && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '(' || b[-1] == '*')) b--;
        static const char *const kw[] = { "for", "as", "del", "import", "def", "class", "global", "nonlocal", NULL };
        for (int i = 0; kw[i]; i++) {
            size_t kl = strlen(kw[i]);
            if ((size_t)(b - t) >= kl && memcmp(b - kl, kw[i], kl) == 0 && (b - kl == t || !word_char(b[-(long)kl - 1])))
                return 1;
        }
    }
    return 0;
}

static void forget_rebound_lits(py_ctx *ctx, py_frame *fr, TSNode st)
{
    size_t len;
    const char *t = NULL;
    for (size_t i = 0; i < fr->env.cap; i++) {
        if (!fr->env.keys[i]) continue;
        py_val *v = fr->env.vals[i];
        int lit = 0;
        for (const py_val *a = v; a; a = a->alt) lit |= a->lit != NULL;
        if (!lit) continue;
        if (!t) t = py_text(fr->mod, st, &len);
        if (text_may_rebind(t, len, fr->env.keys[i], fr->env.klen[i])) *v = py_nolit(ctx, *v);
    }
}

/* `left = right`, `left += right`, `a = b = ... = right` (tree-sitter nests a
 * chain on the right: it is walked in a loop, a 10k-long chain being legal
 * Python) and `x: T` with no right-hand side. */
static void exec_assignment(py_ctx *ctx, py_frame *fr, TSNode e)
{
    int aug = IS(e, augmented_assignment);
    TSNode right = py_field(e, PY.f_right);
    while (!aug && IS(right, assignment)) right = py_field(right, PY.f_right);
    py_val v = py_is_null(right) ? py_vk(PY_V_UNKNOWN) : py_eval(ctx, fr, right);
    /* `m: Net = make()`, `self.state: State | None = None`: the annotation says what an unknown is */
    if (!aug) v = py_annotated(ctx, fr->mod, py_field(e, PY.f_type), v);
    /* a model built here, before any capture: it needs warm-up here too (CG701) */
    if (!ctx->active && (!ctx->quiet || ctx->watch_fn) && !fr->warm &&
        (v.kind == PY_V_INSTANCE || v.kind == PY_V_MODLIST ||
         (v.kind == PY_V_EXTOBJ && cg_starts(v.qual, "torch.nn.") && !(v.flags & PY_VF_OPTIMIZER))) &&
        IS(py_unparen(right), call))
        fr->built_module = 1;
    for (TSNode a = e;;) {
        TSNode left = py_field(a, PY.f_left);
        int to_tensor = 0;
        if (aug) {
            /* x += y reads x too */
            py_val old = py_eval(ctx, fr, left);
            /* one of several values that is a tensor: `+=` on None would raise, so the tensor it is */
            const py_val *ot = py_alt_of_kind(&old, PY_V_TENSOR), *rt;
            if (ot) {
                py_scalar_math(ctx, fr, right, &v);
                v = *ot;
                v.alt = NULL;
            } else if (IS(py_unparen(left), identifier) && (rt = py_alt_of_kind(&v, PY_V_TENSOR)) != NULL) {
                /* `y = 0` then `y += w * x`: a number plus a tensor is a tensor,
                 * and the name now holds it (an accumulator seeded with 0) */
                py_val t = *rt;
                t.alt = NULL;
                v = t;
                to_tensor = 1;
            }
        }
        if (!py_is_null(left)) store_target(ctx, fr, left, v, aug);
        if (to_tensor) py_bind_target(ctx, fr, py_unparen(left), v);
        /* `n += 1`: n is no longer the literal it was */
        if (aug && IS(py_unparen(left), identifier)) {
            size_t nl;
            const char *nt = py_text(fr->mod, py_unparen(left), &nl);
            py_val *slot = cg_map_get(&fr->env, nt, nl);
            if (slot) *slot = py_nolit(ctx, *slot);
        }
        TSNode next = py_field(a, PY.f_right);
        if (aug || !IS(next, assignment)) break;
        a = next;
    }
}

/* ---- one function per kind of statement ---------------------------------------------- */
static void exec_expression(py_ctx *ctx, py_frame *fr, TSNode st)
{
    uint32_t k = py_named_child_count(st);
    for (uint32_t i = 0; i < k; i++) {
        TSNode e = py_named_child(st, i);
        if (IS(e, assignment) || IS(e, augmented_assignment)) exec_assignment(ctx, fr, e);
        else py_eval(ctx, fr, e);
    }
}

/* `with a as x, b:` */
static void exec_with(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated)
{
    TSNode clause = {0};
    uint32_t k = py_named_child_count(st);
    for (uint32_t i = 0; i < k; i++)
        if (IS(py_named_child(st, i), with_clause)) clause = py_named_child(st, i);
    py_with w = { .saved_stream = ctx->cur_stream };
    uint32_t ni = py_named_child_count(clause);
    for (uint32_t i = 0; i < ni; i++) {
        TSNode item = py_named_child(clause, i);
        if (!IS(item, with_item)) continue;
        TSNode val = py_field(item, PY.f_value);
        TSNode alias = {0};
        /* `with X as y`: the as_pattern holds X and the target */
        if (!py_is_null(val) && strcmp(py_type(val), "as_pattern") == 0) {
            alias = py_named_child_count(val) > 1 ? py_named_child(val, 1) : alias;
            val = py_named_child(val, 0);
        }
        py_val v = py_eval(ctx, fr, val);
        if (!py_is_null(alias) && strcmp(py_type(alias), "as_pattern_target") == 0 && py_named_child_count(alias))
            py_bind_target(ctx, fr, py_named_child(alias, 0), v);
        py_region_with_enter(ctx, fr, st, item, v, &w);
    }
    TSNode body = py_field(st, PY.f_body);
    if (!py_is_null(body)) *terminated = py_exec_block(ctx, fr, body);
    py_region_with_exit(ctx, fr, &w);
}

static int block_terminates(TSNode block)
{
    uint32_t k = py_named_child_count(block);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(block, i);
        if (IS(c, return_statement) || IS(c, raise_statement)) return 1;
        if (strcmp(py_type(c), "continue_statement") == 0 || strcmp(py_type(c), "break_statement") == 0)
            return 1;
    }
    return 0;
}

/* Does block b (or a block nested in it) assign target text t (tl bytes)
 * (`t = ...`), or, with `memo`, store local t into a container (`memo[key] =
 * t`)? */
static int block_stores(py_frame *fr, TSNode b, const char *t, size_t tl, int memo, int depth)
{
    uint32_t k = py_named_child_count(b);
    for (uint32_t i = 0; i < k && depth < 4; i++) {
        TSNode st = py_named_child(b, i);
        TSNode e = IS(st, expression_statement) ? py_named_child(st, 0) : (TSNode){ 0 };
        if (IS(e, assignment) && (!memo || (IS(py_field(e, PY.f_left), subscript) &&
                                            IS(py_field(e, PY.f_right), identifier)))) {
            size_t xl;
            const char *xt = py_text(fr->mod, py_field(e, memo ? PY.f_right : PY.f_left), &xl);
            if (xl == tl && memcmp(xt, t, tl) == 0) return 1;
        }
        uint32_t kk = py_named_child_count(st);
        for (uint32_t j = 0; j < kk; j++)
            if (IS(py_named_child(st, j), block) && block_stores(fr, py_named_child(st, j), t, tl, memo, depth + 1))
                return 1;
    }
    return 0;
}

static int block_assigns(py_frame *fr, TSNode b, const char *t, size_t tl, int depth)
{
    return block_stores(fr, b, t, tl, 0, depth);
}

static int block_memoizes(py_frame *fr, TSNode b, const char *t, size_t tl, int depth)
{
    return block_stores(fr, b, t, tl, 1, depth);
}

/* The attribute a shape, dtype, device or layout test reads: `self.x.dim()
 * == 1`, `self.x.ndim != 4`, `len(self.x.shape) == 2`, `self.x.dtype !=
 * torch.int32`, `self.x.device != dev`, `not self.x.is_contiguous()`; in an
 * `and`, either side.  A null node for anything else. */
static TSNode normal_form_test(py_frame *fr, TSNode c)
{
    c = py_unparen(c);
    if (IS(c, boolean_operator) && py_text_eq(fr->mod, py_field(c, PY.f_operator), "and")) {
        TSNode l = normal_form_test(fr, py_field(c, PY.f_left));
        return py_is_null(l) ? normal_form_test(fr, py_field(c, PY.f_right)) : l;
    }
    TSNode x = { 0 };
    if (IS(c, not_operator)) {
        TSNode a = py_unparen(py_field(c, PY.f_argument));
        TSNode fn = IS(a, call) ? py_field(a, PY.f_function) : (TSNode){ 0 };
        if (IS(fn, attribute) && py_text_eq(fr->mod, py_field(fn, PY.f_attribute), "is_contiguous"))
            x = py_field(fn, PY.f_object);
    } else if (IS(c, comparison_operator) && py_named_child_count(c) == 2) {
        TSNode l = py_unparen(py_named_child(c, 0));
        if (IS(l, call)) {
            TSNode fn = py_field(l, PY.f_function);
            if (IS(fn, attribute) && (py_text_eq(fr->mod, py_field(fn, PY.f_attribute), "dim") ||
                                      py_text_eq(fr->mod, py_field(fn, PY.f_attribute), "ndimension")))
                x = py_field(fn, PY.f_object);
            else if (py_text_eq(fr->mod, fn, "len") && py_named_child_count(py_field(l, PY.f_arguments)) == 1) {
                TSNode a = py_unparen(py_named_child(py_field(l, PY.f_arguments), 0));
                if (IS(a, attribute) && py_text_eq(fr->mod, py_field(a, PY.f_attribute), "shape"))
                    x = py_field(a, PY.f_object);
            }
        } else if (IS(l, attribute) && (py_text_eq(fr->mod, py_field(l, PY.f_attribute), "ndim") ||
                                        py_text_eq(fr->mod, py_field(l, PY.f_attribute), "dtype") ||
                                        py_text_eq(fr->mod, py_field(l, PY.f_attribute), "device"))) {
            x = py_field(l, PY.f_object);
        }
    }
    x = py_unparen(x);
    if (!IS(x, attribute) || !IS(py_field(x, PY.f_object), identifier) || !fr->self_name) return (TSNode){ 0 };
    size_t ol;
    const char *ot = py_text(fr->mod, py_field(x, PY.f_object), &ol);
    return ol == fr->self_len && memcmp(ot, fr->self_name, ol) == 0 ? x : (TSNode){ 0 };
}

/* `if self.x is None: self.x = ...` (or `if not self.ready: ... self.ready =
 * ...`): lazy set-up that the first call does.  So is a one-time
 * normalisation of an attribute the branch replaces (`if self.lens.dim() ==
 * 1: self.lens = self.lens.reshape(b, 1, 1, 1)`): the first call's result
 * no longer passes the test.  A capture comes after a
 * warm-up run (CG701 asks for one; make_graphed_callables does its own), so
 * during capture the branch is not taken. */
static int lazy_init(py_frame *fr, TSNode cond, TSNode cons)
{
    cond = py_unparen(cond);
    TSNode nf = normal_form_test(fr, cond);
    if (!py_is_null(nf)) {
        size_t nl;
        const char *nt = py_text(fr->mod, nf, &nl);
        if (block_assigns(fr, cons, nt, nl, 0)) return 1;
    }
    TSNode x = { 0 };
    if (IS(cond, not_operator)) {
        x = py_unparen(py_field(cond, PY.f_argument));
    } else if (IS(cond, comparison_operator) && py_named_child_count(cond) == 2 && IS(py_named_child(cond, 1), none)) {
        size_t len;
        const char *t = py_text(fr->mod, cond, &len);
        if (!memmem(t, len, " is not ", 8) && memmem(t, len, " is ", 4)) x = py_named_child(cond, 0);
    }
    size_t xl;
    const char *xt = py_is_null(x) ? NULL : py_text(fr->mod, x, &xl);
    /* `t = memo.get(key); if t is None: t = make(); memo[key] = t` */
    if (xt && IS(x, identifier)) return block_memoizes(fr, cons, xt, xl, 0);
    if (!IS(x, attribute)) return 0;
    return block_assigns(fr, cons, xt, xl, 0);
}

/* `x is None` / `x is not None` in a capture, x's value known: +1 true, -1
 * false, 0 can't tell.  (A value that is one of several known kinds is
 * never None: py_join keeps None only when nothing is known.) */
static int none_test(py_ctx *ctx, py_frame *fr, TSNode cond)
{
    cond = py_unparen(cond);
    if (!IS(cond, comparison_operator) || py_named_child_count(cond) != 2 || !IS(py_named_child(cond, 1), none))
        return 0;
    size_t len;
    const char *t = py_text(fr->mod, cond, &len);
    int is_not = memmem(t, len, " is not ", 8) != NULL;
    if (!is_not && !memmem(t, len, " is ", 4)) return 0;
    py_val v = py_eval_quiet(ctx, fr, py_named_child(cond, 0));
    int none;
    if (v.kind == PY_V_NONE && !v.alt) none = 1;
    else if (v.kind == PY_V_UNKNOWN || v.kind == PY_V_NONE) return 0;
    else none = 0;
    return (none != is_not) ? 1 : -1;
}

/* The branch rebound the narrowed name itself: its value stands.  b: the
 * block that ran (or the if statement, for its alternatives). */
static void narrow_end_unless_assigned(py_frame *fr, py_narrow *nw, TSNode b)
{
    if (nw->on && !block_assigns(fr, b, nw->name, nw->len, 0)) py_narrow_end(nw);
    nw->on = 0;
}

/* ---- if: every arm from the bindings before it, their bindings after it joined ---------
 * `if c: x = A` / `else: x = B` leaves x as A or B (py_join), not whichever
 * arm was walked last; an arm that ends in return/raise/continue/break gives
 * nothing to what follows, and when every arm that can run ends so, neither
 * does the if. */
typedef struct env_snap {
    size_t n;
    py_val **slot;
    py_val *val;
} env_snap;

static void snap_take(py_frame *fr, env_snap *s)
{
    size_t n = fr->env.count;
    s->n = 0;
    s->slot = cg_xmalloc((n + 1) * sizeof *s->slot);
    s->val = cg_xmalloc((n + 1) * sizeof *s->val);
    for (size_t i = 0; i < fr->env.cap && s->n < n; i++) {
        if (!fr->env.keys[i]) continue;
        s->slot[s->n] = fr->env.vals[i];
        s->val[s->n] = *s->slot[s->n];
        s->n++;
    }
}

static void snap_restore(const env_snap *s)
{
    for (size_t i = 0; i < s->n; i++) *s->slot[i] = s->val[i];
}

static void snap_free(env_snap *s)
{
    free(s->slot);
    free(s->val);
    s->slot = NULL;
    s->val = NULL;
    s->n = 0;
}

/* Can statement st bind a name (an assignment, a loop or `with ... as`
 * target, an import, a def)?  A cheap look at its text: most ifs bind
 * nothing, and those need no join. */
static int may_bind(py_module *m, TSNode st)
{
    size_t len;
    const char *t = py_text(m, st, &len);
    for (size_t i = 0; i < len; i++) {
        char c = t[i];
        if (c == '=') {
            char p = i ? t[i - 1] : 0, n = i + 1 < len ? t[i + 1] : 0;
            if (n != '=' && p != '=' && p != '!' && p != '<' && p != '>') return 1;
        } else if ((c == 'f' || c == 'a' || c == 'i' || c == 'd' || c == 'c') && (i == 0 || t[i - 1] == ' ' || t[i - 1] == '\n')) {
            if ((len - i > 4 && memcmp(t + i, "for ", 4) == 0) || (len - i > 3 && memcmp(t + i, "as ", 3) == 0) ||
                (len - i > 7 && memcmp(t + i, "import ", 7) == 0) || (len - i > 4 && memcmp(t + i, "def ", 4) == 0) ||
                (len - i > 6 && memcmp(t + i, "class ", 6) == 0))
                return 1;
        }
    }
    return 0;
}

/* The frame's final bindings: for each slot the join of what each arm that
 * falls through left in it (arms[i], i < n, with ends[i] == 0). */
static void join_arms(py_ctx *ctx, const env_snap *arms, const int *ends, int n)
{
    int last = -1;
    for (int i = 0; i < n; i++)
        if (!ends[i]) last = i;
    if (last < 0) return;
    /* the env only grows from arm to arm: the last snapshot has every slot;
     * a table from slot to its index in the widest one */
    size_t wide = 0;
    for (int i = 0; i < n; i++)
        if (arms[i].n > arms[wide].n) wide = (size_t)i;
    const env_snap *w = &arms[wide];
    size_t cap = 16;
    while (cap < 2 * w->n) cap *= 2;
    long *idx = cg_xmalloc(cap * sizeof *idx);
    for (size_t i = 0; i < cap; i++) idx[i] = -1;
    for (size_t i = 0; i < w->n; i++) {
        size_t h = ((uintptr_t)w->slot[i] >> 4) & (cap - 1);
        while (idx[h] >= 0) h = (h + 1) & (cap - 1);
        idx[h] = (long)i;
    }
    py_val *out = cg_xmalloc((w->n + 1) * sizeof *out);
    unsigned char *set = cg_xcalloc(w->n + 1, 1);
    for (int a = 0; a < n; a++) {
        if (ends[a]) continue;
        for (size_t j = 0; j < arms[a].n; j++) {
            size_t h = ((uintptr_t)arms[a].slot[j] >> 4) & (cap - 1);
            while (idx[h] >= 0 && w->slot[idx[h]] != arms[a].slot[j]) h = (h + 1) & (cap - 1);
            if (idx[h] < 0) continue;
            size_t k = (size_t)idx[h];
            const py_val *v = &arms[a].val[j];
            if (!set[k]) out[k] = *v;
            else if (memcmp(&out[k], v, sizeof *v) != 0) out[k] = py_join(ctx, out[k], *v);
            set[k] = 1;
        }
    }
    for (size_t k = 0; k < w->n; k++)
        if (set[k]) *w->slot[k] = out[k];
    free(out);
    free(set);
    free(idx);
}

/* One arm of an if: its block (null for the fall-through when there is no
 * else), the condition it tests (null for else), and whether it is known to
 * run (+1) or not (-1) whenever the if is reached under capture. */
typedef struct if_arm {
    TSNode block, cond;
    int decided, alternative;
} if_arm;

/* What a condition of an elif is known to be under capture. */
static int arm_decision(py_ctx *ctx, py_frame *fr, TSNode c)
{
    if (!ctx->active) return 0;
    int d = py_guard_polarity(ctx, fr, c);
    if (!d) d = none_test(ctx, fr, c);
    if (!d) d = py_const_truth(ctx, fr, c);
    return d;
}

/* The arms of an if that may run, in order, up to the first known to run
 * (*sure); *arms is `stack` (8) or a malloc'ed array the caller frees. */
typedef struct if_arms { if_arm *arms, stack[8]; int n, cap, has_else, sure; } if_arms;

static void collect_arms(py_ctx *ctx, py_frame *fr, TSNode st, if_arms *out)
{
    TSNode cond = py_field(st, PY.f_condition), cons = py_field(st, PY.f_consequence);
    int g = ctx->active ? py_guard_polarity(ctx, fr, cond) : 0;
    if (ctx->active && g == 0 && lazy_init(fr, cond, cons)) g = -1;
    if (ctx->active && g == 0) g = none_test(ctx, fr, cond);
    if (ctx->active && g == 0) g = py_const_truth(ctx, fr, cond);
    out->arms = out->stack;
    out->n = out->has_else = out->sure = 0;
    out->cap = 8;
    uint32_t k = py_named_child_count(st);
    for (uint32_t i = 0; i <= k && !out->sure; i++) {
        if_arm a = { .decided = 0, .alternative = i > 0 };
        TSNode c = i == 0 ? st : py_named_child(st, i - 1);
        if (i == 0) {
            a.block = cons;
            a.cond = cond;
            a.decided = g;
        } else if (IS(c, elif_clause)) {
            a.cond = py_field(c, PY.f_condition);
            a.block = py_field(c, PY.f_consequence);
            a.decided = arm_decision(ctx, fr, a.cond);
        } else if (IS(c, else_clause)) {
            a.block = py_field(c, PY.f_body);
            a.decided = 1;
            out->has_else = 1;
        } else {
            continue;
        }
        if (a.decided == -1) continue;
        if (a.decided == 1) out->sure = 1;
        if (out->n == out->cap) {
            if_arm *more = cg_xmalloc((size_t)out->cap * 2 * sizeof *more);
            memcpy(more, out->arms, (size_t)out->n * sizeof *more);
            if (out->arms != out->stack) free(out->arms);
            out->arms = more;
            out->cap *= 2;
        }
        out->arms[out->n++] = a;
    }
}

/* Path i of an if (arm i, or the fall-through when i == n): every condition
 * before it false, its own true.  Returns whether it ends the block. */
static int run_path(py_ctx *ctx, py_frame *fr, TSNode st, const if_arms *ia, int i)
{
    int end = 0;
    /* isinstance narrowing: every condition before this arm was false, its own true */
    py_narrow nws[8];
    int nn = 0;
    for (int j = 0; j < i && j < ia->n && nn < 7; j++)
        if (!py_is_null(ia->arms[j].cond) && ia->arms[j].decided == 0) py_narrow_begin(ctx, fr, ia->arms[j].cond, 0, &nws[nn++]);
    if (i < ia->n) {
        const if_arm *a = &ia->arms[i];
        if (a->decided == 0 && !py_is_null(a->cond)) {
            py_eval_cond(ctx, fr, a->cond);
            py_narrow_begin(ctx, fr, a->cond, 1, &nws[nn++]);
        }
        if (!py_is_null(a->block)) end = py_exec_block(ctx, fr, a->block) || block_terminates(a->block);
    }
    /* a name the arm rebinds keeps what it was given (the fall-through: the whole if) */
    TSNode scope = i < ia->n ? ia->arms[i].block : st;
    while (nn > 0) narrow_end_unless_assigned(fr, &nws[--nn], scope);
    return end;
}

static void exec_if_inner(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated)
{
    if_arms ia;
    collect_arms(ctx, fr, st, &ia);
    int fall = !ia.sure && !ia.has_else;   /* no arm ran: the code after the if */
    int paths = ia.n + fall;
    int join = paths > 1 && may_bind(fr->mod, st);
    env_snap before = { 0 }, *after = NULL;
    int *ends = NULL;
    if (join) {
        snap_take(fr, &before);
        after = cg_xcalloc((size_t)paths, sizeof *after);
        ends = cg_xcalloc((size_t)paths, sizeof *ends);
    }
    int all_end = 1;
    for (int i = 0; i < paths; i++) {
        if (join && i > 0) snap_restore(&before);
        int end = run_path(ctx, fr, st, &ia, i);
        if (join) {
            snap_take(fr, &after[i]);
            ends[i] = end;
        }
        if (!end) all_end = 0;
    }
    if (join) {
        if (all_end) snap_restore(&before);
        else join_arms(ctx, after, ends, paths);
        for (int i = 0; i < paths; i++) snap_free(&after[i]);
        snap_free(&before);
        free(after);
        free(ends);
    }
    if (paths > 0 && all_end) *terminated = 1;   /* the rest never runs (under capture) */
    if (ia.arms != ia.stack) free(ia.arms);
}

static void exec_if(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated)
{
    ctx->conds_in_loop++;
    exec_if_inner(ctx, fr, st, terminated);
    ctx->conds_in_loop--;
}

/* A loop body: counted for CG705 (capture in a loop) and CG505 (replay loop). */
static void exec_loop_body(py_ctx *ctx, py_frame *fr, TSNode loop, TSNode body)
{
    int saved_conds = ctx->conds_in_loop;
    TSNode saved_loop = ctx->loop_node;
    ctx->loop_node = loop;
    ctx->loops++;
    ctx->conds_in_loop = 0;
    if (!ctx->active) fr->warm = 1;   /* a loop before the capture: warm-up iterations */
    forget_rebound_lits(ctx, fr, loop);
    if (!py_is_null(body)) py_exec_block(ctx, fr, body);
    ctx->loops--;
    ctx->loop_node = saved_loop;
    ctx->conds_in_loop = saved_conds;
}

/* `for cls in (torch.optim.Adam, torch.optim.AdamW):` a loop over a literal
 * tuple or list of library names: the body once per name, the target bound
 * to each (the classes chosen in a loop).  Returns 0 for other loops. */
static int exec_for_names(py_ctx *ctx, py_frame *fr, TSNode st, TSNode left)
{
    TSNode right = py_unparen(py_field(st, PY.f_right));
    if (!(IS(right, tuple) || IS(right, list)) || !IS(left, identifier)) return 0;
    uint32_t n = py_named_child_count(right);
    py_val names[4];
    if (n == 0 || n > 4) return 0;
    for (uint32_t i = 0; i < n; i++) {
        names[i] = py_eval_quiet(ctx, fr, py_named_child(right, i));
        if (names[i].kind != PY_V_EXT) return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        py_bind_target(ctx, fr, left, names[i]);
        exec_loop_body(ctx, fr, st, py_field(st, PY.f_body));
    }
    TSNode alt = py_field(st, PY.f_alternative);
    if (!py_is_null(alt)) py_exec_block(ctx, fr, py_field(alt, PY.f_body));
    return 1;
}

static void exec_for(py_ctx *ctx, py_frame *fr, TSNode st)
{
    TSNode left = py_field(st, PY.f_left);
    if (exec_for_names(ctx, fr, st, left)) return;
    py_val it = py_eval(ctx, fr, py_field(st, PY.f_right));
    int enumerated = (it.flags & PY_VF_ENUMERATE) && (IS(left, pattern_list) || IS(left, tuple_pattern)) &&
                     py_named_child_count(left) == 2;
    it.flags &= ~(uint32_t)PY_VF_ENUMERATE;
    py_val el = py_element_of(ctx, &it, 1);
    if (enumerated) {
        py_bind_target(ctx, fr, py_named_child(left, 0), py_vk(PY_V_NUMBER));
        py_bind_target(ctx, fr, py_named_child(left, 1), el);
    } else {
        /* a number the loop binds changes every iteration (CG304); a loop
         * inside the capture is unrolled into the graph, each iteration's value
         * captured with it */
        if (el.kind == PY_V_NUMBER && IS(left, identifier) && !ctx->active) el.flags |= PY_VF_LOOPVAR;
        py_bind_target(ctx, fr, left, el);
        if (el.kind == PY_V_NUMBER && IS(left, identifier) && ctx->active) {
            size_t nl;
            const char *nt = py_text(fr->mod, left, &nl);
            py_val *slot = cg_map_get(&fr->env, nt, nl);
            if (slot) slot->origin = PY_O_NONE;
        }
    }
    int saved_pin = fr->pin_loader_loop;
    if (it.kind == PY_V_EXTOBJ && cg_eq(it.qual, "torch.utils.data.DataLoader") && (it.flags & PY_VF_PINNED))
        fr->pin_loader_loop = 1;
    exec_loop_body(ctx, fr, st, py_field(st, PY.f_body));
    fr->pin_loader_loop = saved_pin;
    TSNode alt = py_field(st, PY.f_alternative);
    if (!py_is_null(alt)) py_exec_block(ctx, fr, py_field(alt, PY.f_body));
}

static void exec_while(py_ctx *ctx, py_frame *fr, TSNode st)
{
    py_eval_cond(ctx, fr, py_field(st, PY.f_condition));
    exec_loop_body(ctx, fr, st, py_field(st, PY.f_body));
}

/* Does block b end by raising (`except ...: cleanup(); raise`)? */
static int block_reraises(TSNode b)
{
    uint32_t k = py_named_child_count(b);
    while (k > 0 && IS(py_named_child(b, k - 1), comment)) k--;
    return k > 0 && IS(py_named_child(b, k - 1), raise_statement);
}

/* try: every block (the body, except, else, finally clauses).  In a capture,
 * an except clause that raises again is not walked: it runs only when the
 * captured code fails, and the exception ends the capture (no replay keeps
 * or misses what it did). */
static void exec_try(py_ctx *ctx, py_frame *fr, TSNode st)
{
    forget_rebound_lits(ctx, fr, st);
    uint32_t k = py_named_child_count(st);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = py_named_child(st, i);
        if (IS(c, block)) {
            py_exec_block(ctx, fr, c);
            continue;
        }
        uint32_t kk = py_named_child_count(c);
        for (uint32_t j = 0; j < kk; j++) {
            TSNode b = py_named_child(c, j);
            if (!IS(b, block)) continue;
            if (ctx->active && IS(c, except_clause) && block_reraises(b)) continue;
            py_exec_block(ctx, fr, b);
        }
    }
}

static void exec_return(py_ctx *ctx, py_frame *fr, TSNode st)
{
    py_val v = py_named_child_count(st) ? py_eval(ctx, fr, py_named_child(st, 0)) : py_vk(PY_V_NONE);
    /* a method replaying another method's capture returns its output to callers that keep it */
    if (ctx->phase == PY_PH_AFTER && ctx->after && ctx->after_method == fr->fn && (v.flags & PY_VF_OUTPUT) &&
        v.kind == PY_V_TENSOR && py_callers_keep_result(ctx, fr->fn)) {
        py_event ev;
        py_event_init(&ev, PY_EV_STORE, fr->mod, py_named_child(st, 0));
        ev.val = v;
        ev.target_kind = 3;
        py_emit(ctx, &ev);
    }
    fr->ret = fr->has_ret ? py_join(ctx, fr->ret, v) : v;
    fr->has_ret = 1;
}

static void exec_global(py_ctx *ctx, py_frame *fr, TSNode st)
{
    uint32_t k = py_named_child_count(st);
    for (uint32_t i = 0; i < k; i++) {
        size_t len;
        const char *t = py_text(fr->mod, py_named_child(st, i), &len);
        cg_map_put(&fr->globals_declared, cg_arena_strndup(ctx->arena, t, len), len, (void *)1);
    }
}

static py_func *func_for_node(py_module *m, TSNode def)
{
    for (size_t i = 0; i < m->nall_funcs; i++)
        if (py_eq(m->all_funcs[i]->node, def)) return m->all_funcs[i];
    return NULL;
}

/* A nested def binds its name to the function. */
static void exec_def(py_ctx *ctx, py_frame *fr, TSNode st)
{
    TSNode def = IS(st, decorated_definition) ? py_field(st, PY.f_definition) : st;
    if (!IS(def, function_definition)) return;
    py_func *f = func_for_node(fr->mod, def);
    if (!f) return;
    py_val v = py_vk(PY_V_FUNC);
    v.fn = f;
    v.closure = py_closure_of(ctx, fr);
    size_t len;
    const char *t = py_text(fr->mod, py_field(def, PY.f_name), &len);
    py_bind(ctx, fr, t, len, v);
}

/* Statements not evaluated: imports, classes, pass, comments, nonlocal
 * (nothing to evaluate); del and match (not modelled). */
static void exec_stmt(py_ctx *ctx, py_frame *fr, TSNode st, int *terminated)
{
    TSSymbol s = py_symbol(st);
    if (s == PY.expression_statement) exec_expression(ctx, fr, st);
    else if (s == PY.if_statement) exec_if(ctx, fr, st, terminated);
    else if (s == PY.with_statement) exec_with(ctx, fr, st, terminated);
    else if (s == PY.for_statement) exec_for(ctx, fr, st);
    else if (s == PY.while_statement) exec_while(ctx, fr, st);
    else if (s == PY.try_statement) exec_try(ctx, fr, st);
    else if (s == PY.return_statement) { exec_return(ctx, fr, st); *terminated = 1; }
    else if (s == PY.raise_statement) *terminated = 1;
    else if (s == PY.assert_statement) { if (py_named_child_count(st)) py_eval_cond(ctx, fr, py_named_child(st, 0)); }
    else if (s == PY.global_statement) exec_global(ctx, fr, st);
    else if (s == PY.function_definition || s == PY.decorated_definition) exec_def(ctx, fr, st);
    else if (s == PY.block) *terminated = py_exec_block(ctx, fr, st);
}

int py_exec_block(py_ctx *ctx, py_frame *fr, TSNode block)
{
    if (++ctx->depth > 150) { ctx->depth--; return 0; }
    int terminated = 0;
    py_kids kids = py_kids_of(block);
    for (TSNode st; !terminated && !py_is_null(st = py_kids_next(&kids));) {
        /* a simple statement tree-sitter could not parse is not evaluated:
         * its recovered tree is not the code the user wrote */
        if (py_has_error(st) && (IS(st, expression_statement) || IS(st, return_statement) ||
                                 IS(st, assert_statement) || IS(st, raise_statement) ||
                                 strcmp(py_type(st), "ERROR") == 0))
            continue;
        exec_stmt(ctx, fr, st, &terminated);
    }
    py_kids_free(&kids);
    ctx->depth--;
    return terminated;
}
