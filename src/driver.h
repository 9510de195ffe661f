/* driver.h - one cglint run: walk the paths, hand each language's files to
 * its front end, fill the report.  The command line (cli/main.c) and the
 * tests call this; it prints nothing. */
#ifndef CG_DRIVER_H
#define CG_DRIVER_H
#include <stddef.h>
#include "core/report.h"
#include "core/rules.h"

typedef struct cg_run_opts {
    const char *const *paths;
    size_t npaths;
    const char *const *exclude;
    size_t nexclude;
    int jobs;               /* <= 0: all cores */
    size_t max_file_size;   /* 0: no limit */
    int floor;              /* benchmarks: 1 read only, 2 read and parse, 3 print the C/C++
                               files' clang arguments; 0 analyse */
    /* the C/C++/CUDA front end */
    int cuda_mode;          /* cg_cu_mode: 0 auto, 1 toolkit, 2 shim */
    const char *cuda_path;  /* NULL: CUDA_PATH, CUDA_HOME, /usr/local/cuda */
    const char *compile_commands;  /* -p DIR; NULL: look in the trees */
    int cuda_parse_all;     /* parse every C/C++ file, not only those a capture may reach */
} cg_run_opts;

/* The report must be initialised by the caller (cg_report_init).  Returns 0,
 * or -1 when the run could not start (the reason is a notice). */
int cg_run(const cg_run_opts *opts, cg_report *report);
#endif
