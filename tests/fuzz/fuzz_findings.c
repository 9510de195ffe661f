/* fuzz_findings.c - `cglint run --findings FILE`'s loader (src/run/load.c):
 * the input is a JSON or SARIF report; what it loads is joined to an empty
 * run (every finding gets its verdict, as when the program was observed and
 * nothing happened) and emitted in every format. */
#include "fuzz_common.h"
#include "run/run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20)) return 0;
    const char *path = fz_write(0, "findings.json", data, size);
    if (!path) return 0;
    cg_report r;
    cg_report_init(&r, NULL);
    r.root = strdup(fz_dir());
    char err[1024];
    err[0] = 0;
    if (cg_findings_load(path, &r, err, sizeof err) != 0) {
        if (!err[0]) abort();   /* a refusal says why */
    } else {
        cg_report_sort(&r);
        fz_emit_all(&r);
        r.run = calloc(1, sizeof *r.run);
        cg_events ev;
        memset(&ev, 0, sizeof ev);
        cg_join(&r, &ev);
        cg_report_sort(&r);
    }
    fz_emit_all(&r);
    cg_report_free(&r);
    return 0;
}
