/* cu_eval.h - abstract values, capture regions, the walk's context and the
 * events the CUDA rules see.
 *
 * The walker (cu_analyze.c) goes through lowered code, keeps what it can
 * tell about streams, events and host values, and at each construct a rule
 * may care about builds a cu_event and hands it to every checker registered
 * for that kind (checks.c).  Checkers read the event and call cu_report();
 * they never walk code themselves. */
#ifndef CG_CU_EVAL_H
#define CG_CU_EVAL_H
#include <stdio.h>
#include "cu_int.h"

/* ---- the CUDA API (cu_api.c) ------------------------------------------------- */
enum {
    API_BEGIN = 1 << 0, API_END = 1 << 1, API_IS_CAPTURING = 1 << 2,
    API_STREAM_CREATE = 1 << 3, API_EVENT_CREATE = 1 << 4, API_EVENT_RECORD = 1 << 5,
    API_STREAM_WAIT = 1 << 6, API_SYNC = 1 << 7, API_QUERY = 1 << 8, API_SYNC_MEM = 1 << 9,
    API_WORK = 1 << 10, API_LAUNCH = 1 << 11, API_ALLOC = 1 << 12, API_FREE = 1 << 13,
    API_ASYNC_ALLOC = 1 << 14, API_ASYNC_FREE = 1 << 15, API_INSTANTIATE = 1 << 16,
    API_SET_ATTR = 1 << 17, API_DEVICE = 1 << 18, API_ON_EVENT = 1 << 19, API_DRIVER = 1 << 20,
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
const cu_api *cu_api_lookup(const char *name);
/* "cuMemcpyHtoD_v2" -> "cuMemcpyHtoD", "cudaMemcpy_ptds" -> "cudaMemcpy" */
void cu_api_normalize(const char *name, char *out, size_t outlen);

/* ---- values -------------------------------------------------------------------- */
typedef enum {
    CV_UNKNOWN = 0, CV_INT, CV_DIM3, CV_STREAM, CV_EVENT, CV_GRAPH, CV_GUARD, CV_LAMBDA, CV_FUNC,
} cu_vkind;

enum { CS_VAR = 0, CS_LEGACY, CS_PERTHREAD };           /* stream kinds */
enum { CG_POS = 1, CG_NEG = 2 };                         /* guards: true while / while not capturing */
enum {
    CVF_NONBLOCKING = 1 << 0,  /* a stream created with cudaStreamNonBlocking */
    CVF_MAYALIAS = 1 << 1,     /* a parameter nobody bound: may be any stream */
    CVF_NULL = 1 << 2,         /* 0, NULL, nullptr */
    CVF_ADDR = 1 << 3,         /* &x */
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
    const char *id;           /* identity of a stream/event/graph: "v:<usr>", "f:<usr>" */
    int64_t x, y, z;
    const cu_node *lambda;
    cu_func *fn;
    const char *name;         /* an enumerator's name */
    cu_src src;               /* the host variable read */
    cu_src src2;              /* ... and where its value came from (dim3 grid((n + 255) / 256)) */
} cu_val;

/* ---- bounds of the walk --------------------------------------------------------------- */
/* Calls are followed this many deep from a walk's entry (deeper ones are
 * not followed; one note per run says so). */
#define CU_MAX_DEPTH 24
/* The walk's own recursion: eval/exec levels in one function body (lowered
 * bodies stay well under it), and in all the bodies of the call chain
 * together (a call whose body would go past it is not followed, with the
 * note).  The walk runs on a thread with CU_WALK_STACK bytes of stack. */
#define CU_MAX_EVAL_NEST (4 * CU_MAX_NEST)
#define CU_MAX_TOTAL_NEST 4096
#define CU_WALK_STACK ((size_t)64 << 20)

/* ---- regions ---------------------------------------------------------------------- */
typedef struct cu_region {
    int id;
    cu_loc site;
    const char *kind;         /* "cudaStreamBeginCapture", ... */
    int mode;                 /* 0 global, 1 thread-local, 2 relaxed, -1 unknown */
    cu_val stream;            /* the capturing stream */
    int raii;                 /* begun in a constructor: the destructor ends it */
    int depth;                /* frame depth of the function that began it */
    int cond_depth;           /* its if/loop nesting there */
    int path_base;            /* call-path entries before this are outside the capture */
    cu_func *begin_fn;
    const char *graph_usr;    /* the graph EndCapture wrote */
    int ended;
    /* where the capture begins and ends in each function of the call chain:
     * writes to a host variable between the two are part of the capture */
    struct { cu_func *fn; cu_loc at; } begin_chain[CU_MAX_DEPTH + 1], end_chain[CU_MAX_DEPTH + 1];
    int nbegin, nend;
} cu_region;

/* A CG204/CG306 candidate, decided when its region ends (cu_changed_after). */
typedef struct cu_pending {
    int rule;
    const cu_node *at;
    cu_src src, src2;
    const char *what;
    const cg_step *path;
    int npath;
    cu_region *region;
} cu_pending;

/* A stream forked into the capture, an event recorded, a cudaMallocAsync:
 * path is the call path (from the capture site) where it happened. */
typedef struct cu_fork { const char *id; const cu_node *at; const cg_step *path; int npath, joined; } cu_fork;
typedef struct cu_rec { const char *ev, *stream; int captured; } cu_rec;
typedef struct cu_alloc { const char *id; const cu_node *at; const cg_step *path; int npath; } cu_alloc;

/* State that branches copy and merge.  ctx->st owns its arrays (malloc);
 * the walk copies them at a branch (cu_analyze.c: state_copy). */
typedef struct cu_state {
    cu_region *region;        /* the open capture, or NULL */
    int nforks, nrec, nalloc;
    int capforks, caprec, capalloc;
    cu_fork *forks;
    cu_rec *rec;
    cu_alloc *allocs;
} cu_state;

/* A thread started and not joined yet (CG708). */
typedef struct cu_thread { const cu_node *start, *work; const char *handle; } cu_thread;

typedef struct cu_frame cu_frame;

typedef struct cu_ctx {
    cu_project *p;
    cg_arena *arena;
    cu_state st;
    cu_frame *fr;
    cg_step path[CU_MAX_DEPTH + 1];
    int npath;
    int depth;
    int nest;                 /* eval/exec levels on the C stack (CU_MAX_EVAL_NEST, CU_MAX_TOTAL_NEST) */
    /* calls not followed because of a bound: one note per run, naming the first */
    const cu_node *cut_depth, *cut_walks, *cut_nest;
    int nregions;
    cg_map fields;            /* field usr -> cu_val* */
    cg_map globals;           /* global usr -> cu_val* */
    cg_map writes;            /* variable usr -> cu_write* list */
    cg_map attrs;             /* kernel usr -> cu_attr* list (cudaFuncSetAttribute) */
    cg_map memo;
    cg_map autofree;          /* graph usr instantiated with AutoFreeOnLaunch */
    int autofree_unknown;     /* ... or some graph we cannot name */
    cu_pending *pend;
    int npend, cappend;
    /* threads started and not joined yet (CG708) */
    cu_thread *threads;
    int nthreads, capthreads;
    const cu_node *last_thread_start;   /* the std::thread just constructed (its variable names it) */
    cg_map cuda_work;         /* body -> first CUDA call in it (or a sentinel) */
    /* the call graph: callees of each function (by cu_func.idx) */
    cu_func **all;
    cu_func ***callees;
    int *ncallees;
    size_t nall;
    unsigned char *seen;      /* scratch for reachability */
} cu_ctx;

typedef struct cu_write { const cu_node *at; cu_func *fn; const cu_node *loop; int is_decl; struct cu_write *next; } cu_write;
typedef struct cu_attr { const cu_node *at; cu_func *fn; int64_t value; int known; struct cu_attr *next; } cu_attr;

/* ---- events ------------------------------------------------------------------------ */
typedef enum {
    CU_EV_CALL,          /* any call in capture context (API or not) */
    CU_EV_LAUNCH,        /* kernel<<<...>>>(...), cudaLaunchKernel, cuLaunchKernel */
    CU_EV_STORE,         /* an assignment, compound assignment or ++/-- */
    CU_EV_RETURN,        /* a return statement while a capture is open */
    CU_EV_REGION_BEGIN,
    CU_EV_REGION_END,
    CU_EV_THREAD,        /* a thread doing CUDA work runs while a capture is open */
    CU_EV_KIND_COUNT
} cu_event_kind;

typedef enum { ROLE_UNKNOWN = 0, ROLE_CAPTURE, ROLE_FORKED, ROLE_LEGACY, ROLE_PERTHREAD, ROLE_OTHER } cu_role;

typedef struct cu_event {
    cu_event_kind kind;
    const cu_node *node;
    cu_func *fn;              /* the function it is in */
    cu_region *region;
    const char *name;         /* callee, normalised for API calls */
    const cu_api *api;
    const char *usr;          /* callee USR */
    int nargs;                /* every argument (no cap) */
    const cu_node *const *argn;
    const cu_val *args;
    const cu_node *obj;       /* receiver of a method call */
    int obj_outside;          /* ... is host state older than the capture */
    /* the stream the call or launch works on */
    int has_stream;
    const cu_node *stream_node;   /* NULL when omitted */
    cu_val stream;
    cu_role role;
    /* launches */
    const cu_node *grid_node, *block_node, *smem_node;
    cu_val grid, block, smem;
    int first_karg;           /* index in node->kids of the first kernel argument */
    /* stores */
    const cu_node *target;
    int store_op;             /* 0 '=', 1 compound, 2 ++/-- */
    int self_ref;             /* '=' whose right side reads the target */
    int target_outside;       /* the target is host state older than the capture */
    /* context */
    int error_path;           /* an error-handling branch (ends the program, tests an error code) */
    int loop_header;          /* a loop's own header (init, condition, increment) */
    int loop_var;             /* the target controls an enclosing loop */
    int cond_depth;           /* RETURN: nesting below the capture's begin */
    int in_loop;              /* REGION_BEGIN: directly inside a loop body */
    const cu_node *other;     /* REGION_END: the EndCapture call */
    cu_val other_stream;      /* REGION_END: the stream it ended */
    int unended;              /* REGION_END: the function that began it ended with it open */
    int started_before;       /* THREAD: started before the capture began, not joined */
    const cu_node *work;      /* THREAD: the thread's first CUDA call */
    /* a finding about an earlier place (a fork, an allocation) reports this path */
    const cg_step *path;
    int npath, path_set;
} cu_event;

/* Report a finding of `rule` at node n.  level < 0: the rule's severity;
 * fix NULL: the rule's C/C++/CUDA fix (its page's `fix-cu:`, else `fix:`).
 * Only in capture context (the walker passes events only then). */
void cu_report(cu_ctx *ctx, const cu_event *ev, const cu_node *n, int rule, int level,
               const char *fix, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Source text of a node, one line, at most 60 bytes (arena). */
const char *cu_snip(cu_ctx *ctx, const cu_node *n);
const char *cu_loc_str(cu_ctx *ctx, const cu_loc *l);     /* "path:line:col" */
cu_role cu_stream_role(cu_ctx *ctx, const cu_val *s);
const char *cu_mode_name(int mode);
/* Has the host variable a value was read from been assigned where a
 * replay would not see it: after the capture ends, in a loop around the
 * capture, or (a global, static or member) in another function?  *where
 * gets one such write. */
int cu_changed_after(cu_ctx *ctx, const cu_region *r, const cu_src *src, const cu_node **where);
/* Keep a CG204/CG306 candidate until the region ends (the call path is copied). */
void cu_defer(cu_ctx *ctx, const cu_event *ev, int rule, const cu_node *at, const cu_val *v, const char *what);
/* dynamic shared memory attribute set for the kernel before the capture? */
int cu_attr_allows(cu_ctx *ctx, const cu_event *ev, const char *kernel_usr, int64_t smem,
                   const cu_node **late);
int cu_is_captured_event(cu_ctx *ctx, const cu_val *ev);

/* ---- checks.c ------------------------------------------------------------------------ */
typedef void (*cu_check_fn)(cu_ctx *ctx, const cu_event *ev);
typedef struct cu_check { int rule; cu_event_kind on; cu_check_fn fn; } cu_check;
extern const cu_check cu_checks[];
extern const size_t cu_check_count;
void cu_dispatch(cu_ctx *ctx, const cu_event *ev);

/* ---- cu_analyze.c ------------------------------------------------------------------- */
void cu_analyze_project(cu_project *p);
#endif
