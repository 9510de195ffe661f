/* py_api.c - what the libraries the rules know (torch, builtins, numpy,
 * logging, math...) give when called, and which of their functions and
 * methods matter to the evaluator: tensor factories, size arguments, calls
 * that are no warm-up run, capture guards.
 *
 * Nothing here follows project code: a call to a project function is
 * py_call.c's.  An external name the tables do not know gives an unknown
 * value, on which the rules stay silent. */
#include "py_eval.h"
#include <string.h>

static const char *const tensor_factories[] = {
    "torch.tensor", "torch.as_tensor", "torch.zeros", "torch.ones", "torch.empty", "torch.full",
    "torch.rand", "torch.randn", "torch.randint", "torch.randperm", "torch.arange",
    "torch.linspace", "torch.logspace", "torch.eye", "torch.from_numpy", "torch.empty_strided",
    "torch.range", "torch.normal", "torch.bernoulli", NULL };

int py_api_is_factory(const char *q)
{
    for (int i = 0; tensor_factories[i]; i++)
        if (cg_eq(q, tensor_factories[i])) return 1;
    return 0;
}

/* Functions whose positional arguments are sizes (CG203). */
int py_api_takes_sizes(const char *qual, const char *method)
{
    static const char *const q[] = { "torch.zeros", "torch.ones", "torch.empty", "torch.rand",
        "torch.randn", "torch.arange", "torch.full", "torch.randint", "torch.randperm",
        "torch.eye", "torch.linspace", "builtins.range", NULL };
    static const char *const m[] = { "view", "reshape", "expand", "repeat", "narrow",
        "new_zeros", "new_ones", "new_empty", "new_full", "resize_", "split", "unflatten",
        "tile", "index_select", "topk", "kthvalue", NULL };
    if (qual) for (int i = 0; q[i]; i++) if (cg_eq(qual, q[i])) return 1;
    if (method) for (int i = 0; m[i]; i++) if (cg_eq(method, m[i])) return 1;
    return 0;
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

/* The identity of a stream or event: the name it is assigned to
 * (`side = torch.cuda.Stream()` -> "side", `self.s = ...` -> "self.s"), which
 * is stable however often the creating expression is evaluated and reads well
 * in messages; else the expression and its line. */
static const char *created_name(py_ctx *ctx, py_frame *fr, TSNode call, const char *what)
{
    TSNode parent = py_parent(call);
    if (!py_is_null(parent) && IS(parent, assignment) && py_eq(py_field(parent, PY.f_right), call)) {
        TSNode left = py_field(parent, PY.f_left);
        if (IS(left, identifier) || IS(left, attribute)) return py_snip(ctx, fr->mod, left);
    }
    return cg_arena_printf(ctx->arena, "%s at %s:%u", what, fr->mod->file->path, py_start_point(call).row + 1);
}


/* A call to an external function/class: its result. */
py_val py_api_call_result(py_ctx *ctx, py_frame *fr, const py_event *ev, TSNode call)
{
    const char *q = ev->qual;
    if (cg_starts(q, "builtins.")) {
        const char *b = q + 9;
        if (cg_eq(b, "len") || cg_eq(b, "isinstance") || cg_eq(b, "hasattr") || cg_eq(b, "callable") ||
            cg_eq(b, "round") || cg_eq(b, "id") || cg_eq(b, "hash") || cg_eq(b, "divmod"))
            return py_vk(PY_V_NUMBER);
        if (cg_eq(b, "int") || cg_eq(b, "float") || cg_eq(b, "bool") || cg_eq(b, "abs")) {
            py_val r = py_vk(PY_V_NUMBER);
            if (ev->nargs > 0 && (ev->args[0].kind == PY_V_TENSOR || (ev->args[0].flags & PY_VF_HOSTSCALAR)))
                r.flags |= PY_VF_HOSTSCALAR;
            if (ev->nargs > 0 && cg_eq(b, "abs") && ev->args[0].kind == PY_V_TENSOR) return ev->args[0];
            return r;
        }
        if (cg_eq(b, "str") || cg_eq(b, "repr") || cg_eq(b, "format")) {
            py_val r = py_vk(PY_V_STR);
            for (int i = 0; i < ev->nargs; i++) if (ev->args[i].kind == PY_V_TENSOR) r.flags |= PY_VF_FMT_TENSOR;
            return r;
        }
        if (cg_eq(b, "list") || cg_eq(b, "sorted")) return py_vk(PY_V_LIST);
        if (cg_eq(b, "dict")) return py_vk(PY_V_DICT);
        if (cg_eq(b, "tuple")) return py_vk(PY_V_TUPLE);
        if (cg_eq(b, "set")) return py_vk(PY_V_SET);
        if (cg_eq(b, "print")) return py_vk(PY_V_NONE);
        if (cg_eq(b, "enumerate") && ev->nargs > 0) {
            /* keep what is enumerated: `for i, layer in enumerate(self.layers)` */
            py_val r = ev->args[0];
            r.flags |= PY_VF_ENUMERATE;
            return r;
        }
        if (cg_eq(b, "open")) { py_val r = py_vk(PY_V_EXTOBJ); r.qual = "builtins.file"; r.flags = PY_VF_HOST_IO; return r; }
        if (cg_eq(b, "range")) { py_val r = py_vk(PY_V_EXTOBJ); r.qual = "builtins.range"; return r; }
        if (cg_eq(b, "min") || cg_eq(b, "max") || cg_eq(b, "sum")) {
            int num = ev->nargs > 0;
            for (int i = 0; i < ev->nargs; i++) if (ev->args[i].kind != PY_V_NUMBER) num = 0;
            return num ? py_vk(PY_V_NUMBER) : py_vk(PY_V_UNKNOWN);
        }
        return py_vk(PY_V_UNKNOWN);
    }
    if (py_api_is_capture_guard(q)) return py_vk(PY_V_GUARD);
    if (cg_eq(q, "torch.cuda.graph") || cg_eq(q, "torch.cuda.graphs.graph")) {
        py_val r = py_vk(PY_V_EXTOBJ);
        r.qual = "torch.cuda.graph";
        int tk = py_ev_kw(ev, "capture_error_mode");
        if (tk >= 0 && !py_text_eq(fr->mod, ev->kwn[tk], "\"global\"") && !py_text_eq(fr->mod, ev->kwn[tk], "'global'"))
            r.flags |= PY_VF_THREAD_LOCAL;   /* thread_local or relaxed: other threads may use CUDA */
        int k = py_ev_kw(ev, "stream");
        if (k >= 0) {
            const py_val *s = &ev->kw[k];
            r.stream = s->kind == PY_V_STREAM ? s->qual : py_snip(ctx, fr->mod, ev->kwn[k]);
            r.stream_default = s->kind == PY_V_STREAM && (s->flags & PY_VF_DEFAULT_STREAM);
        }
        return r;
    }
    if (cg_eq(q, "torch.cuda.stream") || cg_eq(q, "torch.cuda.StreamContext")) {
        py_val r = py_vk(PY_V_EXTOBJ);
        r.qual = "torch.cuda.stream";
        if (ev->nargs > 0) {
            const py_val *s = &ev->args[0];
            r.stream = s->kind == PY_V_STREAM ? s->qual : py_snip(ctx, fr->mod, ev->argn[0]);
            r.stream_default = s->kind == PY_V_STREAM && (s->flags & PY_VF_DEFAULT_STREAM);
            if (s->kind == PY_V_NONE) r.stream = NULL;
        }
        return r;
    }
    if (cg_eq(q, "torch.cuda.CUDAGraph") || cg_eq(q, "torch.cuda.graphs.CUDAGraph")) {
        py_val r = py_vk(PY_V_EXTOBJ); r.qual = "torch.cuda.CUDAGraph"; r.flags = PY_VF_GRAPH; return r;
    }
    if (cg_eq(q, "torch.cuda.Stream") || cg_eq(q, "torch.cuda.streams.Stream") || cg_eq(q, "torch.Stream")) {
        py_val r = py_vk(PY_V_STREAM);
        r.qual = created_name(ctx, fr, call, "torch.cuda.Stream()");
        return r;
    }
    if (cg_eq(q, "torch.cuda.current_stream")) {
        py_val r = py_vk(PY_V_STREAM);
        r.qual = ctx->cur_stream ? ctx->cur_stream : "<current>";
        if (!ctx->cur_stream) r.qual = "<default>", r.flags |= 0;
        return r;
    }
    if (cg_eq(q, "torch.cuda.default_stream")) {
        py_val r = py_vk(PY_V_STREAM); r.qual = "<default>"; r.flags = PY_VF_DEFAULT_STREAM; return r;
    }
    if (cg_eq(q, "torch.cuda.Event") || cg_eq(q, "torch.cuda.streams.Event") || cg_eq(q, "torch.Event")) {
        py_val r = py_vk(PY_V_EVENT);
        r.qual = created_name(ctx, fr, call, "torch.cuda.Event()");
        return r;
    }
    if (cg_eq(q, "torch.cuda.amp.GradScaler") || cg_eq(q, "torch.amp.GradScaler") || cg_eq(q, "torch.GradScaler") ||
        cg_eq(q, "torch.cuda.amp.grad_scaler.GradScaler") || cg_eq(q, "torch.amp.grad_scaler.GradScaler")) {
        py_val r = py_vk(PY_V_EXTOBJ); r.qual = "GradScaler"; r.flags = PY_VF_SCALER; return r;
    }
    if (cg_eq(q, "logging.getLogger") || cg_eq(q, "logging.Logger")) {
        py_val r = py_vk(PY_V_EXTOBJ); r.qual = "logging.Logger"; r.flags = PY_VF_LOGGER; return r;
    }
    if (cg_starts(q, "tqdm") || cg_starts(q, "torch.utils.tensorboard.SummaryWriter") ||
        cg_starts(q, "tensorboardX.SummaryWriter") || cg_eq(q, "torch.utils.tensorboard.writer.SummaryWriter")) {
        py_val r = py_vk(PY_V_EXTOBJ); r.qual = q; r.flags = PY_VF_HOST_IO; return r;
    }
    if (cg_eq(q, "torch.nn.ModuleList") || cg_eq(q, "torch.nn.Sequential")) {
        py_val r = py_vk(PY_V_MODLIST);
        r.qual = q;
        /* element classes: from the call's arguments (instances, or a list of them) */
        for (int i = 0; i < ev->nargs; i++) {
            const py_val *a = &ev->args[i];
            if (a->kind == PY_V_INSTANCE && r.nelems < 4) r.elems[r.nelems++] = a->cls;
            else if (a->kind == PY_V_MODLIST)
                for (int k = 0; k < a->nelems && r.nelems < 4; k++) r.elems[r.nelems++] = a->elems[k];
        }
        return r;
    }
    if (cg_eq(q, "torch.autocast") || cg_eq(q, "torch.cuda.amp.autocast") || cg_eq(q, "torch.amp.autocast") ||
        cg_eq(q, "torch.cuda.amp.autocast_mode.autocast") || cg_eq(q, "torch.amp.autocast_mode.autocast")) {
        py_val r = py_vk(PY_V_EXTOBJ);
        r.qual = "torch.autocast";
        int k = py_ev_kw(ev, "cache_enabled");
        int cache = !(k >= 0 && py_text_eq(fr->mod, ev->kwn[k], "False"));
        /* torch.autocast("cpu") does not touch CUDA graphs */
        int dk = py_ev_kw(ev, "device_type");
        TSNode dn = dk >= 0 ? ev->kwn[dk] : ev->nargs > 0 ? ev->argn[0] : (TSNode){0};
        if (!py_is_null(dn) && py_api_device_of(ctx, fr, dn, NULL) == PY_DEV_CPU) cache = 0;
        if (cache) r.flags |= PY_VF_AUTOCAST;
        return r;
    }
    if (cg_eq(q, "torch.Generator")) {
        py_val r = py_vk(PY_V_EXTOBJ);
        r.qual = q;
        int k = py_ev_kw(ev, "device");
        TSNode dn = k >= 0 ? ev->kwn[k] : ev->nargs > 0 ? ev->argn[0] : (TSNode){0};
        if (!py_is_null(dn) && py_api_device_of(ctx, fr, dn, NULL) == PY_DEV_CUDA) r.flags |= PY_VF_CUDA_GEN;
        return r;
    }
    if (cg_eq(q, "torch.utils.data.DataLoader") || cg_eq(q, "torch.utils.data.dataloader.DataLoader")) {
        py_val r = py_vk(PY_V_EXTOBJ);
        r.qual = "torch.utils.data.DataLoader";
        int k = py_ev_kw(ev, "pin_memory");
        if (k >= 0 && py_text_eq(fr->mod, ev->kwn[k], "True")) r.flags |= PY_VF_PINNED;
        return r;
    }
    if (cg_starts(q, "torch.optim.lr_scheduler.")) {
        py_val r = py_vk(PY_V_EXTOBJ); r.qual = q; r.flags = PY_VF_SCHEDULER;
        /* a scheduler over a capturable optimizer with a tensor lr updates it in place */
        if (ev->nargs > 0 && (ev->args[0].flags & PY_VF_TENSOR_LR) && (ev->args[0].flags & PY_VF_CAPTURABLE))
            r.flags |= PY_VF_TENSOR_LR;
        return r;
    }
    if (cg_starts(q, "torch.optim.")) {
        /* optimizers that refuse capture unless built with capturable=True */
        static const char *const capt[] = { "Adam", "AdamW", "Adamax", "ASGD", "NAdam", "RAdam",
            "Adadelta", "Rprop", "RMSprop", NULL };
        const char *last = strrchr(q, '.') + 1;
        py_val r = py_vk(PY_V_EXTOBJ);
        r.qual = q;
        for (int i = 0; capt[i]; i++) if (cg_eq(last, capt[i])) r.flags |= PY_VF_OPTIMIZER;
        /* where it is built, for CG605's fix */
        r.omod = fr->mod;
        r.ctor = ev->node;
        int k = py_ev_kw(ev, "capturable");
        if (k >= 0 && py_text_eq(fr->mod, ev->kwn[k], "True")) r.flags |= PY_VF_CAPTURABLE;
        k = py_ev_kw(ev, "lr");
        if (k >= 0 && ev->kw[k].kind == PY_V_TENSOR) r.flags |= PY_VF_TENSOR_LR;
        if (last[0] >= 'A' && last[0] <= 'Z') return r;
        return py_vk(PY_V_UNKNOWN);
    }
    if (cg_starts(q, "math.") || cg_eq(q, "random.random") || cg_eq(q, "random.uniform") || cg_eq(q, "random.randint") ||
        cg_starts(q, "time.")) return py_vk(PY_V_NUMBER);
    if (cg_starts(q, "numpy.") || cg_eq(q, "numpy")) return py_vk(PY_V_NDARRAY);
    if (cg_starts(q, "torch.nn.functional.")) return py_vtensor(PY_DEV_UNKNOWN);
    if (cg_starts(q, "torch.nn.") || cg_starts(q, "torch.optim.")) {
        const char *last = strrchr(q, '.');
        if (last && last[1] >= 'A' && last[1] <= 'Z') { py_val r = py_vk(PY_V_EXTOBJ); r.qual = q; return r; }
        if (cg_starts(q, "torch.nn.utils.clip_grad")) return py_vtensor(PY_DEV_UNKNOWN);
        return py_vk(PY_V_UNKNOWN);
    }
    if (cg_starts(q, "torch.cuda.") || cg_starts(q, "torch.distributed.") || cg_starts(q, "torch.backends.") ||
        cg_starts(q, "torch.utils.") || cg_starts(q, "torch.autograd.") || cg_starts(q, "torch.compile") ||
        cg_starts(q, "torch.jit.") || cg_starts(q, "torch._dynamo."))
        return py_vk(PY_V_UNKNOWN);
    if (cg_eq(q, "torch.equal") || cg_eq(q, "torch.allclose") || cg_eq(q, "torch.is_tensor") ||
        cg_eq(q, "torch.is_floating_point") || cg_eq(q, "torch.numel") || cg_eq(q, "torch.is_grad_enabled"))
        return py_vk(PY_V_NUMBER);
    if (cg_eq(q, "torch.device") || cg_eq(q, "torch.Size") || cg_eq(q, "torch.dtype") || cg_eq(q, "torch.Generator") ||
        cg_eq(q, "torch.no_grad") || cg_eq(q, "torch.inference_mode") || cg_eq(q, "torch.autocast") ||
        cg_eq(q, "torch.enable_grad") || cg_eq(q, "torch.manual_seed") || cg_eq(q, "torch.set_default_device") ||
        cg_eq(q, "torch.save") || cg_eq(q, "torch.load") || cg_eq(q, "torch.get_default_dtype"))
        return py_vk(PY_V_UNKNOWN);
    if (cg_starts(q, "torch.") && !strchr(q + 6, '.') &&
        (cg_starts(q + 6, "is_") || cg_starts(q + 6, "get_") || cg_starts(q + 6, "are_") || cg_starts(q + 6, "has_") ||
         cg_starts(q + 6, "set_") || cg_starts(q + 6, "use_")))
        return py_vk(PY_V_NUMBER);   /* torch.is_autocast_enabled(), torch.get_default_dtype()...: host values */
    if (cg_starts(q, "torch.") && !strchr(q + 6, '.')) {
        /* torch.<op>: a tensor; factories say where */
        py_val r = py_vtensor(PY_DEV_UNKNOWN);
        if (py_api_is_factory(q)) {
            int k = py_ev_kw(ev, "device");
            if (k >= 0) {
                r.dev = (uint8_t)py_api_device_of(ctx, fr, ev->kwn[k], NULL);
                if (r.dev == PY_DEV_UNKNOWN && ev->kw[k].kind == PY_V_STR) r.dev = PY_DEV_UNKNOWN;
            } else if (cg_eq(q, "torch.from_numpy") || !ctx->p->default_device_set) {
                r.dev = PY_DEV_CPU;
            }
            if (cg_eq(q, "torch.from_numpy")) r.dev = PY_DEV_CPU;
            int pk = py_ev_kw(ev, "pin_memory");
            if (pk >= 0 && py_text_eq(fr->mod, ev->kwn[pk], "True")) r.flags |= PY_VF_PINNED;
            int dk = py_ev_kw(ev, "dtype");
            if (dk >= 0 && py_text_eq(fr->mod, ev->kwn[dk], "torch.bool")) r.flags |= PY_VF_BOOL;
        } else {
            for (int i = 0; i < ev->nargs; i++)
                if (ev->args[i].kind == PY_V_TENSOR && ev->args[i].dev == PY_DEV_CPU) r.dev = PY_DEV_CPU;
            if (cg_eq(q, "torch.isnan") || cg_eq(q, "torch.isinf") || cg_eq(q, "torch.isfinite") ||
                cg_starts(q, "torch.logical_") || cg_eq(q, "torch.eq") || cg_eq(q, "torch.ne") ||
                cg_eq(q, "torch.gt") || cg_eq(q, "torch.lt") || cg_eq(q, "torch.ge") || cg_eq(q, "torch.le") ||
                cg_eq(q, "torch.isclose"))
                r.flags |= PY_VF_BOOL;
        }
        return r;
    }
    return py_vk(PY_V_UNKNOWN);
}

/* A method called on a tensor (or a value that may be one): its result. */
py_val py_api_tensor_method(py_ctx *ctx, py_frame *fr, const py_event *ev)
{
    const char *m = ev->method;
    const py_val *r = &ev->recv;
    int known = r->kind == PY_V_TENSOR;
    if (cg_eq(m, "item")) { py_val v = py_vk(PY_V_NUMBER); if (r->kind != PY_V_NDARRAY) v.flags = PY_VF_HOSTSCALAR; return v; }
    if (cg_eq(m, "tolist")) return py_vk(PY_V_LIST);
    if (cg_eq(m, "numpy")) return py_vk(PY_V_NDARRAY);
    if (r->kind == PY_V_NDARRAY) return py_vk(PY_V_NDARRAY);
    if (cg_eq(m, "dim") || cg_eq(m, "ndimension") || cg_eq(m, "numel") || cg_eq(m, "nelement") ||
        cg_eq(m, "element_size") || cg_eq(m, "data_ptr") || cg_eq(m, "get_device") || cg_eq(m, "is_contiguous") ||
        cg_eq(m, "is_floating_point") || cg_eq(m, "stride"))
        return py_vk(PY_V_NUMBER);
    if (cg_eq(m, "size")) return ev->nargs ? py_vk(PY_V_NUMBER) : py_vk(PY_V_TUPLE);
    if (cg_eq(m, "cpu")) return py_vtensor(PY_DEV_CPU);
    if (cg_eq(m, "cuda")) return py_vtensor(PY_DEV_CUDA);
    if (cg_eq(m, "pin_memory")) { py_val v = py_vtensor(PY_DEV_CPU); v.flags |= PY_VF_PINNED; return v; }
    if (cg_eq(m, "to")) {
        py_val v = py_vtensor(known ? r->dev : PY_DEV_UNKNOWN);
        if (ev->nargs > 0) {
            int d = py_api_device_of(ctx, fr, ev->argn[0], &ev->args[0]);
            if (d) v.dev = (uint8_t)d;
        }
        int k = py_ev_kw(ev, "device");
        if (k >= 0) { int d = py_api_device_of(ctx, fr, ev->kwn[k], NULL); if (d) v.dev = (uint8_t)d; }
        return v;
    }
    if (!known) return py_vk(PY_V_UNKNOWN);
    py_val v = py_vtensor(r->dev);
    if (cg_eq(m, "bool") || cg_eq(m, "isnan") || cg_eq(m, "isinf") || cg_eq(m, "isfinite") || cg_eq(m, "eq") ||
        cg_eq(m, "ne") || cg_eq(m, "gt") || cg_eq(m, "lt") || cg_eq(m, "ge") || cg_eq(m, "le") ||
        cg_starts(m, "logical_") || cg_eq(m, "any") || cg_eq(m, "all"))
        v.flags |= PY_VF_BOOL;
    if (cg_eq(m, "chunk") || cg_eq(m, "split") || cg_eq(m, "unbind") || cg_eq(m, "tensor_split")) v = py_vk(PY_V_TUPLE);
    return v;
}


/* Could this call, made before a capture, be the warm-up run?  Anything that
 * runs code counts (a model, a project function, an extension op); building
 * things and configuring them does not.  Generous on purpose: CG701 prefers
 * silence. */
int py_api_is_warmup_call(const py_event *ev, const py_val *callee)
{
    static const char *const config[] = { "cuda", "to", "eval", "train", "half", "float", "bfloat16",
        "double", "requires_grad_", "zero_grad", "parameters", "named_parameters", "buffers", "modules",
        "wait_stream", "wait_event", "record", "record_event", "synchronize", "manual_seed", "seed",
        "append", "extend", "update", "items", "keys", "values", "get", "format", "join", "split",
        "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
        "load_state_dict", "state_dict", "fill_", "copy_", "zero_", "normal_", "uniform_", NULL };
    if (callee->kind == PY_V_INSTANCE || callee->kind == PY_V_FUNC || callee->kind == PY_V_MODLIST)
        return 1;
    if (callee->kind == PY_V_EXTOBJ) return cg_starts(callee->qual, "torch.nn.");
    if (ev->method) {
        for (int i = 0; config[i]; i++) if (cg_eq(ev->method, config[i])) return 0;
        return ev->recv.kind == PY_V_UNKNOWN || ev->recv.kind == PY_V_INSTANCE || ev->recv.kind == PY_V_EXTOBJ ||
               ev->recv.kind == PY_V_EXT || ev->recv.kind == PY_V_MODULE;
    }
    if (callee->kind == PY_V_EXT && callee->qual) {
        const char *q = callee->qual, *last = strrchr(q, '.');
        if (cg_starts(q, "builtins.") || cg_starts(q, "torch.cuda.") || cg_starts(q, "logging.") ||
            cg_starts(q, "typing.") || cg_starts(q, "os.") || cg_starts(q, "sys.") || py_api_is_factory(q))
            return 0;
        if (last && last[1] >= 'A' && last[1] <= 'Z') return 0;   /* a constructor */
        static const char *const setup[] = { "torch.no_grad", "torch.inference_mode", "torch.enable_grad",
            "torch.set_grad_enabled", "torch.autocast", "torch.compile", "torch.manual_seed", "torch.device",
            "torch.cat", "torch.stack", "torch.zeros_like", "torch.ones_like", "torch.empty_like", NULL };
        for (int i = 0; setup[i]; i++) if (cg_eq(q, setup[i])) return 0;
        if (cg_starts(q, "torch.is_") || cg_starts(q, "torch.get_") || cg_starts(q, "torch.set_")) return 0;
        return !cg_starts(q, "torch.") || cg_starts(q, "torch.nn.functional.") || strchr(q + 6, '.') == NULL;
    }
    return 0;
}

/* model.cuda(), model.eval()...: the module itself */
int py_api_module_method_keeps_self(const char *m)
{
    return cg_eq(m, "cuda") || cg_eq(m, "to") || cg_eq(m, "eval") || cg_eq(m, "train") ||
           cg_eq(m, "half") || cg_eq(m, "float") || cg_eq(m, "bfloat16") ||
           cg_eq(m, "requires_grad_") || cg_eq(m, "cpu");
}

py_val py_api_tensor_attr(const py_val *o, const char *a, size_t al)
{
    if ((al == 1 && a[0] == 'T') || (al == 2 && memcmp(a, "mT", 2) == 0) ||
        (al == 4 && (memcmp(a, "data", 4) == 0 || memcmp(a, "grad", 4) == 0 || memcmp(a, "real", 4) == 0 ||
                     memcmp(a, "imag", 4) == 0)))
        return py_vtensor(o->dev);
    if (al == 5 && memcmp(a, "shape", 5) == 0) return py_vk(PY_V_TUPLE);
    return py_vk(PY_V_NUMBER);   /* dtype, device, ndim, is_cuda, requires_grad... host metadata */
}

int py_api_is_capture_guard(const char *q)
{
    return cg_eq(q, "torch.cuda.is_current_stream_capturing") ||
           cg_eq(q, "torch.cuda.graphs.is_current_stream_capturing") ||
           cg_eq(q, "torch._C._cuda_isCurrentStreamCapturing");
}

int py_api_is_compiling(const char *q, const char *fn_name)
{
    if (fn_name) return cg_eq(fn_name, "is_torchdynamo_compiling") || cg_eq(fn_name, "is_compiling");
    return cg_eq(q, "torch.compiler.is_compiling") || cg_eq(q, "torch._dynamo.is_compiling") ||
           cg_eq(q, "torch.compiler.is_dynamo_compiling") || cg_ends_with(q, ".is_torchdynamo_compiling");
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
