/* py_check.h - what the Python rules see: values, capture regions, events,
 * the one report builder and the table of checks.
 *
 * The contract between the evaluator and the rules.  The evaluator
 * (py_eval.h and the files it names) walks code in capture context and, at
 * each construct a rule may care about, builds a py_event and hands it to
 * py_dispatch(), which runs every check registered for that event kind
 * (py_checks.c).  A check reads the event, the region's facts and the
 * project index, and calls py_report(); it gets a const context, changes no
 * state, walks no tree and searches no source text: what it needs to know is
 * a fact the evaluator or the index gathered.
 *
 * Dependencies go one way: py_checks.c -> py_report.c -> core; the evaluator
 * reaches the checks only through py_dispatch(). */
#ifndef CG_PY_CHECK_H
#define CG_PY_CHECK_H
#include "py_int.h"
#include "core/callpath.h"
#include "core/streams.h"

/* ---- abstract values ---------------------------------------------------------- */
typedef enum {
    PY_V_UNKNOWN = 0,
    PY_V_TENSOR,     /* torch.Tensor; dev says where if known */
    PY_V_NUMBER,     /* Python int/float/bool */
    PY_V_STR, PY_V_NONE, PY_V_LIST, PY_V_DICT, PY_V_TUPLE, PY_V_SET,
    PY_V_NDARRAY,    /* numpy array or scalar */
    PY_V_INSTANCE,   /* instance of project class cls */
    PY_V_CLASS,      /* project class cls itself */
    PY_V_FUNC,       /* project function fn (bound to an instance of cls when set) */
    PY_V_MODULE,     /* project module mod */
    PY_V_EXT,        /* external module/function/class: qual */
    PY_V_EXTOBJ,     /* instance of external class qual ("torch.nn.Linear") */
    PY_V_STREAM,     /* CUDA stream; qual is its identity */
    PY_V_EVENT,      /* CUDA event; qual is its identity */
    PY_V_GUARD,      /* result of torch.cuda.is_current_stream_capturing() */
    PY_V_MODLIST,    /* nn.ModuleList / nn.Sequential of project classes elems[] */
} py_vkind;

enum { PY_DEV_UNKNOWN = 0, PY_DEV_CUDA = 1, PY_DEV_CPU = 2 };

enum {
    PY_VF_BOOL = 1 << 0,         /* a boolean tensor (a mask) */
    PY_VF_PINNED = 1 << 1,       /* pinned host memory */
    PY_VF_HOSTSCALAR = 1 << 2,   /* a Python number read from a tensor (.item(), int(t)) */
    PY_VF_FMT_TENSOR = 1 << 3,   /* a string made by formatting a tensor */
    PY_VF_DEFAULT_STREAM = 1 << 4,
    PY_VF_SCALER = 1 << 5,       /* torch GradScaler */
    PY_VF_LOGGER = 1 << 6,       /* logging.Logger and look-alikes */
    PY_VF_HOST_IO = 1 << 7,      /* file, progress bar, metric writer */
    PY_VF_GRAPH = 1 << 8,        /* torch.cuda.CUDAGraph */
    PY_VF_ENUMERATE = 1 << 9,    /* enumerate(x): iterating gives (int, element of x) */
    PY_VF_OPTIMIZER = 1 << 10,   /* a torch.optim optimizer that has a `capturable` flag */
    PY_VF_CAPTURABLE = 1 << 11,  /* ... built with capturable=True */
    PY_VF_SCHEDULER = 1 << 12,   /* a torch.optim.lr_scheduler */
    PY_VF_CUDA_GEN = 1 << 13,    /* torch.Generator(device="cuda") */
    PY_VF_COMPILED = 1 << 14,    /* made by torch.compile */
    PY_VF_AUTOCAST = 1 << 15,    /* an autocast context with its cast cache enabled */
    PY_VF_TENSOR_LR = 1 << 16,   /* optimizer built with lr=<tensor> */
    PY_VF_OUTPUT = 1 << 17,      /* a tensor produced inside a capture: a graph output */
    PY_VF_THREAD_LOCAL = 1 << 18,/* torch.cuda.graph(..., capture_error_mode="thread_local") */
    PY_VF_PARAM = 1 << 19,       /* a parameter of the function a reduce-overhead region compiles */
    PY_VF_FUSED = 1 << 20,       /* an optimizer built with fused=True (CG108: GradScaler.step) */
    PY_VF_CUDAGRAPHS = 1 << 21,  /* made by torch.compile to run as CUDA graphs (mode="reduce-overhead",
                                    backend="cudagraphs"), or a functools.partial of torch.compile
                                    that does so (CG902) */
    PY_VF_REQUIRES_GRAD = 1 << 22, /* a leaf that requires grad: nn.Parameter, requires_grad=True */
    PY_VF_EAGER_GRAD = 1 << 23,  /* made before the capture, on the default stream, by an op on a tensor
                                    that requires grad: its autograd node is bound to that stream (CG702);
                                    ctor/omod: the op */
    PY_VF_SPREAD = 1 << 24,      /* `*xs` in a call or a display: its elements, spread */
    PY_VF_CALLERS = 1 << 25,     /* a parameter of a function walked from its top: what its
                                    callers pass is looked up when the name is read */
    PY_VF_FROM_CALLERS = 1 << 26,/* ...and that is what it holds: not seen through closures */
    PY_VF_LOOPVAR = 1 << 27,     /* a number a `for` binds: it changes every iteration (CG304) */
    PY_VF_OPAQUE_CALL = 1 << 28, /* an nn.Sequential whose last module is not known: calling it gives
                                    what that module returns (unknown), not a tensor */
    PY_VF_KW_UNSEEN = 1 << 29,   /* an optimizer built with `**kwargs` the analysis cannot read:
                                    fused/capturable unknown (CG108) */
    PY_VF_AMP_SCALING = 1 << 30, /* an optimizer that handles GradScaler's scale itself
                                    (`_step_supports_amp_scaling = True`): GradScaler.step does not sync */
};

/* Where a Python number came from, for "reassigned elsewhere" (CG304). */
enum { PY_O_NONE = 0, PY_O_LOCAL, PY_O_SELF_ATTR, PY_O_GLOBAL };

typedef struct py_val {
    uint8_t kind, dev, origin, nelems;
    uint32_t flags;
    const char *qual;
    py_class *cls;
    py_func *fn;
    py_module *mod;
    py_class *elems[4];
    /* where a number came from, for "reassigned elsewhere" (CG304) */
    const char *oname;
    py_func *ofn;
    py_class *ocls;
    py_module *omod;
    /* torch.cuda.graph(..., stream=s) / torch.cuda.stream(s): the stream */
    const char *stream;
    int stream_default;
    /* an optimizer or a generator: the call that built it, in omod (CG605's
     * fix; which generator is registered, CG602) */
    TSNode ctor;
    /* a tuple, list or dict whose elements are known: their values, in order
     * (a dict's: its values) */
    const struct py_val *items;
    const char *const *keys;    /* a dict's: each item's key when it is a string literal (its text) */
    uint16_t nitems;
    /* one of several values (a conditional, several call sites or
     * assignments): this one, or any of alt's chain.  The rules see this
     * one, the most telling (py_join orders them). */
    const struct py_val *alt;
    /* a nested function: the bindings of the defs around it when it was
     * defined (used when their frames no longer run) */
    const struct py_closure *closure;
    /* a literal's value, known exactly: an int as its decimal text, "True",
     * "False", a string's text (NULL: not known).  Kept only where the value
     * is a literal's own (a name bound to it, a parameter given it or left at
     * its default); a condition on such values is decided (py_const_truth). */
    const char *lit;
} py_val;

enum { PY_IO_INPUT = 1, PY_IO_OUTPUT = 2 };

/* ---- a capture region: the facts rules read -------------------------------------
 * One per capture the evaluator meets (py_region.c fills it); each field
 * names the rules that read it. */
typedef struct py_region {
    cg_loc site;                /* the capture site: every finding's `capture`; CG701, CG703, CG705, CG708 */
    TSNode site_node;           /* its node (the evaluator's) */
    py_module *mod;             /* the capture site's module: CG101 under reduce-overhead, CG602, CG703 */
    py_func *fn;                /* the function holding the capture site: CG504, CG505 (graph outputs) */
    const char *kind;           /* "torch.cuda.graph", "capture_begin", "make_graphed_callables",
                                   "te.make_graphed_callables", "reduce-overhead", "FullCudaGraphWrapper",
                                   "CudaGraphManager": CG404, CG601, CG701-CG708, CG901, CG902 */
    cg_map inputs;              /* tensors the capture reads in fn, and self attributes its class's
                                   methods read ("static_x", "self.static_x"): PY_IO_INPUT, CG504;
                                   self attributes it stores: PY_IO_OUTPUT, CG505 */
    cg_streams streams;         /* forks, joins and event records (streams.capture: the capturing
                                   stream): CG402, CG403 */
    const char *stray[8];       /* streams given work in the capture without a fork (CG403 at the
                                   `with`): a later wait on one is the same hazard, not reported again */
    int nstray;
    int steps_optimizer;        /* an optimizer step is captured: CG606 */
    int has_backward;           /* the capture runs backward(): CG702 */
    int thread_local;           /* capture_error_mode="thread_local" (or relaxed): CG708 */
    int side_stream;            /* the capture begins on a stream other than the default one: CG404 */
    /* what the capturing function did before the capture */
    int warm;                   /* ran the model first (or built none here): CG701, CG706 */
    int cold_from_callers;      /* ...not warm: its model comes from callers that never ran it: CG701 */
    const void *warmed[8];      /* the compiled callables (py_func or qual) the function ran before: CG706 */
    int nwarmed;
    int warmed_other;           /* ...and whether it ran project code that may have run them */
    int warm_ran;               /* the function itself ran a warm-up (not merely built nothing) */
    int in_loop;                /* the capture sits in a loop with no condition around it: CG705 */
    TSNode capture_loop;        /* the innermost loop around the capture, if any: CG505 (one
                                   graph per iteration keeps each output; no replay overwrites it) */
    int loop_replays;           /* ...and that loop also replays a graph: a loop variable read in
                                   the capture is baked while it changes (CG304) */
    uint32_t fresh_replay_end;  /* ...a graph made afresh in that loop body: the byte past its last
                                   replay there; a rebinding after it is no replay's (CG504) */
    int pin_loader_loop;        /* ...a loop over a DataLoader(pin_memory=True): CG708 */
    int eager_backward;         /* backward()/DDP() on the default stream before it, or a tensor the
                                   capture reads made there with an autograd node: CG702 */
    int eager_grad_op;          /*   ...the latter: CG702 */
    const char *cuda_thread;    /* ...a thread started before it whose target does CUDA work
                                   (queries events, syncs, pins memory): the target's name, CG708 */
    py_module *cuda_thread_mod; /*   and where the target does it */
    TSNode cuda_thread_node;
    cg_loc eager_loc;           /*   where: CG702 */
    char *eager_line;
    int autocast;               /* inside `with autocast(...)` that caches casts: CG601 */
    cg_loc autocast_loc;        /*   where (the outermost one): CG601 */
    char *autocast_line;
    py_module *autocast_mod;    /*   its module and call, for CG601's fix */
    TSNode autocast_node;
    TSNode gens[4];             /* generators the capturing function registered before it, by
                                   where they were made: CG602 */
    int ngens;
    int gens_unknown;           /*   and registrations of generators not known: CG602 */
    int small_warmup;           /* a `for _ in range(N)` with N < 11 before the capture: CG703 */
    int nccl_async_set;         /* NCCL_ASYNC_ERROR_HANDLING named in the module or one it imports: CG703 */
    int warmup_iters;           /*   its N: CG703 */
    /* make_graphed_callables (set on its first region only) */
    TSNode *bad_samples;        /* sample arguments written as literals that are no tensors: CG704 */
    size_t nbad_samples;
    int hooked_before;          /* its module got hooks earlier in the function: CG704 */
    TSNode hooked_node;         /*   which module (an element of a tuple of them): CG704 */
    const char *hooked_via;     /*   the function that registered them, when another one: CG704 */
} py_region;

/* What the walk is in: code outside any capture, code that runs during a
 * capture, or the rest of a capturing function after the capture (its
 * replay loop). */
enum { PY_PH_OUTSIDE = 0, PY_PH_CAPTURE = 1, PY_PH_AFTER = 2 };

/* ---- the analysis context ---------------------------------------------------------
 * The evaluator's state; checks get it const and read the fields marked
 * "checks". */
typedef struct py_ctx {
    py_project *p;         /* checks: the index (attributes, assignment counts) */
    cg_arena *arena;       /* checks: messages and snippets */
    py_region *region;     /* checks: the capture being analysed, or NULL */
    int active;            /* code being walked runs during capture */
    int phase;             /* PY_PH_AFTER: the rest of a function after its capture */
    py_region *after;      /* checks: the capture whose aftermath is walked (PY_PH_AFTER) */
    int loops;             /* checks (CG505): for/while bodies around the statement, in this function */
    cg_callpath path;      /* checks (CG902): calls from the capture site to here (24 at most) */
    int quiet;             /* evaluating for a type only: no events */
    int autocast;          /* enclosing `with autocast(...)` contexts that cache casts */
    cg_loc autocast_loc;   /* the outermost of them */
    char *autocast_line;
    py_module *autocast_mod;
    TSNode autocast_node;
    const char *cur_stream;
    int depth;             /* blocks and calls being walked */
    int edepth;            /* expression nesting */
    int size_arg;          /* evaluating an argument that is a size */
    cg_map memo;           /* (function, argument kinds) -> return value */
    cg_map globals;        /* (module, name) -> py_val* of a module-level name, or the
                              in-progress sentinel: each evaluated once per run */
    int conds_in_loop;     /* if bodies between the innermost loop and here */
    TSNode loop_node;      /* the innermost loop around the statement, in this function */
    py_region **regions;   /* every region made, to free their maps */
    int nregions, capregions;
    /* a caller walked for what it passes (py_call.c): the call watched, the
     * function it must call, what it passed (sites of it, recorded) */
    TSNode watch;
    py_func *watch_fn;
    struct py_args *watch_args;
    int callers_depth;     /* caller walks under way */
    int in_watched;        /* evaluating the watched call's arguments */
    py_func *scan_fn;      /* the function walked from its top, when it opens a capture */
    cg_map callers;        /* function -> its call sites' arguments, once per run */
    int callers_parses;    /* modules parsed to find call sites, this run */
    const struct py_closure *call_closure; /* the closure of the function being called */
    const char *bind_only;  /* py_bind_params binds only names found in this text (when set) */
    size_t bind_only_len;
    int watch_cold;         /* the watched call's caller ran nothing before it (CG701) */
    py_func *after_method;  /* a method of the capturing class walked as the capture's aftermath */
    /* a method walked for what it stores in self.<watch_attr> (py_call.c) */
    const char *watch_attr;
    py_func *watch_attr_fn;
    py_val *watch_attr_val;
    struct py_attr_store **watch_attr_all; /* ...or every attribute it stores, into this list: one
                                   walk per method, not one per attribute read (py_call.c) */
    /* One analysis is one capture file's (py_analyze.c): what it knows is its
     * own, so that analyses run at once and each finds what it would alone. */
    py_module *root;       /* the capture file */
    unsigned char *seen;   /* per project module: this analysis loaded it (py_module_ensure) */
    py_module **seen_list; /* those modules, in the order loaded */
    size_t nseen, capseen;
    struct py_func **busy; /* functions on the analysis's call stack (not followed again) */
    int nbusy, capbusy;
    cg_map latches;        /* "%p" of a py_attr -> (void*)1 set at construction, 2 not */
    cg_report *out;        /* its findings, merged into the run's in capture-file order */
    struct py_analysis *rec; /* what the project index keeps of the analysis (py_int.h) */
    cg_map queries;        /* the Bloom queries it asked: "c" or "i", then the name */
} py_ctx;

/* `X.<name> = ...` outside __init__ in the modules the analysis has loaded (CG304). */
size_t py_ctx_attr_assigns(const py_ctx *ctx, const char *name, size_t len);

/* ---- events ------------------------------------------------------------------ */
typedef enum {
    PY_EV_CALL,          /* any call in capture context */
    PY_EV_COND,          /* a value converted to bool by Python: if/while/assert/and/or/not/ternary */
    PY_EV_SUBSCRIPT,     /* x[index] read (not a store target) */
    PY_EV_STORE,         /* assignment or augmented assignment target */
    PY_EV_SCALAR_MATH,   /* a Python number meets a tensor (operand or argument) */
    PY_EV_FORMAT,        /* an f-string interpolation */
    PY_EV_SIZE_USE,      /* a value used directly as a size */
    PY_EV_STREAM_CTX,    /* `with torch.cuda.stream(s):` */
    PY_EV_REGION_BEGIN,  /* a manual capture begins (torch.cuda.graph, capture_begin,
                            make_graphed_callables): the region's facts are complete */
    PY_EV_REGION_END,
    PY_EV_WITH,          /* `with autocast(...)` that caches casts: val is the context (no rule yet) */
    PY_EV_KIND_COUNT
} py_event_kind;

#define PY_MAX_ARGS 16
typedef struct py_event {
    py_event_kind kind;
    py_module *mod;
    TSNode node;               /* the construct; findings point here */
    /* calls */
    const char *qual;          /* external callee, e.g. "torch.cuda.synchronize", "builtins.print" */
    const char *method;        /* method name when called on a value, else NULL */
    py_val recv;
    TSNode recv_node;
    py_val callee;             /* what is called, when it is a value (a project or compiled function) */
    int nargs;                 /* args/argn: the positional arguments (arrays last, below) */
    int nkw;                   /* kwname/kw/kwn: the keywords */
    int size_arg;              /* the call is itself a size argument (CG203) */
    int chained_to_device;     /* result goes straight into .cuda()/.to() */
    int chained_to_pin;        /* result goes straight into .pin_memory() (CG503, not CG305) */
    int only_meta;             /* result read only for its dtype facts: `.element_size()` (CG305) */
    int consumed_by_print;     /* a print/log call formats it anyway */
    /* other events */
    py_val val;                /* condition, index, stored value, scalar, stream */
    int augmented;             /* PY_EV_STORE: `+=` and friends */
    int target_kind;           /* PY_EV_STORE: 0 name, 1 attribute, 2 subscript, 3 a graph output
                                  returned to callers that keep it across replays (CG505) */
    py_val target_base;        /* PY_EV_STORE: object of attribute/subscript target */
    TSNode target_base_node;
    int target_is_global;      /* PY_EV_STORE: a name declared global / module level (1), under
                                  self (2), a parameter holding the caller's container (3) */
    /* the arguments, last: an event is cleared up to here and for the first
     * two of each (py_event_init), not for all PY_MAX_ARGS */
    py_val args[PY_MAX_ARGS];
    TSNode argn[PY_MAX_ARGS];
    const char *kwname[PY_MAX_ARGS];
    py_val kw[PY_MAX_ARGS];
    TSNode kwn[PY_MAX_ARGS];
} py_event;

/* ---- py_report.c: the one report builder ----------------------------------------- */
/* A finding: its rule, where it is, and what fixes it.  Written at the call,
 * as PY_AT(CG_R_CG101, ev->mod, ev->node) for a node, or as a compound
 * literal `&(py_finding){ .rule = ..., .loc = &r->site }` for a place known
 * only as a location; `.fix = "..."` adds specific help, `.kw = ...` a
 * mechanical fix. */
typedef struct py_finding {
    int rule;
    py_module *mod;            /* at node `node` of module mod... */
    TSNode node;
    const cg_loc *loc;         /* ...or, when set, at this place, whose source line is `line`
                                  (NULL: none shown) */
    const char *line;
    const char *fix;           /* specific help, or NULL for the rule's own */
    /* a mechanical fix: keyword `kw` of call `kw_call` (in kw_mod, which must be
     * the finding's own file) becomes `kw_value`: its value replaced, or
     * `kw=value` added when the call does not pass it.  kw == NULL: none. */
    const char *kw, *kw_value;
    py_module *kw_mod;
    TSNode kw_call;
    int kw_safe;               /* it cannot change what the code computes outside capture:
                                  --fix applies it without --unsafe-fixes */
    int region_level;          /* a fact of the region itself (CG402): no call path, and not
                                  turned into CG901/CG902 under reduce-overhead */
} py_finding;

/* A finding of `rule` at node `node` of module `mod`; designated fields may
 * follow: PY_AT(CG_R_CG202, ev->mod, ev->node, .fix = "..."). */
#define PY_AT(rule_, mod_, node_, ...) \
    (&(py_finding){ .rule = (rule_), .mod = (mod_), .node = (node_), __VA_ARGS__ })

/* Report finding f with the message printf(fmt, ...), the context's capture
 * site and call path.  Does nothing outside capture context (or its
 * aftermath) or while evaluating quietly.  Under torch.compile
 * (mode="reduce-overhead") a capture hazard becomes the graph break (CG901)
 * or cudagraph skip (CG902) it causes there, or nothing.  Everything is
 * copied into the report. */
void py_report(const py_ctx *ctx, const py_finding *f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Short text of a node for messages: at most 60 bytes, one line.  The string
 * belongs to ctx->arena. */
const char *py_snip(const py_ctx *ctx, py_module *m, TSNode n);
/* Keyword argument `name` of a call event, or -1. */
int py_ev_kw(const py_event *ev, const char *name);
/* Does the value look like a tensor?  Known tensors (not on the CPU) only. */
int py_is_gpu_tensor(const py_val *v);
/* The first alternative of v of this kind (v itself or one of v->alt), or NULL. */
const py_val *py_alt_of_kind(const py_val *v, int kind);
/* py_call.c: the identity of a compiled callable (a py_func, a class, a
 * qualified name), NULL for values torch.compile did not make: CG706 */
const void *py_compiled_identity(const py_val *v);
/* Is the region a torch.compile(mode="reduce-overhead") function? */
int py_region_is_compiled(const py_region *r);
/* Has torch.set_default_device (a CUDA device) been called by module m, or
 * by the module of the capture under analysis?  Factories without device=
 * may then make GPU tensors (CG305, CG902). */
static inline int py_default_device_cuda(const py_ctx *ctx, const py_module *m)
{
    return (m && (m->text_facts & PY_MT_DEFAULT_CUDA)) ||
           (ctx->region && ctx->region->mod && (ctx->region->mod->text_facts & PY_MT_DEFAULT_CUDA));
}
/* py_api.c: is q a torch tensor factory (torch.zeros, torch.tensor...)? */
int py_api_is_factory(const char *q);
/* py_api.c: is f a level method (warning, info...) of a project's Logger class? */
int py_api_is_log_method(const py_func *f);

/* ---- py_checks.c --------------------------------------------------------------- */
typedef void (*py_check_fn)(const py_ctx *ctx, const py_event *ev);
/* `phase`: PY_PH_CAPTURE for code that runs during capture, PY_PH_AFTER for
 * the rest of the capturing function (the replay loop). */
typedef struct py_check { int rule; py_event_kind on; int phase; py_check_fn fn; } py_check;
extern const py_check py_checks[];
extern const size_t py_check_count;
/* Run the checks registered for ev's kind in the context's phase. */
void py_dispatch(const py_ctx *ctx, const py_event *ev);
#endif
