/* py_index.c - what each module defines and imports, and name resolution.
 *
 * A module is indexed once, right after it is parsed: its imports (local name
 * -> absolute dotted target), top-level functions and classes, every def in
 * the file (for finding capture regions), what each class stores in self
 * attributes, and how often module globals and attributes are assigned (the
 * frozen-scalar rule needs "assigned again elsewhere").  Resolution turns a
 * name into a project function, class or module, or an external dotted name
 * such as "torch.cuda.graph"; it loads other modules on demand. */
#include "py_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RESOLVE_DEPTH 8

static py_func *new_func(py_module *m, py_class *cls, TSNode node, const char *name)
{
    py_func *f = cg_arena_alloc(m->arena, sizeof *f);
    f->mod = m;
    f->cls = cls;
    f->node = node;
    f->name = name;
    f->qualname = cls ? cg_arena_printf(m->arena, "%s.%s", cls->name, name) : name;
    f->body = py_field(node, PY.f_body);
    cg_arena_push(m->arena, (void ***)&m->all_funcs, &m->nall_funcs, &m->capall_funcs, f);
    return f;
}

static void map_inc(cg_map *map, const char *k, size_t len)
{
    uintptr_t n = (uintptr_t)cg_map_get(map, k, len);
    cg_map_put(map, k, len, (void *)(n + 1));
}

/* Resolve the module named by an import_from's module_name (maybe relative). */
static const char *from_target(py_module *m, TSNode modname)
{
    if (IS(modname, relative_import)) {
        /* count the dots, then the optional dotted name */
        size_t len;
        const char *t = py_text(m, modname, &len);
        size_t dots = 0;
        while (dots < len && t[dots] == '.') dots++;
        const char *pkg = m->package;
        char *base = cg_arena_strdup(m->arena, pkg);
        for (size_t i = 1; i < dots; i++) {
            char *d = strrchr(base, '.');
            if (d) *d = 0; else base[0] = 0;
        }
        const char *rest = t + dots;
        size_t rl = len - dots;
        if (!rl) return base;
        if (!base[0]) return cg_arena_strndup(m->arena, rest, rl);
        return cg_arena_printf(m->arena, "%s.%.*s", base, (int)rl, rest);
    }
    return py_text_dup(m, modname);
}

static void add_import(py_module *m, const char *local, size_t llen, const char *target)
{
    py_import *imp = cg_arena_alloc(m->arena, sizeof *imp);
    imp->target = target;
    cg_map_put(&m->imports, cg_arena_strndup(m->arena, local, llen), llen, imp);
}

static void index_import(py_module *m, TSNode st)
{
    if (IS(st, import_statement)) {
        uint32_t n = py_named_child_count(st);
        for (uint32_t i = 0; i < n; i++) {
            TSNode c = py_named_child(st, i);
            if (IS(c, aliased_import)) {
                TSNode name = py_field(c, PY.f_name), alias = py_field(c, PY.f_alias);
                size_t al;
                const char *a = py_text(m, alias, &al);
                add_import(m, a, al, py_text_dup(m, name));
            } else if (IS(c, dotted_name)) {
                /* `import a.b.c` binds `a` to the top package */
                size_t len;
                const char *t = py_text(m, c, &len);
                const char *dot = memchr(t, '.', len);
                size_t first = dot ? (size_t)(dot - t) : len;
                add_import(m, t, first, cg_arena_strndup(m->arena, t, first));
                /* remember the full path too, so `a.b.c.f` resolves through it */
                if (dot) add_import(m, t, len, cg_arena_strndup(m->arena, t, len));
            }
        }
        return;
    }
    /* from X import a, b as c */
    TSNode modname = py_field(st, PY.f_module_name);
    if (py_is_null(modname)) return;
    const char *base = from_target(m, modname);
    uint32_t n = py_named_child_count(st);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = py_named_child(st, i);
        if (py_eq(c, modname)) continue;
        TSNode name = c, alias = c;
        if (IS(c, aliased_import)) { name = py_field(c, PY.f_name); alias = py_field(c, PY.f_alias); }
        else if (!IS(c, dotted_name)) continue;
        size_t nl, al;
        const char *nt = py_text(m, name, &nl);
        const char *at = py_text(m, alias, &al);
        const char *target = base[0] ? cg_arena_printf(m->arena, "%s.%.*s", base, (int)nl, nt)
                                     : cg_arena_strndup(m->arena, nt, nl);
        add_import(m, at, al, target);
    }
}

/* first parameter's name: "self" by convention, but any name works */
static int first_param(py_module *m, TSNode fn, const char **out, size_t *len)
{
    TSNode params = py_field(fn, PY.f_parameters);
    if (py_is_null(params) || py_named_child_count(params) == 0) return 0;
    TSNode p0 = py_named_child(params, 0);
    if (IS(p0, typed_parameter)) p0 = py_named_child(p0, 0);
    else if (IS(p0, default_parameter) || IS(p0, typed_default_parameter)) p0 = py_field(p0, PY.f_name);
    if (!IS(p0, identifier)) return 0;
    *out = py_text(m, p0, len);
    return 1;
}

typedef struct attr_walk {
    py_module *m;
    py_class *cls;
    py_func *fn;
    const char *self;
    size_t selflen;
    int in_init;
    TSNode path[402];   /* the nodes from the walk's root down to the current one (by depth) */
} attr_walk;

/* `if self.x is None: self.x = v` (a default filled in once, at set-up): the
 * store at n of attribute a is no reassignment of a value already used. */
static int default_if_none(const attr_walk *w, TSNode n, int depth, const char *a, size_t al)
{
    py_module *m = w->m;
    if (!IS(n, assignment) || depth < 3) return 0;
    TSNode st = w->path[depth - 1], blk = w->path[depth - 2], ifs = w->path[depth - 3];
    if (!IS(st, expression_statement) || !IS(blk, block) || !IS(ifs, if_statement)) return 0;
    TSNode c = py_unparen(py_field(ifs, PY.f_condition));
    if (!IS(c, comparison_operator) || py_named_child_count(c) != 2 || !IS(py_named_child(c, 1), none)) return 0;
    TSNode x = py_named_child(c, 0);
    if (!IS(x, attribute)) return 0;
    size_t xl, cl;
    const char *xt = py_text(m, py_field(x, PY.f_attribute), &xl), *ct = py_text(m, c, &cl);
    return xl == al && memcmp(xt, a, al) == 0 && !memmem(ct, cl, " is not ", 8);
}

/* Store n (an assignment of nt targets) into self.<a> (al bytes): the class's
 * attribute table. */
static void note_self_store(attr_walk *w, TSNode n, uint32_t nt, int depth, const char *a, size_t al)
{
    py_attr *pa = cg_map_get(&w->cls->attrs, a, al);
    if (!pa) {
        pa = cg_arena_alloc(w->m->arena, sizeof *pa);
        pa->name = cg_arena_strndup(w->m->arena, a, al);
        cg_map_put(&w->cls->attrs, pa->name, al, pa);
    }
    pa->assigns++;
    if ((!w->in_init || IS(n, augmented_assignment)) && !default_if_none(w, n, depth, a, al))
        pa->assigns_outside_init++;
    /* a one-way flag: literal True/False stores, in __init__ and in which other method */
    TSNode rv = nt == 1 && IS(n, assignment) ? py_field(n, PY.f_right) : (TSNode){0};
    uint8_t ab = IS(rv, true_) ? PY_AB_TRUE : IS(rv, false_) ? PY_AB_FALSE : PY_AB_OTHER;
    if (w->in_init) {
        pa->bools_init |= ab;
    } else {
        pa->bools_out |= ab;
        if (pa->setter != w->fn) pa->setters++;
        pa->setter = w->fn;
    }
    if (IS(n, assignment) && nt == 1 && !py_is_null(py_field(n, PY.f_type)) && py_is_null(pa->type)) {
        pa->type = py_field(n, PY.f_type);
        pa->type_mod = w->m;
    }
    /* keep __init__'s value; else the first one seen */
    if (IS(n, assignment) && nt == 1 &&
        (py_is_null(pa->value) || (w->in_init && !(pa->value_fn && pa->value_fn->name &&
                                                       strcmp(pa->value_fn->name, "__init__") == 0)))) {
        pa->value = py_field(n, PY.f_right);
        pa->value_fn = w->fn;
    }
}

/* An expression: no assignment statement below it (a walrus stores no
 * attribute, a lambda's body is an expression), so the walk stops there;
 * most of a function's nodes are in expressions. */
static int below_no_store(TSNode n)
{
    TSSymbol s = py_symbol(n);
    return s == PY.call || s == PY.attribute || s == PY.identifier || s == PY.subscript ||
           s == PY.argument_list || s == PY.binary_operator || s == PY.comparison_operator ||
           s == PY.boolean_operator || s == PY.not_operator || s == PY.unary_operator ||
           s == PY.conditional_expression || s == PY.parenthesized_expression || s == PY.string ||
           s == PY.concatenated_string || s == PY.integer || s == PY.float_ || s == PY.list ||
           s == PY.dictionary || s == PY.set || s == PY.tuple || s == PY.list_comprehension ||
           s == PY.dictionary_comprehension || s == PY.set_comprehension || s == PY.generator_expression ||
           s == PY.lambda || s == PY.await_ || s == PY.named_expression || s == PY.expression_list;
}

/* One node of walk_attr_assigns (the cursor k stands on it), and below it. */
static void walk_attr_node(attr_walk *w, py_cursor *k, int depth, cg_map *project_counts)
{
    TSNode n = py_cursor_node(k);
    if (depth > 400) return;
    if (IS(n, function_definition) || IS(n, class_definition) || IS(n, lambda)) {
        if (depth > 0) return;
    }
    if (IS(n, assignment) || IS(n, augmented_assignment)) {
        TSNode left = py_field(n, PY.f_left);
        int many = IS(left, pattern_list) || IS(left, tuple_pattern);
        uint32_t nt = many ? py_named_child_count(left) : 1;
        for (uint32_t i = 0; i < nt; i++) {
            TSNode t = many ? py_named_child(left, i) : left;
            if (!IS(t, attribute)) continue;
            TSNode obj = py_field(t, PY.f_object), at = py_field(t, PY.f_attribute);
            size_t al;
            const char *a = py_text(w->m, at, &al);
            int is_self = 0;
            if (w->cls && IS(obj, identifier)) {
                size_t ol;
                const char *o = py_text(w->m, obj, &ol);
                is_self = ol == w->selflen && memcmp(o, w->self, ol) == 0;
            }
            /* a store on another object (`model.lr = x`): the project's count by name.
             * Stores on self are the class's own (pa below), and an autograd
             * Function's `ctx.x = ...` is a fresh object's */
            if (!is_self && !(IS(obj, identifier) && py_text_eq(w->m, obj, "ctx")))
                map_inc(project_counts, cg_arena_strndup(w->m->arena, a, al), al);
            if (is_self) note_self_store(w, n, nt, depth, a, al);
        }
    }
    w->path[depth] = n;
    if (below_no_store(n) || !py_cursor_first_child(k)) return;
    do {
        if (py_is_named(py_cursor_node(k))) walk_attr_node(w, k, depth + 1, project_counts);
    } while (py_cursor_next_sibling(k));
    py_cursor_parent(k);
}

/* Every `X.attr = ...` / `X.attr += ...` below n (not into nested defs/classes):
 * counts for the project and, for `self.attr`, the class's attribute table.
 * One cursor for the whole walk (indexing children is quadratic, a cursor
 * per node a malloc each). */
static void walk_attr_assigns(attr_walk *w, TSNode n, int depth, cg_map *project_counts)
{
    py_cursor k = py_cursor_new(n);
    if (k.ok) walk_attr_node(w, &k, depth, project_counts);
    py_cursor_free(&k);
}

static void index_defs(py_module *m, TSNode block, py_class *cls, cg_map *attr_counts, int depth);

/* `x: T` and `x = v` in a class body (dataclass fields, class attributes):
 * what self.x is when no method says (an annotation of x, its value). */
static void index_class_body(py_module *m, py_class *c, TSNode body)
{
    py_kids kids = py_kids_of(body);
    for (TSNode st; !py_is_null(st = py_kids_next(&kids));) {
        TSNode e = IS(st, expression_statement) ? py_named_child(st, 0) : (TSNode){0};
        if (!IS(e, assignment)) continue;
        TSNode left = py_field(e, PY.f_left), type = py_field(e, PY.f_type), right = py_field(e, PY.f_right);
        if (!IS(left, identifier) || IS(right, assignment)) continue;
        size_t len;
        const char *t = py_text(m, left, &len);
        py_attr *pa = cg_map_get(&c->attrs, t, len);
        if (!pa) {
            pa = cg_arena_alloc(m->arena, sizeof *pa);
            pa->name = cg_arena_strndup(m->arena, t, len);
            cg_map_put(&c->attrs, pa->name, len, pa);
        }
        if (!py_is_null(type) && py_is_null(pa->type)) {
            pa->type = type;
            pa->type_mod = m;
        }
        if (!py_is_null(right))
            pa->bools_init |= IS(right, true_) ? PY_AB_TRUE : IS(right, false_) ? PY_AB_FALSE : PY_AB_OTHER;
        if (py_is_null(pa->value) && !py_is_null(right)) {
            pa->value = right;   /* value_fn NULL: the class body, in type_mod */
            pa->type_mod = m;
        }
    }
    py_kids_free(&kids);
}

static void index_def(py_module *m, TSNode def, py_class *cls, cg_map *attr_counts, int depth, int top)
{
    if (IS(def, decorated_definition)) def = py_field(def, PY.f_definition);
    if (py_is_null(def)) return;
    TSNode namen = py_field(def, PY.f_name);
    if (py_is_null(namen)) return;
    const char *name = py_text_dup(m, namen);
    size_t nl = strlen(name);
    if (IS(def, function_definition)) {
        py_func *f = new_func(m, cls, def, name);
        if (cls) cg_map_put(&cls->methods, name, nl, f);
        else if (top) cg_map_put(&m->funcs, name, nl, f);
        if (!py_is_null(f->body)) {
            attr_walk w = { .m = m, .cls = cls, .fn = f, .in_init = cls && strcmp(name, "__init__") == 0 };
            if (!cls || !first_param(m, def, &w.self, &w.selflen)) w.cls = NULL;
            walk_attr_assigns(&w, f->body, 1, attr_counts);
            index_defs(m, f->body, NULL, attr_counts, depth + 1); /* nested defs: found for regions */
        }
    } else if (IS(def, class_definition)) {
        py_class *c = cg_arena_alloc(m->arena, sizeof *c);
        c->mod = m;
        c->name = name;
        c->node = def;
        c->bases = py_field(def, PY.f_superclasses);
        cg_map_init(&c->methods);
        cg_map_init(&c->attrs);
        c->next_in_module = m->all_classes;
        m->all_classes = c;
        if (top) cg_map_put(&m->classes, name, nl, c);
        TSNode body = py_field(def, PY.f_body);
        if (!py_is_null(body)) index_defs(m, body, c, attr_counts, depth + 1);
        if (!py_is_null(body)) index_class_body(m, c, body);
    }
}

/* A module-level `X = v`, `X += v` or `A, B = 1, 2`: counted per name, and
 * the right-hand side kept as the name's value (paired by position when the
 * shapes match). */
static void index_global_assignment(py_module *m, TSNode e)
{
    TSNode left = py_field(e, PY.f_left);
    TSNode right = py_field(e, PY.f_right);
    if ((IS(left, pattern_list) || IS(left, tuple_pattern)) && IS(e, assignment)) {
        uint32_t nl = py_named_child_count(left);
        int paired = !py_is_null(right) && (IS(right, expression_list) || IS(right, tuple)) &&
                     py_named_child_count(right) == nl;
        for (uint32_t j = 0; j < nl; j++) {
            TSNode t = py_named_child(left, j);
            if (!IS(t, identifier)) continue;
            size_t len;
            const char *tt = py_text(m, t, &len);
            char *k = cg_arena_strndup(m->arena, tt, len);
            map_inc(&m->global_assigns, k, len);
            if (paired) {
                TSNode *v = cg_arena_alloc(m->arena, sizeof *v);
                *v = py_named_child(right, j);
                cg_map_put(&m->global_values, k, len, v);
            }
        }
    }
    if (IS(left, identifier)) {
        size_t len;
        const char *t = py_text(m, left, &len);
        char *k = cg_arena_strndup(m->arena, t, len);
        map_inc(&m->global_assigns, k, len);
        if (IS(e, assignment)) {
            TSNode *v = cg_arena_alloc(m->arena, sizeof *v);
            *v = py_field(e, PY.f_right);
            cg_map_put(&m->global_values, k, len, v);
        }
    }
}

/* A compound statement's blocks and clauses (if/try/with...), at the same level. */
static int is_clause(TSNode c)
{
    return IS(c, block) || IS(c, elif_clause) || IS(c, else_clause) || IS(c, except_clause) || IS(c, finally_clause);
}

/* Definitions in a block; descends into if/try/with at this level so that
 * `if TYPE_CHECKING:` and `try: import x` forms are indexed. */
static void index_defs(py_module *m, TSNode block, py_class *cls, cg_map *attr_counts, int depth)
{
    if (depth > 100) return;
    int top = depth == 0;
    py_kids kids = py_kids_of(block);
    for (TSNode st; !py_is_null(st = py_kids_next(&kids));) {
        if (IS(st, function_definition) || IS(st, class_definition) || IS(st, decorated_definition)) {
            index_def(m, st, cls, attr_counts, depth, top || cls != NULL);
        } else if (top && (IS(st, import_statement) || IS(st, import_from_statement))) {
            index_import(m, st);
        } else if (top && IS(st, expression_statement)) {
            TSNode e = py_named_child(st, 0);
            if (IS(e, assignment) || IS(e, augmented_assignment)) index_global_assignment(m, e);
        } else if (IS(st, if_statement) || IS(st, try_statement) || IS(st, with_statement) || is_clause(st)) {
            uint32_t k = py_named_child_count(st);
            for (uint32_t j = 0; j < k; j++)
                if (is_clause(py_named_child(st, j))) index_defs(m, py_named_child(st, j), cls, attr_counts, depth);
        }
    }
    py_kids_free(&kids);
}

/* `global x` in a function: each counts as an assignment made elsewhere.
 * Found from the text: each `global` whose token is a global statement's
 * keyword (a walk of every node of every module cost more than the rest of
 * the indexing in `cglint server`). */
static void count_global_stmts(py_module *m, TSNode root)
{
    const char *t = m->src.text;
    size_t n = m->src.len;
    for (const char *p = t; (p = memmem(p, n - (size_t)(p - t), "global", 6)) != NULL; p += 6) {
        uint32_t off = (uint32_t)(p - t);
        TSNode kw = py_descendant_for_byte_range(root, off, off + 6);
        if (py_is_null(kw) || py_start_byte(kw) != off || py_end_byte(kw) != off + 6) continue;
        TSNode st = py_parent(kw);   /* the keyword: the statement's first token */
        if (!IS(st, global_statement) || py_start_byte(st) != off) continue;
        uint32_t k = py_named_child_count(st);
        for (uint32_t i = 0; i < k; i++) {
            size_t len;
            const char *x = py_text(m, py_named_child(st, i), &len);
            map_inc(&m->global_assigns, cg_arena_strndup(m->arena, x, len), len);
        }
    }
}

/* Does the file call set_default_device with a device that may be CUDA?  A
 * literal "cpu" or "meta" is not; "cuda", torch.device("cuda", i) and names
 * (a variable may well hold a GPU) are. */
static int sets_default_cuda(const char *t, size_t n)
{
    static const char key[] = "set_default_device(";
    const size_t kl = sizeof key - 1;
    for (const char *p = t, *end = t + n; (p = memmem(p, (size_t)(end - p), key, kl)) != NULL;) {
        p += kl;
        const char *close = memchr(p, ')', (size_t)(end - p));
        size_t al = close ? (size_t)(close - p) : 0;
        if (al && !memmem(p, al, "cpu", 3) && !memmem(p, al, "meta", 4)) return 1;
    }
    return 0;
}

/* What the file says anywhere (PY_MT_*): searched once here so that no rule
 * searches source text. */
static unsigned text_facts(const py_module *m)
{
    const char *t = m->src.text;
    size_t n = m->src.len;
    unsigned f = 0;
    if (memmem(t, n, "capture_scalar_outputs = True", 29) || memmem(t, n, "capture_scalar_outputs=True", 27))
        f |= PY_MT_SCALAR_OUTPUTS;
    if (memmem(t, n, "register_generator_state", 24)) f |= PY_MT_REGISTERS_GENERATOR;
    /* built here, not merely named (a mock.patch target string is not DDP) */
    if (memmem(t, n, "DistributedDataParallel(", 24) || memmem(t, n, "DDP(", 4)) f |= PY_MT_BUILDS_DDP;
    if (memmem(t, n, "NCCL_ASYNC_ERROR_HANDLING", 25)) f |= PY_MT_NCCL_ASYNC;
    if (sets_default_cuda(t, n)) f |= PY_MT_DEFAULT_CUDA;
    return f;
}

static void index_module(py_project *p, py_module *m)
{
    m->text_facts = text_facts(m);
    cg_map_init(&m->imports);
    cg_map_init(&m->funcs);
    cg_map_init(&m->classes);
    cg_map_init(&m->global_assigns);
    cg_map_init(&m->global_values);
    TSNode root = ts_tree_root_node(m->tree);
    py_func *body = cg_arena_alloc(m->arena, sizeof *body);
    body->mod = m;
    body->name = "<module>";
    body->qualname = cg_arena_printf(m->arena, "%s", m->name);
    body->node = root;
    body->body = root;
    body->is_module_body = 1;
    m->body = body;
    cg_map_init(&m->attr_counts);
    index_defs(m, root, NULL, &m->attr_counts, 0);
    count_global_stmts(m, root);
    /* module-level `X.attr = v` (scripts configure models at top level) */
    attr_walk w = { .m = m };
    py_kids kids = py_kids_of(root);
    for (TSNode st; !py_is_null(st = py_kids_next(&kids));)
        if (!IS(st, function_definition) && !IS(st, class_definition) && !IS(st, decorated_definition))
            walk_attr_assigns(&w, st, 1, &m->attr_counts);
    py_kids_free(&kids);
}

void py_index_merge_counts(py_project *p, py_module *m)
{
    pthread_mutex_lock(&p->report->lock);
    for (size_t i = 0; i < m->attr_counts.cap; i++)
        if (m->attr_counts.keys[i]) {
            const char *k = m->attr_counts.keys[i];
            size_t kl = m->attr_counts.klen[i];
            uintptr_t have = (uintptr_t)cg_map_get(&p->attr_assigns, k, kl);
            cg_map_put(&p->attr_assigns, k, kl, (void *)(have + (uintptr_t)m->attr_counts.vals[i]));
        }
    pthread_mutex_unlock(&p->report->lock);
}

void py_index_release(py_module *m)
{
    if (m->tree) ts_tree_delete(m->tree);
    m->tree = NULL;
    cg_source_free(&m->src);
    if (m->state == 1) {
        cg_map_free(&m->imports);
        cg_map_free(&m->funcs);
        cg_map_free(&m->global_assigns);
        cg_map_free(&m->global_values);
        cg_map_free(&m->attr_counts);
        /* class and function maps live in the module arena's objects */
        for (size_t k = 0; k < m->nall_funcs; k++)
            if (m->all_funcs[k]->local_assigns_ready) cg_map_free(&m->all_funcs[k]->local_assigns);
        /* every class: a nested or redefined one is not in m->classes */
        for (py_class *c = m->all_classes; c; c = c->next_in_module) {
            cg_map_free(&c->methods);
            cg_map_free(&c->attrs);
        }
        cg_map_free(&m->classes);
    }
    if (m->body && m->body->local_assigns_ready) cg_map_free(&m->body->local_assigns);
    m->body = NULL;
    m->all_funcs = NULL;
    m->nall_funcs = m->capall_funcs = 0;
    m->all_classes = NULL;
    cg_arena_free(m->arena);
    m->arena = NULL;
}

int py_module_ensure(py_project *p, py_module *m)
{
    py_ctx_note_module(m);   /* the analysis on this thread, if any, uses m */
    pthread_mutex_lock(&m->lock);
    if (m->state == 0) {
        m->state = -1;
        if (!m->src.text) {
            char err[512];
            if (cg_source_load(&m->src, m->file->path, p->opts->max_file_size, err, sizeof err) != CG_SRC_OK) {
                cg_report_notice(p->report, CG_ERROR, m->file->path, 0, 0, "%s", err);
                goto done;
            }
        } else if (cg_source_index_lines(&m->src) != 0) {   /* read by phase 1 without one */
            cg_report_notice(p->report, CG_ERROR, m->file->path, 0, 0, "out of memory");
            goto done;
        }
        /* `cglint server`: the index of these bytes, kept from an earlier run */
        if (py_keep_take(p, m)) {
            m->state = 1;
            if (m->has_marker) __atomic_add_fetch(&p->report->files_analysed, 1, __ATOMIC_RELAXED);
            goto done;
        }
        /* CGLINT_TRACE_PARSE=1: which files a run parses, and why (for benchmarks) */
        if (getenv("CGLINT_TRACE_PARSE")) fprintf(stderr, "cglint: parse %s%s\n", m->file->path, m->has_marker ? "" : " (reached)");
        if (!m->arena) m->arena = cg_arena_new();
        if (py_parse_module(p, m) == 0) {
            index_module(p, m);
            m->state = 1;
            /* files without a capture API were counted when phase 1 read them */
            if (m->has_marker) __atomic_add_fetch(&p->report->files_analysed, 1, __ATOMIC_RELAXED);
        }
    }
done:;
    int ok = m->state == 1;
    pthread_mutex_unlock(&m->lock);
    return ok ? 0 : -1;
}

/* The module with this dotted name; among several (scripts in different
 * directories), the one under the same sys.path root as `near`. */
py_module *py_project_module(py_project *p, const char *dotted, const py_module *near)
{
    py_module *m = cg_map_get(&p->by_name, dotted, strlen(dotted));
    if (!m || !m->next_same_name || !near) return m;
    for (py_module *c = m; c; c = c->next_same_name)
        if (strcmp(c->root, near->root) == 0) return c;
    return m;
}

/* The module an import names: "a.b" for `import a.b`, and for `from a.b import
 * C` (target "a.b.C") the module a.b when a.b.C is not one.  NULL: not in the
 * project. */
py_module *py_import_module(py_project *p, const char *target, const py_module *from)
{
    py_module *d = py_project_module(p, target, from);
    const char *dot = d ? NULL : strrchr(target, '.');
    if (dot) {
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(dot - target), target);
        d = py_project_module(p, buf, from);
    }
    return d;
}

/* Packages whose API the rules are written against: always the library, even
 * when the analysed tree holds a package of that name (a test double, a
 * vendored copy), so that `torch.cuda.graph` keeps meaning the capture API. */
static int always_external(const char *dotted)
{
    static const char *const roots[] = { "torch", "numpy", "triton", NULL };
    for (int i = 0; roots[i]; i++) {
        size_t n = strlen(roots[i]);
        if (strncmp(dotted, roots[i], n) == 0 && (dotted[n] == 0 || dotted[n] == '.')) return 1;
    }
    return 0;
}

py_sym py_resolve_dotted(py_project *p, const char *dotted, const py_module *near, int depth)
{
    py_sym s = { .kind = PY_SYM_EXTERNAL, .qual = dotted };
    if (depth > MAX_RESOLVE_DEPTH || always_external(dotted)) return s;
    py_module *m = py_project_module(p, dotted, near);
    if (m) {
        s.kind = PY_SYM_MODULE;
        s.mod = m;
        return s;
    }
    const char *dot = strrchr(dotted, '.');
    if (!dot) return s;
    char prefix[512];
    size_t pl = (size_t)(dot - dotted);
    if (pl >= sizeof prefix) return s;
    memcpy(prefix, dotted, pl);
    prefix[pl] = 0;
    py_sym parent = py_resolve_dotted(p, prefix, near, depth + 1);
    if (parent.kind == PY_SYM_MODULE) {
        if (py_module_ensure(p, parent.mod) != 0) return s;
        py_sym r = py_resolve_member(p, parent.mod, dot + 1, strlen(dot + 1));
        if (r.kind != PY_SYM_NONE) return r;
    }
    return s;
}

/* A name bound at the top of module m: def, class, import (followed). */
py_sym py_resolve_member(py_project *p, py_module *m, const char *name, size_t len)
{
    py_sym s = { .kind = PY_SYM_NONE };
    py_func *f = cg_map_get(&m->funcs, name, len);
    if (f) { s.kind = PY_SYM_FUNC; s.func = f; return s; }
    py_class *c = cg_map_get(&m->classes, name, len);
    if (c) { s.kind = PY_SYM_CLASS; s.cls = c; return s; }
    py_import *imp = cg_map_get(&m->imports, name, len);
    if (imp) {
        /* Imports are followed a bounded number of times in a row: `from . import
         * _C` in a package whose _C is not Python resolves to itself, and two
         * modules may import a name from each other (each step restarts the
         * dotted walk's depth). */
        static __thread int following;
        if (following >= MAX_RESOLVE_DEPTH) {
            s.kind = PY_SYM_EXTERNAL;
            s.qual = imp->target;
            return s;
        }
        following++;
        py_sym r = py_resolve_dotted(p, imp->target, m, 1);
        following--;
        return r;
    }
    if (cg_map_get(&m->global_assigns, name, len)) { s.kind = PY_SYM_GLOBAL; s.mod = m; return s; }
    /* a submodule of a package: `from app import layers` */
    if (m->is_init) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s.%.*s", m->name, (int)len, name);
        py_module *sub = py_project_module(p, buf, m);
        if (sub) { s.kind = PY_SYM_MODULE; s.mod = sub; return s; }
    }
    return s;
}

py_sym py_resolve_name(py_project *p, py_module *m, const char *name, size_t len)
{
    py_sym s = py_resolve_member(p, m, name, len);
    if (s.kind == PY_SYM_NONE) {
        /* static strings: nothing resolved allocates in m's arena (a kept index outlives the run) */
#define B(x) "builtins." x
        static const char *const builtins[] = { B("print"), B("repr"), B("str"), B("format"), B("open"),
            B("int"), B("float"), B("bool"), B("len"), B("range"), B("isinstance"), B("list"), B("dict"),
            B("set"), B("tuple"), B("enumerate"), B("zip"), B("min"), B("max"), B("sum"), B("abs"),
            B("round"), B("super"), B("input"), B("iter"), B("next"), B("sorted"), B("reversed"),
            B("getattr"), B("setattr"), B("hasattr"), B("type"), B("id"), B("hash"), B("any"), B("all"),
            B("map"), B("filter"), B("divmod"), B("pow"), B("vars"), B("callable"), NULL };
#undef B
        for (int i = 0; builtins[i]; i++)
            if (strlen(builtins[i] + 9) == len && memcmp(builtins[i] + 9, name, len) == 0) {
                s.kind = PY_SYM_EXTERNAL;
                s.qual = builtins[i];
                return s;
            }
    }
    return s;
}

/* Bases are resolved on first use, by whichever analysis gets there first
 * (they depend on the index only): one at a time, a base's own bases under
 * the same (recursive) lock. */
static pthread_mutex_t bases_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void resolve_bases(py_project *p, py_class *c);

void py_class_resolve_bases(py_project *p, py_class *c)
{
    pthread_mutex_lock(&bases_lock);
    resolve_bases(p, c);
    pthread_mutex_unlock(&bases_lock);
}

static void resolve_bases(py_project *p, py_class *c)
{
    if (c->bases_resolved) return;
    c->bases_resolved = 1;
    if (py_is_null(c->bases)) return;
    uint32_t n = py_named_child_count(c->bases);
    for (uint32_t i = 0; i < n; i++) {
        TSNode b = py_named_child(c->bases, i);
        if (IS(b, keyword_argument)) continue;
        /* a dotted base: resolve its first name, then walk attributes */
        size_t len;
        const char *t = py_text(c->mod, b, &len);
        const char *dot = memchr(t, '.', len);
        py_sym s = py_resolve_name(p, c->mod, t, dot ? (size_t)(dot - t) : len);
        if (dot && s.kind == PY_SYM_EXTERNAL) {
            char *q = cg_arena_printf(p->arena, "%s%.*s", s.qual, (int)(len - (size_t)(dot - t)), dot);
            s = py_resolve_dotted(p, q, c->mod, 0);
        } else if (dot && s.kind == PY_SYM_MODULE) {
            char *q = cg_arena_printf(p->arena, "%s%.*s", s.mod->name, (int)(len - (size_t)(dot - t)), dot);
            s = py_resolve_dotted(p, q, c->mod, 0);
        }
        if (s.kind == PY_SYM_CLASS && s.cls != c && c->nbase < 4) {
            c->base[c->nbase++] = s.cls;
            resolve_bases(p, s.cls);
            if (s.cls->is_nn_module) c->is_nn_module = 1;
        } else if (s.kind == PY_SYM_EXTERNAL && s.qual &&
                   (strcmp(s.qual, "torch.nn.Module") == 0 || strcmp(s.qual, "torch.nn.modules.module.Module") == 0 ||
                    strncmp(s.qual, "torch.nn.", 9) == 0)) {
            c->is_nn_module = 1;
        }
    }
}

/* Find method `name` in c or its project bases (depth-first, like a simple MRO). */
py_class *py_class_lookup_method_owner(py_project *p, py_class *c, const char *name, py_func **out)
{
    for (int guard = 0; c && guard < 16; guard++) {
        py_func *f = cg_map_get(&c->methods, name, strlen(name));
        if (f) { *out = f; return c; }
        py_class_resolve_bases(p, c);
        for (int i = 0; i < c->nbase; i++) {
            py_class *o = py_class_lookup_method_owner(p, c->base[i], name, out);
            if (o) return o;
        }
        return NULL;
    }
    return NULL;
}

py_attr *py_class_attr(py_project *p, py_class *c, const char *name)
{
    size_t len = strlen(name);
    for (int guard = 0; c && guard < 16; guard++) {
        py_attr *a = cg_map_get(&c->attrs, name, len);
        if (a) return a;
        py_class_resolve_bases(p, c);
        for (int i = 0; i < c->nbase; i++) {
            py_attr *b = py_class_attr(p, c->base[i], name);
            if (b) return b;
        }
        return NULL;
    }
    return NULL;
}

static void count_assigns(py_func *f, TSNode n, int in_loop, int depth)
{
    if (depth > 400) return;
    if (depth > 0 && (IS(n, function_definition) || IS(n, class_definition) || IS(n, lambda))) return;
    int loop = in_loop || IS(n, for_statement) || IS(n, while_statement);
    TSNode left = {0};
    if (IS(n, assignment) || IS(n, augmented_assignment) || IS(n, for_statement)) left = py_field(n, PY.f_left);
    int many = IS(left, pattern_list) || IS(left, tuple_pattern);
    uint32_t nt = many ? py_named_child_count(left) : !py_is_null(left);
    for (uint32_t i = 0; i < nt; i++) {
        TSNode target = many ? py_named_child(left, i) : left;
        if (!IS(target, identifier)) continue;
        size_t len;
        const char *t = py_text(f->mod, target, &len);
        uintptr_t c = (uintptr_t)cg_map_get(&f->local_assigns, t, len);
        /* the key is the index's own (once per name and function): a kept
         * index outlives the source text of the run that counted (py_keep.c) */
        if (!c) t = cg_arena_strndup(f->mod->arena, t, len);
        /* an assignment in a loop, or an augmented one, happens more than once */
        c += (IS(n, augmented_assignment) || in_loop) ? 2 : 1;
        cg_map_put(&f->local_assigns, t, len, (void *)c);
    }
    py_kids k = py_kids_of(n);
    for (TSNode c; !py_is_null(c = py_kids_next(&k));) count_assigns(f, c, loop, depth + 1);
    py_kids_free(&k);
}

/* counted on first use, by whichever analysis gets there first */
static pthread_mutex_t assigns_lock = PTHREAD_MUTEX_INITIALIZER;

int py_count_local_assigns(py_func *f, const char *name, size_t len)
{
    if (!__atomic_load_n(&f->local_assigns_ready, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&assigns_lock);
        if (!f->local_assigns_ready) {
            cg_map_init(&f->local_assigns);
            if (!py_is_null(f->body)) count_assigns(f, f->body, 0, 1);
            __atomic_store_n(&f->local_assigns_ready, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&assigns_lock);
    }
    return (int)(uintptr_t)cg_map_get(&f->local_assigns, name, len);
}

/* `acc = 0 ... acc = acc + t`: is node n (a read of local `name`) the left or
 * right operand of the one statement that folds it into itself, with every
 * other assignment of it in f a number literal?  Then the number n reads is
 * that literal at every call, and the statement makes it a tensor (CG304). */
static int number_literal(TSNode v)
{
    v = py_unparen(v);
    if (IS(v, unary_operator)) v = py_unparen(py_field(v, PY.f_argument));
    return IS(v, integer) || IS(v, float_);
}

static int other_assigns_literal(py_func *f, TSNode n, TSNode own, const char *name, size_t len, int depth)
{
    if (depth > 400) return 0;
    if (depth > 0 && (IS(n, function_definition) || IS(n, class_definition) || IS(n, lambda))) return 1;
    if ((IS(n, assignment) || IS(n, augmented_assignment) || IS(n, for_statement)) && !py_eq(n, own)) {
        TSNode left = py_field(n, PY.f_left);
        size_t ll;
        const char *lt = py_is_null(left) ? NULL : py_text(f->mod, left, &ll);
        if (lt && IS(left, identifier) && ll == len && memcmp(lt, name, len) == 0) {
            if (!IS(n, assignment) || !number_literal(py_field(n, PY.f_right))) return 0;
        } else if (lt && !IS(left, identifier) && !IS(left, attribute) && !IS(left, subscript) &&
                   memmem(lt, ll, name, len)) {
            return 0;   /* a, acc = ...: not followed */
        }
    }
    uint32_t c = py_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (!other_assigns_literal(f, py_named_child(n, i), own, name, len, depth + 1)) return 0;
    return 1;
}

int py_tensor_accumulator(py_func *f, TSNode n, const char *name, size_t len)
{
    TSNode op = py_parent(n), st = py_parent(op);
    if (!IS(n, identifier) || !IS(op, binary_operator) || !IS(st, assignment) || py_is_null(f->body)) return 0;
    TSNode left = py_field(st, PY.f_left);
    size_t ll;
    const char *lt = py_text(f->mod, left, &ll);
    if (!IS(left, identifier) || ll != len || memcmp(lt, name, len) != 0 || !py_eq(py_field(st, PY.f_right), op))
        return 0;
    return other_assigns_literal(f, f->body, st, name, len, 1);
}

/* Does m's text, or that of a project module m imports, say `fact` (PY_MT_*)?
 * `os.environ["NCCL_ASYNC_ERROR_HANDLING"] = "0"` is often set in the
 * project's distributed helper, not beside the capture (CG703).  One level. */
int py_module_or_imports_say(py_project *p, py_module *m, unsigned fact)
{
    if (m->text_facts & fact) return 1;
    for (size_t k = 0; k < m->imports.cap; k++) {
        if (!m->imports.keys[k]) continue;
        const char *t = ((py_import *)m->imports.vals[k])->target;
        py_module *d = py_import_module(p, t, m);
        if (d && d != m && py_module_ensure(p, d) == 0 && d->state == 1 && (d->text_facts & fact)) return 1;
    }
    return 0;
}

/* ---- where a function is called ----------------------------------------------------- */
/* Two bits of the module's 4096-bit filter per name. */
static void bloom_bits(const char *name, size_t len, unsigned *a, unsigned *b)
{
    uint64_t h = cg_hash_bytes(name, len);
    *a = (unsigned)(h & 4095);
    *b = (unsigned)((h >> 32) & 4095);
}

static int ident_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || (unsigned char)c >= 0x80;
}

static void bloom_add(uint64_t *words, unsigned nbits, const char *name, size_t len)
{
    unsigned a, b;
    bloom_bits(name, len, &a, &b);
    a &= nbits - 1;
    b &= nbits - 1;
    words[a >> 6] |= 1ull << (a & 63);
    words[b >> 6] |= 1ull << (b & 63);
}

/* bloom_add into the project's mask of bits asked, from analyses running at once */
static void bloom_ask(uint64_t *words, unsigned nbits, const char *name, size_t len)
{
    unsigned a, b;
    bloom_bits(name, len, &a, &b);
    a &= nbits - 1;
    b &= nbits - 1;
    __atomic_fetch_or(&words[a >> 6], 1ull << (a & 63), __ATOMIC_RELAXED);
    __atomic_fetch_or(&words[b >> 6], 1ull << (b & 63), __ATOMIC_RELAXED);
}

static int bloom_has(const uint64_t *words, unsigned nbits, const char *name, size_t len)
{
    unsigned a, b;
    bloom_bits(name, len, &a, &b);
    a &= nbits - 1;
    b &= nbits - 1;
    return (words[a >> 6] >> (a & 63) & 1) && (words[b >> 6] >> (b & 63) & 1);
}

/* Does the line at t[i] (its indentation skipped) begin an import? */
static int import_line(const char *t, size_t n, size_t i)
{
    while (i < n && (t[i] == ' ' || t[i] == '\t')) i++;
    return (n - i > 5 && memcmp(t + i, "from ", 5) == 0) || (n - i > 7 && memcmp(t + i, "import ", 7) == 0);
}

/* Bytes that continue an identifier (and non-ASCII, which may). */
static const unsigned char ident_table[256] = {
    ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
    ['_'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1,
    ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
    ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
    ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
    ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
    [128 ... 255] = 1,
};

void py_index_call_names(py_module *m, const char *t, size_t n)
{
    cg_py_names nm;
    cg_py_names_of(t, n, &nm);
    memcpy(m->call_names, nm.call, sizeof m->call_names);
    memcpy(m->import_names, nm.import, sizeof m->import_names);
}

void cg_py_names_of(const char *t, size_t n, cg_py_names *out)
{
    memset(out, 0, sizeof *out);
    const unsigned char *u = (const unsigned char *)t;
    /* called names: the name before each `(` (spaces and tabs between), a
     * name being a run of identifier bytes that does not begin with a digit */
    for (const char *q = t, *end = t + n; (q = memchr(q, '(', (size_t)(end - q))) != NULL; q++) {
        size_t e = (size_t)(q - t);
        while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t')) e--;
        size_t s = e;
        while (s > 0 && ident_table[u[s - 1]]) s--;
        if (s < e && ident_table[u[s]] == 1) bloom_add(out->call, 4096, t + s, e - s);
    }
    /* imported names: every name on an import line, and on the lines an
     * import's parentheses continue it to; other lines are skipped whole */
    int in_import = import_line(t, n, 0), parens = 0;
    for (size_t i = 0; i < n;) {
        if (!in_import) {
            const char *nl = memchr(t + i, '\n', n - i);
            if (!nl) break;
            i = (size_t)(nl - t) + 1;
            in_import = import_line(t, n, i);
            continue;
        }
        unsigned char c = u[i];
        if (ident_table[c] != 1) {
            i++;
            if (c == '\n' && !parens) in_import = import_line(t, n, i);
            else if (c == '(' || c == ')') parens += c == '(' ? 1 : -1;
            /* a number's digits and letters (1e5, 0x1f) are no name */
            if (ident_table[c] == 2) while (i < n && ident_table[u[i]]) i++;
            continue;
        }
        size_t s = i;
        while (i < n && ident_table[u[i]]) i++;
        bloom_add(out->import, 2048, t + s, i - s);
    }
}

/* The bits a query reads are recorded in the project's mask: a module the
 * analysis did not parse mattered to it only through them (py_cache.c). */

int py_module_may_call(py_project *p, const py_module *m, const char *name)
{
    size_t len = strlen(name);
    bloom_ask(p->asked, 4096, name, len);
    py_ctx_note_query('c', name, len);
    return bloom_has(m->call_names, 4096, name, len);
}

int py_module_may_import(py_project *p, const py_module *m, const char *name, size_t len)
{
    bloom_ask(p->asked + 64, 2048, name, len);
    py_ctx_note_query('i', name, len);
    return bloom_has(m->import_names, 2048, name, len);
}

int py_bloom_has(const uint64_t *words, unsigned nbits, const char *name, size_t len)
{
    return bloom_has(words, nbits, name, len);
}

void py_bloom_mark(uint64_t *words, unsigned nbits, const char *name, size_t len)
{
    bloom_add(words, nbits, name, len);
}

int py_module_call_nodes(py_module *m, const char *name, TSNode *out, int max)
{
    int k = 0;
    if (m->state != 1 || !m->src.text) return 0;
    /* the name in the text, followed by `(`: the identifier there, inside a call's callee */
    const char *t = m->src.text, *end = t + m->src.len;
    size_t nl = strlen(name);
    for (const char *p = t; k < max && (p = memmem(p, (size_t)(end - p), name, nl)) != NULL; p += nl) {
        const char *q = p + nl;
        if ((p > t && ident_char(p[-1])) || (q < end && ident_char(*q))) continue;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q >= end || *q != '(') continue;
        uint32_t off = (uint32_t)(p - t);
        TSNode id = py_descendant_for_byte_range(m->body->node, off, off + (uint32_t)nl);
        if (!IS(id, identifier)) continue;
        TSNode fn = py_parent(id);
        if (IS(fn, attribute) && py_eq(py_field(fn, PY.f_attribute), id)) {
            TSNode call = py_parent(fn);
            if (IS(call, call) && py_eq(py_field(call, PY.f_function), fn)) out[k++] = call;
        } else if (IS(fn, call) && py_eq(py_field(fn, PY.f_function), id)) {
            out[k++] = fn;
        }
    }
    return k;
}

py_func *py_enclosing_func(py_module *m, TSNode n)
{
    py_func *best = m->body;
    uint32_t s = py_start_byte(n), e = py_end_byte(n), width = UINT32_MAX;
    for (size_t i = 0; i < m->nall_funcs; i++) {
        py_func *f = m->all_funcs[i];
        uint32_t fs = py_start_byte(f->node), fe = py_end_byte(f->node);
        if (fs <= s && e <= fe && fe - fs < width) {
            best = f;
            width = fe - fs;
        }
    }
    return best;
}
