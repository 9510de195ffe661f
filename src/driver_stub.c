/* driver_stub.c - cg_analyze for a cglint built with CGLINT_ANALYZERS=OFF (a GPU
 * machine that has no tree-sitter): the static analysis is not there, so it
 * says so; `cglint run --findings FILE` still works. */
#include "driver.h"
#include <stdio.h>

int cg_analyze(const cg_analyze_opts *o, cg_report *report)
{
    (void)o;
    cg_report_notice(report, CG_ERROR, NULL, 0, 0,
                     "this cglint was built without the static analyzers (CGLINT_ANALYZERS=OFF): it can only "
                     "join the findings of an earlier run, with cglint run --findings FILE -- COMMAND");
    return -1;
}

/* No parser for any language: --fix re-parses nothing (and has no findings to fix). */
cg_syntax_check_fn cg_syntax_checker(const char *path)
{
    (void)path;
    return NULL;
}

/* No analyzers, no language server. */
#include "server/server.h"
#include <stdio.h>
int cg_server_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("cglint: error: this cglint was built without the static analyzers (CGLINT_ANALYZERS=OFF): "
          "it has no language server\n", stderr);
    return 2;
}

void cg_clang_version(char *buf, size_t n)
{
    snprintf(buf, n, "none (built with CGLINT_ANALYZERS=OFF)");
}
