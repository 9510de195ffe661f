/* fuzz_py.c - the Python analysis of one file: the input is a.py, analysed
 * as `cglint a.py` would (walk, parse, index, analysis, suppression
 * comments), then its fixes are shown as --diff would (the edits, the
 * re-parse check) and the report is emitted in every format. */
#include "fuzz_common.h"
#include "driver.h"
#include "emit/emit.h"
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20)) return 0;
    fz_reset();
    const char *path = fz_write(0, "a.py", data, size);
    if (!path) return 0;
    const char *paths[] = { path };
    cg_report r;
    cg_report_init(&r, NULL);
    cg_analyze_opts o = { .paths = paths, .npaths = 1, .jobs = 1, .max_file_size = 1 << 20,
                      .respect_gitignore = -1 };
    cg_analyze(&o, &r);
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    cg_fix_opts fo = { .unsafe = 1, .write = 0, .diff = devnull, .checker = cg_syntax_checker };
    cg_fix_result fr;
    cg_fix_apply(&r, &fo, &fr);
    fz_emit_all(&r);
    cg_report_free(&r);
    return 0;
}
