/* cu_check.h - what the C/C++/CUDA rules see: the CUDA API table, abstract
 * values, the facts of a capture region, events, the one report builder and
 * the table of checks.
 *
 * The contract between the evaluator and the rules.  The evaluator
 * (cu_eval.h and the files it names) walks lowered code in capture context
 * and, at each construct a rule may care about, builds a cu_event and hands
 * it to cu_dispatch(), which runs every check registered for that event kind
 * (cu_checks.c).  A check gets a const context it cannot look into, reads
 * the event and its region's facts, and calls cu_report(); it changes
 * nothing, walks no code and searches no source text: what it needs to know
 * is a fact the evaluator or the index gathered, named here with the rules
 * that read it.
 *
 * Dependencies go one way: cu_checks.c -> cu_report.c -> core; the
 * evaluator reaches the checks only through cu_dispatch(). */
#ifndef CG_CU_CHECK_H
#define CG_CU_CHECK_H
#include "cu_int.h"

/* ---- the CUDA API (cu_api.c) --------------------------------------------------- */
enum {
    CU_API_BEGIN = 1 << 0, CU_API_END = 1 << 1, CU_API_IS_CAPTURING = 1 << 2,
    CU_API_STREAM_CREATE = 1 << 3, CU_API_EVENT_CREATE = 1 << 4, CU_API_EVENT_RECORD = 1 << 5,
    CU_API_STREAM_WAIT = 1 << 6, CU_API_SYNC = 1 << 7, CU_API_QUERY = 1 << 8, CU_API_SYNC_MEM = 1 << 9,
    CU_API_WORK = 1 << 10, CU_API_LAUNCH = 1 << 11, CU_API_ALLOC = 1 << 12, CU_API_FREE = 1 << 13,
    CU_API_ASYNC_ALLOC = 1 << 14, CU_API_ASYNC_FREE = 1 << 15, CU_API_INSTANTIATE = 1 << 16,
    CU_API_SET_ATTR = 1 << 17, CU_API_DEVICE = 1 << 18, CU_API_ON_EVENT = 1 << 19, CU_API_DRIVER = 1 << 20,
};
typedef struct cu_api {
    const char *name;
    uint32_t flags;
    int8_t stream;   /* index of the stream argument; -1 none */
    int8_t size;     /* index of a size argument (CG204); -1 none */
    int8_t aux;      /* BEGIN: mode; END: graph out-param; IS_CAPTURING: status out-param;
                        RECORD/SYNC/QUERY on events: the event; WAIT: the event; STREAM_CREATE:
                        flags; LAUNCH: first geometry argument; ALLOC/FREE: the pointer;
                        INSTANTIATE: flags; SET_ATTR: value */
} cu_api;
/* The entry of a CUDA API function (any alias of it), or NULL: a pointer
 * into a static table, not to be freed. */
const cu_api *cu_api_lookup(const char *name);
/* A call that reads host entropy (CG302): CU_ENTROPY_RANDOM for rand(),
 * drand48(), a <random> engine or distribution; CU_ENTROPY_CLOCK for time(),
 * clock(), gettimeofday(), clock_gettime(), std::chrono::...::now(); else 0. */
enum { CU_ENTROPY_RANDOM = 1, CU_ENTROPY_CLOCK = 2 };
int cu_host_entropy(const char *name, const char *usr);
/* "cuMemcpyHtoD_v2" -> "cuMemcpyHtoD", "cudaMemcpy_ptds" -> "cudaMemcpy" */
void cu_api_normalize(const char *name, char *out, size_t outlen);

/* ---- abstract values ---------------------------------------------------------- */
typedef enum {
    CU_V_UNKNOWN = 0, CU_V_INT, CU_V_DIM3, CU_V_STREAM, CU_V_EVENT, CU_V_GRAPH, CU_V_GUARD,
    CU_V_LAMBDA, CU_V_FUNC,
} cu_vkind;

enum { CU_SK_VAR = 0, CU_SK_LEGACY, CU_SK_PERTHREAD };   /* stream kinds */
enum { CU_G_POS = 1, CU_G_NEG = 2 };                     /* guards: true while / while not capturing */
enum {
    CU_VF_NONBLOCKING = 1 << 0,  /* a stream created with cudaStreamNonBlocking */
    CU_VF_MAYALIAS = 1 << 1,     /* a parameter nobody bound: may be any stream */
    CU_VF_NULL = 1 << 2,         /* 0, NULL, nullptr */
    CU_VF_ADDR = 1 << 3,         /* &x */
};

/* A host variable a value was read from (CG204, CG306). */
typedef struct cu_src {
    const char *usr, *name;
    uint8_t storage;
    cu_func *fn;              /* the function the read is in */
    const cu_node *at;        /* the read */
    const cu_node *loop;      /* the outermost loop around the read in fn */
} cu_src;

typedef struct cu_val {
    uint8_t kind, skind, flags, guard, known;   /* known: bit 0 x, 1 y, 2 z */
    const char *id;           /* identity of a stream/event/graph: "v:<usr>", "f:<usr>", "g:<usr>" */
    int64_t x, y, z;
    const cu_node *lambda;
    cu_func *fn;
    const char *name;         /* an enumerator's name */
    cu_src src;               /* the host variable read */
    cu_src src2;              /* ... and where its value came from (dim3 grid((n + 255) / 256)) */
    const struct cu_place *clock;   /* computed from a host clock read during the capture, there
                                       (CG302: reported only where the graph would keep it) */
} cu_val;

/* ---- a capture region: the facts rules read ---------------------------------------
 * One per capture the walk meets (cu_region.c fills it); each field names
 * the rules that read it.  The walk's own bookkeeping of a capture is
 * cu_capture (cu_eval.h), which holds this. */
typedef struct cu_region {
    cu_loc site;              /* where the user began it (a RAII object: its declaration): every
                                 finding's capture; CG403, CG707, CG708 name it */
    const cu_node *site_node; /* ... its node: CG707 reports a capture not ended on every path there */
    const char *kind;         /* "cudaStreamBeginCapture", "... in Capture::Capture": every finding */
    int mode;                 /* 0 global, 1 thread-local, 2 relaxed, -1 unknown: CG104, CG501, CG708 */
    cu_val stream;            /* the capturing stream: CG106, CG401, CG707 */
    int graph_autofree;       /* set at its end: the graph EndCapture wrote is instantiated with
                                 AutoFreeOnLaunch (or some graph cglint cannot name is): CG502 */
} cu_region;

/* Something that happened earlier in the capture, reported when it ends:
 * where, and the call path from the capture site to it. */
typedef struct cu_place { const cu_node *at; const cg_step *path; int npath; } cu_place;

/* A stream forked into the capture (CG402): the wait that forked it. */
typedef struct cu_fork { const char *id; cu_place where; int joined; } cu_fork;
/* A cudaMallocAsync the capture has not freed (CG502). */
typedef struct cu_alloc { const char *id; cu_place where; } cu_alloc;

/* A host value the graph keeps from its capture (a launch's geometry, an API
 * call's size, a kernel's by-value argument) read from a host variable that
 * is assigned again where a replay would not see it (CG204, CG306). */
typedef enum { CU_KEEP_GRID, CU_KEEP_BLOCK, CU_KEEP_SMEM, CU_KEEP_SIZE, CU_KEEP_KERNEL_ARG } cu_keep_kind;
typedef struct cu_kept {
    cu_keep_kind kind;
    cu_place where;           /* the expression, and the path to it: for one that reached a helper
                                 through its parameters, the argument at the call into it */
    const char *via;          /* ... and that helper (NULL: read where it is used) */
    const char *var;          /* the host variable (NULL: no name) */
    const cu_node *write;     /* a write to it a replay would not see */
} cu_kept;

/* ---- events ------------------------------------------------------------------------ */
typedef enum {
    CU_EV_CALL,          /* any call in capture context (API or not) */
    CU_EV_LAUNCH,        /* kernel<<<...>>>(...), cudaLaunchKernel, cuLaunchKernel */
    CU_EV_STORE,         /* an assignment, compound assignment or ++/-- */
    CU_EV_RETURN,        /* a return statement while a capture begun outside an object is open */
    CU_EV_REGION_BEGIN,
    CU_EV_REGION_END,
    CU_EV_THREAD,        /* a thread doing CUDA work runs while a capture is open */
    CU_EV_KIND_COUNT
} cu_event_kind;

typedef enum {
    CU_ROLE_UNKNOWN = 0, CU_ROLE_CAPTURE, CU_ROLE_FORKED, CU_ROLE_LEGACY, CU_ROLE_PERTHREAD, CU_ROLE_OTHER
} cu_role;

typedef struct cu_event {
    cu_event_kind kind;
    const cu_node *node;
    const cu_region *region;
    const cg_step *path;      /* the call path from the capture site to here */
    int npath;
    const char *name;         /* callee, normalised for API calls */
    const cu_api *api;
    const char *usr;          /* callee USR */
    int nargs;                /* every argument (no cap) */
    const cu_node *const *argn;
    const cu_val *args;
    const cu_node *obj;       /* receiver of a method call */
    int obj_outside;          /* ... is host state older than the capture: CG303 */
    int obj_looked_up;        /* ... which the function looks up (find, count, contains): a memo cache, CG303 */
    int on_captured_event;    /* CALL on an event (sync, query): it was recorded inside this capture: CG104, CG105 */
    /* the stream the call or launch works on */
    int has_stream;
    const cu_node *stream_node;   /* NULL when omitted */
    cu_val stream;
    cu_role role;
    /* a stream of role OTHER that reached this function through parameters:
     * the argument the user wrote at the call into the helper, and the helper */
    cu_place stream_from;
    const char *stream_via;
    /* launches */
    const cu_node *grid_node, *block_node, *smem_node;
    cu_val grid, block, smem;
    int first_karg;           /* index in node->kids of the first kernel argument */
    int smem_raised;          /* cudaFuncSetAttribute raises the kernel's dynamic shared memory to smem
                                 before the capture: CG802 */
    const cu_node *smem_raised_late;   /* ... only after the capture began, here: CG802 */
    /* stores */
    const cu_node *target;
    int store_op;             /* 0 '=', 1 compound, 2 ++/-- */
    int self_ref;             /* '=' whose right side reads the target */
    int target_outside;       /* the target is host state older than the capture */
    /* context */
    int error_path;           /* an error-handling branch (ends the program, tests an error code) */
    const cu_place *clock_read;   /* CALL, LAUNCH, STORE: a value computed from a host clock read during
                                 the capture reaches what the graph keeps (a kernel's or a CUDA API's
                                 argument, a call the walk does not follow, memory through a pointer):
                                 the read, CG302 */
    const cu_node *clock_arg; /* ... the argument (or stored value) that carries it */
    int loop_header;          /* a loop's own header (init, condition, increment) */
    int loop_var;             /* the target controls an enclosing loop */
    int cond_depth;           /* RETURN: nesting below the capture's begin (<= 0: not conditional) */
    /* REGION_BEGIN: the loop whose body begins it with no condition in between (CG705) */
    const cu_node *loop;
    int loop_launches;        /* ... launches a graph (in it, or two calls down) */
    int loop_updates;         /* ... updates an executable graph (cudaGraphExecUpdate) */
    /* REGION_END */
    const cu_node *other;     /* the EndCapture call (NULL: the function ended with it open) */
    cu_val other_stream;      /* the stream it ended */
    int unended;              /* the function that began it ended with it open on some path */
    const cu_fork *forks;     /* streams forked into the capture: CG402 */
    int nforks;
    const cu_alloc *allocs;   /* cudaMallocAsync not freed in it: CG502 */
    int nallocs;
    const cu_kept *kept;      /* values the graph keeps whose variable changes later: CG204, CG306 */
    int nkept;
    /* THREAD */
    int started_before;       /* started before the capture began, not joined */
    const cu_node *work;      /* the thread's first CUDA call */
} cu_event;

/* ---- the report builder (cu_report.c) ----------------------------------------------
 * The checks' context is the evaluator's (cu_eval.h); they get it const and
 * only pass it on to these. */
typedef struct cu_ctx cu_ctx;

/* Report a finding of `rule` at node `at`, with the event's call path.
 * level < 0: the rule's severity; fix NULL: the rule's C/C++/CUDA fix (its
 * page's `fix-cu:`, else `fix:`).  Events come only in capture context, so
 * every finding has a capture site: the event's region. */
void cu_report(const cu_ctx *ctx, const cu_event *ev, const cu_node *at, int rule, int level,
               const char *fix, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* The same at an earlier place of the capture, with its own call path. */
void cu_report_place(const cu_ctx *ctx, const cu_event *ev, const cu_place *pl, int rule, int level,
                     const char *fix, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Source text of a node, one line, at most 60 bytes; "?" when it has none.
 * Arena string: freed with the context. */
const char *cu_snip(const cu_ctx *ctx, const cu_node *n);
/* "path:line:col".  Arena string: freed with the context. */
const char *cu_loc_str(const cu_ctx *ctx, const cu_loc *l);
/* A node's place as findings give it (its path is the project's: not to be freed). */
cg_loc cu_node_loc(const cu_ctx *ctx, const cu_node *n);
/* printf into the context's arena: freed with the context. */
const char *cu_strf(const cu_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the checks (cu_checks.c) ------------------------------------------------------- */
typedef void (*cu_check_fn)(const cu_ctx *ctx, const cu_event *ev);
typedef struct cu_check { int rule; cu_event_kind on; cu_check_fn fn; } cu_check;
extern const cu_check cu_checks[];
extern const size_t cu_check_count;
/* Run every check registered for the event's kind, in table order. */
void cu_dispatch(const cu_ctx *ctx, const cu_event *ev);
#endif
