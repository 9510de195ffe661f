/* cu.h - the CUDA/C/C++ front end: host code parsed with libclang.
 *
 * Public interface used by the driver.  The front end knows nothing of
 * emitters or the command line; it fills a cg_report. */
#ifndef CG_CU_H
#define CG_CU_H
#include <stddef.h>
#include "core/report.h"
#include "workflow/walk.h"

typedef enum {
    CG_CU_MODE_AUTO = 0,    /* the toolkit when one is found, else the shim */
    CG_CU_MODE_TOOLKIT,     /* the real CUDA headers; an error when none is found */
    CG_CU_MODE_SHIM,        /* cglint's own declarations of the CUDA API */
} cg_cu_mode;

typedef struct cg_cu_opts {
    int jobs;                   /* worker threads; <= 0: all cores */
    size_t max_file_size;       /* bytes; 0: no limit */
    cg_cu_mode mode;
    const char *cuda_path;      /* --cuda-path, or NULL: CUDA_PATH, CUDA_HOME, /usr/local/cuda */
    const char *compile_commands; /* -p DIR, or NULL: look in the analysed trees */
    const char *const *roots;   /* the paths given on the command line (for finding */
    size_t nroots;              /* compile_commands.json) */
    int parse_all;              /* parse every file, not only those a capture may reach */
    const char *const *include_dirs; /* -I DIR for every file (after the database's own) */
    size_t ninclude_dirs;
    const char *const *defines; /* -D NAME[=VALUE] for every file */
    size_t ndefines;
    const char *std;            /* -std= for files whose flags name none, or NULL */
    struct cg_cache *cache;     /* the project index (workflow/cache.h), or NULL: a cold run */
} cg_cu_opts;

/* Analyse the C, C++ and CUDA files among `files` (lang == CG_LANG_CU) as one
 * project: calls are followed across translation units.  Never compiles or
 * runs the code. */
void cg_cu_analyze(const cg_file *files, size_t n, const cg_cu_opts *opts, cg_report *report);

/* `cglint server`: keep across runs, instead of building them in each run,
 * the toolkit's precompiled headers (in `dir`, made and removed by the
 * caller) and the translation units of editor buffers (files whose bytes
 * core/source.h's provider gives), with a precompiled preamble: an edited
 * buffer is then reparsed, its #includes not.  NULL: each run its own (the
 * default); the kept translation units are freed. */
void cg_cu_keep(const char *dir);

/* libclang's own version string (clang_getClangVersion) into buf. */
void cg_cu_clang_version(char *buf, size_t n);

/* Benchmark floors over the same files, flags and threads: 1 = read and
 * validate only, 2 = read and parse every file with libclang (PCH included);
 * 3 = print each file's clang arguments on stdout (path, then arguments,
 * tab-separated), parse nothing.  Returns the number of files done. */
size_t cg_cu_floor(const cg_file *files, size_t n, const cg_cu_opts *opts, int level,
                   cg_report *report);
#endif
