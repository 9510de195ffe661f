/* run.h - `cglint run`: findings from a file, the runtime events of an
 * observed program, and the join that gives each finding a verdict.
 *
 * None of this needs the analyzers (tree-sitter, libclang): a build with
 * CGLINT_ANALYZERS=OFF reads findings with --findings and still joins and
 * reports. */
#ifndef CG_RUN_H
#define CG_RUN_H
#include <stddef.h>
#include "core/report.h"

/* Findings of a JSON or SARIF report that cglint wrote (--findings FILE),
 * added to r.  Returns 0, or -1 with one line in err (a file that is not
 * cglint's says so). */
int cg_findings_load(const char *path, cg_report *r, char *err, size_t errlen);

/* ---- runtime events --------------------------------------------------------- */

typedef struct cg_ev_frame {
    char *path;          /* absolute */
    uint32_t line;
    char *func;
} cg_ev_frame;

typedef enum {
    CG_HIT_ERROR,     /* an exception or a failing CUDA call at capture */
    CG_HIT_EAGER,     /* work on a stream that was not capturing: ran eagerly */
    CG_HIT_CPU,       /* an operator on CPU tensors during capture */
    CG_HIT_PIN,       /* pinned allocation during capture */
    CG_HIT_DYNOP,     /* an operator that failed at capture (dispatch) */
    CG_HIT_SCALAR,    /* a Python number read at capture changed before a replay */
    CG_HIT_REBIND,    /* a name read by the region held another tensor at a replay */
    CG_HIT_HPARAM,    /* an optimizer hyperparameter captured as a number changed */
    CG_HIT_MANY,      /* a graph captured again while it (or one of the same shapes) is replayed */
    CG_HIT_BREAK,     /* a Dynamo graph break (torch.compile) */
    CG_HIT_SKIP,      /* inductor skipped CUDA graphs (torch.compile) */
} cg_hit_kind;

typedef struct cg_hit {
    cg_hit_kind kind;
    int region;          /* index into cg_events.regions, or -1 */
    char *text;          /* evidence, without the place */
    char *api, *code;    /* failing CUDA call and its error name (CUPTI), or NULL */
    char *message;       /* exception "Type: message", or NULL */
    char *surface;       /* what the program saw instead (capture_end's error), or NULL */
    char *phase;         /* begin, capture, end, graphed, thread, op, ... */
    int other_thread;
    int in_python;       /* a CUPTI observation in a Python process */
    int pid;             /* the process that saw it */
    int cudagraphs;      /* CG_HIT_BREAK: the compile used CUDA graphs (1), did not (0), unknown (-1) */
    long long t;         /* when (CLOCK_MONOTONIC ns), or 0 */
    cg_ev_frame *stack;  /* innermost first; may be empty; user frames first, then library
                            frames where no user frame was on the stack */
    size_t nstack;
    int used;
    int rank;            /* the distributed rank of its process, or -1 */
    int collateral;      /* 1: the communicator's failure after another rank failed (not blamed);
                            2: an exception that ended a rank outside any capture (phase "uncaught");
                            neither is evidence nor a finding */
} cg_hit;

typedef struct cg_ev_region {
    char *path;
    uint32_t line;
    char *kind;
    unsigned long captures, failed, replays, entries;
    unsigned long recaptures; /* captures of a graph while it or its like was replayed (max over processes) */
    int same_graph;          /* one of them re-captured the very graph object */
    long nodes;
    double ms_sum;       /* mean_ms * samples, summed over processes */
    unsigned long samples;
    double eager_sum;    /* the step's eager GPU time (`eager` events) * calls, over processes */
    unsigned long eager_calls;
    char *eager_fns;     /* the step's functions, "a + b" (the first process's) */
    struct cg_rank_stat *ranks; size_t nranks;   /* per rank, sorted by rank */
} cg_ev_region;

/* One process of the run, from the `process` events of both observers. */
typedef struct cg_ev_proc {
    int pid;
    int rank, world_size;  /* RANK / WORLD_SIZE (torchrun, MPI, Slurm), or -1 */
    int python;            /* the Python observer ran in it */
    int exited;            /* the Python observer saw it exit (its atexit ran) */
    char *command;         /* `python -c CODE`: CODE, or NULL */
} cg_ev_proc;

typedef struct cg_line_count {
    char *path;
    uint32_t line;
    unsigned long count;
    int region;
} cg_line_count;

typedef struct cg_events {
    cg_ev_region *regions; size_t nregions;
    cg_hit *hits; size_t nhits;
    cg_line_count *lines; size_t nlines;
    cg_ev_proc *procs; size_t nprocs;
    int ranked;             /* some process had a rank */
    size_t processes, python_processes, cupti_processes, files;
    int cuda_unavailable;   /* some process said torch.cuda.is_available() was False */
    size_t cuda_initialized;  /* processes that initialised CUDA (Python said so, or CUPTI loaded) */
    size_t cuda_uninitialized; /* Python processes that exited without initialising CUDA */
    int cupti_failed;       /* the CUPTI library said it could not subscribe */
    char *cupti_error;
    char *torch, *cuda, *gpu;
    size_t bad_lines;       /* lines that were not events */
} cg_events;

/* Reads every *.jsonl file of dir.  Returns 0, or -1 when dir cannot be read. */
int cg_events_load(const char *dir, cg_events *ev, char *err, size_t errlen);
void cg_events_free(cg_events *ev);

/* Gives each finding of r its verdict and evidence, adds what the run saw
 * that no finding predicted (CG_VERDICT_RUNTIME), and fills r->run's regions.
 * r->run must be set. */
void cg_join(cg_report *r, cg_events *ev);

/* The process `pid` of the run, or NULL. */
const cg_ev_proc *cg_events_proc(const cg_events *ev, int pid);

/* Line `line` of `path` as the process `pid` ran it: the file's, or for the
 * frames of `python -c CODE` (path "<string>") the line of CODE. */
char *cg_events_line_text(const cg_events *ev, int pid, const char *path, uint32_t line);

/* The rule a runtime observation points to, from the error and the source
 * line; -1 when none fits. */
int cg_classify_hit(const cg_hit *h, const char *line_text);

/* `cglint run ...`: argv[0] is "run". */
int cg_run_main(int argc, char **argv);
#endif
