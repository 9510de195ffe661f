/* run_cmd.c - `cglint run [OPTIONS] [PATH...] -- COMMAND [ARGS...]`.
 *
 * 1. Static findings: from --findings FILE, or by analysing PATH (default
 *    ".") when this cglint has the analyzers.
 * 2. COMMAND runs with the observers injected (PYTHONPATH -> sitecustomize
 *    for Python processes, CUDA_INJECTION64_PATH -> the CUPTI library), its
 *    stdin, stdout and stderr untouched, each process writing its own event
 *    file into one directory.
 * 3. The events are joined to the findings (join.c) and one report is
 *    written: to -o FILE, or to stderr, so that the program's stdout stays
 *    exactly its own.
 * The exit status is the program's (128+N when signal N killed it), 127 when
 * COMMAND cannot be found, 2 when cglint could not start it. */
#include "run.h"
#include "core/alloc.h"
#include "driver.h"
#include "cli/options.h"
#include "emit/emit.h"
#include "core/file.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cglint_version.h"   /* generated from CMake's project(VERSION) */

static const char run_usage[] =
    "Usage: cglint run [OPTIONS] [PATH...] -- COMMAND [ARGS...]\n"
    "\n"
    "Run COMMAND (a Python program, torchrun, or a native CUDA program) on this\n"
    "machine's GPU, watch every CUDA graph capture and replay, and give each static\n"
    "finding a verdict: confirmed (with what the run saw and where), not reproduced,\n"
    "not exercised, or static only. What the run saw that no finding predicted is\n"
    "reported as found at run time. The program's stdin, stdout, stderr and exit\n"
    "status are its own; the report goes to stderr, or to -o FILE.\n"
    "\n";

/* after the options */
static const char run_usage_epilogue[] =
    "\n"
    "Exit status: the program's own (128+N if signal N killed it); 127 COMMAND not\n"
    "found; 2 cglint could not start it (bad options, a findings file that is not cglint's).\n"
    "\n"
    "Environment: CGLINT_RUNTIME_DIR  the runtime directory (holding python/cglint_runtime);\n"
    "                                 default: ../share/cglint/runtime beside this binary,\n"
    "                                 else the source tree it was built from\n"
    "             CGLINT_CUPTI_LIB    the CUPTI library; default: ../lib/cglint beside this\n"
    "                                 binary, else the build tree's; empty: none\n";

static void die_usage(const char *fmt, const char *arg)
{
    cg_cli_usage_error("cglint run", fmt, arg);
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static void exe_dir(char *out, size_t n)
{
    char buf[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (k <= 0) { snprintf(out, n, "."); return; }
    buf[k] = 0;
    snprintf(out, n, "%s", dirname(buf));
}

/* Where an installed cglint keeps its runtime, relative to the directory of
 * the binary (CMake computes them from GNUInstallDirs: ../share/cglint/runtime
 * and ../lib/cglint under one prefix). */
#ifndef CGLINT_REL_RUNTIME
#define CGLINT_REL_RUNTIME "../share/cglint/runtime"
#endif
#ifndef CGLINT_REL_LIBDIR
#define CGLINT_REL_LIBDIR "../lib/cglint"
#endif

static int has_observer(const char *dir)
{
    char probe[PATH_MAX + 64];
    snprintf(probe, sizeof probe, "%.3900s/python/cglint_runtime/observer.py", dir);
    return exists(probe);
}

/* runtime/ (with python/cglint_runtime), or NULL.  CGLINT_RUNTIME_DIR, when
 * set, decides alone; else the runtime beside the binary (installed:
 * ../share/cglint/runtime, found through /proc/self/exe, so a relocated
 * install or an unpacked .deb works), then the source tree it was built
 * from (a binary run from, or copied out of, its build directory). */
static char *find_runtime_dir(int *env_bad)
{
    const char *env = getenv("CGLINT_RUNTIME_DIR");
    *env_bad = 0;
    if (env && *env) {
        if (has_observer(env)) {
            char res[PATH_MAX];
            return cg_xstrdup(realpath(env, res) ? res : env);
        }
        *env_bad = 1;
        return NULL;
    }
    char cand[4][PATH_MAX];
    int nc = 0;
    char d[PATH_MAX];
    exe_dir(d, sizeof d);
    snprintf(cand[nc++], PATH_MAX, "%.3000s/%s", d, CGLINT_REL_RUNTIME);
    snprintf(cand[nc++], PATH_MAX, "%.3000s/../share/cglint/runtime", d);
    snprintf(cand[nc++], PATH_MAX, "%.3000s/runtime", d);
#ifdef CGLINT_SOURCE_RUNTIME
    snprintf(cand[nc++], PATH_MAX, "%s", CGLINT_SOURCE_RUNTIME);
#endif
    for (int i = 0; i < nc; i++) {
        if (has_observer(cand[i])) {
            char res[PATH_MAX];
            return cg_xstrdup(realpath(cand[i], res) ? res : cand[i]);
        }
    }
    return NULL;
}

/* libcglint_cupti.so: CGLINT_CUPTI_LIB, else beside the binary (installed:
 * ../lib/cglint), else where the build put it. */
static char *find_cupti_lib(void)
{
    const char *env = getenv("CGLINT_CUPTI_LIB");
    if (env) return *env && exists(env) ? cg_xstrdup(env) : NULL;
    char d[PATH_MAX], p[PATH_MAX + 64];
    exe_dir(d, sizeof d);
    const char *rel[] = { CGLINT_REL_LIBDIR, "../lib/cglint", "." };
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
        snprintf(p, sizeof p, "%.3000s/%s/libcglint_cupti.so", d, rel[i]);
        if (exists(p)) {
            char res[PATH_MAX];
            return cg_xstrdup(realpath(p, res) ? res : p);
        }
    }
#ifdef CGLINT_CUPTI_BUILD_PATH
    if (exists(CGLINT_CUPTI_BUILD_PATH)) return cg_xstrdup(CGLINT_CUPTI_BUILD_PATH);
#endif
    return NULL;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

/* Hints for the Python observer: the lines whose values it should watch. */
static void write_hints(const char *file, const cg_report *r)
{
    /* a file of our own in the events directory: created anew, never a FIFO
     * or a link someone left there (O_NONBLOCK: a FIFO fails at once) */
    unlink(file);
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) { if (fd >= 0) close(fd); return; }
    for (size_t i = 0; i < r->nfindings; i++) {
        const cg_finding *x = &r->findings[i];
        char joined[PATH_MAX * 2], res[PATH_MAX];
        if (x->loc.path[0] != '/' && r->root) snprintf(joined, sizeof joined, "%s/%s", r->root, x->loc.path);
        else snprintf(joined, sizeof joined, "%s", x->loc.path);
        const char *p = realpath(joined, res) ? res : joined;
        fputs("{\"rule\":\"", f);
        fputs(cg_rules[x->rule].id, f);
        fputs("\",\"path\":\"", f);
        for (const char *c = p; *c; c++) {
            if (*c == '"' || *c == '\\') fputc('\\', f);
            if ((unsigned char)*c < 0x20) fprintf(f, "\\u%04x", *c);
            else fputc(*c, f);
        }
        fprintf(f, "\",\"line\":%u,\"end_line\":%u}\n", (unsigned)x->loc.line,
                (unsigned)(x->loc.end_line > x->loc.line ? x->loc.end_line : x->loc.line));
    }
    fclose(f);
}

static volatile sig_atomic_t child_pid = 0;

static void forward_signal(int sig)
{
    if (child_pid > 0) kill((pid_t)child_pid, sig);
}

/* Runs argv with env changes; returns the wait status, or -1 with errno
 * (exec failure: *exec_errno set). */
static int spawn(char **argv, int *exec_errno)
{
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0) return -1;
    struct sigaction ign = {0}, old_int, old_quit, fwd = {0}, old_term, old_hup;
    ign.sa_handler = SIG_IGN;
    fwd.sa_handler = forward_signal;
    sigaction(SIGINT, &ign, &old_int);     /* the terminal's ^C goes to the program; */
    sigaction(SIGQUIT, &ign, &old_quit);   /* cglint stays to report */
    sigaction(SIGTERM, &fwd, &old_term);
    sigaction(SIGHUP, &fwd, &old_hup);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { close(pfd[0]); close(pfd[1]); return -1; }
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        sigaction(SIGHUP, &old_hup, NULL);
        close(pfd[0]);
        execvp(argv[0], argv);
        int e = errno;
        if (write(pfd[1], &e, sizeof e) < 0) {}
        _exit(127);
    }
    child_pid = pid;
    close(pfd[1]);
    int e = 0;
    ssize_t k;
    while ((k = read(pfd[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(pfd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    child_pid = 0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    if (k == (ssize_t)sizeof e) { *exec_errno = e; return -1; }
    return status;
}

static char *read_first_line(const char *path)
{
    char ferr[256];
    FILE *f = cg_file_fopen(path, ferr, sizeof ferr);
    if (!f) return NULL;
    char buf[512];
    char *out = NULL;
    if (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = 0;
        out = cg_xstrdup(buf);
    }
    fclose(f);
    return out;
}

/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  ..." -> 580.159.04:
 * the first word that is digits and dots. */
static char *driver_version(void)
{
    char *l = read_first_line("/proc/driver/nvidia/version");
    if (!l) return NULL;
    char *out = NULL, *save = NULL;
    for (char *w = strtok_r(l, " \t", &save); w && !out; w = strtok_r(NULL, " \t", &save)) {
        size_t n = strspn(w, "0123456789.");
        if (n == strlen(w) && n > 2 && strchr(w, '.')) out = cg_xstrdup(w);
    }
    free(l);
    return out;
}

static int write_report(const char *output, cg_format fmt, const cg_report *r, const cg_emit_opts *eo)
{
    if (!output) {
        int rc = cg_emit(stderr, fmt, r, eo);
        fflush(stderr);
        return rc;
    }
    /* as `cglint -o`: atomically over a regular file, through a device or FIFO */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc = mem ? cg_emit(mem, fmt, r, eo) : -1;
    if (mem && fclose(mem) != 0) rc = -1;
    char err[512];
    if (rc == 0 && cg_file_write(output, buf, len, 0666, 0, err, sizeof err) != 0) {
        fprintf(stderr, "%s%s: cannot write the report: %s\n", cg_emit_error_prefix(), output, err);
        rc = -2;
    }
    free(buf);
    return rc;
}

static const char *signame(int sig)
{
    const char *s = sigabbrev_np(sig);
    return s ? s : "?";
}

int cg_run_main(int argc, char **argv)
{
    int dd = -1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) { dd = i; break; }
    for (int i = 1; i < (dd < 0 ? argc : dd); i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(run_usage, stdout);
            cg_opts_help(stdout, cg_run_options);
            fputs(run_usage_epilogue, stdout);
            return 0;
        }
    if (dd < 0) die_usage("%s", "cglint run needs the program after '--': cglint run [PATH...] -- COMMAND [ARGS...]");
    if (dd == argc - 1) die_usage("%s", "no COMMAND after '--'");

    struct option longopts[24];
    char shortopts[48];
    cg_opts_getopt(cg_run_options, longopts, sizeof longopts / sizeof *longopts, shortopts, sizeof shortopts);
    const char *findings = NULL, *events = NULL, *output = NULL;
    int fmt = CG_FMT_TEXT, no_cupti = 0, strict = 0, quiet = 0, color = -1, selected = 0;
    cg_ruleset rules;
    cg_ruleset_all(&rules);
    char bad[64];
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(dd, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case RO_FINDINGS: findings = optarg; break;
        case RO_EVENTS: events = optarg; break;
        case RO_NOCUPTI: no_cupti = 1; break;
        case RO_STRICT: strict = 1; break;
        case 'f':
            fmt = cg_format_parse(optarg);
            if (fmt < 0)
                die_usage("unknown format '%s' (expected text, json, sarif, github, html, concise, json-lines, junit "
                          "or gitlab)", optarg);
            break;
        case 'o': output = optarg; break;
        case 'q': quiet = 1; break;
        case RO_SELECT:
            if (cg_ruleset_select(&rules, optarg, !selected, bad, sizeof bad) != 0)
                die_usage("--select: '%s' is not a rule code or prefix", bad);
            selected = 1;
            break;
        case RO_IGNORE:
            if (cg_ruleset_ignore(&rules, optarg, bad, sizeof bad) != 0)
                die_usage("--ignore: '%s' is not a rule code or prefix", bad);
            break;
        case RO_COLOR:
            color = strcmp(optarg, "always") == 0 ? 1 : strcmp(optarg, "never") == 0 ? 0 : -1;
            if (color < 0 && strcmp(optarg, "auto") != 0) die_usage("--color takes auto, always or never, not '%s'", optarg);
            cg_emit_stderr_color(color);
            break;
        case ':': die_usage("option '%s' needs a value", argv[optind - 1]); break;
        default: die_usage("unknown option '%s'", argv[optind - 1]); break;
        }
    }
    char **paths = argv + optind;
    size_t npaths = (size_t)(dd - optind);
    char **cmd = argv + dd + 1;
    if (findings && npaths) die_usage("%s", "give either PATH... or --findings FILE, not both");

    /* 1. the static findings */
    cg_report report;
    cg_report_init(&report, &rules);
    char cwd[PATH_MAX];
    report.root = cg_xstrdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
    if (findings) {
        char err[1024];
        if (cg_findings_load(findings, &report, err, sizeof err) != 0) {
            fprintf(stderr, "%s%s\n", cg_emit_error_prefix(), err);
            cg_report_free(&report);
            return 2;
        }
    } else {
#ifdef CGLINT_HAVE_ANALYZERS
        cg_analyze_opts ro = {.paths = (const char *const *)paths, .npaths = npaths, .max_file_size = 8u << 20};
        cg_analyze(&ro, &report);
#else
        (void)paths;
        if (npaths) {
            fprintf(stderr, "%sthis cglint was built without the static analyzers "
                            "(CGLINT_ANALYZERS=OFF): give the findings of an earlier run with --findings FILE\n",
                    cg_emit_error_prefix());
            cg_report_free(&report);
            return 2;
        }
        cg_report_notice(&report, CG_NOTE, NULL, 0, 0,
                         "no static findings (this cglint has no analyzers and no --findings FILE was given): "
                         "only what the run sees is reported");
#endif
    }

    /* 2. the program, observed */
    char tmpdir[PATH_MAX];
    int own_events = !events;
    if (own_events) {
        const char *t = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/cglint-run.XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(tmpdir)) {
            fprintf(stderr, "%scannot make a directory for the events: %s\n", cg_emit_error_prefix(), strerror(errno));
            cg_report_free(&report);
            return 2;
        }
        events = tmpdir;
    } else if (mkdir(events, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%scannot make the events directory %s: %s\n", cg_emit_error_prefix(), events, strerror(errno));
        cg_report_free(&report);
        return 2;
    }
    char evabs[PATH_MAX];
    if (!realpath(events, evabs)) snprintf(evabs, sizeof evabs, "%s", events);
    char hints[PATH_MAX + 32];
    snprintf(hints, sizeof hints, "%s/hints.json", evabs);
    write_hints(hints, &report);

    int env_bad;
    char *runtime = find_runtime_dir(&env_bad);
    if (!runtime && env_bad)
        cg_report_notice(&report, CG_WARN, NULL, 0, 0,
                         "CGLINT_RUNTIME_DIR=%s holds no python/cglint_runtime/observer.py: "
                         "Python programs are not observed", getenv("CGLINT_RUNTIME_DIR"));
    else if (!runtime)
        cg_report_notice(&report, CG_WARN, NULL, 0, 0,
                         "the Python observer (runtime/python) was not found: set CGLINT_RUNTIME_DIR; "
                         "Python programs are not observed");
    char *cupti = no_cupti ? NULL : find_cupti_lib();
    setenv("CGLINT_EVENTS_DIR", evabs, 1);
    setenv("CGLINT_HINTS", hints, 1);
    /* the files named on the command line are the user's code, wherever they
     * are (an installed package, a site-packages checkout) */
    if (npaths) {
        size_t len = 1;
        for (size_t i = 0; i < npaths; i++) len += strlen(paths[i]) + PATH_MAX + 2;
        char *ud = cg_xcalloc(1, len);
        for (size_t i = 0; i < npaths; i++) {
            char res[PATH_MAX];
            if (!realpath(paths[i], res)) continue;
            if (*ud) strcat(ud, ":");
            strcat(ud, res);
        }
        setenv("CGLINT_USER_DIRS", ud, 1);
        free(ud);
    } else {
        unsetenv("CGLINT_USER_DIRS");
    }
    if (runtime) {
        const char *old = getenv("PYTHONPATH");
        char *pp = NULL;
        if (asprintf(&pp, "%s/python/_cglint_site:%s/python%s%s", runtime, runtime, old && *old ? ":" : "",
                     old && *old ? old : "") > 0) {
            setenv("PYTHONPATH", pp, 1);
            free(pp);
        }
    }
    const char *user_inj = getenv("CUDA_INJECTION64_PATH");
    if (cupti && user_inj && *user_inj) {
        cg_report_notice(&report, CG_WARN, NULL, 0, 0,
                         "CUDA_INJECTION64_PATH is already set (%s): the CUPTI observer is not loaded", user_inj);
        free(cupti);
        cupti = NULL;
    } else if (cupti) {
        setenv("CUDA_INJECTION64_PATH", cupti, 1);
    }

    int exec_errno = 0;
    int status = spawn(cmd, &exec_errno);
    if (status < 0) {
        if (exec_errno == ENOENT)
            fprintf(stderr, "%scannot run '%s': command not found\n", cg_emit_error_prefix(), cmd[0]);
        else
            fprintf(stderr, "%scannot run '%s': %s\n", cg_emit_error_prefix(), cmd[0], strerror(exec_errno ? exec_errno : errno));
        if (own_events) nftw(events, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(runtime);
        free(cupti);
        cg_report_free(&report);
        return exec_errno == ENOENT ? 127 : exec_errno ? 126 : 2;
    }

    /* 3. the join and the report */
    cg_run_info *ri = cg_xcalloc(1, sizeof *ri);
    for (char **a = cmd; *a; a++) ri->argc++;
    ri->argv = cg_xcalloc(ri->argc, sizeof *ri->argv);
    for (size_t i = 0; i < ri->argc; i++) ri->argv[i] = cg_xstrdup(cmd[i]);
    int code;
    if (WIFSIGNALED(status)) {
        ri->exit_code = -1;
        ri->signal = WTERMSIG(status);
        code = 128 + ri->signal;
    } else {
        ri->exit_code = WEXITSTATUS(status);
        code = ri->exit_code;
    }
    report.run = ri;
    cg_events ev;
    char err[1024];
    if (cg_events_load(evabs, &ev, err, sizeof err) != 0) {
        cg_report_notice(&report, CG_WARN, NULL, 0, 0, "%s", err);
        memset(&ev, 0, sizeof ev);
    }
    ri->processes = ev.processes;
    ri->torch = ev.torch ? cg_xstrdup(ev.torch) : NULL;
    ri->cuda = ev.cuda ? cg_xstrdup(ev.cuda) : NULL;
    ri->gpu = ev.gpu ? cg_xstrdup(ev.gpu) : NULL;
    ri->driver = driver_version();
    cg_join(&report, &ev);

    if (ri->signal)
        cg_report_notice(&report, CG_WARN, NULL, 0, 0,
                         "the program was killed by signal %d (SIG%s); the verdicts cover what it did until then",
                         ri->signal, signame(ri->signal));
    else if (ri->exit_code)
        cg_report_notice(&report, CG_WARN, NULL, 0, 0,
                         "the program exited with status %d; the verdicts cover what it did until then",
                         ri->exit_code);
    if (ev.cupti_failed)
        cg_report_notice(&report, CG_WARN, NULL, 0, 0, "CUPTI could not be used: %s; failing CUDA calls are seen "
                         "only through Python exceptions", ev.cupti_error ? ev.cupti_error : "unknown reason");
    int no_capture = ri->captures == 0;
    if (no_capture) {
        /* No GPU, no silence: say why on one line, and mark every finding. */
        char why[512];
        const char *vis = getenv("CUDA_VISIBLE_DEVICES");
        int hidden = vis && (strspn(vis, " \t,") == strlen(vis) || !strcmp(vis, "-1") || !strcmp(vis, "NoDevFiles"));
        int nodev = !exists("/dev/nvidiactl") && !exists("/dev/nvidia0") && !exists("/dev/dxg");
        const char *base = strrchr(cmd[0], '/');
        base = base ? base + 1 : cmd[0];
        int py = strncmp(base, "python", 6) == 0 || strcmp(base, "torchrun") == 0;
        if (hidden)
            snprintf(why, sizeof why, "no CUDA device is visible (CUDA_VISIBLE_DEVICES=\"%s\" hides every device)", vis);
        else if (ev.cuda_unavailable)
            snprintf(why, sizeof why, "no CUDA device is visible (torch.cuda.is_available() was False in the program)");
        else if (ev.processes == 0 && py)
            snprintf(why, sizeof why, "no process reported to the observer (the Python observer did not load: python "
                                      "-I, -E or -S, or a PYTHONPATH that the program replaces?)");
        else if (ev.processes == 0 && nodev)
            snprintf(why, sizeof why, "no CUDA device is visible (this machine has no NVIDIA device: no /dev/nvidia*)");
        else if (ev.processes == 0)
            snprintf(why, sizeof why, "no process reported to the observer (%s)",
                     cupti ? "the program never initialised CUDA, or is not a CUDA program: the CUPTI library "
                             "is loaded at cuInit"
                           : "the CUPTI library is not built or was not found, so native programs are not "
                             "observed; see runtime/README.md");
        else if (ev.cuda_initialized)
            snprintf(why, sizeof why, "the program ran no CUDA graph capture");
        else if (nodev)
            snprintf(why, sizeof why, "no CUDA device is visible (this machine has no NVIDIA device: no /dev/nvidia*)");
        else if (ev.cuda_uninitialized)
            snprintf(why, sizeof why, "the program never initialised CUDA");
        else
            snprintf(why, sizeof why, "the program ran no CUDA graph capture");
        cg_report_notice(&report, CG_WARN, NULL, 0, 0, "%s: no capture ran, so every finding is not exercised%s",
                         why, strict && code == 0 ? " (--strict: exit 1)" : "");
        for (size_t i = 0; i < report.nfindings; i++) {
            cg_finding *f = &report.findings[i];
            if (f->verdict == CG_VERDICT_RUNTIME || f->verdict == CG_VERDICT_CONFIRMED) continue;
            f->verdict = CG_VERDICT_NOT_EXERCISED;
            free(f->evidence);
            f->evidence = cg_xstrdup("no capture ran");
        }
    }
    if (!no_capture && !cupti && !no_cupti && ev.processes)
        cg_report_notice(&report, CG_NOTE, NULL, 0, 0,
                         "the CUPTI library is not built or was not found: failing CUDA calls are seen only "
                         "through Python exceptions");
    cg_events_free(&ev);
    cg_report_sort(&report);

    for (size_t i = 0; i < report.nnotices; i++) {
        const cg_notice *n = &report.notices[i];
        if (n->level < CG_WARN && quiet) continue;
        fputs(cg_emit_level_prefix(n->level), stderr);
        if (n->path) {
            cg_emit_escaped(stderr, n->path);
            if (n->line) fprintf(stderr, ":%u", n->line);
            fputs(": ", stderr);
        }
        cg_emit_escaped(stderr, n->message);
        fputc('\n', stderr);
    }
    if (color < 0) {
        const char *nc = getenv("NO_COLOR");
        color = !output && isatty(STDERR_FILENO) && !(nc && *nc);
    }
    cg_emit_opts eo = {.color = color, .quiet = quiet, .tool_version = CGLINT_VERSION};
    int wrc = write_report(output, (cg_format)fmt, &report, &eo);
    if (wrc != 0) {
        if (wrc == -1)   /* -2: write_report said why */
            fprintf(stderr, "%scannot write the report%s%s: %s\n", cg_emit_error_prefix(), output ? " to " : "",
                    output ? output : "", strerror(errno ? errno : EIO));
        if (code == 0) code = 2;
    }
    if (strict && code == 0 &&
        (no_capture ||
         cg_report_count_verdict(&report, CG_VERDICT_CONFIRMED) + cg_report_count_verdict(&report, CG_VERDICT_RUNTIME)))
        code = 1;
    if (own_events) nftw(events, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(runtime);
    free(cupti);
    cg_report_free(&report);
    return code;
}
