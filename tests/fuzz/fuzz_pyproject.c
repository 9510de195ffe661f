/* fuzz_pyproject.c - the Python analysis of a small project: the input is
 * cut into up to three files at lines "#--- NAME" (fuzz_common.h; the
 * first is main.py), written under a directory with a pyproject.toml-free
 * root, and the directory is analysed as `cglint DIR` would, so calls and
 * imports are followed across the files.  Then the first file alone is
 * named, as pre-commit names changed files: the others are read as context. */
#include "fuzz_common.h"
#include "driver.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    fz_part parts[3];
    size_t n = fz_split(data, size, "main.py", ".py", parts, 3);
    const char *first = NULL;
    for (size_t i = 0; i < n; i++) {
        /* not .py: analysed as Python all the same when named; in the walk
         * only *.py are found */
        const char *p = fz_write((int)i, parts[i].name, parts[i].data, parts[i].len);
        if (i == 0) first = p;
    }
    /* the project root: the closest directory with .git, pyproject.toml or
     * .cglint.toml; an empty .git directory marks it */
    char git[4200];
    snprintf(git, sizeof git, "%s/.git", fz_dir());
    mkdir(git, 0700);
    const char *dirs[] = { fz_dir() };
    cg_report r;
    cg_report_init(&r, NULL);
    cg_analyze_opts o = { .paths = dirs, .npaths = 1, .jobs = 1, .max_file_size = 1 << 20,
                      .respect_gitignore = -1 };
    cg_analyze(&o, &r);
    fz_emit_all(&r);
    cg_report_free(&r);
    if (first) {
        const char *named[] = { first };
        cg_report_init(&r, NULL);
        cg_analyze_opts on = o;
        on.paths = named;
        on.context = 1;
        cg_analyze(&on, &r);
        fz_emit_all(&r);
        cg_report_free(&r);
    }
    fz_parts_free(parts, n);
    return 0;
}
