/* main.c - the cglint command line: options, output, exit codes.
 *
 * Conventions follow ruff and clang-tidy: findings on stdout, tool messages on
 * stderr, exit 0 clean, 1 findings, 2 usage error or input that could not be
 * analysed. */
#include "driver.h"
#include "core/alloc.h"
#include "cli/options.h"
#include "run/run.h"
#include "server/server.h"
#include "core/source.h"
#include "emit/emit.h"
#include "workflow/baseline.h"
#include "workflow/config.h"
#include "core/file.h"
#include "core/path.h"
#include "core/pool.h"
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <time.h>
#include <libgen.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cglint_version.h"   /* generated from CMake's project(VERSION) */

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_TROUBLE = 2 };

/* --help: this, the option table (cli/options.c), the epilogue */
static const char usage_text[] =
    "Usage: cglint [OPTIONS] [PATH...]\n"
    "       cglint run [OPTIONS] [PATH...] -- COMMAND [ARGS...]   (see cglint run --help)\n"
    "\n"
    "Find CUDA graph capture hazards in PyTorch and CUDA C/C++ code before they fail\n"
    "or replay wrong.\n"
    "PATH: files or directories (default: .). Directories are searched for *.py and\n"
    "*.cu *.cuh *.c *.cc *.cpp *.cxx *.h *.hpp, skipping hidden, virtualenv and build\n"
    "directories; files named explicitly are analysed whatever their name (as Python\n"
    "unless the extension says C/C++). Code is parsed, never imported, compiled or run.\n"
    "\n";

/* after the options */
static const char usage_epilogue[] =
    "Editors:\n"
    "  cglint server           a language server (LSP over stdio): diagnostics, fixes, rule pages\n"
    "On a GPU (cglint run --help for all its options):\n"
    "  cglint run [--findings FILE] [--strict] [PATH...] -- COMMAND [ARGS...]\n"
    "                          run COMMAND, capture and replay for real, and give every finding a\n"
    "                          verdict (confirmed, not reproduced, not exercised, static only)\n"
    "\n"
    "Exit status: 0 no findings (at --fail-on's level), 1 findings, 2 usage error or an input that\n"
    "could not be analysed.\n";

static void usage_error(const char *fmt, const char *arg)
{
    cg_cli_usage_error("cglint", fmt, arg);
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


/* Write the report to `path` (core/file.h): a regular file is replaced
 * atomically, so readers never see half a report; a link's target is
 * replaced; a device or FIFO (-o /dev/stdout) is written to, never replaced. */
static int emit_any(FILE *out, cg_format fmt, const cg_report *r, const cg_emit_opts *eo)
{
    return eo->statistics ? cg_emit_statistics(out, fmt, r, eo) : cg_emit(out, fmt, r, eo);
}

static int emit_to_file(const char *path, cg_format fmt, const cg_report *r, const cg_emit_opts *eo)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc = mem ? emit_any(mem, fmt, r, eo) : -1;
    if (mem && fclose(mem) != 0) rc = -1;
    char err[512];
    if (rc != 0) snprintf(err, sizeof err, "%s", strerror(errno ? errno : ENOMEM));
    else rc = cg_file_write(path, buf, len, 0666, 0, err, sizeof err);
    free(buf);
    if (rc != 0) {
        fprintf(stderr, "%s%s: cannot write the report: %s\n", cg_emit_error_prefix(), path, err);
        return -1;
    }
    return 0;
}

/* One tool message on stderr: "cglint: error: PATH:LINE:COL: message", the
 * path and message escaped (a file name cannot put escape sequences on the
 * terminal). */
static void print_notice(const cg_notice *n)
{
    fputs(cg_emit_level_prefix(n->level), stderr);
    if (n->path) {
        cg_emit_escaped(stderr, n->path);
        if (n->line) fprintf(stderr, ":%u:%u", n->line, n->col);
        fputs(": ", stderr);
    }
    cg_emit_escaped(stderr, n->message);
    fputc('\n', stderr);
}

/* ---- the progress line ---------------------------------------------------------
 * On stderr, only when it is a terminal, never with --quiet, and only once a
 * run has taken a second (CGLINT_PROGRESS_DELAY_MS changes that, for
 * tests): "cglint: reading files 1200/5000", then "following calls from
 * captures".  It is one line rewritten in place with \r and erased at the
 * end, so nothing of it stays in the scrollback or reaches a pipe. */
typedef struct progress {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop, shown;
    long delay_ms;
    cg_report *report;
} progress;

static void progress_show(progress *pr)
{
    size_t total = __atomic_load_n(&pr->report->progress_total, __ATOMIC_RELAXED);
    size_t done = __atomic_load_n(&pr->report->progress_done, __ATOMIC_RELAXED);
    int phase = __atomic_load_n(&pr->report->progress_phase, __ATOMIC_RELAXED);
    if (phase == 0) fprintf(stderr, "\r\x1b[Kcglint: finding files... %zu found", done);
    else if (phase == 1) fprintf(stderr, "\r\x1b[Kcglint: reading Python files %zu/%zu", done, total);
    else if (phase == 2) fprintf(stderr, "\r\x1b[Kcglint: following calls from captures (%zu Python files)", total);
    else if (phase == 3) fprintf(stderr, "\r\x1b[Kcglint: reading C/C++ files %zu/%zu", done, total);
    else fprintf(stderr, "\r\x1b[Kcglint: parsing C/C++ files that a capture may reach: %zu of %zu", done, total);
    fflush(stderr);
    pr->shown = 1;
}

static void *progress_main(void *arg)
{
    progress *pr = arg;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    long wait_ms = pr->delay_ms;
    pthread_mutex_lock(&pr->lock);
    while (!pr->stop) {
        t.tv_sec += wait_ms / 1000;
        t.tv_nsec += (wait_ms % 1000) * 1000000L;
        if (t.tv_nsec >= 1000000000L) { t.tv_sec++; t.tv_nsec -= 1000000000L; }
        if (pthread_cond_timedwait(&pr->cond, &pr->lock, &t) == 0 && pr->stop) break;
        if (pr->stop) break;
        progress_show(pr);
        wait_ms = pr->delay_ms ? 100 : 1;   /* tests (delay 0) see every phase */
    }
    /* tests (delay 0): the last counts once more, whatever the run's speed
     * let the thread print before it (a run of 400 small files can end
     * within the thread's first millisecond) */
    if (!pr->delay_ms) progress_show(pr);
    if (pr->shown) { fputs("\r\x1b[K", stderr); fflush(stderr); }
    pthread_mutex_unlock(&pr->lock);
    return NULL;
}

static int progress_start(progress *pr, cg_report *r, int quiet)
{
    memset(pr, 0, sizeof *pr);
    if (quiet || !isatty(STDERR_FILENO)) return 0;
    const char *d = getenv("CGLINT_PROGRESS_DELAY_MS");
    pr->delay_ms = d && *d ? strtol(d, NULL, 10) : 1000;
    if (pr->delay_ms < 0) return 0;
    pr->report = r;
    pthread_mutex_init(&pr->lock, NULL);
    pthread_cond_init(&pr->cond, NULL);
    if (pr->delay_ms == 0) {   /* at once: deterministic for tests */
        fputs("\r\x1b[Kcglint: finding files...", stderr);
        fflush(stderr);
        pr->shown = 1;
    }
    if (pthread_create(&pr->thread, NULL, progress_main, pr) != 0) return 0;
    return 1;
}

static void progress_stop(progress *pr, int started)
{
    if (!started) return;
    pthread_mutex_lock(&pr->lock);
    pr->stop = 1;
    pthread_cond_signal(&pr->cond);
    pthread_mutex_unlock(&pr->lock);
    pthread_join(pr->thread, NULL);
    pthread_cond_destroy(&pr->cond);
    pthread_mutex_destroy(&pr->lock);
}

static void free_opts(const char **exclude, char *sel, char *ext, char *ign)
{
    free(exclude);
    free(sel);
    free(ext);
    free(ign);
}

/* Append a comma-separated list to *acc (malloc'ed). */
static void append_list(char **acc, const char *more)
{
    size_t a = *acc ? strlen(*acc) : 0, b = strlen(more);
    char *n = cg_xrealloc(*acc, a + b + 2);
    if (!n) { fputs("cglint: out of memory\n", stderr); exit(EXIT_TROUBLE); }
    if (a) n[a++] = ',';
    memcpy(n + a, more, b + 1);
    *acc = n;
}

static void check_codes(const char *opt, const char *list)
{
    cg_ruleset scratch;
    char bad[64];
    if (cg_ruleset_select(&scratch, list, 1, bad, sizeof bad) != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s: '%%s' is not a rule code or prefix (like CG1 or CG101); see --list-rules", opt);
        usage_error(msg, bad);
    }
}

static void print_list(const char *key, const cg_strlist *l)
{
    printf("  %-18s [", key);
    for (size_t i = 0; i < l->n; i++) printf("%s\"%s\"", i ? ", " : "", l->items[i]);
    printf("]\n");
}

/* --show-settings: what applies to each path, and where it comes from. */
static int show_settings(cg_configs *cfgs, const char *const *paths, size_t npaths, const cg_rule_cli *cli,
                         int jobs, const char *format, int respect_gitignore)
{
    static const char *const dot[] = { "." };
    if (!npaths) { paths = dot; npaths = 1; }
    for (size_t p = 0; p < npaths; p++) {
        char *abs = cg_path_abs(paths[p]);
        struct stat st;
        int is_dir = stat(paths[p], &st) == 0 && S_ISDIR(st.st_mode);
        char *dir = is_dir ? cg_xstrdup(abs) : cg_path_dirname(abs);
        const cg_config *c = NULL;
        char err[1024];
        if (cg_configs_find(cfgs, dir, &c, err, sizeof err) < 0) {
            fprintf(stderr, "%s%s\n", cg_emit_error_prefix(), err);
            free(abs); free(dir);
            return EXIT_TROUBLE;
        }
        printf("%sSettings for %s\n", p ? "\n" : "", paths[p]);
        if (c) printf("  %-18s %s%s\n", "config file", c->path, c->in_pyproject ? " [tool.cglint]" : "");
        else printf("  %-18s none (defaults)\n", "config file");
        cg_ruleset rs;
        const char *rel = c ? cg_path_under(abs, c->dir) : NULL;
        cg_config_rules(c, cli, is_dir ? NULL : rel, &rs);
        printf("  %-18s", "rules");
        int any = 0;
        for (size_t i = 0; i < cg_rule_count; i++)
            if (rs.on[i]) { printf("%s%s", any ? ", " : " ", cg_rules[i].id); any = 1; }
        printf("%s\n", any ? "" : " (none)");
        if (c) {
            if (c->has_select) print_list("select", &c->select);
            if (c->extend_select.n) print_list("extend-select", &c->extend_select);
            if (c->ignore.n) print_list("ignore", &c->ignore);
            for (size_t i = 0; i < c->npfi; i++) {
                char k[300];
                snprintf(k, sizeof k, "per-file-ignores \"%s\"", c->pfi[i].glob);
                print_list(k, &c->pfi[i].codes);
            }
            for (size_t i = 0; i < c->nseverity; i++) {
                char k[96];
                snprintf(k, sizeof k, "severity %s", c->severity[i].code);
                printf("  %-18s %s\n", k, cg_severity_name(c->severity[i].level));
            }
            if (c->fail_on >= 0) printf("  %-18s %s\n", "fail-on", cg_severity_name((cg_severity)c->fail_on));
            if (c->has_exclude) print_list("exclude", &c->exclude);
            if (c->extend_exclude.n) print_list("extend-exclude", &c->extend_exclude);
        }
        if (!c || !c->has_exclude)
            printf("  %-18s __pycache__, node_modules, site-packages, __pypackages__, venv, build, _build, "
                   "dist, buck-out (defaults), hidden directories, virtualenvs, CMake build trees\n", "exclude");
        int rg = respect_gitignore >= 0 ? respect_gitignore : !c || c->respect_gitignore != 0;
        printf("  %-18s %s\n", "respect-gitignore", rg ? "true" : "false");
        if (jobs) printf("  %-18s %d\n", "jobs", jobs);
        else printf("  %-18s all cores (%d)\n", "jobs", cg_pool_cores());
        printf("  %-18s %s\n", "output-format", format);
        printf("  %-18s %s\n", "cuda-path", c && c->cuda_path ? c->cuda_path : "(not set)");
        printf("  %-18s %s\n", "compile-commands", c && c->compile_commands ? c->compile_commands : "(not set)");
        free(abs);
        free(dir);
    }
    return EXIT_CLEAN;
}

/* --stdin-filename: the buffer, and the path it stands for (as given and
 * absolute: front ends ask with either). */
typedef struct stdin_buffer { const char *path; char *abs; char *text; size_t len; } stdin_buffer;

static const char *stdin_provided(void *ctx, const char *path, size_t *len)
{
    const stdin_buffer *in = ctx;
    if (strcmp(path, in->path) != 0) {
        char *abs = cg_path_abs(path);
        int same = abs && strcmp(abs, in->abs) == 0;
        free(abs);
        if (!same) return NULL;
    }
    *len = in->len;
    return in->text;
}

static int read_stdin(stdin_buffer *in, const char *path, size_t max)
{
    in->path = path;
    in->abs = cg_path_abs(path);
    size_t cap = 65536;
    /* raw malloc/realloc: sized by the input; failing says so (stdin) and exits 2 */
    in->text = malloc(cap);
    for (;;) {
        if (!in->text) { fputs("cglint: error: out of memory reading stdin\n", stderr); return -1; }
        size_t got = fread(in->text + in->len, 1, cap - in->len - 1, stdin);
        in->len += got;
        if (max && in->len > max) {
            fprintf(stderr, "cglint: error: %s: the buffer on stdin is over the %zu-byte limit "
                    "(--max-file-size)\n", path, max);
            return -1;
        }
        if (got == 0) break;
        if (in->len + 1 == cap) in->text = realloc(in->text, cap *= 2);
    }
    if (ferror(stdin)) {
        fprintf(stderr, "cglint: error: %s: cannot read stdin: %s\n", path, strerror(errno));
        return -1;
    }
    in->text[in->len] = 0;
    return 0;
}

int main(int argc, char **argv)
{
    /* `cglint run ...`: the runtime harness (a directory named run is ./run). */
    if (argc > 1 && strcmp(argv[1], "run") == 0) return cg_run_main(argc - 1, argv + 1);
    /* `cglint server`: the language server (src/server/). */
    if (argc > 1 && strcmp(argv[1], "server") == 0) return cg_server_main(argc - 1, argv + 1);

    /* A run parses megabytes of Python into many small tree-sitter nodes:
     * the heap grows in large steps, not 128 KB ones (fewer brk/mprotect
     * calls on every thread's heap; no page is touched before it is used).
     * CGLINT_TOP_PAD=0 keeps glibc's default, for measuring. */
    if (!getenv("CGLINT_TOP_PAD") || strcmp(getenv("CGLINT_TOP_PAD"), "0") != 0) mallopt(M_TOP_PAD, 32 << 20);

    struct option longopts[48];
    char shortopts[96];
    cg_opts_getopt(cg_cli_options, longopts, sizeof longopts / sizeof *longopts, shortopts, sizeof shortopts);
    int fmt = -1, stats = 0, quiet = 0, exit_zero = 0, color = -1, floor = 0;
    int isolated = 0, show = 0, respect_gitignore = -1, fix = 0, diff = 0, unsafe = 0, fmt_given = 0;
    int cuda_mode = 0, parse_all = 0, fail_on = -1, list = 0, explain = -1;
    const char *cuda_path = NULL, *compile_commands = NULL, *std = NULL, *stdin_filename = NULL;
    int no_cache = 0;
    const char *cache_dir = NULL;
    /* -I and -D, then the configuration's include-dirs and defines (static:
     * they live as long as the run) */
    static const char *incs[256], *defs[256];
    size_t nincs = 0, ndefs = 0;
    long jobs = 0;
    const char *output = NULL, *config_path = NULL, *baseline = NULL, *write_baseline = NULL;
    size_t max_size = 8u << 20;
    char *sel = NULL, *ext = NULL, *ign = NULL;
    const char **exclude = NULL;
    size_t nexclude = 0;

    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            fmt = cg_format_parse(optarg);
            if (fmt < 0)
                usage_error("unknown format '%s' (expected text, concise, json, json-lines, sarif, github, junit, "
                            "gitlab or html)", optarg);
            fmt_given = 1;
            break;
        case 'o': output = optarg; break;
        case O_SELECT: check_codes("--select", optarg); append_list(&sel, optarg); break;
        case O_EXTEND_SELECT: check_codes("--extend-select", optarg); append_list(&ext, optarg); break;
        case O_IGNORE: check_codes("--ignore", optarg); append_list(&ign, optarg); break;
        case O_LIST: list = 1; break;
        case O_EXPLAIN: {
            int i = cg_rule_index(optarg);
            if (i < 0) usage_error("--explain: no rule '%s'; see --list-rules", optarg);
            explain = i;   /* printed after the options, in the --format given */
            break;
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
        case O_VERSION: {
            char clang[256];
            cg_clang_version(clang, sizeof clang);
            printf("cglint %s\nlibclang: %s\ntree-sitter-python: %s\n", CGLINT_VERSION, clang,
                   CGLINT_TSPY_VERSION);
            return EXIT_CLEAN;
        }
        case 'h':
            fputs(usage_text, stdout);
            cg_opts_help(stdout, cg_cli_options);
            fputs(usage_epilogue, stdout);
            return EXIT_CLEAN;
        case O_EXITZERO: exit_zero = 1; break;
        case O_EXCLUDE: {
            char *s = optarg, *save = NULL;   /* argv strings may be split in place */
            for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                exclude = cg_xrealloc(exclude, (nexclude + 1) * sizeof *exclude);
                exclude[nexclude++] = t;
            }
            break;
        }
        case O_COLOR:
            if (strcmp(optarg, "auto") == 0) color = -1;
            else if (strcmp(optarg, "always") == 0) color = 1;
            else if (strcmp(optarg, "never") == 0) color = 0;
            else usage_error("--color takes auto, always or never, not '%s'", optarg);
            cg_emit_stderr_color(color);
            break;
        case O_MAXSIZE:
            if (parse_size(optarg, &max_size) != 0) usage_error("--max-file-size takes a size like 8M, not '%s'", optarg);
            break;
        case O_FLOOR:
            if (strcmp(optarg, "read") == 0) floor = 1;
            else if (strcmp(optarg, "parse") == 0) floor = 2;
            else usage_error("--bench-floor takes read or parse, not '%s'", optarg);
            break;
        case O_CONFIG: config_path = optarg; break;
        case O_ISOLATED: isolated = 1; break;
        case O_SHOW_SETTINGS: show = 1; break;
        case O_NO_GITIGNORE: respect_gitignore = 0; break;
        case O_BASELINE: baseline = optarg; break;
        case O_WRITE_BASELINE: write_baseline = optarg; break;
        case O_FIX: fix = 1; break;
        case O_DIFF: diff = 1; break;
        case O_UNSAFE_FIXES: unsafe = 1; break;
        case O_CUDAPATH: cuda_path = optarg; break;
        case O_PRINTFLAGS: floor = 3; break;
        case O_PARSEALL: parse_all = 1; break;
        case 'p': compile_commands = optarg; break;
        case 'I':
            if (nincs == sizeof incs / sizeof *incs) usage_error("%s", "more than 256 -I options");
            incs[nincs++] = optarg;
            break;
        case 'D':
            if (!*optarg || *optarg == '=') usage_error("-D %s: expected NAME or NAME=VALUE", optarg);
            if (ndefs == sizeof defs / sizeof *defs) usage_error("%s", "more than 256 -D options");
            defs[ndefs++] = optarg;
            break;
        case O_STD: std = optarg; break;
        case O_NO_CACHE: no_cache = 1; break;
        case O_CACHE_DIR:
            if (!*optarg) usage_error("%s", "--cache-dir needs a directory");
            cache_dir = optarg;
            break;
        case O_STDIN_FILENAME:
            if (!*optarg) usage_error("%s", "--stdin-filename needs a path");
            stdin_filename = optarg;
            break;
        case O_FAIL_ON:
            fail_on = cg_severity_parse(optarg);
            if (fail_on < 0) usage_error("--fail-on takes error, warning or note, not '%s'", optarg);
            break;
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
    if (list || explain >= 0) {
        int lrc = cg_emit_rule_info(stdout, fmt < 0 ? CG_FMT_TEXT : (cg_format)fmt, list ? -1 : explain);
        return lrc == 0 && fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_TROUBLE;
    }
    if (baseline && write_baseline)
        usage_error("%s", "--baseline and --write-baseline cannot be used together (--write-baseline records "
                    "every current finding; run it without --baseline)");
    if (diff && (fmt_given || output || stats))
        usage_error("%s", "--diff prints the fixes as a diff instead of a report: it cannot be combined with "
                    "--format, --output or --statistics");
    if (diff && write_baseline)
        usage_error("%s", "--diff and --write-baseline cannot be used together");
    if (config_path && isolated)
        usage_error("%s", "--config and --isolated cannot be used together (--isolated ignores every configuration file)");

    const char *const *paths = (const char *const *)(argv + optind);
    size_t npaths = (size_t)(argc - optind);
    /* process lifetime: the source provider reads it until the end of the run */
    static stdin_buffer in;
    if (stdin_filename) {
        if (npaths)
            usage_error("%s", "--stdin-filename analyses the buffer on stdin: it cannot be combined with PATHs");
        if (fix || diff || write_baseline)
            usage_error("%s", "--stdin-filename cannot be combined with --fix, --diff or --write-baseline "
                        "(there is no file to write; editors take fixes from `cglint server`)");
        if (read_stdin(&in, stdin_filename, max_size) != 0) { free_opts(exclude, sel, ext, ign); return EXIT_TROUBLE; }
        cg_source_set_provider(stdin_provided, &in);
        paths = (const char *const *)&in.path;
        npaths = 1;
    }
    char err[1200];
    cg_configs *cfgs = cg_configs_new(config_path, isolated, err, sizeof err);
    if (!cfgs) {
        fprintf(stderr, "%s%s\n", cg_emit_error_prefix(), err);
        free_opts(exclude, sel, ext, ign);
        return EXIT_TROUBLE;
    }
    /* Run-wide settings (jobs, output-format) come from the configuration of
     * the current directory, or else of the first path, as ruff takes them
     * from the project it runs in. */
    const cg_config *top = NULL;
    {
        char *cwd = cg_path_abs(".");
        int rc = cg_configs_find(cfgs, cwd, &top, err, sizeof err);
        free(cwd);
        if (rc == 0 && !top && npaths) {
            char *abs = cg_path_abs(paths[0]);
            struct stat st;
            char *dir = stat(paths[0], &st) == 0 && S_ISDIR(st.st_mode) ? cg_xstrdup(abs) : cg_path_dirname(abs);
            rc = cg_configs_find(cfgs, dir, &top, err, sizeof err);
            free(abs);
            free(dir);
        }
        if (rc < 0) {
            fprintf(stderr, "%s%s\n", cg_emit_error_prefix(), err);
            cg_configs_free(cfgs);
            free_opts(exclude, sel, ext, ign);
            return EXIT_TROUBLE;
        }
    }
    if (fmt < 0) fmt = top && top->output_format ? cg_format_parse(top->output_format) : CG_FMT_TEXT;
    if (!jobs && top && top->jobs) jobs = top->jobs;
    if (fail_on < 0) fail_on = top && top->fail_on >= 0 ? top->fail_on : CG_SEV_NOTE;
    /* the C/C++ settings of the configuration, under what the command line says */
    if (top) {
        if (!cuda_path) cuda_path = top->cuda_path;
        if (!compile_commands) compile_commands = top->compile_commands;
        if (!std) std = top->std;
        if (!cache_dir) cache_dir = top->cache_dir;
        for (size_t i = 0; i < top->include_dirs.n && nincs < sizeof incs / sizeof *incs; i++)
            incs[nincs++] = top->include_dirs.items[i];
        for (size_t i = 0; i < top->defines.n && ndefs < sizeof defs / sizeof *defs; i++)
            defs[ndefs++] = top->defines.items[i];
    }

    cg_rule_cli rule_cli = { sel, ext, ign };
    if (show) {
        int rc = show_settings(cfgs, paths, npaths, &rule_cli, (int)jobs, cg_format_names[fmt], respect_gitignore);
        cg_configs_free(cfgs);
        free_opts(exclude, sel, ext, ign);
        return rc;
    }

    cg_report report;
    cg_report_init(&report, NULL);
    cg_analyze_opts ro = {
        .paths = paths, .npaths = npaths,
        .exclude = exclude, .nexclude = nexclude, .jobs = (int)jobs,
        .max_file_size = max_size, .floor = floor,
        .configs = cfgs, .rule_cli = &rule_cli, .respect_gitignore = respect_gitignore,
        .context = 1, .baseline = baseline,
        .cuda_mode = cuda_mode, .cuda_path = cuda_path, .compile_commands = compile_commands,
        .cuda_parse_all = parse_all,
        .include_dirs = incs, .ninclude_dirs = nincs, .defines = defs, .ndefines = ndefs, .std = std,
        .no_cache = no_cache, .cache_dir = cache_dir,
        .exit_after = 1,
    };
    progress pr;
    int pr_on = progress_start(&pr, &report, quiet || show);
    int run_rc = cg_analyze(&ro, &report);
    progress_stop(&pr, pr_on);

    /* tool messages: stderr, one line each */
    for (size_t i = 0; i < report.nnotices; i++) {
        const cg_notice *n = &report.notices[i];
        if (n->level < CG_ERROR && quiet) continue;
        print_notice(n);
    }
    if (floor == 3) {
        cg_report_free(&report);
        cg_configs_free(cfgs);
        free_opts(exclude, sel, ext, ign);
        return EXIT_CLEAN;
    }
    if (run_rc < 0) {
        cg_report_free(&report);
        cg_configs_free(cfgs);
        free_opts(exclude, sel, ext, ign);
        return EXIT_TROUBLE;
    }
    if (floor) {
        fprintf(stderr, "cglint: floor (%s): %zu files\n", floor == 1 ? "read" : "parse", report.files_seen);
        cg_report_free(&report);
        cg_configs_free(cfgs);
        free_opts(exclude, sel, ext, ign);
        return EXIT_CLEAN;
    }

    if (diff || fix) {
        cg_fix_opts fo = { .unsafe = unsafe, .write = !diff, .diff = diff ? stdout : NULL,
                           .checker = cg_syntax_checker };
        cg_fix_result fr;
        size_t notices_before = report.nnotices;
        cg_fix_apply(&report, &fo, &fr);
        for (size_t i = notices_before; i < report.nnotices; i++) {
            const cg_notice *n = &report.notices[i];
            if (n->level < CG_ERROR && quiet) continue;
            print_notice(n);
        }
        if (diff) {
            int code = cg_report_errors(&report) ? EXIT_TROUBLE : fr.files ? EXIT_FINDINGS : EXIT_CLEAN;
            if (!quiet)
                fprintf(stderr, "cglint: %zu fix%s in %zu file%s would be applied by --fix\n", fr.findings,
                        fr.findings == 1 ? "" : "es", fr.files, fr.files == 1 ? "" : "s");
            if (fflush(stdout) != 0) code = EXIT_TROUBLE;
            cg_report_free(&report);
            cg_configs_free(cfgs);
            free_opts(exclude, sel, ext, ign);
            return code;
        }
        if (!quiet && fr.findings)
            fprintf(stderr, "cglint: fixed %zu finding%s in %zu file%s\n", fr.findings,
                    fr.findings == 1 ? "" : "s", fr.files, fr.files == 1 ? "" : "s");
    }

    if (write_baseline) {
        int code = cg_report_errors(&report) ? EXIT_TROUBLE : EXIT_CLEAN;
        if (cg_baseline_write(&report, write_baseline, CGLINT_VERSION, err, sizeof err) != 0) {
            fprintf(stderr, "%s%s\n", cg_emit_error_prefix(), err);
            code = EXIT_TROUBLE;
        } else if (!quiet) {
            fprintf(stderr, "cglint: wrote %zu finding%s to the baseline %s\n", report.nfindings,
                    report.nfindings == 1 ? "" : "s", write_baseline);
        }
        cg_report_free(&report);
        cg_configs_free(cfgs);
        free_opts(exclude, sel, ext, ign);
        return code;
    }

    if (color < 0) {
        const char *nc = getenv("NO_COLOR");
        color = !output && isatty(STDOUT_FILENO) && !(nc && *nc);
    }
    cg_emit_opts eo = { .color = color, .statistics = stats, .quiet = quiet, .tool_version = CGLINT_VERSION };
    int rc = output ? emit_to_file(output, (cg_format)fmt, &report, &eo) : emit_any(stdout, (cg_format)fmt, &report, &eo);
    if (!output && fflush(stdout) != 0) rc = -1;
    int code = EXIT_CLEAN;
    if (rc != 0) {
        if (!output) fprintf(stderr, "%scannot write the report: %s\n", cg_emit_error_prefix(), strerror(errno));
        code = EXIT_TROUBLE;
    } else if (cg_report_errors(&report) > 0) {
        code = EXIT_TROUBLE;
    } else if (!exit_zero) {
        /* --fail-on: only findings at or above the level fail the run */
        for (size_t i = 0; i < report.nfindings && code == EXIT_CLEAN; i++)
            if ((int)report.findings[i].level >= fail_on) code = EXIT_FINDINGS;
    }
    cg_report_free(&report);
    cg_configs_free(cfgs);
    free_opts(exclude, sel, ext, ign);
    return code;
}
