/* py_api.c - what the libraries the rules know (torch, builtins, numpy,
 * logging, math...) give when called, as tables.
 *
 * One row per function, class or method name: what a call gives (a value
 * kind with its flags and name, or a builder for results that depend on the
 * call's arguments) and the properties the evaluator asks about (a tensor
 * factory, size arguments, no warm-up run, a capture guard...).  Rows are
 * found by name through a hash map built once; names no row has fall to
 * the prefix rules (`torch.nn.`, `numpy.`...), in order, and past them to
 * an unknown value, on which the rules stay silent.  This is the Python
 * side of what src/cuda/cu_api.c does for the CUDA runtime.
 *
 * Nothing here follows project code: calls into the project are py_call.c's. */
#include "py_eval.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rows ------------------------------------------------------------------------ */
/* Properties of a name. */
enum {
    API_RESULT = 1 << 0,       /* the row says what a call gives (functions; methods on tensors,
                                  ndarrays or unknowns) */
    API_ANY_RECV = 1 << 1,     /* method: its result holds whatever the receiver (.item() of an ndarray) */
    API_ON_TENSOR = 1 << 2,    /* method: its result is the row's only on a known tensor */
    API_FACTORY = 1 << 3,      /* makes a tensor; device= says where (CG305) */
    API_SIZES = 1 << 4,        /* its positional arguments are sizes (CG203) */
    API_NOT_WARMUP = 1 << 5,   /* configures or builds: not the warm-up run CG701 asks for */
    API_BOOL = 1 << 6,         /* gives a boolean tensor: a mask (CG202) */
    API_KEEPS_MODULE = 1 << 7, /* method: on a module, gives the module itself (model.cuda()) */
    API_GUARD = 1 << 8,        /* is a capture under way on this thread? */
    API_COMPILING = 1 << 9,    /* is torch.compile tracing? */
};

typedef struct py_call_site {
    py_ctx *ctx;
    py_frame *fr;
    const py_event *ev;
    TSNode call;
    const char *q;             /* the called name (functions) */
    const struct py_api *row;  /* its row, if any */
} py_call_site;

typedef py_val (*py_api_build)(const py_call_site *cs);

typedef struct py_api {
    const char *name;
    unsigned props;            /* API_* */
    uint8_t kind;              /* with API_RESULT and no builder: the result's PY_V_ kind, */
    uint8_t dev;               /*   its device (a PY_V_TENSOR on a known tensor: the receiver's), */
    uint32_t flags;            /*   its PY_VF_ flags */
    const char *qual;          /*   and its name */
    py_api_build build;        /* with API_RESULT: builds the result from the call */
} py_api;

/* A row: its name, its API_* properties, then what the result is, by field
 * (.kind, .dev, .flags, .qual, or .build). */
#define ROW(name_, props_, ...) { .name = (name_), .props = (props_), __VA_ARGS__ }
#define R API_RESULT
#define NOWARM API_NOT_WARMUP

/* ---- builders: results that depend on the call -------------------------------------- */
/* int(t), float(t), bool(t), abs(t): a Python number read from a tensor (abs of a tensor: a tensor) */
static py_val build_host_number(const py_call_site *cs)
{
    const py_event *ev = cs->ev;
    py_val r = py_vk(PY_V_NUMBER);
    if (ev->nargs > 0 && (ev->args[0].kind == PY_V_TENSOR || (ev->args[0].flags & PY_VF_HOSTSCALAR)))
        r.flags |= PY_VF_HOSTSCALAR;
    if (ev->nargs > 0 && cg_eq(cs->q, "builtins.abs") && ev->args[0].kind == PY_V_TENSOR) return ev->args[0];
    return r;
}

/* math.*(...): a number; read from a tensor when an argument is one (CG101
 * reports the read), else keeping where a number argument came from, so
 * `math.sqrt(self.rate)` still names `rate` (CG304) */
static py_val build_math(const py_call_site *cs)
{
    const py_event *ev = cs->ev;
    py_val r = py_vk(PY_V_NUMBER);
    for (int i = 0; i < ev->nargs; i++) {
        const py_val *a = &ev->args[i];
        if (a->kind == PY_V_TENSOR || (a->flags & PY_VF_HOSTSCALAR)) r.flags |= PY_VF_HOSTSCALAR;
        if (a->kind == PY_V_NUMBER && a->origin && !r.origin) {
            r.origin = a->origin;
            r.oname = a->oname;
            r.ofn = a->ofn;
            r.ocls = a->ocls;
            r.omod = a->omod;
        }
    }
    if (r.flags & PY_VF_HOSTSCALAR) r.origin = PY_O_NONE;
    /* read during the capture: where the value was baked (CG304 reports there) */
    if (r.origin && cs->ctx->active) r.ctor = cs->call;
    return r;
}

/* functools.partial(torch.compile, mode="reduce-overhead"): a compiler that
 * captures with CUDA graphs when called (py_region.c's open_compile) */
static py_val build_partial(const py_call_site *cs)
{
    const py_event *ev = cs->ev;
    if (ev->nargs == 0 || ev->args[0].kind != PY_V_EXT || !cg_eq(ev->args[0].qual, "torch.compile"))
        return py_vk(PY_V_UNKNOWN);
    py_val r = ev->args[0];
    if (py_compile_kw_cudagraphs(ev)) r.flags |= PY_VF_CUDAGRAPHS;
    return r;
}

/* str(t), repr(t), format(t): a string made by formatting a tensor (CG107) */
static py_val build_str(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_STR);
    for (int i = 0; i < cs->ev->nargs; i++)
        if (cs->ev->args[i].kind == PY_V_TENSOR) r.flags |= PY_VF_FMT_TENSOR;
    return r;
}

/* enumerate(x): keep what is enumerated (`for i, layer in enumerate(self.layers)`) */
static py_val build_enumerate(const py_call_site *cs)
{
    if (cs->ev->nargs == 0) return py_vk(PY_V_UNKNOWN);
    py_val r = cs->ev->args[0];
    r.flags |= PY_VF_ENUMERATE;
    return r;
}

/* min/max/sum of numbers: a number */
static py_val build_numbers(const py_call_site *cs)
{
    int num = cs->ev->nargs > 0;
    for (int i = 0; i < cs->ev->nargs; i++)
        if (cs->ev->args[i].kind != PY_V_NUMBER) num = 0;
    return num ? py_vk(PY_V_NUMBER) : py_vk(PY_V_UNKNOWN);
}

/* A stream argument (a stream value or an expression) into r.stream. */
static void stream_of(const py_call_site *cs, py_val *r, const py_val *s, TSNode n)
{
    r->stream = s->kind == PY_V_STREAM ? s->qual : py_snip(cs->ctx, cs->fr->mod, n);
    r->stream_default = s->kind == PY_V_STREAM && (s->flags & PY_VF_DEFAULT_STREAM);
}

/* torch.cuda.graph(g, stream=s, capture_error_mode=...) */
static py_val build_graph(const py_call_site *cs)
{
    const py_event *ev = cs->ev;
    py_val r = py_vk(PY_V_EXTOBJ);
    r.qual = "torch.cuda.graph";
    if (py_api_thread_local_mode(cs->fr->mod, ev)) r.flags |= PY_VF_THREAD_LOCAL;
    int k = py_ev_kw(ev, "stream");
    if (k >= 0) stream_of(cs, &r, &ev->kw[k], ev->kwn[k]);
    return r;
}

/* torch.cuda.stream(s) */
static py_val build_stream_context(const py_call_site *cs)
{
    const py_event *ev = cs->ev;
    py_val r = py_vk(PY_V_EXTOBJ);
    r.qual = "torch.cuda.stream";
    if (ev->nargs > 0) {
        stream_of(cs, &r, &ev->args[0], ev->argn[0]);
        if (ev->args[0].kind == PY_V_NONE) r.stream = NULL;
    }
    return r;
}

/* The identity of a stream or event: the name it is assigned to
 * (`side = torch.cuda.Stream()` -> "side", `self.s = ...` -> "self.s"), which
 * is stable however often the creating expression is evaluated and reads well
 * in messages; else the expression and its line. */
static const char *created_name(const py_call_site *cs, const char *what)
{
    TSNode parent = py_parent(cs->call);
    if (IS(parent, assignment) && py_eq(py_field(parent, PY.f_right), cs->call)) {
        TSNode left = py_field(parent, PY.f_left);
        if (IS(left, identifier) || IS(left, attribute)) return py_snip(cs->ctx, cs->fr->mod, left);
    }
    return cg_arena_printf(cs->ctx->arena, "%s at %s:%u", what, cs->fr->mod->file->path,
                           py_start_point(cs->call).row + 1);
}

static py_val build_stream(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_STREAM);
    r.qual = created_name(cs, "torch.cuda.Stream()");
    return r;
}

static py_val build_event(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_EVENT);
    r.qual = created_name(cs, "torch.cuda.Event()");
    return r;
}

/* torch.cuda.current_stream(): the stream of the enclosing stream context */
static py_val build_current_stream(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_STREAM);
    r.qual = cs->ctx->cur_stream ? cs->ctx->cur_stream : "<default>";
    return r;
}

/* progress bars and metric writers: host I/O (CG301) */
static py_val build_host_io(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_EXTOBJ);
    r.qual = cs->q;
    r.flags = PY_VF_HOST_IO;
    return r;
}

/* nn.ModuleList(...)/nn.Sequential(...): the element classes, from the call's
 * arguments (instances, or a list of them) */
static py_val build_modlist(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_MODLIST);
    r.qual = cs->q;
    for (int i = 0; i < cs->ev->nargs; i++) {
        const py_val *a = &cs->ev->args[i];
        if (a->kind == PY_V_INSTANCE && r.nelems < 4) r.elems[r.nelems++] = a->cls;
        else if (a->kind == PY_V_MODLIST)
            for (int k = 0; k < a->nelems && r.nelems < 4; k++) r.elems[r.nelems++] = a->elems[k];
        else if (a->kind == PY_V_DICT || a->kind == PY_V_LIST || a->kind == PY_V_TUPLE)   /* ModuleDict({...}) */
            for (int k = 0; k < a->nitems && r.nelems < 4; k++)
                for (const py_val *e = &a->items[k]; e && r.nelems < 4; e = e->alt)
                    if (e->kind == PY_V_INSTANCE) r.elems[r.nelems++] = e->cls;
    }
    /* a Sequential returns what its last module returns: unknown when that
     * module is not known (an external layer that may return a tuple) */
    if (cg_ends_with(cs->q, ".Sequential") && cs->ev->nargs > 0) {
        const py_val *last = &cs->ev->args[cs->ev->nargs - 1];
        int known = last->kind == PY_V_INSTANCE || last->kind == PY_V_MODLIST || last->kind == PY_V_LIST ||
                    last->kind == PY_V_TUPLE || last->kind == PY_V_DICT || (last->flags & PY_VF_SPREAD) ||
                    (last->kind == PY_V_EXTOBJ && cg_starts(last->qual, "torch.nn."));
        if (!known) r.flags |= PY_VF_OPAQUE_CALL;
    }
    return r;
}

/* The device a call's keyword `kw` (else its first argument) says. */
static int device_arg(const py_call_site *cs, const char *kw)
{
    const py_event *ev = cs->ev;
    int k = py_ev_kw(ev, kw);
    TSNode dn = k >= 0 ? ev->kwn[k] : ev->nargs > 0 ? ev->argn[0] : (TSNode){0};
    return py_is_null(dn) ? PY_DEV_UNKNOWN : py_api_device_of(cs->ctx, cs->fr, dn, NULL);
}

/* Keyword `kw` of the call is literally `text`. */
static int kw_is(const py_call_site *cs, const char *kw, const char *text)
{
    int k = py_ev_kw(cs->ev, kw);
    return k >= 0 && py_text_eq(cs->fr->mod, cs->ev->kwn[k], text);
}

/* torch.autocast(...): caches casts unless cache_enabled=False or on the CPU (CG601) */
static py_val build_autocast(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_EXTOBJ);
    r.qual = "torch.autocast";
    int cache = !kw_is(cs, "cache_enabled", "False");
    /* torch.autocast("cpu") does not touch CUDA graphs */
    if (device_arg(cs, "device_type") == PY_DEV_CPU) cache = 0;
    if (cache) r.flags |= PY_VF_AUTOCAST;
    return r;
}

/* torch.Generator(device="cuda") (CG602) */
static py_val build_generator(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_EXTOBJ);
    r.qual = cs->q;
    if (device_arg(cs, "device") == PY_DEV_CUDA) r.flags |= PY_VF_CUDA_GEN;
    /* its identity: where it is made (CG602 matches the registered one) */
    r.omod = cs->fr->mod;
    r.ctor = cs->call;
    return r;
}

/* DataLoader(pin_memory=True) (CG708) */
static py_val build_dataloader(const py_call_site *cs)
{
    py_val r = py_vk(PY_V_EXTOBJ);
    r.qual = "torch.utils.data.DataLoader";
    if (kw_is(cs, "pin_memory", "True")) r.flags |= PY_VF_PINNED;
    return r;
}

/* torch.optim.lr_scheduler.*: a scheduler over a capturable optimizer with a
 * tensor lr updates it in place (CG606) */
static py_val build_scheduler(const py_call_site *cs)
{
    const py_event *ev = cs->ev;
    py_val r = py_vk(PY_V_EXTOBJ);
    r.qual = cs->q;
    r.flags = PY_VF_SCHEDULER;
    if (ev->nargs > 0 && (ev->args[0].flags & PY_VF_TENSOR_LR) && (ev->args[0].flags & PY_VF_CAPTURABLE))
        r.flags |= PY_VF_TENSOR_LR;
    return r;
}

/* Param groups written as a list of dicts (`[{"params": ..., "capturable": True}]`):
 * +1 when every group says capturable True, -1 when one says False, 0 when
 * none says (or the groups are not written out). */
static int groups_capturable(py_module *m, TSNode groups)
{
    groups = py_unparen(groups);
    if (!IS(groups, list) && !IS(groups, tuple)) return 0;
    uint32_t n = py_named_child_count(groups), said = 0, dicts = 0;
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = py_named_child(groups, i);
        if (!IS(d, dictionary)) continue;
        dicts++;
        uint32_t k = py_named_child_count(d);
        for (uint32_t j = 0; j < k; j++) {
            TSNode pr = py_named_child(d, j);
            if (strcmp(py_type(pr), "pair") != 0) continue;
            TSNode key = py_named_child(pr, 0), val = py_named_child(pr, 1);
            if (!py_text_eq(m, key, "\"capturable\"") && !py_text_eq(m, key, "'capturable'")) continue;
            if (!py_text_eq(m, val, "True")) return -1;
            said++;
        }
    }
    return dicts && said == dicts ? 1 : 0;
}

/* torch.optim.<Optimizer>(...): capturable or not (CG605), lr a tensor or not (CG606) */
static py_val build_optimizer(const py_call_site *cs)
{
    /* optimizers that refuse capture unless built with capturable=True */
    static const char *const capturable[] = { "Adam", "AdamW", "Adamax", "ASGD", "NAdam", "RAdam",
        "Adadelta", "Rprop", "RMSprop", NULL };
    const py_event *ev = cs->ev;
    const char *last = strrchr(cs->q, '.') + 1;
    if (!(last[0] >= 'A' && last[0] <= 'Z')) return py_vk(PY_V_UNKNOWN);
    py_val r = py_vk(PY_V_EXTOBJ);
    r.qual = cs->q;
    if (cg_one_of(last, capturable)) r.flags |= PY_VF_OPTIMIZER;
    /* where it is built, for CG605's fix */
    r.omod = cs->fr->mod;
    r.ctor = ev->node;
    /* every param group must be capturable: a group's own "capturable" wins
     * over the keyword, which is the default of the groups that say nothing */
    int groups = ev->nargs > 0 ? groups_capturable(cs->fr->mod, ev->argn[0]) : 0;
    if (groups > 0 || (groups == 0 && kw_is(cs, "capturable", "True"))) r.flags |= PY_VF_CAPTURABLE;
    if (groups < 0) r.ctor = (TSNode){0};   /* capturable=True would not fix it: no edit */
    if (kw_is(cs, "fused", "True")) r.flags |= PY_VF_FUSED;
    /* Opt(params, **kwargs) with keywords not known: fused and capturable unknown */
    for (int i = 0; i < ev->nargs; i++)
        if (IS(ev->argn[i], dictionary_splat)) r.flags |= PY_VF_KW_UNSEEN;
    int k = py_ev_kw(ev, "lr");
    if (k >= 0 && ev->kw[k].kind == PY_V_TENSOR) r.flags |= PY_VF_TENSOR_LR;
    return r;
}

/* torch.nn.*: classes give modules (nn.Parameter a tensor that requires
 * grad); clip_grad_* a tensor */
static py_val build_nn(const py_call_site *cs)
{
    if (cg_eq(cs->q, "torch.nn.Parameter") || cg_eq(cs->q, "torch.nn.parameter.Parameter")) {
        const py_event *ev = cs->ev;
        py_val r = py_vtensor(ev->nargs > 0 && ev->args[0].kind == PY_V_TENSOR ? ev->args[0].dev : PY_DEV_UNKNOWN);
        if (!kw_is(cs, "requires_grad", "False")) r.flags |= PY_VF_REQUIRES_GRAD;
        return r;
    }
    const char *last = strrchr(cs->q, '.');
    if (last && last[1] >= 'A' && last[1] <= 'Z') {
        py_val r = py_vk(PY_V_EXTOBJ);
        r.qual = cs->q;
        return r;
    }
    if (cg_starts(cs->q, "torch.nn.utils.clip_grad")) return py_vtensor(PY_DEV_UNKNOWN);
    return py_vk(PY_V_UNKNOWN);
}

/* A tensor factory: where its tensor is (device=, else the CPU unless a
 * default device is set), pinned or boolean. */
static py_val build_factory(const py_call_site *cs)
{
    const py_event *ev = cs->ev;
    py_val r = py_vtensor(PY_DEV_UNKNOWN);
    int from_numpy = cg_eq(cs->q, "torch.from_numpy");
    int k = py_ev_kw(ev, "device");
    if (k >= 0) r.dev = (uint8_t)py_api_device_of(cs->ctx, cs->fr, ev->kwn[k], NULL);
    else if (from_numpy || !py_default_device_cuda(cs->ctx, cs->fr->mod)) r.dev = PY_DEV_CPU;
    if (from_numpy) r.dev = PY_DEV_CPU;
    if (kw_is(cs, "pin_memory", "True")) r.flags |= PY_VF_PINNED;
    if (kw_is(cs, "dtype", "torch.bool")) r.flags |= PY_VF_BOOL;
    if (kw_is(cs, "requires_grad", "True")) r.flags |= PY_VF_REQUIRES_GRAD;
    return r;
}

/* torch.<name>: host values for is_/get_/are_/has_/set_/use_ functions; else a
 * tensor op (on the CPU when an argument is, a mask for comparisons); names
 * further down (torch.x.y) are unknown. */
static py_val build_torch(const py_call_site *cs)
{
    static const char *const host[] = { "is_", "get_", "are_", "has_", "set_", "use_", NULL };
    const char *name = cs->q + 6;
    if (strchr(name, '.')) return py_vk(PY_V_UNKNOWN);
    for (int i = 0; host[i]; i++)
        if (cg_starts(name, host[i])) return py_vk(PY_V_NUMBER);   /* torch.is_autocast_enabled()... */
    if (cs->row && (cs->row->props & API_FACTORY)) return build_factory(cs);
    py_val r = py_vtensor(PY_DEV_UNKNOWN);
    uint32_t in_flags = 0;
    for (int i = 0; i < cs->ev->nargs; i++) {
        if (cs->ev->args[i].kind == PY_V_TENSOR && cs->ev->args[i].dev == PY_DEV_CPU) r.dev = PY_DEV_CPU;
        if (cs->ev->args[i].kind == PY_V_TENSOR) in_flags |= cs->ev->args[i].flags;
    }
    if ((cs->row && (cs->row->props & API_BOOL)) || cg_starts(cs->q, "torch.logical_")) r.flags |= PY_VF_BOOL;
    /* *_like factories make new leaves, without an autograd node */
    if (!cg_ends_with(cs->q, "_like")) py_region_note_grad_op(cs->ctx, cs->fr, cs->ev->node, in_flags, &r);
    return r;
}

/* ---- functions and classes, by qualified name ------------------------------------------ */
static const py_api functions[] = {
    /* builtins */
    ROW("builtins.len", R, .kind = PY_V_NUMBER),
    ROW("builtins.isinstance", R, .kind = PY_V_NUMBER),
    ROW("builtins.hasattr", R, .kind = PY_V_NUMBER),
    ROW("builtins.callable", R, .kind = PY_V_NUMBER),
    ROW("builtins.round", R, .kind = PY_V_NUMBER),
    ROW("builtins.id", R, .kind = PY_V_NUMBER),
    ROW("builtins.hash", R, .kind = PY_V_NUMBER),
    ROW("builtins.divmod", R, .kind = PY_V_NUMBER),
    ROW("builtins.int", R, .build = build_host_number),
    ROW("builtins.float", R, .build = build_host_number),
    ROW("builtins.bool", R, .build = build_host_number),
    ROW("builtins.abs", R, .build = build_host_number),
    ROW("builtins.str", R, .build = build_str),
    ROW("builtins.repr", R, .build = build_str),
    ROW("builtins.format", R, .build = build_str),
    ROW("builtins.list", R, .kind = PY_V_LIST),
    ROW("builtins.sorted", R, .kind = PY_V_LIST),
    ROW("builtins.dict", R, .kind = PY_V_DICT),
    ROW("builtins.tuple", R, .kind = PY_V_TUPLE),
    ROW("builtins.set", R, .kind = PY_V_SET),
    ROW("builtins.print", R, .kind = PY_V_NONE),
    ROW("builtins.enumerate", R, .build = build_enumerate),
    ROW("builtins.open", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_HOST_IO, .qual = "builtins.file"),
    ROW("builtins.range", R | API_SIZES, .kind = PY_V_EXTOBJ, .flags = 0, .qual = "builtins.range"),
    ROW("builtins.min", R, .build = build_numbers),
    ROW("builtins.max", R, .build = build_numbers),
    ROW("builtins.sum", R, .build = build_numbers),
    /* capture, streams, events */
    ROW("torch.cuda.is_current_stream_capturing", R | API_GUARD, .kind = PY_V_GUARD),
    ROW("torch.cuda.graphs.is_current_stream_capturing", R | API_GUARD, .kind = PY_V_GUARD),
    ROW("torch._C._cuda_isCurrentStreamCapturing", R | API_GUARD, .kind = PY_V_GUARD),
    ROW("torch.compiler.is_compiling", API_COMPILING),
    ROW("torch._dynamo.is_compiling", API_COMPILING),
    ROW("torch.compiler.is_dynamo_compiling", API_COMPILING),
    ROW("torch.cuda.graph", R, .build = build_graph),
    ROW("torch.cuda.graphs.graph", R, .build = build_graph),
    ROW("torch.cuda.stream", R, .build = build_stream_context),
    ROW("torch.cuda.StreamContext", R, .build = build_stream_context),
    ROW("torch.cuda.CUDAGraph", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_GRAPH, .qual = "torch.cuda.CUDAGraph"),
    ROW("torch.cuda.graphs.CUDAGraph", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_GRAPH, .qual = "torch.cuda.CUDAGraph"),
    ROW("torch.cuda.Stream", R, .build = build_stream),
    ROW("torch.cuda.streams.Stream", R, .build = build_stream),
    ROW("torch.Stream", R, .build = build_stream),
    ROW("torch.cuda.current_stream", R, .build = build_current_stream),
    ROW("torch.cuda.default_stream", R, .kind = PY_V_STREAM, .flags = PY_VF_DEFAULT_STREAM, .qual = "<default>"),
    ROW("torch.cuda.Event", R, .build = build_event),
    ROW("torch.cuda.streams.Event", R, .build = build_event),
    ROW("torch.Event", R, .build = build_event),
    /* AMP, logging, host I/O, modules, data */
    ROW("torch.cuda.amp.GradScaler", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_SCALER, .qual = "GradScaler"),
    ROW("torch.amp.GradScaler", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_SCALER, .qual = "GradScaler"),
    ROW("torch.GradScaler", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_SCALER, .qual = "GradScaler"),
    ROW("torch.cuda.amp.grad_scaler.GradScaler", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_SCALER, .qual = "GradScaler"),
    ROW("torch.amp.grad_scaler.GradScaler", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_SCALER, .qual = "GradScaler"),
    ROW("logging.getLogger", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_LOGGER, .qual = "logging.Logger"),
    ROW("logging.Logger", R, .kind = PY_V_EXTOBJ, .flags = PY_VF_LOGGER, .qual = "logging.Logger"),
    ROW("torch.utils.tensorboard.writer.SummaryWriter", R, .build = build_host_io),
    ROW("torch.nn.ModuleList", R, .build = build_modlist),
    ROW("torch.nn.Sequential", R, .build = build_modlist),
    ROW("torch.nn.ModuleDict", R, .build = build_modlist),
    ROW("torch.autocast", R | NOWARM, .build = build_autocast),
    ROW("torch.cuda.amp.autocast", R, .build = build_autocast),
    ROW("torch.amp.autocast", R, .build = build_autocast),
    ROW("torch.cuda.amp.autocast_mode.autocast", R, .build = build_autocast),
    ROW("torch.amp.autocast_mode.autocast", R, .build = build_autocast),
    ROW("torch.Generator", R, .build = build_generator),
    ROW("functools.partial", R, .build = build_partial),
    ROW("torch.utils.data.DataLoader", R, .build = build_dataloader),
    ROW("torch.utils.data.dataloader.DataLoader", R, .build = build_dataloader),
    /* host values */
    ROW("random.random", R, .kind = PY_V_NUMBER),
    ROW("random.uniform", R, .kind = PY_V_NUMBER),
    ROW("random.randint", R, .kind = PY_V_NUMBER),
    ROW("numpy", R, .kind = PY_V_NDARRAY),
    ROW("torch.equal", R, .kind = PY_V_NUMBER),
    ROW("torch.allclose", R, .kind = PY_V_NUMBER),
    ROW("torch.is_tensor", R, .kind = PY_V_NUMBER),
    ROW("torch.is_floating_point", R, .kind = PY_V_NUMBER),
    ROW("torch.numel", R, .kind = PY_V_NUMBER),
    ROW("torch.is_grad_enabled", R, .kind = PY_V_NUMBER),
    /* configuration and objects that are no tensors */
    ROW("torch.device", R | NOWARM, .kind = PY_V_UNKNOWN),
    ROW("torch.Size", R, .kind = PY_V_UNKNOWN),
    ROW("torch.dtype", R, .kind = PY_V_UNKNOWN),
    ROW("torch.no_grad", R | NOWARM, .kind = PY_V_UNKNOWN),
    ROW("torch.inference_mode", R | NOWARM, .kind = PY_V_UNKNOWN),
    ROW("torch.enable_grad", R | NOWARM, .kind = PY_V_UNKNOWN),
    ROW("torch.manual_seed", R | NOWARM, .kind = PY_V_UNKNOWN),
    ROW("torch.set_default_device", R, .kind = PY_V_UNKNOWN),
    ROW("torch.save", R, .kind = PY_V_UNKNOWN),
    ROW("torch.load", R, .kind = PY_V_UNKNOWN),
    ROW("torch.get_default_dtype", R, .kind = PY_V_UNKNOWN),
    ROW("torch.set_grad_enabled", NOWARM),
    ROW("torch.compile", NOWARM),
    ROW("torch.cat", NOWARM),
    ROW("torch.stack", NOWARM),
    ROW("torch.zeros_like", NOWARM),
    ROW("torch.ones_like", NOWARM),
    ROW("torch.empty_like", NOWARM),
    /* tensor factories (their result: build_torch) */
    ROW("torch.tensor", API_FACTORY),
    ROW("torch.as_tensor", API_FACTORY),
    ROW("torch.zeros", API_FACTORY | API_SIZES),
    ROW("torch.ones", API_FACTORY | API_SIZES),
    ROW("torch.empty", API_FACTORY | API_SIZES),
    ROW("torch.full", API_FACTORY | API_SIZES),
    ROW("torch.rand", API_FACTORY | API_SIZES),
    ROW("torch.randn", API_FACTORY | API_SIZES),
    ROW("torch.randint", API_FACTORY | API_SIZES),
    ROW("torch.randperm", API_FACTORY | API_SIZES),
    ROW("torch.arange", API_FACTORY | API_SIZES),
    ROW("torch.linspace", API_FACTORY | API_SIZES),
    ROW("torch.logspace", API_FACTORY),
    ROW("torch.eye", API_FACTORY | API_SIZES),
    ROW("torch.from_numpy", API_FACTORY),
    ROW("torch.empty_strided", API_FACTORY),
    ROW("torch.range", API_FACTORY),
    ROW("torch.normal", API_FACTORY),
    ROW("torch.bernoulli", API_FACTORY),
    /* ops that give masks (torch.logical_*: by prefix, in build_torch) */
    ROW("torch.isnan", API_BOOL),
    ROW("torch.isinf", API_BOOL),
    ROW("torch.isfinite", API_BOOL),
    ROW("torch.eq", API_BOOL),
    ROW("torch.ne", API_BOOL),
    ROW("torch.gt", API_BOOL),
    ROW("torch.lt", API_BOOL),
    ROW("torch.ge", API_BOOL),
    ROW("torch.le", API_BOOL),
    ROW("torch.isclose", API_BOOL),
};

/* Names no row has, by prefix: the first that matches says. */
static const py_api prefixes[] = {
    ROW("builtins.", R, .kind = PY_V_UNKNOWN),
    ROW("tqdm", R, .build = build_host_io),
    ROW("torch.utils.tensorboard.SummaryWriter", R, .build = build_host_io),
    ROW("tensorboardX.SummaryWriter", R, .build = build_host_io),
    ROW("torch.optim.lr_scheduler.", R, .build = build_scheduler),
    ROW("torch.optim.", R, .build = build_optimizer),
    ROW("math.", R, .build = build_math),
    ROW("time.", R, .kind = PY_V_NUMBER),
    ROW("numpy.", R, .kind = PY_V_NDARRAY),
    ROW("torch.nn.functional.", R, .kind = PY_V_TENSOR),
    ROW("torch.nn.", R, .build = build_nn),
    ROW("torch.cuda.", R, .kind = PY_V_UNKNOWN),
    ROW("torch.distributed.", R, .kind = PY_V_UNKNOWN),
    ROW("torch.backends.", R, .kind = PY_V_UNKNOWN),
    ROW("torch.utils.", R, .kind = PY_V_UNKNOWN),
    ROW("torch.autograd.", R, .kind = PY_V_UNKNOWN),
    ROW("torch.compile", R, .kind = PY_V_UNKNOWN),   /* torch.compiler.* too */
    ROW("torch.jit.", R, .kind = PY_V_UNKNOWN),
    ROW("torch._dynamo.", R, .kind = PY_V_UNKNOWN),
    ROW("torch.", R, .build = build_torch),
};

/* ---- methods, by name --------------------------------------------------------------- */
/* to(...): where the tensor goes (a device argument or device=) */
static py_val build_to(const py_call_site *cs)
{
    const py_event *ev = cs->ev;
    py_val v = py_vtensor(ev->recv.kind == PY_V_TENSOR ? ev->recv.dev : PY_DEV_UNKNOWN);
    if (ev->nargs > 0) {
        int d = py_api_device_of(cs->ctx, cs->fr, ev->argn[0], &ev->args[0]);
        if (d) v.dev = (uint8_t)d;
    }
    int k = py_ev_kw(ev, "device");
    if (k >= 0) {
        int d = py_api_device_of(cs->ctx, cs->fr, ev->kwn[k], NULL);
        if (d) v.dev = (uint8_t)d;
    }
    return v;
}

/* item(): a host number read from a tensor (an ndarray's is just a number) */
static py_val build_item(const py_call_site *cs)
{
    py_val v = py_vk(PY_V_NUMBER);
    if (cs->ev->recv.kind != PY_V_NDARRAY) v.flags = PY_VF_HOSTSCALAR;
    return v;
}

/* size(): a tuple; size(d): a number */
static py_val build_size(const py_call_site *cs)
{
    return cs->ev->nargs ? py_vk(PY_V_NUMBER) : py_vk(PY_V_TUPLE);
}

#define ANY (API_RESULT | API_ANY_RECV)
#define TENSOR (API_RESULT | API_ON_TENSOR)
#define KEEP API_KEEPS_MODULE

static const py_api methods[] = {
    /* on tensors (and ndarrays, and values of unknown kind) */
    ROW("item", ANY, .build = build_item),
    ROW("tolist", ANY, .kind = PY_V_LIST),
    ROW("numpy", ANY, .kind = PY_V_NDARRAY),
    ROW("dim", R, .kind = PY_V_NUMBER),
    ROW("ndimension", R, .kind = PY_V_NUMBER),
    ROW("numel", R, .kind = PY_V_NUMBER),
    ROW("nelement", R, .kind = PY_V_NUMBER),
    ROW("element_size", R, .kind = PY_V_NUMBER),
    ROW("data_ptr", R, .kind = PY_V_NUMBER),
    ROW("get_device", R, .kind = PY_V_NUMBER),
    ROW("is_contiguous", R, .kind = PY_V_NUMBER),
    ROW("is_floating_point", R, .kind = PY_V_NUMBER),
    ROW("stride", R, .kind = PY_V_NUMBER),
    ROW("size", R, .build = build_size),
    ROW("cpu", R | KEEP, .kind = PY_V_TENSOR, .dev = PY_DEV_CPU),
    ROW("cuda", R | KEEP | NOWARM, .kind = PY_V_TENSOR, .dev = PY_DEV_CUDA),
    ROW("pin_memory", R, .kind = PY_V_TENSOR, .dev = PY_DEV_CPU, .flags = PY_VF_PINNED),
    ROW("to", R | KEEP | NOWARM, .build = build_to),
    /* on known tensors: masks (logical_*: by prefix) and pieces */
    ROW("bool", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("isnan", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("isinf", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("isfinite", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("eq", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("ne", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("gt", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("lt", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("ge", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("le", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("any", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("all", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL),
    ROW("chunk", TENSOR, .kind = PY_V_TUPLE),
    ROW("split", TENSOR | API_SIZES | NOWARM, .kind = PY_V_TUPLE),
    ROW("unbind", TENSOR, .kind = PY_V_TUPLE),
    ROW("tensor_split", TENSOR, .kind = PY_V_TUPLE),
    /* sizes as positional arguments (CG203) */
    ROW("view", API_SIZES),
    ROW("reshape", API_SIZES),
    ROW("expand", API_SIZES),
    ROW("repeat", API_SIZES),
    ROW("narrow", API_SIZES),
    ROW("new_zeros", API_SIZES),
    ROW("new_ones", API_SIZES),
    ROW("new_empty", API_SIZES),
    ROW("new_full", API_SIZES),
    ROW("resize_", API_SIZES),
    ROW("unflatten", API_SIZES),
    ROW("tile", API_SIZES),
    ROW("index_select", API_SIZES),
    ROW("topk", API_SIZES),
    ROW("kthvalue", API_SIZES),
    /* modules: configured, not run (CG701's warm-up is a run) */
    ROW("eval", KEEP | NOWARM),
    ROW("train", KEEP | NOWARM),
    ROW("half", KEEP | NOWARM),
    ROW("float", KEEP | NOWARM),
    ROW("bfloat16", KEEP | NOWARM),
    ROW("requires_grad_", KEEP | NOWARM),
    ROW("double", NOWARM),
    ROW("zero_grad", NOWARM),
    ROW("parameters", NOWARM),
    ROW("named_parameters", NOWARM),
    ROW("buffers", NOWARM),
    ROW("modules", NOWARM),
    ROW("register_forward_hook", NOWARM),
    ROW("register_forward_pre_hook", NOWARM),
    ROW("register_full_backward_hook", NOWARM),
    ROW("load_state_dict", NOWARM),
    ROW("state_dict", NOWARM),
    /* streams and events, seeds, containers, strings, in-place fills: no run either */
    ROW("wait_stream", NOWARM),
    ROW("wait_event", NOWARM),
    ROW("record", NOWARM),
    ROW("record_event", NOWARM),
    ROW("synchronize", NOWARM),
    ROW("manual_seed", NOWARM),
    ROW("seed", NOWARM),
    ROW("append", NOWARM),
    ROW("extend", NOWARM),
    ROW("update", NOWARM),
    ROW("items", NOWARM),
    ROW("keys", NOWARM),
    ROW("values", NOWARM),
    ROW("get", NOWARM),
    ROW("format", NOWARM),
    ROW("join", NOWARM),
    ROW("fill_", NOWARM),
    ROW("copy_", NOWARM),
    ROW("zero_", NOWARM),
    ROW("normal_", NOWARM),
    ROW("uniform_", NOWARM),
};

/* a tensor method logical_and, logical_not...: a mask */
static const py_api logical_method = ROW("logical_", TENSOR, .kind = PY_V_TENSOR, .flags = PY_VF_BOOL);

/* ---- lookups -------------------------------------------------------------------------- */
static cg_map function_map, method_map;
static pthread_once_t maps_once = PTHREAD_ONCE_INIT;

static void index_rows(cg_map *map, const py_api *rows, size_t n)
{
    cg_map_init(map);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(rows[i].name);
        if (cg_map_get(map, rows[i].name, len)) {
            fprintf(stderr, "cglint: py_api.c lists %s twice\n", rows[i].name);
            abort();
        }
        cg_map_put(map, rows[i].name, len, (void *)&rows[i]);
    }
}

/* The maps are built once and live as long as the process. */
static void build_maps(void)
{
    index_rows(&function_map, functions, sizeof functions / sizeof *functions);
    index_rows(&method_map, methods, sizeof methods / sizeof *methods);
}

static const py_api *function_row(const char *q)
{
    if (!q) return NULL;
    pthread_once(&maps_once, build_maps);
    return cg_map_get(&function_map, q, strlen(q));
}

static const py_api *method_row(const char *m)
{
    if (!m) return NULL;
    pthread_once(&maps_once, build_maps);
    const py_api *row = cg_map_get(&method_map, m, strlen(m));
    if (!row && cg_starts(m, "logical_")) row = &logical_method;
    return row;
}

static int function_has(const char *q, unsigned prop)
{
    const py_api *row = function_row(q);
    return row && (row->props & prop);
}

static int method_has(const char *m, unsigned prop)
{
    const py_api *row = method_row(m);
    return row && (row->props & prop);
}

/* The value a row with API_RESULT says, for the call at cs. */
static py_val row_value(const py_api *row, const py_call_site *cs)
{
    if (row->build) return row->build(cs);
    py_val v = py_vk(row->kind);
    v.dev = row->dev;
    v.flags = row->flags;
    v.qual = row->qual;
    return v;
}

/* ---- the interface ---------------------------------------------------------------------- */
py_val py_api_call_result(py_ctx *ctx, py_frame *fr, const py_event *ev, TSNode call)
{
    const char *q = ev->qual;
    const py_api *row = function_row(q);
    py_call_site cs = { .ctx = ctx, .fr = fr, .ev = ev, .call = call, .q = q, .row = row };
    if (row && (row->props & API_RESULT)) return row_value(row, &cs);
    for (size_t i = 0; q && i < sizeof prefixes / sizeof *prefixes; i++)
        if (cg_starts(q, prefixes[i].name)) return row_value(&prefixes[i], &cs);
    return py_vk(PY_V_UNKNOWN);
}

py_val py_api_tensor_method(py_ctx *ctx, py_frame *fr, const py_event *ev)
{
    const py_val *r = &ev->recv;
    const py_api *row = method_row(ev->method);
    py_call_site cs = { .ctx = ctx, .fr = fr, .ev = ev, .row = row };
    if (row && (row->props & API_ANY_RECV)) return row_value(row, &cs);
    if (r->kind == PY_V_NDARRAY) return py_vk(PY_V_NDARRAY);
    if (row && (row->props & API_RESULT) && !(row->props & API_ON_TENSOR)) return row_value(row, &cs);
    if (r->kind != PY_V_TENSOR) return py_vk(PY_V_UNKNOWN);
    if (row && (row->props & API_ON_TENSOR))
        return row->kind == PY_V_TENSOR ? (py_val){ .kind = PY_V_TENSOR, .dev = r->dev, .flags = row->flags }
                                        : py_vk(row->kind);
    py_val out = py_vtensor(r->dev);
    if (cg_eq(ev->method, "requires_grad_")) {
        /* only a leaf takes requires_grad_: it has no autograd node of its own */
        out = *r;
        out.flags &= ~(uint32_t)PY_VF_EAGER_GRAD;
        if (!(ev->nargs > 0 && py_text_eq(fr->mod, ev->argn[0], "False"))) out.flags |= PY_VF_REQUIRES_GRAD;
        return out;
    }
    /* detach() and new_*() make tensors without an autograd node */
    if (!cg_eq(ev->method, "detach") && !cg_eq(ev->method, "detach_") && !cg_starts(ev->method, "new_")) {
        uint32_t in_flags = r->flags;
        for (int i = 0; i < ev->nargs; i++)
            if (ev->args[i].kind == PY_V_TENSOR) in_flags |= ev->args[i].flags;
        py_region_note_grad_op(ctx, fr, ev->node, in_flags, &out);
    }
    return out;
}

/* An instance of external class q, as an annotation names it: a tensor, a
 * module of torch.nn, or what the row of q says its call gives when that
 * needs no arguments (GradScaler, CUDAGraph, Logger); else unknown.
 * Optimizers are not assumed either way (capturable or not). */
py_val py_api_instance_of(const char *q)
{
    static const char *const tensors[] = { "torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter",
        "torch.FloatTensor", "torch.LongTensor", "torch.BoolTensor", "torch.cuda.FloatTensor", NULL };
    if (!q) return py_vk(PY_V_UNKNOWN);
    if (cg_one_of(q, tensors)) return py_vtensor(PY_DEV_UNKNOWN);
    const py_api *row = function_row(q);
    if (row && (row->props & API_RESULT) && !row->build && row->kind == PY_V_EXTOBJ) return row_value(row, NULL);
    const char *last = strrchr(q, '.');
    if (cg_starts(q, "torch.nn.") && !cg_starts(q, "torch.nn.functional.") && last && last[1] >= 'A' && last[1] <= 'Z') {
        py_val r = py_vk(PY_V_EXTOBJ);
        r.qual = q;
        return r;
    }
    return py_vk(PY_V_UNKNOWN);
}

/* A project logger's level method (NeMo's `logging.warning`, a Logger class
 * of one's own): host I/O, like logging's (CG301); not followed. */
int py_api_is_log_method(const py_func *f)
{
    static const char *const levels[] = { "debug", "info", "warning", "warn", "error", "exception", "critical",
        "log", NULL };
    return f && f->cls && (cg_ends_with(f->cls->name, "Logger") || cg_ends_with(f->cls->name, "Logging")) &&
           cg_one_of(f->name, levels);
}

int py_api_is_factory(const char *q) { return function_has(q, API_FACTORY); }

int py_api_takes_sizes(const char *qual, const char *method)
{
    return function_has(qual, API_SIZES) || method_has(method, API_SIZES);
}

int py_api_module_method_keeps_self(const char *method) { return method_has(method, API_KEEPS_MODULE); }

int py_api_is_capture_guard(const char *q) { return function_has(q, API_GUARD); }

int py_api_is_compiling(const char *q, const char *fn_name)
{
    if (fn_name) return cg_eq(fn_name, "is_torchdynamo_compiling") || cg_eq(fn_name, "is_compiling");
    return function_has(q, API_COMPILING) || cg_ends_with(q, ".is_torchdynamo_compiling");
}

int py_api_thread_local_mode(py_module *m, const py_event *ev)
{
    int tk = py_ev_kw(ev, "capture_error_mode");
    return tk >= 0 && !py_text_eq(m, ev->kwn[tk], "\"global\"") && !py_text_eq(m, ev->kwn[tk], "'global'");
}

/* tensor attributes that are tensors; shape is a tuple; the rest host metadata */
py_val py_api_tensor_attr(const py_val *o, const char *a, size_t al)
{
    static const char *const tensors[] = { "T", "mT", "data", "grad", "real", "imag", NULL };
    for (int i = 0; tensors[i]; i++)
        if (strlen(tensors[i]) == al && memcmp(a, tensors[i], al) == 0) return py_vtensor(o->dev);
    if (al == 5 && memcmp(a, "shape", 5) == 0) return py_vk(PY_V_TUPLE);
    return py_vk(PY_V_NUMBER);   /* dtype, device, ndim, is_cuda, requires_grad... host metadata */
}

int py_api_device_of(py_ctx *ctx, py_frame *fr, TSNode n, const py_val *v)
{
    n = py_unparen(n);
    if (IS(n, string)) {
        size_t len;
        const char *t = py_text(fr->mod, n, &len);
        if (len >= 5 && (memcmp(t + 1, "cuda", 4) == 0)) return PY_DEV_CUDA;
        if (len >= 4 && memcmp(t + 1, "cpu", 3) == 0) return PY_DEV_CPU;
        return PY_DEV_UNKNOWN;
    }
    if (IS(n, call)) {
        /* torch.device("cuda") */
        TSNode args = py_field(n, PY.f_arguments);
        if (!py_is_null(args) && py_named_child_count(args) > 0) {
            size_t len;
            const char *t = py_text(fr->mod, py_field(n, PY.f_function), &len);
            if (len >= 6 && memcmp(t + len - 6, "device", 6) == 0)
                return py_api_device_of(ctx, fr, py_named_child(args, 0), v);
        }
    }
    if (v && v->kind == PY_V_TENSOR) return v->dev;  /* device=x.device style handled by caller */
    return PY_DEV_UNKNOWN;
}

int py_api_is_tensor_math(const py_event *ev)
{
    const char *q = ev->qual;
    if (q && cg_starts(q, "torch.") && !cg_starts(q, "torch.cuda.") && !cg_starts(q, "torch.distributed.") &&
        !py_api_is_factory(q) && !cg_starts(q, "torch.nn.Module"))
        return 1;
    /* in-place `p.add_(g, alpha=-lr)` too, on values of unknown kind */
    const char *m = ev->method;
    if (!m) return 0;
    return ev->recv.kind == PY_V_TENSOR ||
           (ev->recv.kind == PY_V_UNKNOWN && m[0] && m[strlen(m) - 1] == '_' && m[0] != '_');
}

/* Could this call, made before a capture, be the warm-up run?  Anything that
 * runs code counts (a model, a project function, an extension op); building
 * things and configuring them does not.  Generous on purpose: CG701 prefers
 * silence. */
int py_api_is_warmup_call(const py_event *ev, const py_val *callee)
{
    static const char *const not_run[] = { "builtins.", "torch.cuda.", "logging.", "typing.", "os.", "sys.",
        "torch.is_", "torch.get_", "torch.set_", NULL };
    if (callee->kind == PY_V_INSTANCE || callee->kind == PY_V_FUNC || callee->kind == PY_V_MODLIST) return 1;
    if (callee->kind == PY_V_EXTOBJ) return cg_starts(callee->qual, "torch.nn.");
    if (ev->method) {
        if (method_has(ev->method, API_NOT_WARMUP)) return 0;
        return ev->recv.kind == PY_V_UNKNOWN || ev->recv.kind == PY_V_INSTANCE || ev->recv.kind == PY_V_EXTOBJ ||
               ev->recv.kind == PY_V_EXT || ev->recv.kind == PY_V_MODULE;
    }
    if (callee->kind != PY_V_EXT || !callee->qual) return 0;
    const char *q = callee->qual, *last = strrchr(q, '.');
    if (function_has(q, API_FACTORY | API_NOT_WARMUP)) return 0;
    if (last && last[1] >= 'A' && last[1] <= 'Z') return 0;   /* a constructor */
    for (int i = 0; not_run[i]; i++)
        if (cg_starts(q, not_run[i])) return 0;
    return !cg_starts(q, "torch.") || cg_starts(q, "torch.nn.functional.") || strchr(q + 6, '.') == NULL;
}
