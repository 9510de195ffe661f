/* cu_int.h - internals of the CUDA/C/C++ front end, shared by its .c files only.
 *
 * Data model
 *   cu_project  every C/C++/CUDA file of the run, the flags each is parsed
 *               with, and every function definition found in them, by USR.
 *   cu_func     one function, method, constructor, destructor or function
 *               template defined in an analysed file, its body lowered.
 *   cu_node     the lowered form of a statement or expression: only what
 *               the analysis needs (calls, launches, declarations, stores,
 *               control flow, constants), with its place in the source.
 *
 * Translation units are parsed in parallel, one CXIndex per thread, and
 * lowered at once into cu_nodes in a per-file arena; the TU is disposed
 * before the next file, so memory stays at one TU per thread.  The analysis
 * (the evaluator, cu_analyze.c and the files cu_eval.h lists) then runs over
 * the lowered functions of every file together, which is how calls are
 * followed across translation units.
 *
 * Parsing is in cu_parse.c, lowering in cu_lower.c, the CUDA API knowledge
 * in cu_api.c, the evaluator's interface in cu_eval.h, what the rules see in
 * cu_check.h and the rules in cu_checks.c.
 *
 * Environment knobs for developing the front end (not user options):
 *   CGLINT_CU_DUMP=1          print every lowered function and each walk entry
 *   CGLINT_CU_ROUNDS=1        print the names each parse round looks for
 *   CGLINT_CU_TIMES=1 (or 2)  per-file parse milliseconds (2: with arguments)
 *   CGLINT_CU_NO_PCH=1        parse without the precompiled cuda_runtime.h
 *   CGLINT_LIBCLANG_STDERR=1  let libclang's own crash reports through */
#ifndef CG_CU_INT_H
#define CG_CU_INT_H
#include <stdint.h>
#include <pthread.h>
#include "core/arena.h"
#include "core/hash.h"
#include "core/source.h"
#include "core/report.h"
#include "workflow/walk.h"
#include "cu.h"

/* ---- lowered code ------------------------------------------------------------ */
typedef enum {
    CU_N_OTHER = 0,  /* anything else: its kids are walked in order */
    CU_N_COMPOUND,   /* { ... }: kids are statements */
    CU_N_IF,         /* kids: cond, then[, else] (init/condition variables walked first: pre) */
    CU_N_LOOP,       /* while/for/do: kids are the header parts then the body (last) */
    CU_N_SWITCH,     /* kids: cond, body */
    CU_N_RETURN,     /* kids: [value] */
    CU_N_BREAK,      /* break / continue */
    CU_N_GOTO,
    CU_N_THROW,
    CU_N_DECL,       /* a variable: name, usr; kids: [init]; dtor: destructor USR */
    CU_N_CALL,       /* name, usr (callee); kids: callee object (or CU_N_EMPTY), args... */
    CU_N_LAUNCH,     /* kernel<<<grid, block, smem, stream>>>(args): usr = kernel;
                        kids: grid, block, smem, stream, args... */
    CU_N_CONSTRUCT,  /* T(args) / T x(args): usr = constructor; kids: args */
    CU_N_REF,        /* a name: usr of the declaration; ival when a constant */
    CU_N_MEMBER,     /* base.field / base->field / field: name, usr; kids: [base] */
    CU_N_INT,        /* integer literal (ival) */
    CU_N_NULL,       /* nullptr, NULL, __null */
    CU_N_STRING,
    CU_N_UNARY,      /* op (CXUnaryOperatorKind); kids: operand */
    CU_N_BINARY,     /* op (CXBinaryOperatorKind, assignments included); kids: lhs, rhs */
    CU_N_CONDOP,     /* c ? a : b */
    CU_N_CAST,       /* explicit cast; tclass says to what */
    CU_N_LAMBDA,     /* kids: the body (a CU_N_COMPOUND) */
    CU_N_SIZEOF,     /* sizeof/alignof: ival when known */
    CU_N_EMPTY,      /* an omitted (default) argument */
} cu_nkind;

/* What a type is, as far as the rules care. */
typedef enum {
    CU_T_OTHER = 0, CU_T_ARITH, CU_T_PTR, CU_T_STREAM, CU_T_EVENT, CU_T_GRAPH, CU_T_DIM3,
    CU_T_RECORD, CU_T_LAMBDA,
    CU_T_ERROR,      /* cudaError_t, CUresult */
} cu_tclass;

/* Where a referenced variable lives. */
typedef enum { CU_S_NONE = 0, CU_S_LOCAL, CU_S_PARAM, CU_S_GLOBAL, CU_S_STATIC, CU_S_FIELD } cu_storage;

enum {
    CU_F_IVAL = 1 << 0,       /* ival holds the constant value */
    CU_F_MACRO = 1 << 1,      /* spelled inside a macro definition (an error-checking macro's body) */
    CU_F_CONST = 1 << 2,      /* a const-qualified variable */
    CU_F_DEPENDENT = 1 << 3,  /* unresolved: matched by name (undeclared, or in a template) */
    CU_F_REFTYPE = 1 << 4,    /* DECL: a reference (T&) */
    CU_F_PROJDECL = 1 << 5,   /* CALL/CONSTRUCT/REF: the callee is declared in an analysed file,
                                 and a host definition of it may be in another one */
    CU_F_UNDECLARED = 1 << 6, /* CALL: no declaration at all (a missing header) */
    CU_F_OUTARG = 1 << 7,     /* an argument bound to a non-const reference parameter:
                                 the callee may assign it (std::swap(a, b)) */
    CU_F_NORETURN = 1 << 8,   /* CALL: the callee is declared noreturn ([[noreturn]],
                                 _Noreturn, __attribute__((noreturn))): an error path */
    CU_F_STATUS = 1 << 9,     /* REF to an enumerator of a status type: an enum whose value 0 is
                                 its success (cudaSuccess, ncclSuccess, testSuccess, STATUS_OK) */
};

typedef struct cu_loc {
    uint32_t line, col, end_line, end_col;   /* 1-based; byte columns; end exclusive */
    int32_t file;                            /* index into cu_project.files */
} cu_loc;

typedef struct cu_node {
    uint8_t kind, op, tclass, storage;
    uint16_t flags;
    struct cu_node **kids;
    const char *name;     /* callee, variable, field or enumerator name */
    const char *usr;      /* the declaration it refers to (functions: the template's) */
    const char *dtor;     /* DECL of a class type: its destructor's USR */
    int64_t ival;
    cu_loc loc;
    int32_t nkids;        /* (after loc: no padding) */
} cu_node;

/* Lowering stops this many levels of nested expressions and statements
 * deep: what is deeper becomes an unknown value, and the construct is
 * reported as too deeply nested.  The lowered tree of a function is then at
 * most about twice as deep (an `if` with an init-statement adds a level). */
#define CU_MAX_NEST 256

typedef struct cu_param { const char *name, *usr; uint8_t tclass; } cu_param;

typedef struct cu_func {
    const char *usr;
    const char *qualname;   /* "Capture::Capture", "run_step", "ns::helper" */
    cu_node *body;          /* a CU_N_COMPOUND; constructor initialisers come first */
    cu_param *params;
    int nparams;
    int file;               /* index into cu_project.files */
    cu_loc loc;
    int ptds;               /* compiled with the per-thread default stream */
    int is_ctor, is_dtor;
    /* analysis */
    int begins, ends;       /* calls a capture API directly */
    int bearing;            /* reaches a capture API through calls */
    int reaches_end;        /* reaches an EndCapture through calls */
    int called_by_bearing;  /* some bearing function calls it */
    int walked;             /* walked as an entry or from one */
    int active_walks;       /* times walked in capture context (bounded) */
    int height;             /* depth of the lowered body (for the walk's stack budget) */
    int on_stack;
    int idx;                /* index in the analysis's function table */
    struct cu_func *next_same_usr;   /* another definition (another program's main, a static) */
} cu_func;

/* ---- files and the project --------------------------------------------------- */
typedef struct cu_file {
    const cg_file *file;    /* the walker's entry */
    const char *path;       /* display path */
    cg_source src;          /* loaded in phase 1; kept for line texts */
    int loaded;
    int lang;               /* 0: C++/CUDA, 1: C */
    int header;             /* .h .cuh .hpp */
    int parse;              /* parsed as its own translation unit */
    int included;           /* included by an analysed TU: lowered through it */
    int marker;             /* the text mentions a capture API */
    int wanted;             /* selected for parsing in the current round */
    uint64_t dev, ino;
    char **argv;            /* flags (arena) */
    int argc;
    int from_db;            /* flags from compile_commands.json */
    int stage;              /* 0: a translation unit of the build (in the compile database,
                               or every source when there is none); 1: a source the
                               database does not list; 2: a header.  1 and 2 are parsed
                               on their own only when no analysed file includes them. */
    int ptds;
    /* results of the parse, kept for the analysis */
    cu_func **funcs;
    size_t nfuncs;
    cg_arena *arena;
    int status;             /* 0 ok, -1 not parsed (notice given) */
} cu_file;

typedef struct cu_pch { char *key; char *path; int state; pthread_mutex_t lock; } cu_pch;

typedef struct cu_project {
    const cg_cu_opts *opts;
    cg_report *report;
    cg_arena *arena;
    cu_file *files;
    size_t nfiles;
    cg_map by_inode;        /* "dev:ino" -> cu_file* (1-based index) */
    /* parsing */
    int toolkit;            /* 1: real headers at cuda_path; 0: the shim */
    char *cuda_path;
    char *tmpdir;           /* shim headers, PCHs; removed at the end */
    char *shim_dir;
    int clang_major;
    pthread_mutex_t lock;
    cu_pch pch[8];
    int npch;
    /* header trouble, reported once per run */
    int sys_errors;
    char *sys_first;
    int shim_sem_errors, shim_sem_files;
    char *shim_first;
    int sem_files;          /* toolkit mode: files with semantic errors only */
    char *sem_first;
    cg_map missing_cuda;    /* CUDA library headers not found (a set; listed sorted at the end) */
    int not_in_db;
    char *not_in_db_first;
    int hdr_bad;            /* stage 1/2 files parsed on their own that did not parse */
    char *hdr_first;
    cg_map rsp_reported;    /* response-file trouble already reported ("kind\x1fpath") */
    cg_map deep_reported;   /* "too deeply nested" places already reported ("file:line:col") */
    cg_map missing_project;         /* the project's own headers not found (a set; listed sorted) */
    char *missing_project_first;    /* the first file, by path, that wanted one */
    int missing_project_files;
    cg_map hdr_by_name;     /* file name -> hdr_list of the tree's files (cu_includes.c) */
    int hdr_index_ready;
    int named_only;         /* files were named: the rest is context, parsed only for definitions */
    int no_pch, times;      /* CGLINT_CU_NO_PCH, CGLINT_CU_TIMES (read once in project_init) */
    /* analysis */
    cg_map funcs;           /* usr -> cu_func (chained through next_same_usr) */
} cu_project;

/* ---- cu_parse.c ---------------------------------------------------------------- */
/* Parse file f (phase 2, any thread) and lower its definitions.  level 2:
 * parse only (benchmark floor). */
void cu_parse_file(cu_project *p, cu_file *f, int level);
int cu_parse_setup(cu_project *p);       /* mode, toolkit, shim, compile db; 0 or -1 */
void cu_parse_teardown(cu_project *p);

/* ---- cu_includes.c -------------------------------------------------------------- */
enum { CU_HDR_PROJECT = 0, CU_HDR_LIBRARY = 1 };
/* Where a header named in an #include would come from: the CUDA toolkit or a
 * library that ships beside it (CU_HDR_LIBRARY), else the project itself. */
int cu_header_origin(const char *h);
/* Directories of the analysed tree that f's #include lines (and those of the
 * project headers they lead to) need, for a file no compile database covers.
 * Any thread, after phase 1.  The array and strings are in arena a; *n is
 * their count (NULL when 0). */
char **cu_guess_include_dirs(cu_project *p, cu_file *f, cg_arena *a, size_t *n);

/* ---- cu_lower.c ----------------------------------------------------------------- */
/* Lower every function defined in an analysed file of TU `tu` (a
 * CXTranslationUnit) into `into`'s arena and function list. */
void cu_lower_tu(cu_project *p, cu_file *into, void *tu);
/* Mark the analysed files a TU includes (headers then need no parse of their own). */
void cu_mark_inclusions(cu_project *p, void *tu);

/* ---- cu_index.c -------------------------------------------------------------------- */
/* Names worth looking for in files not parsed yet: functions the parsed code
 * calls that no parsed file defines, and the simple names of parsed functions
 * that lead to a capture API (to find their callers).  Keys are arena strings. */
/* Names the next round of parsing looks for, each with how a file must
 * mention it to be parsed: */
#define CU_WANT_CALLER ((uintptr_t)1)   /* any mention: a caller of a capturing function */
#define CU_WANT_DEF ((uintptr_t)2)      /* a mention shaped like a definition: `name(...) {` */
void cu_collect_names(cu_project *p, cg_map *names, cg_arena *arena);

/* ---- helpers -------------------------------------------------------------------- */
/* A place as findings give it (cu_report.c); its path is the file's display
 * path, owned by the project. */
cg_loc cu_cg_loc(const cu_project *p, const cu_loc *l);
/* One error for a construct too deeply nested to analyse, at `at` in function
 * `fn` (`why`: how deep); once per place, and only in files the run reports
 * on.  Any thread (cu_project.c). */
void cu_report_too_deep(cu_project *p, const cu_loc *at, const char *fn, const char *why);
#endif
