/* report.h - the one finding model every front end fills and every emitter reads.
 *
 * A finding is a rule id, a place, a message, a fix, the capture site that
 * makes it a hazard and the call path from that site.  A notice is a tool
 * message about the input (a file that could not be read or parsed): never a
 * finding.  A report is shared by all worker threads; adding is locked. */
#ifndef CG_REPORT_H
#define CG_REPORT_H
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include "rules.h"

/* A span.  Lines and columns are 1-based; columns count Unicode code points;
 * end_col is exclusive (SARIF's convention). */
typedef struct cg_loc {
    const char *path;
    uint32_t line, col, end_line, end_col;
} cg_loc;

/* One step of a call path: the call at `loc` entered `function`. */
typedef struct cg_step {
    char *function;     /* qualified name: "Model.forward", "layers.helper" */
    cg_loc loc;         /* the call expression in the caller */
} cg_step;

/* One text edit of a mechanical fix: bytes [start, end) of the finding's
 * file (after a UTF-8 BOM, as cg_source holds it) become `text`.  The same
 * span as lines and code-point columns is what SARIF's deletedRegion says;
 * an insertion has start == end.  `old_text` is what the bytes were when the
 * finding was made: a fix is refused if the file no longer holds them. */
typedef struct cg_edit {
    uint32_t start, end;
    uint32_t line, col, end_line, end_col;
    char *text;
    char *old_text;
    uint64_t file_digest;   /* cg_source_digest of the file the edit was made for, or 0:
                               a fix is refused if the file no longer has it (an insertion
                               has no old text to check) */
} cg_edit;
/* What a run on a GPU (`cglint run`) made of a finding.  NONE: no run (a
 * plain static analysis); the emitters then write no verdict at all. */
typedef enum {
    CG_VERDICT_NONE = 0,
    CG_VERDICT_CONFIRMED,      /* the runtime signal was seen, at this place */
    CG_VERDICT_NOT_REPRODUCED, /* its line ran inside a capture; nothing went wrong */
    CG_VERDICT_NOT_EXERCISED,  /* the run never reached it inside a capture */
    CG_VERDICT_STATIC_ONLY,    /* the rule has no runtime signal */
    CG_VERDICT_RUNTIME,        /* seen at run time; no static finding predicted it */
} cg_verdict;
#define CG_VERDICT_COUNT 6

/* "confirmed", "not reproduced", ... (text); NULL for NONE. */
const char *cg_verdict_name(cg_verdict v);
/* "confirmed", "not_reproduced", ... (JSON, SARIF); NULL for NONE. */
const char *cg_verdict_key(cg_verdict v);
/* The inverse of cg_verdict_key (also accepts the text names); -1 if unknown. */
int cg_verdict_parse(const char *s);

typedef struct cg_finding {
    int rule;           /* index into cg_rules */
    cg_severity level;  /* usually the rule's default */
    cg_loc loc;
    char *message;      /* specific: names the expression */
    char *fix;          /* specific help, or NULL for the rule's */
    char *line_text;    /* the source line of loc.line, no terminator (the report's copy:
                           shared by findings on one line, freed with the report) */
    int has_capture;
    cg_loc capture;     /* the capture site: `with torch.cuda.graph(...)`... */
    char *capture_kind; /* "torch.cuda.graph", "capture_begin", ... */
    cg_step *path;      /* callers from the capture site to here, outermost first */
    size_t npath;
    cg_edit *edits;     /* a mechanical fix (--fix, --diff, SARIF fixes), or NULL */
    size_t nedits;
    int fix_safe;       /* the fix cannot change what the code computes: --fix applies it
                           (unsafe ones only with --unsafe-fixes) */
    char *fix_title;    /* what the edit does, one sentence: "Pass `error_if_nonfinite=False`." */
    cg_verdict verdict; /* CG_VERDICT_NONE outside `cglint run` */
    char *evidence;     /* what the run saw and where, or NULL */
} cg_finding;

typedef enum { CG_NOTE = 0, CG_WARN = 1, CG_ERROR = 2 } cg_level;

typedef struct cg_notice {
    cg_level level;     /* CG_ERROR: an input could not be analysed (exit 2) */
    char *path;         /* NULL for a run-wide notice */
    uint32_t line, col; /* 0 when not about a place */
    char *message;
} cg_notice;

/* One capture region as a run saw it (`cglint run`). */
typedef struct cg_region_stat {
    cg_loc site;              /* where the capture begins (the user's line) */
    char *kind;               /* "torch.cuda.graph", "capture_begin", "make_graphed_callables", "cudaStreamBeginCapture" */
    unsigned long captures;   /* captures begun */
    unsigned long failed;     /* of which failed */
    unsigned long replays;
    long nodes;               /* graph nodes of the last good capture; -1 unknown */
    double mean_replay_ms;    /* GPU time per replay (sampled); < 0 unknown */
    double eager_step_ms;     /* GPU time of the same step run outside captures; < 0 unknown */
    unsigned long eager_calls;/* the calls it is the median of (over processes) */
    char *eager_step;         /* what was timed: "Model.forward", "a + b"; NULL unknown */
    struct cg_rank_stat { int rank; unsigned long captures, failed, replays; } *ranks;
    size_t nranks;            /* per distributed rank (torchrun RANK...), when the run had ranks */
} cg_region_stat;

/* The observed program of a `cglint run`. */
typedef struct cg_run_info {
    char **argv; size_t argc; /* the command */
    int exit_code;            /* its exit status, or -1 when killed by a signal */
    int signal;               /* the signal that killed it, or 0 */
    size_t processes;         /* processes that wrote events (Python and CUPTI) */
    size_t captures;          /* captures seen over all regions */
    cg_region_stat *regions; size_t nregions;
    char *gpu, *driver, *cuda, *torch; /* as the program saw them, or NULL */
} cg_run_info;

typedef struct cg_report {
    pthread_mutex_t lock;
    cg_finding *findings; size_t nfindings, cap_findings;
    cg_notice *notices; size_t nnotices, cap_notices;
    const cg_ruleset *rules;   /* selection; NULL means every rule */
    size_t files_seen;         /* files handed to a front end */
    size_t files_analysed;     /* files parsed and analysed */
    /* Progress, read by the command line's progress line from another
     * thread (atomically): files to read, files read, and the phase
     * (0 finding files: done counts those found; 1 reading Python files,
     * 2 following calls from captures; 3 reading C/C++ files, 4 parsing
     * them: done counts those parsed). */
    size_t progress_total, progress_done;
    int progress_phase;
    char *root;                /* absolute directory that relative paths are under */
    cg_run_info *run;          /* `cglint run` only; NULL for a static analysis */
    /* Findings' line_text, one copy per path and line however many findings
     * it has (a generated line of 300 KB with 16,000 findings is not copied
     * 16,000 times); owned here, not by the findings. */
    struct cg_report_line *lines; size_t nlines, cap_lines;
    void *line_index;          /* cg_map: "path\0line" -> index + 1 into lines */
} cg_report;

void cg_report_init(cg_report *self, const cg_ruleset *rules);
/* Free what a finding in a report owns (for code that drops findings). */
void cg_finding_free(cg_finding *f);
void cg_report_free(cg_report *self);

/* Copies every string, the path and the edits; the caller keeps `f`.  Drops findings of
 * rules that are not selected and exact duplicates (same rule and span). */
void cg_report_add(cg_report *self, const cg_finding *f);
void cg_report_notice(cg_report *self, cg_level level, const char *path,
                      uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Sort findings by path, line, column, rule and notices by path: stable output
 * whatever the thread schedule. */
void cg_report_sort(cg_report *self);
size_t cg_report_errors(const cg_report *self);  /* notices at CG_ERROR */
/* Findings with verdict v. */
size_t cg_report_count_verdict(const cg_report *self, cg_verdict v);
/* Frees r->run and everything it holds; r->run becomes NULL. */
void cg_report_free_run(cg_report *self);
#endif
