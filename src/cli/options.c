/* options.c - every option of `cglint` and `cglint run`: its spelling, its
 * argument, its line in --help and its row in README.md.  An option is added
 * here and handled in its command's switch (cli/main.c, run/run_cmd.c);
 * scripts/gen-options then rewrites README.md's lists. */
#include "cli/options.h"
#include "emit/emit.h"

#include <stdlib.h>

void cg_cli_usage_error(const char *command, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s", cg_emit_error_prefix());
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun '%s --help' for usage.\n", command);
    exit(2);
}

const cg_opt cg_cli_options[] = {
    { "Output", "format", 'f', "FMT",
      "text (default), concise, json, json-lines, sarif, github, junit, gitlab,\nhtml",
      "`text` (default, or the configuration's `output-format`), `concise`, `json`, `json-lines`, `sarif`, "
      "`github`, `junit`, `gitlab`, `html`: see [Output formats](#output-formats)" },
    { NULL, "output-format", 'f', "FMT", NULL, NULL },   /* ruff's spelling */
    { NULL, "output", 'o', "FILE", "write the report to FILE (atomically) instead of stdout",
      "write the report to FILE, atomically (temporary file + rename); a symbolic link's target is replaced, "
      "a device or FIFO (`-o /dev/stdout`) is written to" },
    { NULL, "statistics", O_STATS, NULL,
      "count findings per rule instead of listing them (in every format)",
      "count findings per rule, in every `--format` (SARIF: `run.properties.statistics`; JUnit: a failing testcase per rule)" },
    { NULL, "color", O_COLOR, "WHEN", "auto (default: on a terminal, unless NO_COLOR), always, never",
      "`auto` (default: on a terminal, unless `NO_COLOR`), `always`, `never`" },
    { NULL, "quiet", 'q', NULL, "no summary line and no warnings on stderr", NULL },
    { "Rules", "select", O_SELECT, "CODES", "only these rules: ids or prefixes, comma-separated (CG1,CG304,ALL)",
      "only these rules: ids or prefixes, comma-separated: `CG1`, `CG304`, `ALL`; applied after the "
      "configuration's" },
    { NULL, "extend-select", O_EXTEND_SELECT, "CODES", "these rules as well as the configured ones", NULL },
    { NULL, "ignore", O_IGNORE, "CODES", "not these rules", NULL },
    { NULL, "list-rules", O_LIST, NULL, "list every rule and exit (in the --format given)",
      "the catalog, in the `--format` given (SARIF: `tool.driver.rules`)" },
    { NULL, "explain", O_EXPLAIN, "CODE", "print a rule's documentation and exit (in the --format given)", NULL },
    { "Configuration", "config", O_CONFIG, "FILE", "use this pyproject.toml or .cglint.toml for every file",
      "use this `pyproject.toml` or `.cglint.toml` for every file" },
    { NULL, "isolated", O_ISOLATED, NULL, "ignore all configuration files", NULL },
    { NULL, "show-settings", O_SHOW_SETTINGS, NULL, "print the settings in force for each PATH and exit", NULL },
    { "Files", "exclude", O_EXCLUDE, "GLOB", "skip paths matching GLOB (repeatable, or comma-separated)", NULL },
    { NULL, "no-respect-gitignore", O_NO_GITIGNORE, NULL, "also analyse files that .gitignore excludes",
      "also walk what `.gitignore` ignores" },
    { NULL, "max-file-size", O_MAXSIZE, "N", "skip files larger than N bytes (K, M suffixes; default 8M; 0: no limit)",
      "skip larger files with a message (K, M suffixes; default 8M; 0: no limit)" },
    { NULL, "stdin-filename", O_STDIN_FILENAME, "PATH",
      "read the file from stdin and report it as PATH (editors;\nits project around PATH is read from disk)", NULL },
    { NULL, "bench-floor", O_FLOOR, "read|parse", NULL, NULL },   /* bench/: the cost of reading or parsing alone */
    { "Cache", "no-cache", O_NO_CACHE, NULL, "neither read nor write the project index (a cold run)", NULL },
    { NULL, "cache-dir", O_CACHE_DIR, "DIR",
      "keep the project index in DIR (default: .cglint_cache in the\nproject root; also cache-dir, CGLINT_CACHE_DIR)",
      "keep the project index in DIR (default `.cglint_cache/` in the project root; also `cache-dir`, "
      "`CGLINT_CACHE_DIR`; see [The project index](#the-project-index-cglint_cache))" },
    { "Fixes", "fix", O_FIX, NULL, "apply the mechanical fixes that are safe, then report what is left", NULL },
    { NULL, "unsafe-fixes", O_UNSAFE_FIXES, NULL, "with --fix or --diff, also the fixes that need a review", NULL },
    { NULL, "diff", O_DIFF, NULL, "print the fixes as a unified diff and write nothing", NULL },
    { "Adoption", "write-baseline", O_WRITE_BASELINE, "FILE", "record every current finding in FILE (JSON) and exit 0",
      NULL },
    { NULL, "baseline", O_BASELINE, "FILE", "report only findings FILE does not record; say which are fixed", NULL },
    { "C/C++/CUDA", "cuda-path", O_CUDAPATH, "DIR",
      "the CUDA toolkit (default: CUDA_PATH, CUDA_HOME, /usr/local/cuda)",
      "the CUDA toolkit whose headers C/C++/CUDA is parsed with (default: `CUDA_PATH`, `CUDA_HOME`, "
      "`/usr/local/cuda`)" },
    { NULL, "cuda-mode", O_CUDAMODE, "MODE", "auto (default: the toolkit if found, else the shim), toolkit, shim",
      "`auto` (default: the toolkit when found, else the shim), `toolkit` (its headers), `shim` (cglint's own "
      "declarations of the CUDA API)" },
    { NULL, "compile-commands", 'p', "DIR",
      "\nflags from DIR/compile_commands.json (default: found in the\nanalysed directory or its build/)",
      "take each file's flags from `DIR/compile_commands.json` (default: the first `compile_commands.json` or "
      "`build/compile_commands.json` from each named path up to its project root)" },
    { NULL, "include-dir", 'I', "DIR",
      "add DIR to every C/C++/CUDA file's include path (repeatable;\nwithout a compile database cglint also finds "
      "the tree's own\ninclude directories from the files' #include lines)",
      "add DIR to every C/C++/CUDA file's include path (repeatable; see [Headers and flags](#cc-headers-and-flags))" },
    { NULL, "define", 'D', "NAME[=V]", "define a macro for every C/C++/CUDA file (repeatable)", NULL },
    { NULL, "std", O_STD, "STD", "the language standard where the flags name none (c++17, gnu11)", NULL },
    { NULL, "cuda-parse-all", O_PARSEALL, NULL,
      "parse every C/C++/CUDA file (default: only files a capture\nmay reach, found by the names they mention)", NULL },
    { NULL, "print-cuda-flags", O_PRINTFLAGS, NULL, "print each C/C++/CUDA file's clang arguments and exit", NULL },
    { "Run", "jobs", 'j', "N", "worker threads (default: all cores)",
      "worker threads (default: all cores, or the configuration's `jobs`)" },
    { NULL, "exit-zero", O_EXITZERO, NULL, "exit 0 even when there are findings", NULL },
    { NULL, "fail-on", O_FAIL_ON, "LEVEL",
      "exit 1 only for findings at LEVEL or above: note (default), warning, error",
      "exit 1 only for findings at LEVEL or above: `note` (default: any finding), `warning`, `error`" },
    { NULL, "version", O_VERSION, NULL, "print the version (and libclang's, the grammar's) and exit", NULL },
    { NULL, "help", 'h', NULL, "print this help and exit", NULL },
    { 0 },
};

const cg_opt cg_run_options[] = {
    { "Findings", "findings", RO_FINDINGS, "FILE",
      "static findings from an earlier `cglint -f json` or `-f sarif`\nreport, instead of analysing PATH "
      "(default PATH: .)", NULL },
    { NULL, "select", RO_SELECT, "CODES", "only these rules", NULL },
    { NULL, "ignore", RO_IGNORE, "CODES", "not these rules", NULL },
    { "Output", "format", 'f', "FMT",
      "text (default), json, sarif, github, html (one self-contained page),\nconcise, json-lines, junit, gitlab", NULL },
    { NULL, "output", 'o', "FILE", "write the report to FILE instead of stderr", NULL },
    { NULL, "color", RO_COLOR, "WHEN", "auto, always, never", NULL },
    { NULL, "quiet", 'q', NULL, "no summary lines", NULL },
    { "Observation", "events", RO_EVENTS, "DIR", "keep the event files in DIR (default: a temporary directory)", NULL },
    { NULL, "no-cupti", RO_NOCUPTI, NULL, "do not load the CUPTI library (Python observation only)", NULL },
    { NULL, "strict", RO_STRICT, NULL,
      "exit 1 when the program succeeded but a finding was confirmed\nor found at run time, or when no capture ran "
      "(no GPU, CUDA\nnever initialised): a run that exercised nothing", NULL },
    { NULL, "help", 'h', NULL, "this help", NULL },   /* answered before getopt: --help anywhere before -- */
    { 0 },
};
