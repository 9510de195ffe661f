/* py_eval.h - the abstract evaluator's internal interface.
 *
 * The evaluator walks Python code and says what each expression is (a
 * py_val), following calls into the project's own code while a capture is
 * under way.  Its files, each with one job:
 *
 *   py_analyze.c  the driver: which functions are walked, and the one door
 *                 to the rules (py_emit -> py_dispatch)
 *   py_stmt.c     statements and blocks (exec_*), assignment targets
 *   py_expr.c     expressions (py_eval and friends), conditions
 *   py_call.c     calls: resolve the callee, bind the arguments, follow
 *                 project functions; names, globals and attributes
 *   py_region.c   captures: where one begins and ends, the facts of each
 *                 region, guards on "is a capture under way?"
 *   py_api.c      what torch, builtins and friends give when called: tables
 *
 * The rules (py_checks.c) see only py_check.h. */
#ifndef CG_PY_EVAL_H
#define CG_PY_EVAL_H
#include "py_check.h"

/* How deep calls (and blocks) are followed. */
#define PY_MAX_CALL_DEPTH 20

/* The bindings a nested def closed over, copied when the def ran. */
typedef struct py_closure {
    int n;
    const char **names;
    const size_t *lens;
    const py_val *vals;
    py_val self;
    const char *self_name;
    size_t self_len;
    const struct py_closure *outer;
} py_closure;

/* ---- one function being walked -------------------------------------------------- */
typedef struct py_frame {
    py_func *fn;
    py_module *mod;
    cg_map env;              /* name -> py_val* */
    cg_map globals_declared; /* names in `global` statements */
    py_val self;             /* PY_V_INSTANCE of the method's class, or unknown */
    const char *self_name;
    size_t self_len;
    py_val ret;
    int has_ret;
    int stream_ctx;          /* inside `with torch.cuda.stream(...)` in this function */
    int built_module;        /* a model/callable was constructed here before the capture */
    int warm;                /* ...and run (a loop, a side stream, a call) before it */
    int eager_backward;      /* backward() or DDP(...) on the default stream before the capture */
    cg_loc eager_loc;
    char *eager_line;
    int pin_loader_loop;     /* inside `for batch in DataLoader(pin_memory=True)` */
    TSNode gens[4];          /* generators registered with register_generator_state before the
                                capture: where each was made (CG602) */
    int ngens;
    int gens_unknown;        /* ...and registrations of a generator not known */
    const char *cuda_thread; /* threading.Thread(target=f) made here, f doing CUDA work (CG708) */
    py_module *cuda_thread_mod;
    TSNode cuda_thread_node; /*   where f does it */
    const void *warmed[8];   /* compiled callables run before the capture (CG706) */
    int nwarmed;
    int warmed_other;        /* project code run before the capture (it may run them) */
    struct py_frame *caller; /* the frame that called this one (NULL: walked from its top) */
    struct py_frame *outer;  /* a nested def's: the live frame of the def around it (closures) */
    const py_closure *closed;/* ...or what it closed over, when that frame no longer runs */
} py_frame;

/* ---- values --------------------------------------------------------------------- */
static inline py_val py_vk(int kind) { py_val v; memset(&v, 0, sizeof v); v.kind = (uint8_t)kind; return v; }
static inline py_val py_vtensor(int dev) { py_val v = py_vk(PY_V_TENSOR); v.dev = (uint8_t)dev; return v; }
static inline py_val py_vext(const char *q) { py_val v = py_vk(PY_V_EXT); v.qual = q; return v; }

/* An event of kind k at node n of module m, every other field empty. */
static inline void py_event_init(py_event *ev, py_event_kind k, py_module *m, TSNode n)
{
    /* the argument arrays are filled as arguments are met (nargs, nkw say how
     * far): clearing all of them for every call was a large share of a run */
    memset(ev, 0, offsetof(py_event, args));
    for (int i = 0; i < 2; i++) {
        memset(&ev->args[i], 0, sizeof ev->args[i]);
        memset(&ev->kw[i], 0, sizeof ev->kw[i]);
        ev->argn[i] = ev->kwn[i] = (TSNode){ 0 };
        ev->kwname[i] = NULL;
    }
    ev->kind = k;
    ev->mod = m;
    ev->node = n;
}

/* ---- py_analyze.c ------------------------------------------------------------------ */
/* Hand ev to the rules, when the walk is in a capture or its aftermath and
 * not quiet: the evaluator's only way to the checks. */
void py_emit(py_ctx *ctx, const py_event *ev);
/* A new walk from the top of a function: outside any capture, no calls on
 * the path. */
void py_walk_begin(py_ctx *ctx);
/* Functions on the analysis's call stack are not followed again (recursion). */
int py_busy(const py_ctx *ctx, const py_func *f);
void py_busy_push(py_ctx *ctx, py_func *f);
void py_busy_pop(py_ctx *ctx);
/* Has this analysis loaded m (or was it loaded before the analyses began)?
 * Budgets and "already parsed" shortcuts ask this, never m->state: what
 * other analyses loaded must not change this one's findings. */
int py_ctx_has(const py_ctx *ctx, const py_module *m);
/* The latch of an attribute (py_region.c): 0 not decided, 1 yes, -1 no. */
int py_ctx_latch(py_ctx *ctx, const py_attr *a);
void py_ctx_set_latch(py_ctx *ctx, const py_attr *a, int v);

/* ---- py_stmt.c -------------------------------------------------------------------- */
/* Walk a block; returns 1 when it ends the function (return/raise) for
 * capture purposes. */
int py_exec_block(py_ctx *ctx, py_frame *fr, TSNode block);
/* Bind assignment target t (a name, a tuple of them...) to v. */
void py_bind_target(py_ctx *ctx, py_frame *fr, TSNode t, py_val v);

/* ---- py_expr.c -------------------------------------------------------------------- */
/* Values that are one of several (py_val.alt): at most this many alternatives. */
#define PY_MAX_ALTS 6
/* a or b: one value that may be either (for every alternative:
 * `for (const py_val *a = &v; a; a = a->alt)`). */
py_val py_join(py_ctx *ctx, py_val a, py_val b);
/* A tuple, list or dict (`kind`) with these n elements (copied). */
py_val py_seq(py_ctx *ctx, int kind, const py_val *items, int n);
/* Target i of n in `t0, t1, ... = v` (star: the index of a starred target, or -1). */
py_val py_unpack(py_ctx *ctx, const py_val *v, int i, int n, int star);
py_val py_eval(py_ctx *ctx, py_frame *fr, TSNode n);
/* py_eval with no events: for the value's type only. */
py_val py_eval_quiet(py_ctx *ctx, py_frame *fr, TSNode n);
/* Literals (py_val.lit): the value literal n says (unknown when n is no
 * literal); v without any literal's value, alternatives included; whether
 * condition c is true (+1) or false (-1) from literals alone (0: not
 * known).  Decided only for conditions of names and literals (`not`, `and`,
 * `or`, `==`, `!=`, `is None`, `is not None`, `in` a literal tuple), which
 * evaluate nothing else. */
py_val py_literal(py_ctx *ctx, py_module *m, TSNode n);
py_val py_nolit(py_ctx *ctx, py_val v);
int py_const_truth(py_ctx *ctx, py_frame *fr, TSNode c);
/* Evaluate a condition: every operand Python converts to bool raises PY_EV_COND. */
py_val py_eval_cond(py_ctx *ctx, py_frame *fr, TSNode n);
/* isinstance narrowing: where `cond` is `truth`, `isinstance(x, torch.Tensor)`
 * says x is no tensor, `isinstance(x, float)` that it is a number.  x is
 * rebound until py_narrow_end. */
typedef struct py_narrow { py_val *slot; py_val old; const char *name; size_t len; int on; } py_narrow;
void py_narrow_begin(py_ctx *ctx, py_frame *fr, TSNode cond, int truth, py_narrow *nw);
void py_narrow_end(py_narrow *nw);
/* What iterating over `it` gives (a ModuleList's element class, range's
 * numbers, a tensor's rows); keep_modlist: a list of several classes stays
 * one (a call reaches each). */
py_val py_element_of(py_ctx *ctx, const py_val *it, int keep_modlist);
/* A Python number v (at node num) meets a tensor: PY_EV_SCALAR_MATH when it
 * has an origin. */
void py_scalar_math(py_ctx *ctx, py_frame *fr, TSNode num, const py_val *v);
/* An event of kind k at node n of the frame's module, with value v. */
void py_emit_at(py_ctx *ctx, py_frame *fr, py_event_kind k, TSNode n, py_val v);
/* Node n's text (module m), terminated, in the analysis arena.  The evaluator
 * never allocates in a module's arena: `cglint server` keeps a module's index
 * (and its arena) from one analysis to the next (py_keep.c). */
static inline char *py_ctx_text_dup(py_ctx *ctx, const py_module *m, TSNode n)
{
    size_t len;
    const char *t = py_text(m, n, &len);
    return cg_arena_strndup(ctx->arena, t, len);
}

/* ---- py_call.c -------------------------------------------------------------------- */
/* What a call passes: positional values (after a spread `*xs` or `**kw`
 * whose length is unknown every parameter is passed something unknown),
 * then keywords by name. */
typedef struct py_args {
    const py_val *pos;
    int npos;
    const char *const *kwname;
    const py_val *kw;
    int nkw;
} py_args;
static inline py_args py_args_pos(const py_val *pos, int n)
{
    py_args a = { pos, n, NULL, NULL, 0 };
    return a;
}
void py_frame_init(py_frame *fr, py_func *fn, py_module *mod);
void py_frame_free(py_frame *fr);
/* What a nested def defined in frame fr closes over (a copy of fr's bindings). */
const py_closure *py_closure_of(py_ctx *ctx, py_frame *fr);
/* The binding of a name in the defs around a nested def's frame, or NULL. */
const py_val *py_closure_lookup(py_frame *fr, const char *name, size_t len);
/* The frame's binding of a name, or NULL: a parameter of a function walked
 * from its top gets what its callers pass the first time it is read. */
py_val *py_lookup(py_ctx *ctx, py_frame *fr, const char *name, size_t len);
/* Bind name to v in the frame (a number keeps where it came from: CG304). */
void py_bind(py_ctx *ctx, py_frame *fr, const char *name, size_t len, py_val v);
/* What a name the frame does not bind refers to. */
py_val py_val_of_sym(py_ctx *ctx, py_sym s, const char *name, size_t len);
/* The value stored in self.<name> of class c. */
py_val py_val_of_attr(py_ctx *ctx, py_class *c, const py_val *self, const char *name);
/* A store of v into target t (an attribute) of frame fr: kept when a method
 * is walked for what it stores in that attribute of self. */
void py_note_attr_store(py_ctx *ctx, py_frame *fr, TSNode t, py_val v);
/* Does some call of f keep its result across iterations of a loop
 * (`results.append(r.infer(b))`, `outs[i] = r.infer(b)`)?  Loaded modules only. */
int py_callers_keep_result(py_ctx *ctx, py_func *f);
/* Do all known callers of f call it before running anything (so what they
 * pass was never warmed)?  0 when f has no known caller. */
int py_callers_all_cold(py_ctx *ctx, py_func *f);
/* Is `name` (len bytes) a parameter of f? */
int py_is_param(py_func *f, const char *name, size_t len);
/* A call expression: its value, following project code in capture context. */
py_val py_eval_call(py_ctx *ctx, py_frame *fr, TSNode call);
/* Analyse f called (at callnode) with `args` in the current context; returns
 * its result.  `params_are_tensors`: parameters nothing else explains are
 * tensors (forward(), graphed callables). */
py_val py_call_function(py_ctx *ctx, py_frame *caller, TSNode callnode, py_func *f,
                        const py_val *self, const py_args *args, int params_are_tensors);
/* Bind f's parameters in frame fr (self first, for a method) to what the
 * call passes (args: NULL for nothing), their annotations and defaults. */
void py_bind_params(py_ctx *ctx, py_frame *fr, py_func *f, const py_val *self, const py_args *args,
                    int params_are_tensors);
/* What annotation `type` of module m says a value is (a project class's
 * instance, Optional/Union of them, a tensor...); unknown when it says nothing. */
py_val py_annotation(py_ctx *ctx, py_module *m, TSNode type);
/* v, or what annotation `type` says when v is unknown or None. */
py_val py_annotated(py_ctx *ctx, py_module *m, TSNode type, py_val v);
/* Call an instance of project class c: its __call__ or forward. */
py_val py_call_instance(py_ctx *ctx, py_frame *fr, TSNode call, py_class *c, const py_val *self,
                        const py_args *args);
/* Call a graphed or compiled callable (a function or an instance) with CUDA
 * tensors for arguments, as a capture of it would. */
void py_call_captured(py_ctx *ctx, py_frame *fr, TSNode call, const py_val *target);

/* ---- py_region.c ------------------------------------------------------------------ */
/* A call that begins or ends a capture region (capture_begin/capture_end,
 * torch.compile(mode="reduce-overhead"), make_graphed_callables, framework
 * wrappers): handled here, its value in *out.  Returns 0 for other calls. */
int py_region_open_call(py_ctx *ctx, py_frame *fr, py_event *ev, TSNode call, py_val *out);
/* What a call (already handed to the rules) tells the region and the frame:
 * warm-up and eager backward before a capture; backward, optimizer steps,
 * stream forks and joins during one. */
void py_region_note_call(py_ctx *ctx, py_frame *fr, const py_event *ev, const py_val *callee, TSNode call);
/* A tensor the capture reads in its own function, or a self attribute of
 * its class: a static input (CG504). */
void py_region_note_input(py_ctx *ctx, py_frame *fr, TSNode n, const py_val *v);
/* A tensor stored into self attribute n during the capture: a graph output (CG505). */
void py_region_note_output(py_ctx *ctx, py_frame *fr, TSNode n, const py_val *v);
/* In the aftermath walk of a method of the capturing class: is self attribute n a graph output? */
int py_region_attr_is_output(const py_ctx *ctx, const py_frame *fr, TSNode n);
/* What the `with` items of one statement opened, closed when its body ends. */
typedef struct py_with {
    int began, stream_ctx, autocast;
    const char *saved_stream;
} py_with;
/* `with` item `item` of statement st, whose context object is v. */
void py_region_with_enter(py_ctx *ctx, py_frame *fr, TSNode st, TSNode item, py_val v, py_with *w);
void py_region_with_exit(py_ctx *ctx, py_frame *fr, py_with *w);
void py_region_end(py_ctx *ctx);
/* +1: condition c is true whenever capture is under way; -1: false then; 0: can't tell. */
int py_guard_polarity(py_ctx *ctx, py_frame *fr, TSNode c);
/* Captures no statement spells out in module m: @torch.compile(mode=
 * "reduce-overhead") defs, modules that attach Megatron-LM's CudaGraphManager. */
void py_region_scan_implicit(py_ctx *ctx, py_module *m);
/* A tensor op at node n made *out from inputs with flags in_flags: before a
 * capture, on the default stream, from a tensor that requires grad, it is
 * marked PY_VF_EAGER_GRAD (CG702). */
void py_region_note_grad_op(py_ctx *ctx, py_frame *fr, TSNode n, uint32_t in_flags, py_val *out);
/* Do the keywords of a torch.compile call (ev) ask for CUDA graphs? */
int py_compile_kw_cudagraphs(const py_event *ev);

/* ---- py_api.c --------------------------------------------------------------------- */
/* What calling external function ev->qual (at node call) gives. */
py_val py_api_call_result(py_ctx *ctx, py_frame *fr, const py_event *ev, TSNode call);
/* What method ev->method gives on a tensor, an ndarray or a value of unknown kind. */
py_val py_api_tensor_method(py_ctx *ctx, py_frame *fr, const py_event *ev);
/* What method ev->method gives on a project module or an nn module, when
 * the library says (model.cuda(), model.eval(): the module itself). */
int py_api_module_method_keeps_self(const char *method);
/* An instance of external class q, as an annotation names it. */
py_val py_api_instance_of(const char *q);
/* Attribute a (al bytes) of a tensor o. */
py_val py_api_tensor_attr(const py_val *o, const char *a, size_t al);
/* Are the positional arguments of this call sizes (CG203)? */
int py_api_takes_sizes(const char *qual, const char *method);
/* Does this call do tensor math with its arguments (torch.* ops, tensor
 * methods, in-place methods of values of unknown kind), so that a Python
 * number among them is baked into the graph (CG304)? */
int py_api_is_tensor_math(const py_event *ev);
/* Could this call, made before a capture, be the warm-up run? */
int py_api_is_warmup_call(const py_event *ev, const py_val *callee);
/* torch.cuda.is_current_stream_capturing() and its aliases. */
int py_api_is_capture_guard(const char *qual);
/* torch.compiler.is_compiling() and its aliases (external, or a project
 * function of that name: fn_name). */
int py_api_is_compiling(const char *qual, const char *fn_name);
/* capture_error_mode= anything but "global" on a capture call ev in m: other
 * threads may use CUDA during the capture (CG708). */
int py_api_thread_local_mode(py_module *m, const py_event *ev);
/* The device a node says ("cuda", torch.device("cpu")...), or that of tensor v. */
int py_api_device_of(py_ctx *ctx, py_frame *fr, TSNode n, const py_val *v);
#endif
