/* options_md.c - print an option table (cli/options.c) as the Markdown list
 * README.md holds: `cglint-options-md cglint` or `cglint-options-md run`.
 * Built beside cglint; scripts/gen-options puts its output in README.md and
 * ctest docs.options fails when README.md differs from it. */
#include "cli/options.h"

#include <string.h>

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "cglint") == 0) cg_opts_markdown(stdout, cg_cli_options);
    else if (argc == 2 && strcmp(argv[1], "run") == 0) cg_opts_markdown(stdout, cg_run_options);
    else {
        fputs("usage: cglint-options-md cglint|run\n", stderr);
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 2;
}
