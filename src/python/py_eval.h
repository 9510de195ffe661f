/* py_eval.h - abstract values, the analysis context and the events rules see.
 *
 * The evaluator (py_analyze.c) walks code in capture context and, at each
 * construct a rule may care about, builds a py_event and hands it to every
 * checker registered for that event kind (checks.c).  Checkers only read the
 * event and call py_report(); they never walk the tree themselves. */
#ifndef CG_PY_EVAL_H
#define CG_PY_EVAL_H
#include "py_int.h"
#include "core/callpath.h"
#include "core/streams.h"

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
};

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
    /* an optimizer: the bytes of the call that built it, in omod (CG605's fix) */
    uint32_t cstart, cend;
} py_val;

/* ---- a capture region and its streams -------------------------------------- */
typedef struct py_region {
    cg_loc site;
    TSNode site_node;
    py_module *mod;             /* where the capture site is */
    py_func *fn;                /* the function that holds the capture site */
    cg_map inputs;              /* tensors the capture reads in fn: "static_x", "self.static_x" */
    cg_map outputs;             /* names fn binds inside the capture: graph outputs */
    int steps_optimizer;        /* an optimizer step is captured */
    int thread_local;           /* capture_error_mode="thread_local" */
    /* what the capturing function did before the capture */
    int warm;                   /* ran the model first (or built none here) */
    int in_loop;                /* the capture sits in a loop with no condition around it */
    int pin_loader_loop;        /* ...a loop over a DataLoader(pin_memory=True) */
    int eager_backward;         /* backward()/DDP() on the default stream before it */
    cg_loc eager_loc;
    char *eager_line;
    int autocast;               /* inside `with autocast(...)` that caches casts */
    cg_loc autocast_loc;
    char *autocast_line;
    py_module *autocast_mod;    /* where the autocast call is, for CG601's fix */
    TSNode autocast_node;
    int has_backward;           /* the capture runs backward() */
    const char *kind;           /* "torch.cuda.graph", "capture_begin", "make_graphed_callables" */
    cg_streams streams;         /* forks, joins and event records of the capture */
} py_region;

enum { PY_PH_OUTSIDE = 0, PY_PH_CAPTURE = 1, PY_PH_AFTER = 2 };

typedef struct py_ctx {
    py_project *p;
    cg_arena *arena;
    py_region *region;     /* the capture being analysed, or NULL */
    int active;            /* code being walked runs during capture */
    int phase;             /* PY_PH_AFTER: the rest of a function after its capture */
    py_region *after;      /* the capture whose aftermath is walked (PY_PH_AFTER) */
    int loops;             /* for/while bodies around the statement, in this function */
    int conds;             /* if bodies around the statement, in this function */
    int autocast;          /* enclosing `with autocast(...)` contexts that cache casts */
    cg_loc autocast_loc;   /* the outermost of them */
    char *autocast_line;
    py_module *autocast_mod;
    TSNode autocast_node;
    const char *cur_stream;
    cg_callpath path;      /* calls from the capture site to here (24 at most) */
    int depth;             /* blocks and calls being walked */
    int edepth;            /* expression nesting */
    int size_arg;          /* evaluating an argument that is a size */
    int quiet;             /* evaluating for a type only: no events */
    cg_map memo;           /* (function, argument kinds) -> return value */
    cg_map globals;        /* (module, name) -> py_val* of a module-level name, or the
                              in-progress sentinel: each evaluated once per run */
    int conds_in_loop;     /* if bodies between the innermost loop and here */
    TSNode loop_node;      /* the innermost loop around the statement, in this function */
    py_region **regions;   /* every region made, to free their maps */
    int nregions, capregions;
} py_ctx;

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
    PY_EV_REGION_BEGIN,
    PY_EV_REGION_END,
    PY_EV_WITH,          /* any other `with` context: val is the context object */
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
    int nargs;
    py_val args[PY_MAX_ARGS];
    TSNode argn[PY_MAX_ARGS];
    int nkw;
    const char *kwname[PY_MAX_ARGS];
    py_val kw[PY_MAX_ARGS];
    TSNode kwn[PY_MAX_ARGS];
    int size_arg;              /* the call is itself a size argument (CG203) */
    int chained_to_device;     /* result goes straight into .cuda()/.to() */
    int consumed_by_print;     /* a print/log call formats it anyway */
    /* other events */
    py_val val;                /* condition, index, stored value, scalar, stream */
    int augmented;             /* PY_EV_STORE: `+=` and friends */
    int target_kind;           /* PY_EV_STORE: 0 name, 1 attribute, 2 subscript */
    py_val target_base;        /* PY_EV_STORE: object of attribute/subscript target */
    TSNode target_base_node;
    int target_is_global;      /* PY_EV_STORE: a name declared global / module level */
} py_event;

/* Report a finding of `rule` at `node` of module m, with the context's capture
 * site and call path.  Does nothing outside capture context. */
void py_report(py_ctx *ctx, py_module *m, TSNode node, int rule, const char *fix,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* py_report with a mechanical fix: keyword `kw` of the call in `ev` becomes
 * `value` (its value is replaced, or `kw=value` is added when the call does
 * not pass it).  `safe`: the edit cannot change what the code computes
 * outside capture, so --fix applies it without --unsafe-fixes.  One call per
 * rule that has such a fix, e.g.
 *   py_report_kwfix(ctx, ev, CG_R_CG108, "error_if_nonfinite", "False", 1, fix, "...");
 */
void py_report_kwfix(py_ctx *ctx, const py_event *ev, int rule, const char *kw, const char *value, int safe,
                     const char *fix, const char *fmt, ...) __attribute__((format(printf, 8, 9)));
/* The same for a place known only as a location (a capture site). */
void py_report_at(py_ctx *ctx, cg_loc loc, const char *line_text, int rule, const char *fix,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Is the region a torch.compile(mode="reduce-overhead") function? */
int py_region_is_compiled(const py_region *r);
/* Text search in a function's source. */
int py_func_mentions(const py_func *f, const char *needle);
/* py_report_at with the same kind of fix, on call node `call` of module m
 * (applied only when that is the finding's own file). */
void py_report_at_kwfix(py_ctx *ctx, cg_loc loc, const char *line_text, int rule, py_module *m, TSNode call,
                        const char *kw, const char *value, int safe, const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 11, 12)));
/* Short text of a node for messages: at most 60 bytes, one line. */
const char *py_snip(py_ctx *ctx, py_module *m, TSNode n);
/* Keyword argument `name` of a call event, or -1. */
int py_ev_kw(const py_event *ev, const char *name);
/* Does the value look like a tensor?  Known tensors (not on the CPU) only. */
int py_is_gpu_tensor(const py_val *v);
/* Is it known NOT to be a tensor (a number, str, dict, ndarray...)? */
int py_is_non_tensor(const py_val *v);

/* ---- checks.c ---------------------------------------------------------------- */
typedef void (*py_check_fn)(py_ctx *ctx, const py_event *ev);
/* `phase`: PY_PH_CAPTURE for code that runs during capture, PY_PH_AFTER for the
 * rest of the capturing function (the replay loop). */
typedef struct py_check { int rule; py_event_kind on; int phase; py_check_fn fn; } py_check;
extern const py_check py_checks[];
extern const size_t py_check_count;
void py_dispatch(py_ctx *ctx, const py_event *ev);
#endif
