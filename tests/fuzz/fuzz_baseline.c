/* fuzz_baseline.c - the baseline file reader (--baseline FILE): the input is
 * baseline.json, applied to the report of examples/ (every .py) analysed once at
 * start-up (copied into the scratch directory, where the baseline lies, so
 * that its entries can match: the seed corpus is --write-baseline of the
 * same files), then the report that is left is emitted. */
#include "fuzz_common.h"
#include "driver.h"
#include "workflow/baseline.h"
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FZ_SOURCE_DIR
#error "FZ_SOURCE_DIR: the repository (tests/fuzz/CMakeLists.txt sets it)"
#endif

static cg_report tmpl;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    fz_quiet();
    glob_t g;
    if (glob(FZ_SOURCE_DIR "/examples/*.py", 0, NULL, &g) != 0) {
        fprintf(stderr, "fuzz_baseline: no %s/examples/*.py\n", FZ_SOURCE_DIR);
        abort();
    }
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *in = fopen(g.gl_pathv[i], "rb");
        if (!in) abort();
        char *buf = malloc(1 << 20);
        size_t n = fread(buf, 1, 1 << 20, in);
        fclose(in);
        fz_write(0, strrchr(g.gl_pathv[i], '/') + 1, buf, n);
        free(buf);
    }
    globfree(&g);
    const char *dirs[] = { fz_dir() };
    cg_report_init(&tmpl, NULL);
    cg_analyze_opts o = { .paths = dirs, .npaths = 1, .jobs = 1, .respect_gitignore = -1 };
    if (cg_analyze(&o, &tmpl) != 0 || tmpl.nfindings == 0) {
        fprintf(stderr, "fuzz_baseline: examples/*.py gave no findings\n");
        abort();
    }
    return 0;
}

static int analysed(void *ctx, const char *abs_path)
{
    (void)ctx;
    /* the files of the scratch directory were analysed; others were not */
    return strncmp(abs_path, fz_dir(), strlen(fz_dir())) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20)) return 0;
    const char *path = fz_write(1, "baseline.json", data, size);
    if (!path) return 0;
    cg_report r;
    cg_report_init(&r, NULL);
    for (size_t i = 0; i < tmpl.nfindings; i++) cg_report_add(&r, &tmpl.findings[i]);
    r.root = strdup(fz_dir());
    char err[1024];
    err[0] = 0;
    size_t before = r.nfindings;
    if (cg_baseline_apply(&r, path, analysed, NULL, err, sizeof err) != 0) {
        if (!err[0] || r.nfindings != before) abort();   /* a refusal says why and hides nothing */
    } else if (r.nfindings > before) {
        abort();
    }
    fz_emit_all(&r);
    cg_report_free(&r);
    return 0;
}
