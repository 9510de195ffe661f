/* driver.c - see driver.h.  The front-end table is the one place a new
 * language is added. */
#include "driver.h"
#include "core/walk.h"
#include "python/py.h"
#include "cuda/cu.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cg_run(const cg_run_opts *o, cg_report *report)
{
    char cwd[PATH_MAX];
    if (!report->root) report->root = strdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
    static const char *const dot[] = { "." };
    cg_walk_opts wo = { .exclude = o->exclude, .nexclude = o->nexclude };
    cg_file *files = NULL;
    size_t n = 0;
    cg_walk(o->npaths ? o->paths : dot, o->npaths ? o->npaths : 1, &wo, report, &files, &n);

    /* the front ends, one after the other, into one report */
    cg_py_opts po = { .jobs = o->jobs, .max_file_size = o->max_file_size };
    cg_cu_opts co = { .jobs = o->jobs, .max_file_size = o->max_file_size,
                      .mode = (cg_cu_mode)o->cuda_mode, .cuda_path = o->cuda_path,
                      .compile_commands = o->compile_commands, .parse_all = o->cuda_parse_all,
                      .roots = o->npaths ? o->paths : dot, .nroots = o->npaths ? o->npaths : 1 };
    size_t npy = 0, ncu = 0;
    for (size_t i = 0; i < n; i++) { npy += files[i].lang == CG_LANG_PY; ncu += files[i].lang == CG_LANG_CU; }
    if (o->floor) {
        if (npy && o->floor < 3) cg_py_floor(files, n, &po, o->floor, report);
        if (ncu) cg_cu_floor(files, n, &co, o->floor, report);
    } else {
        if (npy || !ncu) cg_py_analyze(files, n, &po, report);
        if (ncu) cg_cu_analyze(files, n, &co, report);
    }

    cg_walk_free(files, n);
    cg_report_sort(report);
    return 0;
}
