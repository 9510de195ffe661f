/* driver.h - one analysis (cg_analyze; `cglint run` is src/run/): walk the
 * paths, hand each language's files to its front end (driver.c's table),
 * then turn the raw findings into the report: the rules each file's
 * configuration selects, suppression comments, the baseline.  The command
 * line (cli/main.c) and the tests call this; it prints nothing.
 *
 * Files named on the command line (as pre-commit passes them) are analysed
 * with their project around them: the project root is found upward from
 * each file (the closest directory with pyproject.toml, .cglint.toml or
 * .git; else the current directory if the file is below it), walked, and its files are read as context, so a capture in an
 * unchanged file still reaches a helper in a changed one.  Only findings in
 * the named files (and under named directories) are reported; files read for
 * context report nothing, not even read errors. */
#ifndef CG_DRIVER_H
#define CG_DRIVER_H
#include <stddef.h>
#include "workflow/config.h"
#include "core/report.h"
#include "core/rules.h"
#include "workflow/walk.h"

typedef struct cg_analyze_opts {
    const char *const *paths;
    size_t npaths;
    const char *const *exclude;
    size_t nexclude;
    int jobs;               /* <= 0: all cores */
    size_t max_file_size;   /* 0: no limit */
    cg_configs *configs;    /* configuration discovery; NULL: defaults everywhere */
    const cg_rule_cli *rule_cli; /* --select/--extend-select/--ignore; NULL: none */
    int respect_gitignore;  /* 1 yes, 0 no, -1 as configured (default yes) */
    int context;            /* explicit files: read their project for context */
    int no_suppressions;    /* ignore suppression comments (and CG001) */
    const char *baseline;   /* --baseline FILE: hide the findings it records */
    int floor;              /* benchmarks: 1 read only, 2 read and parse, 3 print the C/C++
                               files' clang arguments; 0 analyse */
    /* the C/C++/CUDA front end */
    int cuda_mode;          /* cg_cu_mode: 0 auto, 1 toolkit, 2 shim */
    const char *cuda_path;  /* NULL: CUDA_PATH, CUDA_HOME, /usr/local/cuda */
    const char *compile_commands;  /* -p DIR; NULL: look in the trees */
    int cuda_parse_all;     /* parse every C/C++ file, not only those a capture may reach */
    const char *const *include_dirs; /* -I / include-dirs */
    size_t ninclude_dirs;
    const char *const *defines;      /* -D / defines */
    size_t ndefines;
    const char *std;                 /* --std / std */
    /* the project index (workflow/cache.h) */
    int no_cache;           /* --no-cache: a cold run that writes nothing */
    int exit_after;         /* the process ends after this run: front ends may leave what
                               they parsed to the OS, as compilers do (the command line) */
    const char *cache_dir;  /* --cache-dir / cache-dir; NULL: .cglint_cache in the project root */
    /* A file list made by cg_analyze_files (`cglint server` keeps its
     * project's): analysed instead of walking `paths`, each entry's
     * `report` and `is_explicit` as given; NULL: walk. */
    const cg_file *files;
    size_t nfiles;
    struct cg_py_cache *py_cache;   /* parsed Python trees kept between runs (python/py.h); NULL: none */
    const struct cg_py_focus *py_focus; /* a focused Python analysis (python/py.h); NULL: whole */
} cg_analyze_opts;

/* The report must be initialised by the caller (cg_report_init).  Returns 0,
 * or -1 when the run could not start or a configuration file is invalid
 * (the reason is a run-wide CG_ERROR notice: print it, exit 2). */
int cg_analyze(const cg_analyze_opts *opts, cg_report *report);

/* The walk of cg_analyze alone: the files `opts` names (and, with `context`,
 * their projects'), each with `report` set as a run would.  Named paths
 * that are not on disk but have provided bytes (core/source.h) are files
 * too.  Returns 0 with a malloc'ed array (cg_walk_free), or -1 as cg_analyze. */
int cg_analyze_files(const cg_analyze_opts *opts, cg_report *report, cg_file **files, size_t *n);

/* The syntax check --fix runs on a fixed file of this path's language, or
 * NULL when there is none (see workflow/fix.h). */
#include "workflow/fix.h"
cg_syntax_check_fn cg_syntax_checker(const char *path);

/* The project root above `abs_dir`: the closest directory holding
 * pyproject.toml, .cglint.toml or .git.  Malloc'ed, or NULL when none. */
char *cg_project_root(const char *abs_dir);
/* The C/C++ front end's libclang version (clang_getClangVersion), or a line
 * saying this cglint has no analyzers, for --version. */
void cg_clang_version(char *buf, size_t n);
#endif
