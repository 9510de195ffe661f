/* options.h - the options of `cglint` and `cglint run`, one table each
 * (core/opts.h): getopt_long, --help and the option lists in README.md are
 * made from them (scripts/gen-options). */
#ifndef CG_CLI_OPTIONS_H
#define CG_CLI_OPTIONS_H
#include "core/opts.h"

/* cglint: getopt_long's value for each option without a short letter */
enum {
    O_SELECT = 256, O_IGNORE, O_LIST, O_EXPLAIN, O_STATS, O_EXITZERO, O_VERSION, O_EXCLUDE,
    O_COLOR, O_MAXSIZE, O_FLOOR, O_EXTEND_SELECT, O_CONFIG, O_ISOLATED, O_SHOW_SETTINGS,
    O_NO_GITIGNORE, O_BASELINE, O_WRITE_BASELINE, O_FIX, O_DIFF, O_UNSAFE_FIXES,
    O_CUDAPATH, O_CUDAMODE, O_PRINTFLAGS, O_PARSEALL, O_STD, O_STDIN_FILENAME, O_FAIL_ON,
    O_NO_CACHE, O_CACHE_DIR,
};
extern const cg_opt cg_cli_options[];

/* cglint run */
enum { RO_FINDINGS = 300, RO_EVENTS, RO_NOCUPTI, RO_STRICT, RO_SELECT, RO_IGNORE, RO_COLOR };
extern const cg_opt cg_run_options[];

/* A usage error of `command` ("cglint", "cglint run"): "cglint: error: "
 * (coloured as --color says), fmt with arg, then where the help is; exit 2. */
_Noreturn void cg_cli_usage_error(const char *command, const char *fmt, const char *arg);
#endif
