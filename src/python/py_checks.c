/* py_checks.c - every Python rule, one function each, and the table that
 * says which event each one listens to.
 *
 * To add a rule: scripts/add-rule CGnnn py writes rules/CGnnn.md, the
 * fixtures tests/fixtures/py/CGnnn/{positive,negative}.py, a stub checker
 * before the table below and its row at the table's end (rules/README.md).
 * What a rule becomes under torch.compile(mode="reduce-overhead") is its
 * page's `compiled-as:`.  A checker gets a const
 * context: it reads the event, the region's facts (py_region) and the
 * index, and calls py_report(); it changes nothing, walks no tree and
 * searches no source text.  A fact it lacks is gathered by the evaluator or
 * the index, not here.  Reporting is already limited to capture context.
 *
 * A finding with a mechanical fix says so in its py_finding (`.kw`,
 * `.kw_value`, `.kw_call`): that carries the edit to --fix, --diff and SARIF
 * `fixes`: CG108's error_if_nonfinite=False, CG604's preserve_rng_state=False,
 * CG601's cache_enabled=False (on the autocast call, away from the finding's
 * place), CG605's capturable=True (on the optimizer's constructor). */
#include "py_check.h"
#include <stdio.h>
#include <string.h>

/* A receiver a tensor-only method may be called on: a tensor not known to be
 * on the CPU, or a value of unknown kind (prefer the finding: these method
 * names are tensor API). */
static int tensorish(const py_val *v)
{
    return (v->kind == PY_V_TENSOR && v->dev != PY_DEV_CPU) || v->kind == PY_V_UNKNOWN;
}

static const char *expr(const py_ctx *ctx, const py_event *ev) { return py_snip(ctx, ev->mod, ev->node); }
static const char *expr_at(const py_ctx *ctx, py_module *m, TSNode n) { return py_snip(ctx, m, n); }

static int kw_true(const py_event *ev, const char *name)
{
    int k = py_ev_kw(ev, name);
    return k >= 0 && py_text_eq(ev->mod, ev->kwn[k], "True");
}

/* ---- 1 sync ---------------------------------------------------------------- */

/* CG101 / CG203: .item() .tolist() float(t) int(t) bool(t) */
static void check_scalar_read(const py_ctx *ctx, const py_event *ev)
{
    int hit = 0;
    const char *what = NULL;
    if (ev->method && (cg_eq(ev->method, "item") || cg_eq(ev->method, "tolist")) && ev->nargs == 0 &&
        tensorish(&ev->recv)) {
        hit = 1;
        what = ev->method;
    } else if (!ev->method && (cg_eq(ev->qual, "builtins.float") || cg_eq(ev->qual, "builtins.int") ||
                               cg_eq(ev->qual, "builtins.bool")) &&
               ev->nargs == 1 && py_is_gpu_tensor(&ev->args[0])) {
        hit = 1;
        what = ev->qual + 9;
    } else if (!ev->method && cg_starts(ev->qual, "math.")) {
        /* math.isfinite(t), math.floor(t), math.sqrt(t): Tensor.__float__ (or
         * __index__) reads the value on the host */
        for (int i = 0; i < ev->nargs && !hit; i++) hit = py_is_gpu_tensor(&ev->args[i]);
        what = ev->qual;
    }
    if (!hit) return;
    if (ev->size_arg) {
        py_report(ctx, PY_AT(CG_R_CG203, ev->mod, ev->node),
                  "`%s` uses a tensor's value as a size: it synchronizes during capture, and the "
                  "size would be frozen into the graph", expr(ctx, ev));
        return;
    }
    py_report(ctx, PY_AT(CG_R_CG101, ev->mod, ev->node),
              "`%s` copies a CUDA tensor's value to the host (%s), which synchronizes during graph capture",
              expr(ctx, ev), what);
}

/* CG203: a variable holding a value read from a tensor, used as a size */
static void check_size_use(const py_ctx *ctx, const py_event *ev)
{
    py_report(ctx, PY_AT(CG_R_CG203, ev->mod, ev->node),
              "`%s` was read from a tensor and is used as a size: the shape is frozen at capture",
              expr(ctx, ev));
}

/* A device written as the CPU: "cpu", 'cpu', torch.device("cpu"). */
static int cpu_literal(py_module *m, TSNode a)
{
    return py_text_eq(m, a, "\"cpu\"") || py_text_eq(m, a, "'cpu'") || py_text_eq(m, a, "torch.device(\"cpu\")") ||
           py_text_eq(m, a, "torch.device('cpu')");
}

/* CG102: device-to-host copies */
static void check_d2h(const py_ctx *ctx, const py_event *ev)
{
    if (!ev->method) return;
    const py_val *r = &ev->recv;
    if (cg_eq(ev->method, "cpu") || cg_eq(ev->method, "numpy")) {
        if (!tensorish(r) || ev->nargs) return;
        if (cg_eq(ev->method, "cpu") && r->kind == PY_V_TENSOR && r->dev == PY_DEV_CPU) return;
        py_report(ctx, PY_AT(CG_R_CG102, ev->mod, ev->node),
                  "`%s` copies a CUDA tensor to host memory during graph capture", expr(ctx, ev));
        return;
    }
    /* .to("cpu") is a copy to the host like .cpu(): on a value of unknown kind too */
    if (cg_eq(ev->method, "to") && tensorish(r)) {
        int cpu = ev->nargs > 0 && cpu_literal(ev->mod, ev->argn[0]);
        int k = py_ev_kw(ev, "device");
        if (k >= 0) cpu = cpu_literal(ev->mod, ev->kwn[k]);
        if (cpu && !kw_true(ev, "non_blocking"))
            py_report(ctx, PY_AT(CG_R_CG102, ev->mod, ev->node),
                      "`%s` is a blocking copy to pageable host memory during graph capture", expr(ctx, ev));
        return;
    }
    if (cg_eq(ev->method, "copy_") && r->kind == PY_V_TENSOR && r->dev == PY_DEV_CPU && !(r->flags & PY_VF_PINNED) &&
        ev->nargs > 0 && py_is_gpu_tensor(&ev->args[0]))
        py_report(ctx, PY_AT(CG_R_CG102, ev->mod, ev->node),
                  "`%s` copies a CUDA tensor into pageable host memory during graph capture", expr(ctx, ev));
}

/* CG103: host-to-device copies from pageable memory */
static void check_h2d(const py_ctx *ctx, const py_event *ev)
{
    if (!ev->method && (cg_eq(ev->qual, "torch.tensor") || cg_eq(ev->qual, "torch.as_tensor"))) {
        int k = py_ev_kw(ev, "device");
        if (k < 0) return;
        TSNode d = ev->kwn[k];
        size_t len;
        const char *t = py_text(ev->mod, d, &len);
        int cpu = memmem(t, len, "cpu", 3) != NULL;
        if (!cpu) {
            if (ev->nargs > 0 && ev->args[0].kind == PY_V_TENSOR) return; /* already a tensor: may be on GPU */
            py_report(ctx, PY_AT(CG_R_CG103, ev->mod, ev->node),
                      "`%s` copies host data to the GPU during graph capture; the copy is not replayed",
                      expr(ctx, ev));
        }
        return;
    }
    if (ev->method && (cg_eq(ev->method, "cuda") || cg_eq(ev->method, "to")) && ev->recv.kind == PY_V_TENSOR &&
        ev->recv.dev == PY_DEV_CPU) {
        if (cg_eq(ev->method, "to")) {
            int cpu = ev->nargs > 0 && (py_text_eq(ev->mod, ev->argn[0], "\"cpu\"") ||
                                        py_text_eq(ev->mod, ev->argn[0], "'cpu'"));
            int dtype_only = ev->nargs > 0 && ev->args[0].kind == PY_V_EXT && cg_starts(ev->args[0].qual, "torch.");
            if (cpu || dtype_only || (ev->nargs == 0 && py_ev_kw(ev, "device") < 0)) return;
        }
        if ((ev->recv.flags & PY_VF_PINNED) && kw_true(ev, "non_blocking")) return;
        py_report(ctx, PY_AT(CG_R_CG103, ev->mod, ev->node),
                  "`%s` copies a host tensor to the GPU during graph capture; the copy is not replayed",
                  expr(ctx, ev));
    }
}

/* CG104: explicit synchronization */
static void check_sync(const py_ctx *ctx, const py_event *ev)
{
    static const char *const fns[] = { "torch.cuda.synchronize", "torch.distributed.barrier",
        "torch.cuda.streams.Stream.synchronize", "torch.cuda.Stream.synchronize",
        "torch.cuda.Event.synchronize", "torch.accelerator.synchronize", NULL };
    if (!ev->method && cg_one_of(ev->qual, fns)) {
        py_report(ctx, PY_AT(CG_R_CG104, ev->mod, ev->node),
                  "`%s` waits on the host for GPU work, which is not allowed during graph capture", expr(ctx, ev));
        return;
    }
    if (ev->method && cg_eq(ev->method, "synchronize") &&
        (ev->recv.kind == PY_V_STREAM || ev->recv.kind == PY_V_EVENT || ev->recv.kind == PY_V_UNKNOWN))
        py_report(ctx, PY_AT(CG_R_CG104, ev->mod, ev->node),
                  "`%s` waits on the host for GPU work, which is not allowed during graph capture", expr(ctx, ev));
}

/* CG105: stream/event status queries */
static void check_query(const py_ctx *ctx, const py_event *ev)
{
    if (ev->method && cg_eq(ev->method, "query") && (ev->recv.kind == PY_V_STREAM || ev->recv.kind == PY_V_EVENT))
        py_report(ctx, PY_AT(CG_R_CG105, ev->mod, ev->node),
                  "`%s` queries a %s's status during graph capture, which capture does not allow",
                  expr(ctx, ev), ev->recv.kind == PY_V_STREAM ? "stream" : "event");
}

/* CG107 (calls): print/log/str/repr/format of a tensor */
static int is_log_call(const py_event *ev)
{
    static const char *const levels[] = { "debug", "info", "warning", "warn", "error", "exception",
        "critical", "log", NULL };
    if (cg_starts(ev->qual, "logging.") && cg_one_of(ev->qual + 8, levels)) return 1;
    if (ev->callee.kind == PY_V_FUNC && py_api_is_log_method(ev->callee.fn)) return 1;
    if (ev->method && cg_one_of(ev->method, levels)) {
        if (ev->recv.flags & PY_VF_LOGGER) return 1;
        /* logger objects of unknown origin, by their conventional names */
        size_t len;
        const char *t = ev->recv.kind == PY_V_UNKNOWN ? py_text(ev->mod, ev->recv_node, &len) : NULL;
        if (t) {
            const char *dot = NULL;
            for (size_t i = 0; i < len; i++) if (t[i] == '.') dot = t + i + 1;
            const char *base = dot ? dot : t;
            size_t bl = (size_t)(t + len - base);
            if ((bl == 6 && memcmp(base, "logger", 6) == 0) || (bl == 3 && memcmp(base, "log", 3) == 0) ||
                (bl == 7 && memcmp(base, "_logger", 7) == 0) || (bl == 6 && memcmp(base, "LOGGER", 6) == 0) ||
                (bl == 4 && memcmp(base, "_log", 4) == 0))
                return 1;
        }
    }
    return 0;
}

static int has_tensor_arg(const py_event *ev, int *fmt_only)
{
    int t = 0, f = 0;
    for (int i = 0; i < ev->nargs; i++) {
        if (ev->args[i].kind == PY_V_TENSOR) t = 1;
        if (ev->args[i].flags & PY_VF_FMT_TENSOR) f = 1;
    }
    for (int i = 0; i < ev->nkw; i++) {
        if (ev->kw[i].kind == PY_V_TENSOR) t = 1;
        if (ev->kw[i].flags & PY_VF_FMT_TENSOR) f = 1;
    }
    *fmt_only = f;
    return t;
}

static void check_format_call(const py_ctx *ctx, const py_event *ev)
{
    int fmt;
    if (cg_eq(ev->qual, "builtins.print") || is_log_call(ev)) {
        if (has_tensor_arg(ev, &fmt))
            py_report(ctx, PY_AT(CG_R_CG107, ev->mod, ev->node),
                      "`%s` formats a CUDA tensor, which reads its values on the host during graph capture",
                      expr(ctx, ev));
        return;
    }
    if ((cg_eq(ev->qual, "builtins.str") || cg_eq(ev->qual, "builtins.repr") || cg_eq(ev->qual, "builtins.format")) &&
        ev->nargs > 0 && py_is_gpu_tensor(&ev->args[0]))
        py_report(ctx, PY_AT(CG_R_CG107, ev->mod, ev->node),
                  "`%s` formats a CUDA tensor, which reads its values on the host during graph capture",
                  expr(ctx, ev));
    if (ev->method && cg_eq(ev->method, "format") && ev->recv.kind == PY_V_STR && has_tensor_arg(ev, &fmt))
        py_report(ctx, PY_AT(CG_R_CG107, ev->mod, ev->node),
                  "`%s` formats a CUDA tensor, which reads its values on the host during graph capture",
                  expr(ctx, ev));
}

/* CG107 (f-strings) */
static void check_format_fstring(const py_ctx *ctx, const py_event *ev)
{
    if (!py_is_gpu_tensor(&ev->val)) return;
    py_report(ctx, PY_AT(CG_R_CG107, ev->mod, ev->node),
              "f-string `%s` formats a CUDA tensor, which reads its values on the host during graph capture",
              py_snip(ctx, ev->mod, ev->node));
}

/* Does GradScaler.step(opt) read found_inf on the host, opt being (one of)
 * these optimizers?  A torch.optim optimizer does unless fused and
 * capturable; a project optimizer unless it handles the scale itself
 * (`_step_supports_amp_scaling`).  An optimizer of unknown kind, or built
 * with keywords not known (`**kwargs`: fused unseen), says nothing. */
static int scaler_step_syncs(const py_val *opt)
{
    for (const py_val *a = opt; a; a = a->alt) {
        if (a->kind == PY_V_EXTOBJ && a->qual && cg_starts(a->qual, "torch.optim.") &&
            !((a->flags & PY_VF_FUSED) && (a->flags & PY_VF_CAPTURABLE)) && !(a->flags & PY_VF_KW_UNSEEN))
            return 1;
        if (a->kind == PY_V_INSTANCE && !(a->flags & PY_VF_AMP_SCALING)) return 1;
    }
    return 0;
}

/* CG108: synchronization hidden in library calls */
static void check_library_sync(const py_ctx *ctx, const py_event *ev)
{
    if (!ev->method && (cg_eq(ev->qual, "torch.equal") || cg_eq(ev->qual, "torch.allclose"))) {
        py_report(ctx, PY_AT(CG_R_CG108, ev->mod, ev->node),
                  "`%s` returns a Python bool, so it reads the comparison on the host during graph capture",
                  expr(ctx, ev));
        return;
    }
    if (((!ev->method && ev->qual && strstr(ev->qual, "clip_grad_norm_")) ||
         (ev->method && cg_eq(ev->method, "clip_grad_norm_"))) && kw_true(ev, "error_if_nonfinite")) {
        /* the mechanical fix: the default, which was captured without error */
        py_report(ctx, PY_AT(CG_R_CG108, ev->mod, ev->node,
                  .fix = "pass `error_if_nonfinite=False` (the default) inside the capture",
                  .kw = "error_if_nonfinite", .kw_value = "False", .kw_mod = ev->mod, .kw_call = ev->node,
                  .kw_safe = 1),
                  "`clip_grad_norm_(..., error_if_nonfinite=True)` checks the norm on the host, which "
                  "synchronizes during graph capture");
        return;
    }
    /* GradScaler.step(opt) reads found_inf with .item() before stepping, unless
     * the optimizer takes the scale and flag itself (fused=True, capturable:
     * measured to capture and replay); update() keeps the scale on the GPU and
     * never syncs. */
    if (ev->method && (ev->recv.flags & PY_VF_SCALER) && cg_eq(ev->method, "step") && ev->nargs > 0 &&
        scaler_step_syncs(&ev->args[0]))
        py_report(ctx, PY_AT(CG_R_CG108, ev->mod, ev->node),
                  "`%s`: GradScaler reads its found-inf flag on the host, which synchronizes during graph capture",
                  expr(ctx, ev));
}

/* ---- 2 dynamic --------------------------------------------------------------- */

/* CG201 / CG108: a tensor used as a Python condition */
static void check_condition(const py_ctx *ctx, const py_event *ev)
{
    if (!py_is_gpu_tensor(&ev->val)) return;
    TSNode n = ev->node;
    if (IS(n, call)) {
        TSNode fn = py_field(n, PY.f_function);
        if (IS(fn, attribute)) {
            TSNode a = py_field(fn, PY.f_attribute);
            if (py_text_eq(ev->mod, a, "any") || py_text_eq(ev->mod, a, "all")) {
                py_report(ctx, PY_AT(CG_R_CG108, ev->mod, n, .fix = "keep the result as a tensor: `torch.where(t.any(), a, b)`"),
                          "`%s` is used as a Python bool, which reads it on the host during graph capture",
                          py_snip(ctx, ev->mod, n));
                return;
            }
        }
    }
    py_report(ctx, PY_AT(CG_R_CG201, ev->mod, n),
              "the condition `%s` is a tensor: Python reads its value on the host, which synchronizes "
              "during graph capture and freezes the branch", py_snip(ctx, ev->mod, n));
}

/* CG202: data-dependent output shapes */
static void check_dynamic_shape_call(const py_ctx *ctx, const py_event *ev)
{
    static const char *const fns[] = { "torch.nonzero", "torch.argwhere", "torch.masked_select",
        "torch.unique", "torch.unique_consecutive", NULL };
    static const char *const methods[] = { "nonzero", "argwhere", "masked_select", "unique",
        "unique_consecutive", NULL };
    int hit = 0;
    if (!ev->method && cg_one_of(ev->qual, fns)) hit = 1;
    else if (ev->method && cg_one_of(ev->method, methods) && tensorish(&ev->recv) && ev->recv.kind == PY_V_TENSOR) hit = 1;
    else if (!ev->method && cg_eq(ev->qual, "torch.where") && ev->nargs == 1 && ev->nkw == 0) hit = 1;
    else if ((cg_eq(ev->qual, "torch.repeat_interleave") || (ev->method && cg_eq(ev->method, "repeat_interleave") &&
                                                         ev->recv.kind == PY_V_TENSOR)) &&
             py_ev_kw(ev, "output_size") < 0) {
        /* the output size depends on data when repeats is a tensor (or the only argument) */
        int ri = ev->method ? 0 : 1;
        if (ev->nargs > ri && ev->args[ri].kind == PY_V_TENSOR) hit = 1;
        else if (!ev->method && ev->nargs == 1) hit = 1;
        int k = py_ev_kw(ev, "repeats");
        if (k >= 0 && ev->kw[k].kind == PY_V_TENSOR) hit = 1;
    }
    if (hit)
        py_report(ctx, PY_AT(CG_R_CG202, ev->mod, ev->node),
                  "`%s` has an output shape that depends on tensor data, which graph capture cannot record",
                  expr(ctx, ev));
}

static void check_mask_index(const py_ctx *ctx, const py_event *ev)
{
    if (ev->recv.kind != PY_V_TENSOR || ev->val.kind != PY_V_TENSOR || !(ev->val.flags & PY_VF_BOOL)) return;
    py_report(ctx, PY_AT(CG_R_CG202, ev->mod, ev->node,
              .fix = "use `torch.where(mask, x, 0)` or multiply by the mask to keep the shape static"),
              "`%s` indexes with a boolean mask: the result's shape depends on tensor data",
              expr(ctx, ev));
}

/* ---- 3 cpu --------------------------------------------------------------------- */

/* CG301: host I/O and logging */
static void check_host_io(const py_ctx *ctx, const py_event *ev)
{
    int fmt = 0;
    if (cg_eq(ev->qual, "builtins.print") || is_log_call(ev)) {
        if (has_tensor_arg(ev, &fmt) || fmt) return;   /* CG107 says more */
        py_report(ctx, PY_AT(CG_R_CG301, ev->mod, ev->node),
                  "`%s` runs once while the graph is captured and never on replay", expr(ctx, ev));
        return;
    }
    static const char *const fns[] = { "builtins.open", "builtins.input", "torch.save", "torch.load",
        "wandb.log", "json.dump", "pickle.dump", "numpy.save", "numpy.savez", "sys.stdout.write",
        "sys.stderr.write", "mlflow.log_metric", "mlflow.log_metrics", NULL };
    if (!ev->method && cg_one_of(ev->qual, fns)) {
        py_report(ctx, PY_AT(CG_R_CG301, ev->mod, ev->node),
                  "`%s` does host I/O: it runs once while the graph is captured and never on replay", expr(ctx, ev));
        return;
    }
    if (ev->method && (ev->recv.flags & PY_VF_HOST_IO)) {
        static const char *const m[] = { "write", "update", "set_postfix", "set_description", "add_scalar",
            "add_scalars", "add_histogram", "add_image", "add_text", "flush", "log", NULL };
        if (cg_one_of(ev->method, m))
            py_report(ctx, PY_AT(CG_R_CG301, ev->mod, ev->node),
                      "`%s` does host I/O: it runs once while the graph is captured and never on replay",
                      expr(ctx, ev));
    }
}

/* CG302: host randomness and clocks */
static void check_host_random(const py_ctx *ctx, const py_event *ev)
{
    static const char *const clocks[] = { "time.time", "time.time_ns", "time.perf_counter",
        "time.perf_counter_ns", "time.monotonic", "time.monotonic_ns", "time.process_time",
        "datetime.datetime.now", "datetime.datetime.utcnow", "uuid.uuid4", "os.urandom", NULL };
    if (ev->method || !ev->qual) return;
    int rnd = cg_starts(ev->qual, "random.") || cg_starts(ev->qual, "numpy.random.") || cg_starts(ev->qual, "secrets.");
    if (rnd && (cg_eq(ev->qual, "random.Random") || cg_eq(ev->qual, "numpy.random.default_rng"))) rnd = 0;
    if (rnd || cg_one_of(ev->qual, clocks))
        py_report(ctx, PY_AT(CG_R_CG302, ev->mod, ev->node),
                  "`%s` is evaluated once on the host at capture: every replay reuses the same %s",
                  expr(ctx, ev), rnd ? "random value" : "time");
}

/* A dict, list or set whose elements are all known host values (numbers,
 * strings, None): no tensors, no objects. */
static int host_display(const py_val *v)
{
    if ((v->kind != PY_V_DICT && v->kind != PY_V_LIST && v->kind != PY_V_SET) || v->alt || v->nitems == 0) return 0;
    for (int i = 0; i < v->nitems; i++) {
        int k = v->items[i].kind;
        if (k != PY_V_NUMBER && k != PY_V_STR && k != PY_V_NONE) return 0;
    }
    return 1;
}

/* CG303: host state that outlives the region */
static void check_bookkeeping_store(const py_ctx *ctx, const py_event *ev)
{
    if (ev->target_kind == 0) {
        if (ev->augmented && ev->target_is_global && ev->val.kind != PY_V_TENSOR)
            py_report(ctx, PY_AT(CG_R_CG303, ev->mod, ev->node),
                      "global `%s` is updated on the host once at capture; replays leave it unchanged",
                      expr(ctx, ev));
        return;
    }
    if (!ev->target_is_global) return;
    if (ev->target_kind == 1 && !ev->augmented && ev->target_is_global == 2 && IS(ev->target_base_node, identifier)) {
        /* `self.stats = {...}`, `self.flag = bool(...)`: a host value set once at capture */
        const py_val *v = &ev->val;
        if (host_display(v) ||
            (v->kind == PY_V_NUMBER && !v->alt && v->origin != PY_O_NONE && v->origin != PY_O_SELF_ATTR &&
             (v->flags & PY_VF_HOSTSCALAR)))
            py_report(ctx, PY_AT(CG_R_CG303, ev->mod, ev->node),
                      "`%s` is set to a host value once at capture; replays leave it unchanged", expr(ctx, ev));
        return;
    }
    if (ev->target_kind == 1 && ev->augmented) {
        if (ev->val.kind == PY_V_TENSOR) return;   /* in-place tensor op: captured */
        py_report(ctx, PY_AT(CG_R_CG303, ev->mod, ev->node),
                  "`%s` is updated on the host once at capture; replays leave it unchanged", expr(ctx, ev));
        return;
    }
    if (ev->target_kind == 2) {
        /* counters and host values kept in a container; a cache filled with
         * objects or tensors at first use (fp8 metadata, workspaces) is not */
        const py_val *b = &ev->target_base;
        /* `state["step"] += 1 if not capturable else ones`: an element that may
         * be a GPU tensor is updated in place, which is captured: not known
         * to be host state, so no finding (unknown stays unknown) */
        if (ev->augmented && py_alt_of_kind(&ev->val, PY_V_TENSOR)) return;
        int host_value = ev->augmented || ev->val.kind == PY_V_NUMBER || ev->val.kind == PY_V_STR;
        if ((b->kind == PY_V_DICT || b->kind == PY_V_LIST || b->kind == PY_V_SET) && host_value)
            py_report(ctx, PY_AT(CG_R_CG303, ev->mod, ev->node),
                      "`%s` stores into a host container once at capture; replays do not", expr(ctx, ev));
    }
}

static void check_bookkeeping_call(const py_ctx *ctx, const py_event *ev)
{
    /* setdefault is get-or-insert: a memo filled at capture, read by the graph */
    static const char *const always[] = { "append", "extend", "insert", "appendleft", NULL };
    static const char *const containers[] = { "update", "add", "pop", "remove", "discard", NULL };
    if (!ev->method || py_is_null(ev->recv_node)) return;
    const py_val *r = &ev->recv;
    int known = r->kind == PY_V_LIST || r->kind == PY_V_DICT || r->kind == PY_V_SET;
    if (!(cg_one_of(ev->method, always) && (known || r->kind == PY_V_UNKNOWN)) && !(cg_one_of(ev->method, containers) && known))
        return;
    /* only state that outlives the capture: self attributes and module globals */
    TSNode rn = ev->recv_node;
    int outlives = 0;
    if (IS(rn, attribute)) {
        TSNode obj = py_field(rn, PY.f_object);
        outlives = IS(obj, identifier) && (r->origin == PY_O_SELF_ATTR || r->origin == PY_O_GLOBAL ||
                                          py_text_eq(ev->mod, obj, "self"));
    } else if (IS(rn, identifier)) {
        outlives = r->origin == PY_O_GLOBAL;
    }
    if (outlives)
        py_report(ctx, PY_AT(CG_R_CG303, ev->mod, ev->node),
                  "`%s` changes host state once at capture; replays do not", expr(ctx, ev));
}

/* CG304: a loop variable read in a capture that the same loop replays.  As
 * tensor math: baked at its capture-time value; as a branch: the branch is frozen. */
static int loopvar_baked(const py_ctx *ctx, const py_val *v)
{
    return v->kind == PY_V_NUMBER && (v->flags & PY_VF_LOOPVAR) && v->oname && ctx->region &&
           ctx->region->loop_replays;
}

/* CG304: a Python number that is reassigned elsewhere, baked into the graph */
static void check_frozen_scalar(const py_ctx *ctx, const py_event *ev)
{
    const py_val *v = &ev->val;
    int reassigned = 0;
    const char *where = "";
    if (!v->oname || loopvar_baked(ctx, v)) return;   /* check_loopvar_math says more */
    size_t nl = strlen(v->oname);
    if (v->origin == PY_O_SELF_ATTR && v->ocls) {
        py_attr *a = py_class_attr(ctx->p, v->ocls, v->oname);
        size_t elsewhere = py_ctx_attr_assigns(ctx, v->oname, nl);
        if ((a && a->assigns_outside_init > 0) || elsewhere > 0) { reassigned = 1; where = "outside __init__"; }
    } else if (v->origin == PY_O_GLOBAL && v->omod) {
        uintptr_t n = (uintptr_t)cg_map_get(&v->omod->global_assigns, v->oname, nl);
        int local = v->omod->body ? py_count_local_assigns(v->omod->body, v->oname, nl) : 0;
        if (n > 1 || local > 1) { reassigned = 1; where = "elsewhere in the module"; }
    } else if (v->origin == PY_O_LOCAL && v->ofn) {
        /* `logdet = 0; ... logdet = logdet + det`: the literal at every call, then a tensor */
        if (py_count_local_assigns(v->ofn, v->oname, nl) > 1 && !(v->ofn->mod == ev->mod &&
            py_tensor_accumulator(v->ofn, ev->node, v->oname, nl))) { reassigned = 1; where = "later in the function"; }
    }
    if (!reassigned) return;
    /* a value math.* made from it in the capture, in this file: reported where
     * math.* read it (`eff = math.sqrt(self.rate)`), not where eff meets a tensor */
    TSNode at = ev->node;
    if (!py_is_null(v->ctor) && v->ctor.tree == ev->node.tree &&
        !(py_start_byte(v->ctor) >= py_start_byte(at) && py_end_byte(v->ctor) <= py_end_byte(at)))
        at = v->ctor;   /* computed elsewhere, not inside the operand itself */
    py_report(ctx, PY_AT(CG_R_CG304, ev->mod, at),
              "Python number `%s` is baked into the graph at capture, but it is reassigned %s: "
              "replays keep the captured value", v->oname, where);
}

static void check_loopvar_math(const py_ctx *ctx, const py_event *ev)
{
    if (!loopvar_baked(ctx, &ev->val)) return;
    py_report(ctx, PY_AT(CG_R_CG304, ev->mod, ev->node),
              "Python number `%s` changes every iteration of the loop that replays the graph, but the "
              "capture baked in its value then", ev->val.oname);
}

static void check_loopvar_branch(const py_ctx *ctx, const py_event *ev)
{
    if (!loopvar_baked(ctx, &ev->val)) return;
    py_report(ctx, PY_AT(CG_R_CG304, ev->mod, ev->node),
              "the condition `%s` reads loop variable `%s`, which changes every iteration of the loop "
              "that replays the graph: the capture froze the branch it took then", expr(ctx, ev), ev->val.oname);
}

/* CG305: CPU tensors created inside the region */
static void check_cpu_tensor(const py_ctx *ctx, const py_event *ev)
{
    if (ev->method || !py_api_is_factory(ev->qual) || ev->chained_to_device) return;
    if (kw_true(ev, "pin_memory") || ev->chained_to_pin) return;   /* CG503 says more */
    if (ev->only_meta) return;   /* `torch.tensor([], dtype=d).element_size()`: no data */
    if (py_default_device_cuda(ctx, ev->mod) && !cg_eq(ev->qual, "torch.from_numpy")) {
        int k = py_ev_kw(ev, "device");
        if (k < 0) return;
    }
    int k = py_ev_kw(ev, "device");
    if (k >= 0) {
        size_t len;
        const char *t = py_text(ev->mod, ev->kwn[k], &len);
        if (!(memmem(t, len, "\"cpu\"", 5) || memmem(t, len, "'cpu'", 5))) return;
    }
    py_report(ctx, PY_AT(CG_R_CG305, ev->mod, ev->node),
              "`%s` creates a CPU tensor inside the capture: it is computed once and not part of the graph",
              expr(ctx, ev));
}

/* CG305: an in-place op on a CPU tensor kept on self (`self.hits += 1` where
 * `self.hits = torch.zeros(())`: a plain attribute stays on the CPU after
 * `.cuda()`): it runs once, on the host, at capture */
static int cpu_self_tensor(const py_val *v, const py_module *m, TSNode n)
{
    if (v->kind != PY_V_TENSOR || v->dev != PY_DEV_CPU || (v->flags & PY_VF_PINNED) || v->alt) return 0;
    if (!IS(n, attribute)) return 0;
    TSNode obj = py_field(n, PY.f_object);
    return IS(obj, identifier) && py_text_eq((py_module *)m, obj, "self");
}

static void check_cpu_inplace_store(const py_ctx *ctx, const py_event *ev)
{
    if (!ev->augmented || ev->target_kind != 1 || !cpu_self_tensor(&ev->val, ev->mod, ev->node)) return;
    py_report(ctx, PY_AT(CG_R_CG305, ev->mod, ev->node),
              "`%s` updates a CPU tensor in place inside the capture: it runs once on the host and "
              "replays do not repeat it", expr(ctx, ev));
}

static void check_cpu_inplace_call(const py_ctx *ctx, const py_event *ev)
{
    static const char *const not_math[] = { "copy_", "requires_grad_", "share_memory_", "pin_memory", NULL };
    if (!ev->method || !cg_ends_with(ev->method, "_") || cg_one_of(ev->method, not_math) ||
        !cpu_self_tensor(&ev->recv, ev->mod, ev->recv_node))
        return;
    py_report(ctx, PY_AT(CG_R_CG305, ev->mod, ev->node),
              "`%s` updates a CPU tensor in place inside the capture: it runs once on the host and "
              "replays do not repeat it", expr(ctx, ev));
}

/* ---- 4 stream ------------------------------------------------------------------- */
/* The evaluator keeps each capture's fork/join ledger (region->streams); the
 * stream rules read it. */

/* CG401 (waits): `s.wait_stream(torch.cuda.default_stream())` and a wait on
 * an event recorded there */
static void check_wait_default_stream(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->region;
    if (!r || !ev->method || ev->nargs == 0) return;
    if (!cg_eq(ev->method, "wait_stream") && !cg_eq(ev->method, "wait_event")) return;
    /* who waits must be known */
    if (ev->recv.kind == PY_V_STREAM ? !ev->recv.qual : py_is_null(ev->recv_node)) return;
    /* a wait on an event recorded nowhere we saw does not count */
    if (cg_eq(ev->method, "wait_event")) {
        const char *evid = ev->args[0].kind == PY_V_STREAM ? ev->args[0].qual : py_snip(ctx, ev->mod, ev->argn[0]);
        if (!cg_streams_recorded_on(&r->streams, evid)) return;
    }
    if (ev->args[0].kind == PY_V_STREAM && (ev->args[0].flags & PY_VF_DEFAULT_STREAM))
        py_report(ctx, PY_AT(CG_R_CG401, ev->mod, ev->node),
                  "`%s` makes the capture wait on the legacy default stream, which capture forbids "
                  "(cudaErrorStreamCaptureIsolation)", expr(ctx, ev));
}

/* CG403 (waits): a captured stream waits on a stream the capture never
 * forked (`torch.cuda.current_stream().wait_stream(other)` with work queued on
 * `other` before the capture): waiting on an event recorded outside the
 * capture is refused (cudaErrorStreamCaptureIsolation) */
static void check_wait_uncaptured(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->region;
    if (!r || !ev->method || !cg_eq(ev->method, "wait_stream") || ev->nargs == 0) return;
    const py_val *w = &ev->recv, *o = &ev->args[0];
    if (w->kind != PY_V_STREAM || !w->qual || !cg_streams_in_capture(&r->streams, w->qual)) return;
    if (o->kind != PY_V_STREAM || !o->qual || (o->flags & PY_VF_DEFAULT_STREAM) || cg_eq(o->qual, "<default>")) return;
    if (cg_streams_in_capture(&r->streams, o->qual)) return;
    for (int i = 0; i < r->nstray; i++)
        if (cg_eq(r->stray[i], o->qual)) return;   /* reported at its `with torch.cuda.stream(...)` */
    py_report(ctx, PY_AT(CG_R_CG403, ev->mod, ev->node,
              .fix = "wait on it before the capture begins, or fork it from the capturing stream first"),
              "`%s` makes the capture wait on stream `%s`, which was never forked into it: waiting on work "
              "outside the capture is refused (cudaErrorStreamCaptureIsolation)", expr(ctx, ev), o->qual);
}

/* CG401 (set_stream) */
static void check_set_default_stream(const py_ctx *ctx, const py_event *ev)
{
    if (!ev->method && cg_eq(ev->qual, "torch.cuda.set_stream") && ev->nargs > 0 &&
        ev->args[0].kind == PY_V_STREAM && (ev->args[0].flags & PY_VF_DEFAULT_STREAM))
        py_report(ctx, PY_AT(CG_R_CG401, ev->mod, ev->node),
                  "`%s` switches to the legacy default stream during capture", expr(ctx, ev));
}

/* CG401 / CG403: `with torch.cuda.stream(s):` on the default stream, or on
 * one the capture never forked */
static void check_stream_ctx(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->region;
    const py_val *v = &ev->val;
    if (!r || !v->stream) return;
    if (v->stream_default) {
        py_report(ctx, PY_AT(CG_R_CG401, ev->mod, ev->node),
                  "`%s` issues work on the legacy default stream during capture: it is not captured "
                  "(or the capture fails with cudaErrorStreamCaptureImplicit)", py_snip(ctx, ev->mod, ev->node));
        return;
    }
    if (cg_streams_in_capture(&r->streams, v->stream)) return;
    py_report(ctx, PY_AT(CG_R_CG403, ev->mod, ev->node,
              .fix = "fork first: `s.wait_stream(torch.cuda.current_stream())` inside the capture, and join before it ends"),
              "work on stream `%s` is not part of the capture (it was never forked from the capturing "
              "stream): it runs once, eagerly, and is missing from the graph", v->stream);
}

/* CG402: a side stream forked and never joined, at its first use (or its fork) */
static void check_unjoined(const py_ctx *ctx, const py_event *ev)
{
    (void)ev;
    const py_region *r = ctx->region;
    if (!r) return;
    for (size_t i = 0; i < r->streams.nstreams; i++) {
        const cg_stream *s = &r->streams.streams[i];
        if (!s->forked || s->joined) continue;
        /* the message as it has always been cut: at 512 bytes */
        char msg[512];
        snprintf(msg, sizeof msg,
                 "side stream `%s` is forked from the capture but never joined back before the capture ends "
                 "(cudaErrorStreamCaptureUnjoined)", s->id);
        py_report(ctx, &(py_finding){ .rule = CG_R_CG402, .loc = s->used ? &s->use_loc : &s->fork_loc,
                  .line = s->used ? s->use_line : s->fork_line, .region_level = 1 }, "%s", msg);
    }
}

/* CG404: capture begun on the default stream */
static void check_capture_stream(const py_ctx *ctx, const py_event *ev)
{
    const py_val *v = &ev->val;
    if (!cg_eq(ctx->region->kind, "torch.cuda.graph") && !cg_eq(ctx->region->kind, "capture_begin")) return;
    if (v->kind == PY_V_EXTOBJ && v->stream_default) {
        py_report(ctx, PY_AT(CG_R_CG404, ev->mod, ev->node, .fix = "pass a stream you created: `stream=torch.cuda.Stream()`"),
                  "the capture is begun on the legacy default stream, which CUDA refuses");
        return;
    }
    if (!ctx->region->side_stream)
        py_report(ctx, PY_AT(CG_R_CG404, ev->mod, ev->node,
                  .fix = "wrap it in `with torch.cuda.stream(s):` with `s = torch.cuda.Stream()`, or use `torch.cuda.graph(g)`"),
                  "`capture_begin()` is not under `torch.cuda.stream(...)` here, so it begins on the default "
                  "stream: \"CUDA graphs must be captured on a non-default stream\"");
}

/* ---- 5 memory ---------------------------------------------------------------------- */

/* CG503: pinning host memory during capture */
static void check_pin_memory(const py_ctx *ctx, const py_event *ev)
{
    if ((ev->method && cg_eq(ev->method, "pin_memory") && ev->nargs == 0 && ev->recv.kind != PY_V_EXTOBJ) ||
        (!ev->method && cg_starts(ev->qual, "torch.") && kw_true(ev, "pin_memory")))
        py_report(ctx, PY_AT(CG_R_CG503, ev->mod, ev->node),
                  "`%s` pins host memory during capture: replays never see new host data "
                  "(older PyTorch: the capture fails)", expr(ctx, ev));
}

/* CG504: a static input rebound after the capture */
static void check_input_rebound(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->after;
    if (!r || ev->augmented || ev->target_kind == 2) return;
    /* another method of the capturing class: only its self attributes are the capture's */
    if (ctx->after_method && ev->target_kind != 1) return;
    if (ev->target_kind == 1 && !(IS(ev->target_base_node, identifier) && py_text_eq(ev->mod, ev->target_base_node, "self")))
        return;
    /* one graph per loop iteration, rebound after its last replay: the next
     * iteration captures a new graph that reads the new binding */
    if (r->fresh_replay_end && ev->mod == r->mod && py_start_byte(ev->node) >= r->fresh_replay_end &&
        py_end_byte(ev->node) <= py_end_byte(r->capture_loop))
        return;
    size_t len;
    const char *t = py_text(ev->mod, ev->node, &len);
    if (cg_map_get(&r->inputs, t, len) != (void *)PY_IO_INPUT) return;
    py_report(ctx, PY_AT(CG_R_CG504, ev->mod, ev->node,
              .fix = "copy into the captured tensor instead: `static_x.copy_(new)`"),
              "`%.*s` is a static input the graph read at capture; rebinding it does not change what "
              "replay reads (the old storage)", (int)len, t);
}

/* CG505: a graph output kept across replays */
static void check_output_kept(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->after;
    if (r && ev->kind == PY_EV_STORE && ev->target_kind == 3) {   /* returned to callers that keep it */
        py_report(ctx, PY_AT(CG_R_CG505, ev->mod, ev->node,
                  .fix = "return a copy: `.clone()` the output before the next replay"),
                  "`%s` is a graph output returned to callers that keep it across replays: the next "
                  "`replay()` overwrites it in place", expr(ctx, ev));
        return;
    }
    if (!r || ctx->loops == 0) return;
    /* the loop that captures one graph per iteration (per batch size) keeps each one's output */
    if (!py_is_null(r->capture_loop) && py_eq(r->capture_loop, ctx->loop_node)) return;
    static const char *const keep[] = { "append", "extend", "insert", "appendleft", "add", NULL };
    TSNode n = (TSNode){0};
    if (ev->kind == PY_EV_CALL && ev->method && cg_one_of(ev->method, keep)) {
        for (int i = 0; i < ev->nargs; i++)
            if (IS(ev->argn[i], identifier) && (ev->args[i].flags & PY_VF_OUTPUT)) n = ev->argn[i];
    } else if (ev->kind == PY_EV_STORE && ev->target_kind == 2 && (ev->val.flags & PY_VF_OUTPUT)) {
        /* results[i] = static_out: the right-hand side is the output itself */
        n = ev->node;
    }
    if (py_is_null(n)) return;
    py_report(ctx, PY_AT(CG_R_CG505, ev->mod, ev->node,
              .fix = "keep a copy: `.clone()` the output before the next replay"),
              "`%s` keeps a graph output across replays: the next `replay()` overwrites it in place",
              expr(ctx, ev));
}

/* ---- 6 state ----------------------------------------------------------------------- */

/* CG601: autocast's cast cache around a capture.  An autocast opened and
 * closed inside the capture records its casts in the graph: not flagged. */
static void check_autocast_around(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->region;
    if (!r->autocast || py_region_is_compiled(r)) return;
    /* safe: without the cache the casts are recomputed, to the same values */
    py_report(ctx, &(py_finding){ .rule = CG_R_CG601, .loc = &r->autocast_loc, .line = r->autocast_line,
              .fix = "pass `cache_enabled=False`",
              .kw = "cache_enabled", .kw_value = "False", .kw_mod = r->autocast_mod, .kw_call = r->autocast_node,
              .kw_safe = 1 },
              "this autocast context caches casts of the weights and encloses the capture at line %u: "
              "replays keep using stale casts after the weights change", r->site.line);
}

/* CG602: a CUDA generator used in capture but never registered with the graph */
static void check_generator(const py_ctx *ctx, const py_event *ev)
{
    int k = py_ev_kw(ev, "generator");
    if (k < 0 || !(ev->kw[k].flags & PY_VF_CUDA_GEN)) return;
    const py_region *r = ctx->region;
    const py_val *gen = &ev->kw[k];
    if (r->ngens > 0 && !r->gens_unknown) {
        /* the capturing function registered generators it knows: this one? */
        for (int i = 0; i < r->ngens; i++)
            if (!py_is_null(gen->ctor) && py_eq(r->gens[i], gen->ctor)) return;
    } else {
        /* registered elsewhere, or a generator not known: any registration in
         * the file counts */
        if (r->mod && (r->mod->text_facts & PY_MT_REGISTERS_GENERATOR)) return;
        if (ev->mod->text_facts & PY_MT_REGISTERS_GENERATOR) return;
    }
    py_report(ctx, PY_AT(CG_R_CG602, ev->mod, ev->kwn[k], .fix = "call `g.register_generator_state(gen)` before capturing"),
              "CUDA generator `%s` is used during capture but not registered with the graph",
              py_snip(ctx, ev->mod, ev->kwn[k]));
}

/* CG603: seeding inside the capture */
static void check_seed(const py_ctx *ctx, const py_event *ev)
{
    static const char *const fns[] = { "torch.manual_seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
        "torch.random.manual_seed", "torch.cuda.random.manual_seed", "torch.cuda.random.manual_seed_all", NULL };
    if (!ev->method && cg_one_of(ev->qual, fns))
        py_report(ctx, PY_AT(CG_R_CG603, ev->mod, ev->node),
                  "`%s` runs once, at capture: replays are not reseeded", expr(ctx, ev));
}

/* CG604: activation checkpointing that saves and restores RNG state */
static void check_checkpoint(const py_ctx *ctx, const py_event *ev)
{
    if (ev->method || !(cg_eq(ev->qual, "torch.utils.checkpoint.checkpoint") || cg_eq(ev->qual, "torch.utils.checkpoint")))
        return;
    int k = py_ev_kw(ev, "preserve_rng_state");
    if (k >= 0 && py_text_eq(ev->mod, ev->kwn[k], "False")) return;
    /* unsafe: recomputation may then draw different dropout masks */
    py_report(ctx, PY_AT(CG_R_CG604, ev->mod, ev->node,
              .fix = "pass `preserve_rng_state=False` inside the capture",
              .kw = "preserve_rng_state", .kw_value = "False", .kw_mod = ev->mod, .kw_call = ev->node),
              "`checkpoint(...)` saves and restores the CUDA RNG state on the host, which a captured "
              "graph cannot replay");
}

/* CG605: an optimizer step captured without capturable=True */
static void check_optimizer(const py_ctx *ctx, const py_event *ev)
{
    if (!ev->method || !cg_eq(ev->method, "step")) return;
    const py_val *r = &ev->recv;
    if (r->kind != PY_V_EXTOBJ || !(r->flags & PY_VF_OPTIMIZER) || (r->flags & PY_VF_CAPTURABLE)) return;
    /* the fix goes where the optimizer is built, when that is in this file;
     * safe: capturable=True keeps the step's state on the GPU, same results */
    TSNode ctor = r->omod == ev->mod ? r->ctor : (TSNode){0};
    py_report(ctx, PY_AT(CG_R_CG605, ev->mod, ev->node,
              .fix = "build the optimizer with `capturable=True`",
              .kw = "capturable", .kw_value = "True", .kw_mod = ev->mod, .kw_call = ctor, .kw_safe = 1),
              "`%s` steps %s, built without `capturable=True`: PyTorch refuses to capture it",
              expr(ctx, ev), strrchr(r->qual, '.') + 1);
}

/* CG606: the learning rate changed on the host after its step was captured */
static void check_lr_change_call(const py_ctx *ctx, const py_event *ev)
{
    if (!ctx->after || !ctx->after->steps_optimizer) return;
    if (ev->method && cg_eq(ev->method, "step") && (ev->recv.flags & PY_VF_SCHEDULER) && !(ev->recv.flags & PY_VF_TENSOR_LR))
        py_report(ctx, PY_AT(CG_R_CG606, ev->mod, ev->node,
                  .fix = "keep lr in a GPU tensor (`lr=torch.tensor(...)`, `capturable=True`) and update it in place"),
                  "`%s` changes the learning rate on the host, but the captured optimizer step keeps the "
                  "value it saw at capture", expr(ctx, ev));
}

static void check_lr_change_store(const py_ctx *ctx, const py_event *ev)
{
    if (!ctx->after || !ctx->after->steps_optimizer || ev->target_kind != 2 || ev->augmented > 1) return;
    size_t len;
    const char *t = py_text(ev->mod, ev->node, &len);
    if (!(memmem(t, len, "[\"lr\"]", 6) || memmem(t, len, "['lr']", 6))) return;
    py_report(ctx, PY_AT(CG_R_CG606, ev->mod, ev->node,
              .fix = "keep lr in a GPU tensor and update it with `fill_`"),
              "`%.*s` changes the learning rate as a Python float, but the captured optimizer step keeps "
              "the value it saw at capture", (int)len, t);
}

/* ---- 7 setup ----------------------------------------------------------------------- */
static int manual_capture(const py_region *r)
{
    return cg_eq(r->kind, "torch.cuda.graph") || cg_eq(r->kind, "capture_begin");
}

/* CG701 (no warm-up), CG705 (recapture in a loop), CG708 (pin-memory thread) */
static void check_capture_setup(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->region;
    if (!manual_capture(r) || ev->kind != PY_EV_REGION_BEGIN) return;
    if (!r->warm && r->cold_from_callers)
        py_report(ctx, &(py_finding){ .rule = CG_R_CG701, .loc = &r->site,
                     .fix = "run 2-3 eager iterations on a side stream first, then join it" },
                     "the model comes from callers that never ran it, and nothing runs it here before the "
                     "capture: cuBLAS/cuDNN handles and autograd state are created during capture, which fails");
    else if (!r->warm)
        py_report(ctx, &(py_finding){ .rule = CG_R_CG701, .loc = &r->site,
                     .fix = "run 2-3 eager iterations on a side stream first, then join it" },
                     "the model is built here and captured with no warm-up run before it: cuBLAS/cuDNN "
                     "handles and autograd state are created during capture, which fails");
    if (r->in_loop)
        py_report(ctx, &(py_finding){ .rule = CG_R_CG705, .loc = &r->site, .fix = "capture once before the loop and `replay()` inside it" },
                     "this capture sits in a loop and runs every iteration: re-capturing costs more than "
                     "running eagerly");
    if (r->cuda_thread && !r->thread_local)
        py_report(ctx, PY_AT(CG_R_CG708, r->cuda_thread_mod, r->cuda_thread_node, .region_level = 1,
                             .fix = "pass `capture_error_mode=\"thread_local\"` to the capture, or stop the thread before it"),
                  "`%s` runs in thread `%s`, started before a global-mode capture: CUDA work in another thread "
                  "during the capture invalidates it", expr_at(ctx, r->cuda_thread_mod, r->cuda_thread_node), r->cuda_thread);
    if (r->pin_loader_loop && !r->thread_local)   /* thread_local and relaxed both avoid it */
        py_report(ctx, &(py_finding){ .rule = CG_R_CG708, .loc = &r->site, .fix = "pass `capture_error_mode=\"thread_local\"`" },
                     "a global-mode capture while a DataLoader(pin_memory=True) is being iterated: its "
                     "pin-memory thread does CUDA work during the capture, which invalidates it");
}

/* CG702: eager backward or DDP on the default stream before a captured backward */
static void check_eager_backward(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->region;
    if (!manual_capture(r) || !r->has_backward || !r->eager_backward) return;
    if (r->eager_grad_op) {
        py_report(ctx, &(py_finding){ .rule = CG_R_CG702, .loc = &r->eager_loc, .line = r->eager_line,
                     .fix = "compute it inside the capture, or on a side stream (`with torch.cuda.stream(side):`)" },
                     "this op on a tensor that requires grad runs on the default stream before the capture at "
                     "line %u, and the capture uses its result: its autograd node is bound to the legacy stream, "
                     "so the captured backward fails", r->site.line);
        return;
    }
    py_report(ctx, &(py_finding){ .rule = CG_R_CG702, .loc = &r->eager_loc, .line = r->eager_line,
                 .fix = "warm up (and build DDP) under `with torch.cuda.stream(side):`" },
                 "this runs on the default stream before the capture at line %u, binding autograd's "
                 "AccumulateGrad nodes to it: the captured backward then fails", r->site.line);
}

/* CG703: DDP capture setup */
static void check_ddp_setup(const py_ctx *ctx, const py_event *ev)
{
    (void)ev;
    const py_region *r = ctx->region;
    if (!manual_capture(r) || !r->mod || !(r->mod->text_facts & PY_MT_BUILDS_DDP)) return;
    if (!r->nccl_async_set)
        py_report(ctx, &(py_finding){ .rule = CG_R_CG703, .loc = &r->site, .fix = "set `os.environ[\"TORCH_NCCL_ASYNC_ERROR_HANDLING\"] = \"0\"` before init_process_group" },
                     "DDP capture without TORCH_NCCL_ASYNC_ERROR_HANDLING=0: NCCL's watchdog queries "
                     "events during capture");
}

/* CG703: too few warm-up iterations.  DDP rebuilds its gradient buckets in
 * its first backward passes: a capture that runs no backward (an inference
 * benchmark in a training script) has none to settle. */
static void check_ddp_warmup(const py_ctx *ctx, const py_event *ev)
{
    (void)ev;
    const py_region *r = ctx->region;
    if (!manual_capture(r) || !r->mod || !(r->mod->text_facts & PY_MT_BUILDS_DDP)) return;
    if (r->small_warmup && r->has_backward)
        py_report(ctx, &(py_finding){ .rule = CG_R_CG703, .loc = &r->site, .fix = "run at least 11 warm-up iterations before capturing under DDP" },
                     "only %d warm-up iterations before a DDP capture: DDP needs 11 to settle its buckets",
                     r->warmup_iters);
}

/* CG704: make_graphed_callables constraints */
static void check_graphed_callables(const py_ctx *ctx, const py_event *ev)
{
    if (ev->kind != PY_EV_REGION_BEGIN || !ev->qual || !strstr(ev->qual, "make_graphed_callables")) return;
    int sk = py_ev_kw(ev, "sample_kwargs");
    if (sk >= 0 && cg_starts(ev->qual, "torch.")) {
        py_report(ctx, PY_AT(CG_R_CG704, ev->mod, ev->kwn[sk], .fix = "pass tensors positionally"),
                  "torch.cuda.make_graphed_callables takes positional tensor sample arguments only");
    }
    /* sample args written as literals that are no tensors */
    const py_region *r = ctx->region;
    for (size_t i = 0; i < r->nbad_samples; i++)
        py_report(ctx, PY_AT(CG_R_CG704, ev->mod, r->bad_samples[i], .fix = "pass only tensors as sample arguments"),
                  "sample argument `%s` is not a tensor: make_graphed_callables refuses it",
                  py_snip(ctx, ev->mod, r->bad_samples[i]));
    /* hooks registered on the module before the call: here, or in a function it called */
    if (r->hooked_before) {
        size_t ml;
        const char *mt = py_text(ev->mod, py_is_null(r->hooked_node) ? ev->argn[0] : r->hooked_node, &ml);
        py_report(ctx, PY_AT(CG_R_CG704, ev->mod, ev->node, .fix = "register hooks after graphing"),
                  "`%.*s` has hooks registered before make_graphed_callables%s%s%s: \"Modules must not "
                  "have hooks registered at the time they are passed\"", (int)ml, mt,
                  r->hooked_via ? " (in `" : "", r->hooked_via ? r->hooked_via : "", r->hooked_via ? "`)" : "");
    }
}

/* CG706: a torch.compile'd callable inside a manual capture with no warm-up */
static void check_compiled_call(const py_ctx *ctx, const py_event *ev)
{
    const py_region *r = ctx->region;
    if (!manual_capture(r) || !(ev->callee.flags & PY_VF_COMPILED)) return;
    if (r->warm) {
        /* warm-up per callable: a warm-up that ran other code does not compile this one */
        const void *id = py_compiled_identity(&ev->callee);
        if (!id || !r->warm_ran || r->warmed_other || ev->mod != r->mod) return;
        for (int i = 0; i < r->nwarmed; i++)
            if (r->warmed[i] == id) return;
    }
    py_report(ctx, PY_AT(CG_R_CG706, ev->mod, ev->node, .fix = "call the compiled function a few times before capturing"),
              "`%s` calls a torch.compile'd function inside a capture with no warm-up run: compilation "
              "and autotuning would happen during capture", expr(ctx, ev));
}

/* ---- 9 perf ---------------------------------------------------------------------- */

/* CG902: CPU tensors handed to a function compiled with CUDA graphs, at the call */
static void check_compiled_cpu_args(const py_ctx *ctx, const py_event *ev)
{
    if (!py_region_is_compiled(ctx->region) || !(ev->callee.flags & PY_VF_CUDAGRAPHS) || ctx->path.n != 0) return;
    for (int i = 0; i < ev->nargs + ev->nkw; i++) {
        const py_val *a = i < ev->nargs ? &ev->args[i] : &ev->kw[i - ev->nargs];
        TSNode an = i < ev->nargs ? ev->argn[i] : ev->kwn[i - ev->nargs];
        if (a->kind != PY_V_TENSOR || a->dev != PY_DEV_CPU) continue;
        py_report(ctx, PY_AT(CG_R_CG902, ev->mod, an, .fix = "pass CUDA tensors: move it to the GPU before the call"),
                  "`%s` is a CPU tensor passed to a function compiled with CUDA graphs: inductor skips CUDA "
                  "graphs for it (\"skipping cudagraphs due to cpu device\")", py_snip(ctx, ev->mod, an));
    }
}

/* CG902: in-place mutation of a reduce-overhead function's inputs, by an
 * in-place method or through out= */
static void check_mutated_input(const py_ctx *ctx, const py_event *ev)
{
    if (!py_region_is_compiled(ctx->region) || ctx->path.n != 1) return;
    int k = py_ev_kw(ev, "out");
    if (k >= 0 && (ev->kw[k].flags & PY_VF_PARAM)) {
        py_report(ctx, PY_AT(CG_R_CG902, ev->mod, ev->node, .fix = "return the result instead of writing into an input"),
                  "`%s` writes into an input of this reduce-overhead function through `out=`: inductor skips "
                  "CUDA graphs (\"skipping cudagraphs due to mutated inputs\")", expr(ctx, ev));
        return;
    }
    if (!ev->method) return;
    size_t ml = strlen(ev->method);
    if (ml < 2 || ev->method[ml - 1] != '_' || ev->method[0] == '_') return;
    if (!(ev->recv.flags & PY_VF_PARAM)) return;
    py_report(ctx, PY_AT(CG_R_CG902, ev->mod, ev->node, .fix = "work on a copy, or return the new value"),
              "`%s` mutates an input of this reduce-overhead function in place: inductor skips CUDA "
              "graphs (\"skipping cudagraphs due to mutated inputs\")", expr(ctx, ev));
}

/* ---- the table ------------------------------------------------------------------- */
/* {rule, event, phase, checker}: PY_PH_CAPTURE checks run on code that executes
 * during capture; PY_PH_AFTER checks on the rest of the capturing function. */
const py_check py_checks[] = {
    { CG_R_CG101, PY_EV_CALL, PY_PH_CAPTURE, check_scalar_read },        /* and CG203 in size position */
    { CG_R_CG102, PY_EV_CALL, PY_PH_CAPTURE, check_d2h },
    { CG_R_CG103, PY_EV_CALL, PY_PH_CAPTURE, check_h2d },
    { CG_R_CG104, PY_EV_CALL, PY_PH_CAPTURE, check_sync },
    { CG_R_CG105, PY_EV_CALL, PY_PH_CAPTURE, check_query },
    { CG_R_CG107, PY_EV_CALL, PY_PH_CAPTURE, check_format_call },
    { CG_R_CG107, PY_EV_FORMAT, PY_PH_CAPTURE, check_format_fstring },
    { CG_R_CG108, PY_EV_CALL, PY_PH_CAPTURE, check_library_sync },
    { CG_R_CG201, PY_EV_COND, PY_PH_CAPTURE, check_condition },          /* and CG108 for t.any()/t.all() */
    { CG_R_CG202, PY_EV_CALL, PY_PH_CAPTURE, check_dynamic_shape_call },
    { CG_R_CG202, PY_EV_SUBSCRIPT, PY_PH_CAPTURE, check_mask_index },
    { CG_R_CG203, PY_EV_SIZE_USE, PY_PH_CAPTURE, check_size_use },
    { CG_R_CG301, PY_EV_CALL, PY_PH_CAPTURE, check_host_io },
    { CG_R_CG302, PY_EV_CALL, PY_PH_CAPTURE, check_host_random },
    { CG_R_CG303, PY_EV_STORE, PY_PH_CAPTURE, check_bookkeeping_store },
    { CG_R_CG303, PY_EV_CALL, PY_PH_CAPTURE, check_bookkeeping_call },
    { CG_R_CG304, PY_EV_SCALAR_MATH, PY_PH_CAPTURE, check_frozen_scalar },
    { CG_R_CG304, PY_EV_SCALAR_MATH, PY_PH_CAPTURE, check_loopvar_math },
    { CG_R_CG304, PY_EV_COND, PY_PH_CAPTURE, check_loopvar_branch },
    { CG_R_CG305, PY_EV_CALL, PY_PH_CAPTURE, check_cpu_tensor },
    { CG_R_CG305, PY_EV_STORE, PY_PH_CAPTURE, check_cpu_inplace_store },
    { CG_R_CG305, PY_EV_CALL, PY_PH_CAPTURE, check_cpu_inplace_call },
    { CG_R_CG401, PY_EV_CALL, PY_PH_CAPTURE, check_set_default_stream },
    { CG_R_CG401, PY_EV_CALL, PY_PH_CAPTURE, check_wait_default_stream },
    { CG_R_CG401, PY_EV_STREAM_CTX, PY_PH_CAPTURE, check_stream_ctx },   /* and CG403 */
    { CG_R_CG403, PY_EV_CALL, PY_PH_CAPTURE, check_wait_uncaptured },
    { CG_R_CG402, PY_EV_REGION_END, PY_PH_CAPTURE, check_unjoined },
    { CG_R_CG404, PY_EV_REGION_BEGIN, PY_PH_CAPTURE, check_capture_stream },
    { CG_R_CG503, PY_EV_CALL, PY_PH_CAPTURE, check_pin_memory },
    { CG_R_CG504, PY_EV_STORE, PY_PH_AFTER, check_input_rebound },
    { CG_R_CG505, PY_EV_CALL, PY_PH_AFTER, check_output_kept },
    { CG_R_CG505, PY_EV_STORE, PY_PH_AFTER, check_output_kept },
    { CG_R_CG601, PY_EV_REGION_BEGIN, PY_PH_CAPTURE, check_autocast_around },
    { CG_R_CG602, PY_EV_CALL, PY_PH_CAPTURE, check_generator },
    { CG_R_CG603, PY_EV_CALL, PY_PH_CAPTURE, check_seed },
    { CG_R_CG604, PY_EV_CALL, PY_PH_CAPTURE, check_checkpoint },
    { CG_R_CG605, PY_EV_CALL, PY_PH_CAPTURE, check_optimizer },
    { CG_R_CG606, PY_EV_CALL, PY_PH_AFTER, check_lr_change_call },
    { CG_R_CG606, PY_EV_STORE, PY_PH_AFTER, check_lr_change_store },
    { CG_R_CG701, PY_EV_REGION_BEGIN, PY_PH_CAPTURE, check_capture_setup },   /* and CG705, CG708 */
    { CG_R_CG702, PY_EV_REGION_END, PY_PH_CAPTURE, check_eager_backward },
    { CG_R_CG703, PY_EV_REGION_BEGIN, PY_PH_CAPTURE, check_ddp_setup },
    { CG_R_CG703, PY_EV_REGION_END, PY_PH_CAPTURE, check_ddp_warmup },
    { CG_R_CG704, PY_EV_REGION_BEGIN, PY_PH_CAPTURE, check_graphed_callables },
    { CG_R_CG706, PY_EV_CALL, PY_PH_CAPTURE, check_compiled_call },
    { CG_R_CG902, PY_EV_CALL, PY_PH_CAPTURE, check_mutated_input },
    { CG_R_CG902, PY_EV_CALL, PY_PH_CAPTURE, check_compiled_cpu_args },
};
const size_t py_check_count = sizeof py_checks / sizeof *py_checks;

void py_dispatch(const py_ctx *ctx, const py_event *ev)
{
    int phase = ctx->active ? PY_PH_CAPTURE : ctx->phase;
    for (size_t i = 0; i < py_check_count; i++)
        if (py_checks[i].on == ev->kind && py_checks[i].phase == phase) py_checks[i].fn(ctx, ev);
}
