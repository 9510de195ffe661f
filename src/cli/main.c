/* main.c - the cglint command line: options, output, exit codes.
 *
 * Conventions follow ruff and clang-tidy: findings on stdout, tool messages on
 * stderr, exit 0 clean, 1 findings, 2 usage error or input that could not be
 * analysed. */
#include "driver.h"
#include "emit/emit.h"
#include "core/pool.h"
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifndef CGLINT_VERSION
#define CGLINT_VERSION "0.0.0"
#endif

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_TROUBLE = 2 };

static const char usage_text[] =
    "Usage: cglint [OPTIONS] [PATH...]\n"
    "\n"
    "Find CUDA graph capture hazards in PyTorch and CUDA C/C++ code before they fail\n"
    "or replay wrong.\n"
    "PATH: files or directories (default: .). Directories are searched for *.py and\n"
    "*.cu *.cuh *.c *.cc *.cpp *.cxx *.h *.hpp, skipping hidden, virtualenv and build\n"
    "directories; files named explicitly are analysed whatever their name (as Python\n"
    "unless the extension says C/C++). Code is parsed, never imported, compiled or run.\n"
    "\n"
    "Output:\n"
    "  -f, --format FMT        text (default), json, sarif, github\n"
    "  -o, --output FILE       write the report to FILE (atomically) instead of stdout\n"
    "      --statistics        count findings per rule instead of listing them\n"
    "      --color WHEN        auto (default: on a terminal, unless NO_COLOR), always, never\n"
    "  -q, --quiet             no summary line and no warnings on stderr\n"
    "Rules:\n"
    "      --select CODES      only these rules: ids or prefixes, comma-separated (CG1,CG304,ALL)\n"
    "      --ignore CODES      not these rules\n"
    "      --list-rules        list every rule and exit\n"
    "      --explain CODE      print a rule's documentation and exit\n"
    "Files:\n"
    "      --exclude GLOB      skip paths matching GLOB (repeatable, or comma-separated)\n"
    "      --max-file-size N   skip files larger than N bytes (K, M suffixes; default 8M; 0: no limit)\n"
    "C/C++/CUDA:\n"
    "      --cuda-path DIR     the CUDA toolkit (default: CUDA_PATH, CUDA_HOME, /usr/local/cuda)\n"
    "      --cuda-mode MODE    auto (default: the toolkit if found, else the shim), toolkit, shim\n"
    "  -p, --compile-commands DIR\n"
    "                          flags from DIR/compile_commands.json (default: found in the\n"
    "                          analysed directory or its build/)\n"
    "      --cuda-parse-all    parse every C/C++/CUDA file (default: only files a capture\n"
    "                          may reach, found by the names they mention)\n"
    "      --print-cuda-flags  print each C/C++/CUDA file's clang arguments and exit\n"
    "Run:\n"
    "  -j, --jobs N            worker threads (default: all cores)\n"
    "      --exit-zero         exit 0 even when there are findings\n"
    "      --version           print the version and exit\n"
    "  -h, --help              print this help and exit\n"
    "\n"
    "Exit status: 0 no findings, 1 findings, 2 usage error or an input that could not be analysed.\n";

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "cglint: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun 'cglint --help' for usage.\n");
    exit(EXIT_TROUBLE);
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *s == '-') return -1;
    if (*end == 'k' || *end == 'K') { v <<= 10; end++; }
    else if (*end == 'm' || *end == 'M') { v <<= 20; end++; }
    else if (*end == 'g' || *end == 'G') { v <<= 30; end++; }
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return -1;
    *out = (size_t)v;
    return 0;
}

static void list_rules(void)
{
    printf("%-6s  %-30s  %-8s  %-8s  %-5s  %s\n", "ID", "NAME", "CATEGORY", "SEVERITY", "LANG", "SUMMARY");
    for (size_t i = 0; i < cg_rule_count; i++) {
        const cg_rule *r = &cg_rules[i];
        printf("%-6s  %-30s  %-8s  %-8s  %-5s  %s\n", r->id, r->name, r->category_name,
               cg_severity_name(r->severity), r->languages, r->summary);
    }
}

/* Write the report to `path` through a temporary file in the same directory
 * and rename(2): readers never see half a report. */
static int emit_to_file(const char *path, cg_format fmt, const cg_report *r, const cg_emit_opts *eo)
{
    char *dup = strdup(path);
    char tmpl[4200];
    snprintf(tmpl, sizeof tmpl, "%s/.%s.cglint-XXXXXX", dirname(dup), basename((char *)path));
    free(dup);
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        fprintf(stderr, "cglint: error: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    int rc = f ? cg_emit(f, fmt, r, eo) : -1;
    if (f && fflush(f) != 0) rc = -1;
    if (f && fsync(fileno(f)) != 0) rc = -1;
    if (f) fclose(f); else close(fd);
    if (rc == 0 && rename(tmpl, path) != 0) rc = -1;
    if (rc != 0) {
        fprintf(stderr, "cglint: error: cannot write %s: %s\n", path, strerror(errno ? errno : EIO));
        unlink(tmpl);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    enum { O_SELECT = 256, O_IGNORE, O_LIST, O_EXPLAIN, O_STATS, O_EXITZERO, O_VERSION, O_EXCLUDE,
           O_COLOR, O_MAXSIZE, O_FLOOR, O_CUDAPATH, O_CUDAMODE, O_PRINTFLAGS, O_PARSEALL };
    static const struct option longopts[] = {
        { "format", required_argument, 0, 'f' }, { "output-format", required_argument, 0, 'f' },
        { "output", required_argument, 0, 'o' }, { "select", required_argument, 0, O_SELECT },
        { "ignore", required_argument, 0, O_IGNORE }, { "list-rules", no_argument, 0, O_LIST },
        { "explain", required_argument, 0, O_EXPLAIN }, { "statistics", no_argument, 0, O_STATS },
        { "jobs", required_argument, 0, 'j' }, { "quiet", no_argument, 0, 'q' },
        { "version", no_argument, 0, O_VERSION }, { "help", no_argument, 0, 'h' },
        { "exit-zero", no_argument, 0, O_EXITZERO }, { "exclude", required_argument, 0, O_EXCLUDE },
        { "color", required_argument, 0, O_COLOR }, { "max-file-size", required_argument, 0, O_MAXSIZE },
        { "bench-floor", required_argument, 0, O_FLOOR },
        { "cuda-path", required_argument, 0, O_CUDAPATH }, { "cuda-mode", required_argument, 0, O_CUDAMODE },
        { "compile-commands", required_argument, 0, 'p' },
        { "print-cuda-flags", no_argument, 0, O_PRINTFLAGS },
        { "cuda-parse-all", no_argument, 0, O_PARSEALL }, { 0, 0, 0, 0 },
    };
    int fmt = CG_FMT_TEXT, stats = 0, quiet = 0, exit_zero = 0, color = -1, floor = 0, cuda_mode = 0;
    const char *cuda_path = NULL, *compile_commands = NULL;
    int parse_all = 0;
    long jobs = 0;
    const char *output = NULL;
    size_t max_size = 8u << 20;
    cg_ruleset rules;
    cg_ruleset_all(&rules);
    int selected = 0;
    const char **exclude = NULL;
    size_t nexclude = 0;
    char bad[64];

    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":f:o:j:p:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            fmt = cg_format_parse(optarg);
            if (fmt < 0) usage_error("unknown format '%s' (expected text, json, sarif or github)", optarg);
            break;
        case 'o': output = optarg; break;
        case O_SELECT:
            if (cg_ruleset_select(&rules, optarg, !selected, bad, sizeof bad) != 0)
                usage_error("--select: '%s' is not a rule code or prefix (like CG1 or CG101); see --list-rules", bad);
            selected = 1;
            break;
        case O_IGNORE:
            if (cg_ruleset_ignore(&rules, optarg, bad, sizeof bad) != 0)
                usage_error("--ignore: '%s' is not a rule code or prefix (like CG1 or CG101); see --list-rules", bad);
            break;
        case O_LIST: list_rules(); return EXIT_CLEAN;
        case O_EXPLAIN: {
            int i = cg_rule_index(optarg);
            if (i < 0) usage_error("--explain: no rule '%s'; see --list-rules", optarg);
            fputs(cg_rules[i].doc, stdout);
            return EXIT_CLEAN;
        }
        case O_STATS: stats = 1; break;
        case 'j': {
            char *end;
            errno = 0;
            jobs = strtol(optarg, &end, 10);
            if (errno || *end || jobs < 1 || jobs > 1024)
                usage_error("--jobs takes a number from 1 to 1024, not '%s'", optarg);
            break;
        }
        case 'q': quiet = 1; break;
        case O_VERSION: printf("cglint %s\n", CGLINT_VERSION); return EXIT_CLEAN;
        case 'h': fputs(usage_text, stdout); return EXIT_CLEAN;
        case O_EXITZERO: exit_zero = 1; break;
        case O_EXCLUDE: {
            char *s = strdup(optarg), *save = NULL;
            for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                exclude = realloc(exclude, (nexclude + 1) * sizeof *exclude);
                exclude[nexclude++] = t;
            }
            break;
        }
        case O_COLOR:
            if (strcmp(optarg, "auto") == 0) color = -1;
            else if (strcmp(optarg, "always") == 0) color = 1;
            else if (strcmp(optarg, "never") == 0) color = 0;
            else usage_error("--color takes auto, always or never, not '%s'", optarg);
            break;
        case O_MAXSIZE:
            if (parse_size(optarg, &max_size) != 0) usage_error("--max-file-size takes a size like 8M, not '%s'", optarg);
            break;
        case O_FLOOR:
            if (strcmp(optarg, "read") == 0) floor = 1;
            else if (strcmp(optarg, "parse") == 0) floor = 2;
            else usage_error("--bench-floor takes read or parse, not '%s'", optarg);
            break;
        case O_CUDAPATH: cuda_path = optarg; break;
        case O_PRINTFLAGS: floor = 3; break;
        case O_PARSEALL: parse_all = 1; break;
        case 'p': compile_commands = optarg; break;
        case O_CUDAMODE:
            if (strcmp(optarg, "auto") == 0) cuda_mode = 0;
            else if (strcmp(optarg, "toolkit") == 0) cuda_mode = 1;
            else if (strcmp(optarg, "shim") == 0) cuda_mode = 2;
            else usage_error("--cuda-mode takes auto, toolkit or shim, not '%s'", optarg);
            break;
        case ':': usage_error("option '%s' needs a value", argv[optind - 1]); break;
        default: usage_error("unknown option '%s'", argv[optind - 1]); break;
        }
    }
    if (stats && fmt != CG_FMT_TEXT) usage_error("%s", "--statistics works with --format text only");

    cg_report report;
    cg_report_init(&report, &rules);
    cg_run_opts ro = {
        .paths = (const char *const *)(argv + optind), .npaths = (size_t)(argc - optind),
        .exclude = exclude, .nexclude = nexclude, .jobs = (int)jobs,
        .max_file_size = max_size, .floor = floor,
        .cuda_mode = cuda_mode, .cuda_path = cuda_path, .compile_commands = compile_commands,
        .cuda_parse_all = parse_all,
    };
    cg_run(&ro, &report);

    /* tool messages: stderr, one line each */
    for (size_t i = 0; i < report.nnotices; i++) {
        const cg_notice *n = &report.notices[i];
        if (n->level < CG_ERROR && quiet) continue;
        const char *lvl = n->level == CG_ERROR ? "error" : n->level == CG_WARN ? "warning" : "note";
        if (n->path && n->line)
            fprintf(stderr, "cglint: %s: %s:%u:%u: %s\n", lvl, n->path, n->line, n->col, n->message);
        else if (n->path)
            fprintf(stderr, "cglint: %s: %s: %s\n", lvl, n->path, n->message);
        else
            fprintf(stderr, "cglint: %s: %s\n", lvl, n->message);
    }
    if (floor == 3) {
        cg_report_free(&report);
        return EXIT_CLEAN;
    }
    if (floor) {
        fprintf(stderr, "cglint: floor (%s): %zu files\n", floor == 1 ? "read" : "parse", report.files_seen);
        cg_report_free(&report);
        return EXIT_CLEAN;
    }

    if (color < 0) {
        const char *nc = getenv("NO_COLOR");
        color = !output && isatty(STDOUT_FILENO) && !(nc && *nc);
    }
    cg_emit_opts eo = { .color = color, .statistics = stats, .quiet = quiet, .tool_version = CGLINT_VERSION };
    int rc = output ? emit_to_file(output, (cg_format)fmt, &report, &eo) : cg_emit(stdout, (cg_format)fmt, &report, &eo);
    if (!output && fflush(stdout) != 0) rc = -1;
    int code = EXIT_CLEAN;
    if (rc != 0) {
        if (!output) fprintf(stderr, "cglint: error: cannot write the report: %s\n", strerror(errno));
        code = EXIT_TROUBLE;
    } else if (cg_report_errors(&report) > 0) {
        code = EXIT_TROUBLE;
    } else if (report.nfindings > 0 && !exit_zero) {
        code = EXIT_FINDINGS;
    }
    cg_report_free(&report);
    free(exclude);
    return code;
}
