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

/* Parameters of method fn (which computes an attribute's value) with a
 * number for default give their default's kind (`scale=1.0`); the first one
 * is self. */
static void bind_default_numbers(py_ctx *ctx, py_frame *fr, py_func *fn)
{
    TSNode params = py_field(fn->node, PY.f_parameters);
    uint32_t k = py_is_null(params) ? 0 : py_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode pn = py_named_child(params, i);
        if (i == 0 && IS(pn, identifier)) {
            fr->self_name = py_text(fr->mod, pn, &fr->self_len);
            continue;
        }
        if (!IS(pn, default_parameter) && !IS(pn, typed_default_parameter)) continue;
        TSNode dn = py_field(pn, PY.f_value), nn = py_field(pn, PY.f_name);
        if (IS(dn, integer) || IS(dn, float_)) {
            size_t l;
            const char *t = py_text(fr->mod, nn, &l);
            py_bind(ctx, fr, t, l, py_vk(PY_V_NUMBER));
        }
    }
}

py_val py_val_of_attr(py_ctx *ctx, py_class *c, const py_val *self, const char *name)
{
    py_attr *a = py_class_attr(ctx->p, c, name);
    py_val v = py_vk(PY_V_UNKNOWN);
    if (a && !py_is_null(a->value) && ctx->depth < PY_MAX_CALL_DEPTH) {
        py_frame fr;
        py_frame_init(&fr, a->value_fn, a->value_fn ? a->value_fn->mod : c->mod);
        fr.self = *self;
        fr.self_name = "self";
        fr.self_len = 4;
        if (a->value_fn) bind_default_numbers(ctx, &fr, a->value_fn);
        ctx->depth++;
        v = py_eval_quiet(ctx, &fr, a->value);
        ctx->depth--;
        py_frame_free(&fr);
    }
    if (v.kind == PY_V_NUMBER || v.kind == PY_V_UNKNOWN) {
        v.origin = PY_O_SELF_ATTR;
        v.oname = cg_arena_strdup(ctx->arena, name);
        v.ocls = c;
    }
    return v;
}

/* ---- following project functions ---------------------------------------------------- */
py_val py_call_instance(py_ctx *ctx, py_frame *fr, TSNode call, py_class *c, const py_val *self,
                        const py_val *args, int nargs)
{
    py_func *f = NULL;
    if (!py_class_lookup_method_owner(ctx->p, c, "__call__", &f))
        py_class_lookup_method_owner(ctx->p, c, "forward", &f);
    if (f) return py_call_function(ctx, fr, call, f, self, args, nargs, strcmp(f->name, "forward") == 0);
    return c->is_nn_module ? py_vtensor(PY_DEV_UNKNOWN) : py_vk(PY_V_UNKNOWN);
}

void py_call_captured(py_ctx *ctx, py_frame *fr, TSNode call, const py_val *target)
{
    py_val targs[4] = { py_vtensor(PY_DEV_CUDA), py_vtensor(PY_DEV_CUDA), py_vtensor(PY_DEV_CUDA),
                        py_vtensor(PY_DEV_CUDA) };
    if (target->kind == PY_V_INSTANCE) py_call_instance(ctx, fr, call, target->cls, target, targs, 4);
    else if (target->kind == PY_V_FUNC) py_call_function(ctx, fr, call, target->fn, NULL, targs, 4, 1);
}

/* What parameter pn (the i-th of f, the ai-th after self) holds: the
 * argument's kind when known; else, for forward() and graphed callables, a
 * tensor only when nothing says otherwise (no default, no annotation or a
 * Tensor one).  `mask=None`, `kwargs: dict = None`, `flag: bool` are not
 * tensors. */
static py_val param_value(py_ctx *ctx, py_func *f, TSNode type, TSNode def, const py_val *args, int nargs,
                          int ai, int params_are_tensors)
{
    py_val v = py_vk(PY_V_UNKNOWN);
    int has_def = !py_is_null(def), has_type = !py_is_null(type);
    size_t tl = 0;
    const char *tt = has_type ? py_text(f->mod, type, &tl) : "";
    int ann_tensor = has_type && memmem(tt, tl, "Tensor", 6) != NULL;
    int tensor_shaped = !has_def && (!has_type || ann_tensor);
    if (ai < nargs) v = args[ai];
    else if (params_are_tensors && tensor_shaped) v = py_vtensor(PY_DEV_UNKNOWN);
    if (ai >= nargs && has_def && (IS(def, integer) || IS(def, float_))) v = py_vk(PY_V_NUMBER);
    if (v.kind == PY_V_UNKNOWN && ann_tensor) v = py_vtensor(PY_DEV_UNKNOWN);
    if (params_are_tensors && v.kind == PY_V_UNKNOWN && ai < nargs && tensor_shaped) v = py_vtensor(PY_DEV_UNKNOWN);
    /* the tensors a reduce-overhead function is given (CG902: mutated inputs) */
    if (ctx->active && ctx->path.n == 0 && py_region_is_compiled(ctx->region) && v.kind == PY_V_TENSOR)
        v.flags |= PY_VF_PARAM;
    return v;
}

/* Bind f's parameters in its frame: self, then the arguments in order. */
static void bind_params(py_ctx *ctx, py_frame *fr, py_func *f, const py_val *self, const py_val *args, int nargs,
                        int params_are_tensors)
{
    TSNode params = py_field(f->node, PY.f_parameters);
    uint32_t np = py_is_null(params) ? 0 : py_named_child_count(params);
    int ai = 0;
    for (uint32_t i = 0; i < np; i++) {
        TSNode pn = py_named_child(params, i);
        TSNode name = pn, type = (TSNode){0}, def = (TSNode){0};
        if (IS(pn, typed_parameter)) {
            name = py_named_child(pn, 0);
            type = py_field(pn, PY.f_type);
        } else if (IS(pn, default_parameter) || IS(pn, typed_default_parameter)) {
            name = py_field(pn, PY.f_name);
            def = py_field(pn, PY.f_value);
            if (IS(pn, typed_default_parameter)) type = py_field(pn, PY.f_type);
        }
        if (!IS(name, identifier)) continue;   /* *args, **kwargs, / and * markers */
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
        py_bind(ctx, fr, nt, nl, param_value(ctx, f, type, def, args, nargs, ai, params_are_tensors));
        ai++;
    }
}

py_val py_call_function(py_ctx *ctx, py_frame *caller, TSNode callnode, py_func *f,
                        const py_val *self, const py_val *args, int nargs, int params_are_tensors)
{
    /* Outside capture a call is followed only quietly, for the type of its
     * result (`lr = lr_at(0)` is a float), and only a few levels deep. */
    int quiet_call = !ctx->active || ctx->quiet;
    if (quiet_call && ctx->depth > 6) return py_vk(PY_V_UNKNOWN);
    int saved_quiet = ctx->quiet;
    if (f->analyzing || ctx->depth >= PY_MAX_CALL_DEPTH || cg_callpath_full(&ctx->path))
        return py_vk(PY_V_UNKNOWN);
    if (py_module_ensure(ctx->p, f->mod) != 0) return py_vk(PY_V_UNKNOWN);
    /* torch.compile does not trace a function it is told to skip */
    if (ctx->active && py_region_is_compiled(ctx->region) && has_decorator(f, dynamo_disable))
        return py_vk(PY_V_UNKNOWN);

    /* memo: one analysis per (function, argument kinds, region) */
    char key[64];
    int kl = snprintf(key, sizeof key, "%p/%p/%d/", (void *)f, (void *)ctx->region, quiet_call);
    for (int i = 0; i < nargs && i < 8 && kl < (int)sizeof key - 2; i++) key[kl++] = (char)('A' + args[i].kind);
    key[kl] = 0;
    py_val *memo = cg_map_get(&ctx->memo, key, (size_t)kl);
    if (memo) return *memo;

    py_frame fr;
    py_frame_init(&fr, f, f->mod);
    bind_params(ctx, &fr, f, self, args, nargs, params_are_tensors);

    cg_callpath_push(&ctx->path, f->qualname, py_loc(caller->mod, callnode));
    f->analyzing = 1;
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
    f->analyzing = 0;
    cg_callpath_pop(&ctx->path);
    py_val ret = fr.has_ret ? fr.ret : py_vk(PY_V_NONE);
    py_frame_free(&fr);
    py_val *save = cg_arena_alloc(ctx->arena, sizeof *save);
    *save = ret;
    cg_map_put(&ctx->memo, cg_arena_strndup(ctx->arena, key, (size_t)kl), (size_t)kl, save);
    return ret;
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

/* The callee of `obj.name(...)`: a qualified external name, a module member,
 * a method or attribute of a project instance; else a method call on a
 * value, said in ev (method, recv, recv_node) with an unknown callee. */
static py_val attribute_callee(py_ctx *ctx, py_frame *fr, TSNode fn, py_event *ev)
{
    TSNode obj = py_field(fn, PY.f_object), attr = py_field(fn, PY.f_attribute);
    py_val recv = py_eval(ctx, fr, obj);
    const char *mname = py_text_dup(fr->mod, attr);
    py_val callee = py_vk(PY_V_UNKNOWN);
    int method = 0;
    if (recv.kind == PY_V_EXT) {
        callee = py_vext(cg_arena_printf(ctx->arena, "%s.%s", recv.qual, mname));
    } else if (recv.kind == PY_V_MODULE) {
        if (py_module_ensure(ctx->p, recv.mod) == 0)
            callee = py_val_of_sym(ctx, py_resolve_member(ctx->p, recv.mod, mname, strlen(mname)), mname,
                                   strlen(mname));
    } else if (recv.kind == PY_V_INSTANCE) {
        py_func *m = NULL;
        if (py_class_lookup_method_owner(ctx->p, recv.cls, mname, &m)) {
            callee = py_vk(PY_V_FUNC);
            callee.fn = m;
            callee.cls = recv.cls;
        } else {
            py_val av = py_val_of_attr(ctx, recv.cls, &recv, mname);
            if (av.kind != PY_V_UNKNOWN) callee = av;
            else method = 1;
        }
    } else if (!(recv.kind == PY_V_CLASS && cg_eq(mname, "__init__"))) {
        method = 1;
    }
    if (method) {
        ev->method = mname;
        ev->recv = recv;
        ev->recv_node = obj;
    }
    if (callee.kind == PY_V_FUNC && !callee.cls && recv.kind == PY_V_INSTANCE) callee.cls = recv.cls;
    return callee;
}

/* A value read from a tensor, named and used as a size (CG203). */
static void size_use(py_ctx *ctx, py_frame *fr, TSNode a, const py_val *v)
{
    if (!(v->flags & PY_VF_HOSTSCALAR) || !IS(py_unparen(a), identifier)) return;
    py_emit_at(ctx, fr, PY_EV_SIZE_USE, a, *v);
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
            ev->kwname[ev->nkw] = py_text_dup(fr->mod, kn);
            ev->kw[ev->nkw] = v;
            ev->kwn[ev->nkw] = kv;
            ev->nkw++;
        }
        last = &ev->kw[ev->nkw - 1];
        at = kv;
    } else {
        ctx->size_arg = sizes && !IS(a, list_splat) && !IS(a, dictionary_splat);
        py_val v = py_eval(ctx, fr, a);
        if (ev->nargs < PY_MAX_ARGS) {
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
        uint32_t k = py_named_child_count(args);
        for (uint32_t i = 0; i < k; i++) {
            TSNode a = py_named_child(args, i);
            if (!IS(a, comment)) eval_argument(ctx, fr, a, sizes, ev);
        }
    } else if (!py_is_null(args)) {
        /* f(x for x in y) */
        ctx->size_arg = 0;
        ev->args[0] = py_eval(ctx, fr, args);
        ev->argn[0] = args;
        ev->nargs = 1;
    }
    ctx->size_arg = outer_size;
}

/* Where the call's result goes: straight to the GPU (torch.tensor(x).cuda(),
 * CG305) or into a print/log call that formats it anyway. */
static void result_use(py_frame *fr, TSNode call, py_event *ev)
{
    TSNode parent = py_parent(call);
    if (IS(parent, attribute)) {
        TSNode gp = py_parent(parent);
        TSNode pa = py_field(parent, PY.f_attribute);
        if (IS(gp, call) && (py_text_eq(fr->mod, pa, "cuda") || py_text_eq(fr->mod, pa, "to")))
            ev->chained_to_device = 1;
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
    if (fn->kind == PY_V_FUNC) py_call_function(ctx, fr, call, fn->fn, NULL, ev->args + 1, ev->nargs - 1, 0);
    else if (fn->kind == PY_V_INSTANCE) py_call_instance(ctx, fr, call, fn->cls, fn, ev->args + 1, ev->nargs - 1);
    return 1;
}

/* Calling a value of known kind; *known is 0 when its kind says nothing. */
static py_val callee_result(py_ctx *ctx, py_frame *fr, const py_event *ev, const py_val *callee, TSNode call,
                            int *known)
{
    *known = 1;
    switch (callee->kind) {
    case PY_V_EXT: return py_api_call_result(ctx, fr, ev, call);
    case PY_V_FUNC: {
        py_val self = py_vk(PY_V_UNKNOWN);
        if (callee->cls) { self = py_vk(PY_V_INSTANCE); self.cls = callee->cls; }
        return py_call_function(ctx, fr, call, callee->fn, callee->cls ? &self : NULL, ev->args, ev->nargs, 0);
    }
    case PY_V_CLASS: {
        py_val inst = py_vk(PY_V_INSTANCE);
        inst.cls = callee->cls;
        py_func *init = NULL;
        if (ctx->active && py_class_lookup_method_owner(ctx->p, callee->cls, "__init__", &init))
            py_call_function(ctx, fr, call, init, &inst, ev->args, ev->nargs, 0);
        return inst;
    }
    case PY_V_INSTANCE: return py_call_instance(ctx, fr, call, callee->cls, callee, ev->args, ev->nargs);
    case PY_V_MODLIST:
        for (int i = 0; i < callee->nelems; i++) {
            py_val inst = py_vk(PY_V_INSTANCE);
            inst.cls = callee->elems[i];
            py_call_instance(ctx, fr, call, callee->elems[i], &inst, ev->args, ev->nargs);
        }
        return py_vtensor(PY_DEV_UNKNOWN);
    case PY_V_EXTOBJ:
        return cg_starts(callee->qual, "torch.nn.") ? py_vtensor(PY_DEV_UNKNOWN) : py_vk(PY_V_UNKNOWN);
    default:
        *known = 0;
        return py_vk(PY_V_UNKNOWN);
    }
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
    eval_arguments(ctx, fr, py_field(call, PY.f_arguments), &ev);

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

    /* the call's result, following project code in capture context */
    int known;
    out = callee_result(ctx, fr, &ev, &callee, call, &known);
    if (known || !ev.method) return out;
    return method_result(ctx, fr, &ev);
}
