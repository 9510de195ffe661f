/* driver.c - see driver.h.  The front-end table is the one place a new
 * language is added. */
#include "driver.h"
#include "core/walk.h"
#include "python/py.h"
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

    cg_py_opts po = { .jobs = o->jobs, .max_file_size = o->max_file_size };
    if (o->floor) cg_py_floor(files, n, &po, o->floor, report);
    else cg_py_analyze(files, n, &po, report);

    cg_walk_free(files, n);
    cg_report_sort(report);
    return 0;
}
