/* cu_eval.h - the evaluator's internal interface: the walk's context, frames
 * and bounds, the state branches copy and merge, the index, and what each of
 * the evaluator's files offers the others.  Nothing outside src/cuda's
 * evaluator includes it but cu_project.c (cu_analyze_project, CU_WALK_STACK).
 *
 * The evaluator, by job:
 *   cu_analyze.c  the driver: build the index, walk from each entry
 *   cu_index.c    every function once: by USR and name, callers and callees,
 *                 writes to variables, attributes, what parse round next
 *   cu_walk.c     statements and expressions: the walk itself, and cu_emit()
 *   cu_value.c    abstract values, constant folding, the variables' values
 *   cu_call.c     calls: which function, its arguments, following it; launches,
 *                 threads, the handles an API call creates
 *   cu_region.c   capture regions: where they begin and end, guards and error
 *                 paths, the fork/join ledger, the facts rules read at the end
 *   cu_report.c   the one report builder (checks and evaluator both use it)
 * and the rules, reached only through cu_dispatch(): cu_checks.c. */
#ifndef CG_CU_EVAL_H
#define CG_CU_EVAL_H
#include <stdio.h>
#include "cu_check.h"
#include "core/callpath.h"
#include "core/alloc.h"

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
/* A function is walked in capture context at most this many times (each
 * (capture, argument shape) once); then not again, with the note. */
#define CU_MAX_ACTIVE_WALKS 64

/* ---- a capture the walk has met ------------------------------------------------------- */
typedef struct cu_capture {
    cu_region facts;          /* what the rules read (cu_check.h) */
    int id;                   /* 1, 2, ... in the order met: memo keys, the capture a variable was declared in */
    int raii;                 /* begun in a constructor: the destructor ends it */
    int depth;                /* frame depth of the function that holds it */
    int cond_depth;           /* its if/loop nesting there */
    int path_base;            /* call-path entries before this are outside the capture */
    cu_func *begin_fn;        /* the function that began it (CG802: attributes set there after it are late) */
    const cu_node *begin_cond; /* the if it was begun under in begin_fn, and its arm: the same */
    int begin_arm;             /* condition there later takes the same arm (cu_region_same_cond) */
    const cu_node *begin_loop; /* the loop it was begun in there: a later loop of the same bound runs
                                  when that one ran (cu_region_same_loop) */
    const char *graph_usr;    /* the graph EndCapture wrote */
    /* where the capture begins and ends in each function of the call chain:
     * writes to a host variable between the two are part of the capture */
    struct { cu_func *fn; cu_loc at; } begin_chain[CU_MAX_DEPTH + 1], end_chain[CU_MAX_DEPTH + 1];
    int nbegin, nend;
} cu_capture;

/* ---- the state branches copy and merge (cu_region.c) --------------------------------- */
/* An event recorded in the walk: on which stream, and whether that stream
 * was in the capture then. */
typedef struct cu_rec { const char *ev, *stream; int captured; } cu_rec;

/* The open capture and its fork/join ledger.  ctx->st owns its arrays
 * (malloc); the walk copies them at a branch (cu_state_copy) and merges the
 * arms' (cu_state_merge).  core/streams.h's ledger does not fit here: it
 * keeps no per-branch copies, a join there is for good (here work issued
 * after a join un-joins the stream), it names places by cg_loc (here a fork
 * is a node with its call path) and an event's record does not remember
 * whether its stream was captured at the time. */
typedef struct cu_state {
    cu_capture *cap;          /* the open capture, or NULL */
    int nforks, nrec, nalloc;
    int capforks, caprec, capalloc;
    cu_fork *forks;
    cu_rec *rec;
    cu_alloc *allocs;
} cu_state;

/* A value the graph keeps, waiting for its capture's end (cu_region.c). */
typedef struct cu_keep {
    cu_keep_kind kind;
    cu_place where;
    const char *via;
    cu_src src, src2;
    const cu_capture *cap;
} cu_keep;

/* A thread started and not joined yet (CG708). */
typedef struct cu_thread { const cu_node *start, *work; const char *handle; } cu_thread;

/* ---- frames (cu_call.c) ------------------------------------------------------------- */
/* A variable's value, and the capture it was declared in (0: none; -1: not
 * declared in the walk, a global or field). */
typedef struct cu_slot { cu_val v; int decl_region; } cu_slot;
/* An object whose destructor runs when its scope ends. */
typedef struct cu_dtor { cu_func *fn; const cu_node *decl; int scope; } cu_dtor;
/* A condition around the current statement: 'I' (if), 'L' (a loop: its
 * statement), 'S' (switch). */
typedef struct cu_cond {
    char kind;
    const cu_node *loop;
    const cu_node *cond;      /* 'I': the if's condition, and the arm being walked (1 then, 0 else) */
    int arm;
} cu_cond;

/* One function being walked.  Its arrays grow (malloc) and are freed when
 * it returns: the frame itself stays small, it is on the C stack of every
 * call the walk follows. */
typedef struct cu_frame {
    cu_func *fn;
    struct cu_frame *caller;
    cg_map env;               /* local usr -> cu_slot* */
    int depth;
    int entry_region;         /* the capture open when it was called (its parameters are older) */
    int nest0;                /* ctx->nest when the frame began */
    cu_cond *cs;
    int ncs, capcs;
    int cond_depth;
    const cu_node *outer_loop;
    int loop_header;
    int error_path;
    const char **loop_vars;
    int nloop_vars, caploop_vars;
    cu_dtor *dtors;
    int ndtors, capdtors;
    int scope;
    cu_val ret;
    int terminated, broken;
    const cu_node *at;        /* the call being made in this frame */
} cu_frame;

/* ---- the index (cu_index.c) ------------------------------------------------------------ */
#define CU_AMBIGUOUS ((void *)1)
typedef struct cu_write { const cu_node *at; cu_func *fn; const cu_node *loop; int is_decl; struct cu_write *next; } cu_write;
typedef struct cu_attr { const cu_node *at; cu_func *fn; int64_t value; int known; struct cu_attr *next; } cu_attr;
typedef struct cu_lookup { const cu_node *obj; struct cu_lookup *next; } cu_lookup;

typedef struct cu_index {
    cu_project *p;
    cg_arena *arena;          /* the context's */
    cu_func **all;            /* every function, by file and line; cu_func.idx is the index here */
    size_t nall;
    cu_func ***callees;       /* callees of each function, by idx */
    int *ncallees;
    cu_lookup **lookups;      /* objects each function looks up (find, count, contains), by idx */
    unsigned char *seen;      /* scratch for reachability */
    cg_map writes;            /* variable usr -> cu_write* list */
    cg_map attrs;             /* kernel usr -> cu_attr* list (cudaFuncSetAttribute, dynamic shared memory) */
    cg_map autofree;          /* graph usr instantiated with AutoFreeOnLaunch */
    cg_map by_name;           /* a free function's name -> cu_func* (CU_AMBIGUOUS: several):
                                 calls to an undeclared function (its header missing) */
    int autofree_unknown;     /* ... or some graph we cannot name */
    cg_map cuda_work;         /* body -> first CUDA call in it (or a sentinel) */
} cu_index;
/* The one free function of the tree named `name` with nargs parameters, or NULL. */
cu_func *cu_index_by_name(cu_index *ix, const char *name, int nargs);

/* ---- the context ------------------------------------------------------------------------ */
struct cu_ctx {
    cu_project *p;
    cg_arena *arena;          /* everything the walk allocates for good: freed at the end */
    cu_index ix;
    cu_state st;
    cu_frame *fr;
    cg_callpath path;         /* calls from the walk's entry to here (at most CU_MAX_DEPTH + 1) */
    int depth;
    int nest;                 /* eval/exec levels on the C stack (CU_MAX_EVAL_NEST, CU_MAX_TOTAL_NEST) */
    /* calls not followed because of a bound: one note per run, naming the first */
    const cu_node *cut_depth, *cut_walks, *cut_nest;
    int ncaptures;
    cg_map fields;            /* field usr -> cu_slot* */
    cg_map globals;           /* global usr -> cu_slot* */
    cg_map memo;              /* "body:capture:args" walked already */
    cu_keep *keep;            /* values the graph keeps, until their capture ends (arena) */
    int nkeep, capkeep;
    cu_thread *threads;       /* threads started and not joined yet (malloc) */
    int nthreads, capthreads;
    const cu_node *last_thread_start;   /* the std::thread just constructed (its variable names it) */
};

static inline int cu_active(const cu_ctx *ctx) { return ctx->st.cap != NULL; }
/* Is the code being walked compiled with the per-thread default stream? */
static inline int cu_ptds(const cu_ctx *ctx) { return ctx->fr && ctx->fr->fn ? ctx->fr->fn->ptds : 0; }

/* Make room for one more element of an array that grows by doubling
 * (realloc: the caller owns it; cu_analyze.c). */
void *cu_grow(void *v, int *cap, int n, size_t elem);
/* malloc and calloc that never fail (the caller frees). */

/* ---- cu_value.c: abstract values --------------------------------------------------------- */
#define CU_UNKNOWN ((cu_val){ .kind = CU_V_UNKNOWN })
cu_val cu_v_int(int64_t x);
cu_val cu_v_stream_var(const char *id, int mayalias);
cu_val cu_v_event(const char *id);
/* The stream a call that names none works on: legacy, or per-thread under ptds. */
cu_val cu_v_default_stream(int ptds);
/* A value used as a stream argument: 0/NULL is the default stream. */
cu_val cu_v_as_stream(const cu_val *v, int ptds);
int cu_v_same_stream(const cu_val *a, const cu_val *b);
cu_val cu_v_dim3_from(const cu_val *v);
/* dim3(x, y, z) from the constructor's argument values. */
cu_val cu_v_dim3(const cu_node *n, const cu_val *args);
cu_val cu_v_guard(int polarity);
/* The operators on values: what !x, -x, &x, a && b, a op b, d.x, (T)v are. */
cu_val cu_v_unary(int op, cu_val v);
cu_val cu_v_logic(int op, const cu_val *a, const cu_val *b);
cu_val cu_v_binary(int op, const cu_val *a, const cu_val *b);
cu_val cu_v_component(const cu_val *dim3, int c);
cu_val cu_v_cast(int tclass, cu_val v);
/* A hash of the arguments' shapes: a callee is walked once per shape and capture. */
uint64_t cu_v_args_sig(const cu_val *args, int nargs);
/* The constant value of n, folded from literals and constant variables. */
int cu_fold(const cu_node *n, int64_t *out);
/* Does n refer to a variable, field or enumerator called `name` / declared as `usr`? */
int cu_mentions_name(const cu_node *n, const char *name);
int cu_mentions_usr(const cu_node *n, const char *usr);
/* The variable at the root of an lvalue: x, s.f, p->f, a[i], *p, (T)&x (a
 * node of n's); or NULL. */
const cu_node *cu_lvalue_root(const cu_node *n);
/* A variable's identity "v:<usr>" (local), "f:<usr>" (field), "g:<usr>"
 * (global or static); NULL when it has none.  Arena string. */
const char *cu_ident(cu_ctx *ctx, const cu_node *root);
/* The variables: the slot of `root` (in the frame, the fields or the
 * globals), created when asked; NULL when it has no USR.  Arena memory. */
cu_slot *cu_env_slot(cu_ctx *ctx, const cu_node *root, int create);
void cu_env_bind(cu_ctx *ctx, const char *usr, cu_val v, int decl_region);
/* root = v (a variable first assigned here counts as declared outside any capture) */
void cu_env_set(cu_ctx *ctx, const cu_node *root, cu_val v);
/* lhs = v: the variable, or one component of a dim3; not a[i] or *p */
void cu_env_assign(cu_ctx *ctx, const cu_node *lhs, cu_val v);
/* Is the variable at `root` host state older than the open capture (a
 * global, static or member, a parameter of a function called from outside
 * it, a local declared before it)? */
int cu_env_older(cu_ctx *ctx, const cu_node *root);
/* v was read from host variable ref: remember it (CG204, CG306). */
void cu_v_set_src(cu_ctx *ctx, cu_val *v, const cu_node *ref);

/* ---- cu_walk.c: statements and expressions ----------------------------------------------- */
cu_val cu_eval(cu_ctx *ctx, const cu_node *n);
void cu_exec(cu_ctx *ctx, const cu_node *n);
/* Hand an event to the checks, in capture context only: fills in its
 * region, call path and context, keeps the values the graph keeps. */
void cu_emit(cu_ctx *ctx, cu_event *ev);

/* ---- cu_call.c: calls --------------------------------------------------------------------- */
/* The definition a call in the function being walked means (cu_func_in):
 * the project's, not to be freed. */
cu_func *cu_func_of(cu_ctx *ctx, const char *usr);
void cu_frame_push(cu_ctx *ctx, cu_frame *fr, cu_func *fn);
void cu_frame_pop(cu_ctx *ctx, cu_frame *fr);
/* Walk body `body` of function fn (or a lambda defined in fn) called at
 * `call` (NULL: a walk's entry), its parameters bound to args when `bind`;
 * the value it returns. */
cu_val cu_call_body(cu_ctx *ctx, cu_func *fn, const cu_node *body, const char *name,
                    const cu_node *call, const cu_val *args, int nargs, int bind);
cu_val cu_call_function(cu_ctx *ctx, cu_func *fn, const cu_node *call, const cu_val *args, int nargs);
/* Run the destructors of the frame's objects declared in scopes >= scope_min. */
void cu_run_dtors(cu_ctx *ctx, int scope_min);
cu_val cu_eval_call(cu_ctx *ctx, const cu_node *n);
cu_val cu_eval_construct(cu_ctx *ctx, const cu_node *n);
cu_val cu_eval_launch(cu_ctx *ctx, const cu_node *n);
/* A capture begins: THREAD events for the threads already running. */
void cu_threads_at_begin(cu_ctx *ctx);

/* ---- cu_region.c: capture regions ---------------------------------------------------------- */
void cu_region_begin(cu_ctx *ctx, const cu_node *call, const cu_api *api, const char *name,
                     const cu_val *args, int nargs);
void cu_region_end(cu_ctx *ctx, const cu_node *call, const cu_api *api, const cu_val *args, int nargs);
/* Function fn, its frame at `depth`, has been walked (its frame not popped
 * yet): a capture it began and has not ended on every path is closed here,
 * with CG707's unended event. */
void cu_region_fn_end(cu_ctx *ctx, const cu_func *fn, int depth, const cu_capture *open_before);
/* ... and its frame popped: a capture it began is now held by its caller. */
void cu_region_caller_holds(cu_ctx *ctx, const cu_func *fn);
/* Guards and error paths: which arms of an if run while capturing, whether
 * a condition tests an error code, whether code ends the program. */
void cu_region_arms(const cu_ctx *ctx, const cu_val *cond, int *walk_then, int *walk_else);
int cu_is_error_cond(const cu_node *n);
int cu_is_relay(const cu_node *cond, const cu_node *then);
/* Does an arm end by returning a failure status (`return testTimeout;`)? */
int cu_returns_failure(const cu_node *arm);
/* An if in the function that began the open capture, on the condition it was
 * begun under: the arm that the capture's path does not take is not walked. */
/* Where the user can fix a value: for a reference to a parameter, the
 * argument the caller passed, as far up the capture's call path as it goes
 * (*via: the helper it was passed to), else `n` here (*via NULL). */
cu_place cu_place_of_value(cu_ctx *ctx, const cu_node *n, const char **via);
void cu_region_same_cond(const cu_ctx *ctx, const cu_node *cond, int *walk_then, int *walk_else);
/* A loop in the function that began the open capture, with the bound of
 * the loop it was begun in (`for (i = 0; i < n; i++) Begin(s[i])`, then the
 * same for End): it runs at least once on the capture's path. */
int cu_region_same_loop(const cu_ctx *ctx, const cu_node *loop);
int cu_ends_program(const cu_node *n);
int cu_is_terminator(const cu_node *call);
/* The ledger. */
cu_state cu_state_copy(const cu_state *s);
void cu_state_free(cu_state *s);
void cu_state_reset(cu_state *s);      /* no forks, records or allocations (the arrays are kept) */
cu_state cu_state_merge(cu_state a, cu_state b);   /* both consumed */
cu_role cu_stream_role(const cu_ctx *ctx, const cu_val *s);
int cu_is_captured_event(const cu_ctx *ctx, const cu_val *ev);
/* An API call's effect on the ledger (records, waits, work, async allocations). */
void cu_ledger_api(cu_ctx *ctx, const cu_node *call, const cu_api *api, const cu_val *args, int nargs,
                   const cu_event *ev);
/* Work is issued on the event's stream: a forked stream is not joined any more. */
void cu_ledger_work(cu_ctx *ctx, const cu_event *ev);
/* The values a CALL or LAUNCH event hands the graph to keep (CG204, CG306). */
void cu_keep_values(cu_ctx *ctx, const cu_event *ev);
/* A LAUNCH event's shared-memory facts (CG802). */
void cu_smem_facts(const cu_ctx *ctx, cu_event *ev);
/* The call path from the capture site to here, copied into the arena (NULL when empty). */
const cg_step *cu_snapshot_path(cu_ctx *ctx, int *n);

/* ---- cu_index.c: the functions of the tree --------------------------------------------------- */
/* The definition a USR means: the one in `file` when there are several
 * (separate programs in one tree), else the first; NULL when none.  The
 * project's, not to be freed. */
cu_func *cu_func_in(const cu_project *p, const char *usr, int file);
/* Every function once: the table, callees, writes, attributes, lookups,
 * and which functions lead to a capture API (cu_func.bearing ...). */
void cu_index_build(cu_index *ix, cu_project *p, cg_arena *arena);
void cu_index_free(cu_index *ix);
/* Does f call w, directly or through other functions? */
int cu_index_reaches(cu_index *ix, cu_func *f, cu_func *w);
/* The first CUDA call a body makes, directly or in the project's functions it
 * calls (a few levels deep), or NULL: a node of the lowered code (the
 * project's files own it). */
const cu_node *cu_index_cuda_work(cu_index *ix, const cu_node *body, int file);
/* Does fn look up object obj (find, count, contains)? */
int cu_index_looked_up(const cu_index *ix, const cu_func *fn, const cu_node *obj);

/* ---- cu_report.c: the evaluator's notes ------------------------------------------------------- */
/* The calls not followed because of a bound, one note each (naming the first). */
void cu_report_cuts(const cu_ctx *ctx);

/* ---- cu_analyze.c ---------------------------------------------------------------------------- */
void cu_analyze_project(cu_project *p);
#endif
