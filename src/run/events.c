/* events.c - read the JSONL event files that the observers wrote: the Python
 * package (runtime/python, files py-PID-*.jsonl) and the CUPTI library
 * (runtime/cupti, files cupti-PID-*.jsonl).  The format is described in
 * runtime/README.md.  Regions are merged over processes by their site;
 * native frames are symbolised here, with addr2line, for programs built
 * with -g. */
#include "run.h"
#include "core/file.h"
#include "core/alloc.h"
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define xrealloc cg_xrealloc

#define PUSH(arr, n, item) do { (arr) = xrealloc((arr), ((n) + 1) * sizeof *(arr)); (arr)[(n)++] = (item); } while (0)

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static const char *jstr(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }
static long long jint(json_t *o, const char *k) { return (long long)json_integer_value(json_object_get(o, k)); }

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) s = NULL;
    va_end(ap);
    return s ? s : strdup("?");
}

/* ---- native symbolisation --------------------------------------------------- */

static int skip_module(const char *mod)
{
    const char *b = strrchr(mod, '/');
    b = b ? b + 1 : mod;
    static const char *const pre[] = {"libcupti", "libcuda.", "libcudart", "libcglint_cupti", "libc.so",
                                      "libc-", "libpthread", "ld-linux", "libstdc++", "libgcc", "libnvidia",
                                      "libtorch", "libc10", "libpython", "linux-vdso", "libcublas", "libcudnn",
                                      "libnccl", "libdl", "python3"};
    for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
        if (strncmp(b, pre[i], strlen(pre[i])) == 0) return 1;
    return 0;
}

static int elf_is_exec(const char *mod)
{
    char ferr[256];
    FILE *f = cg_file_fopen(mod, ferr, sizeof ferr);
    if (!f) return 0;
    Elf64_Ehdr h;
    int exec = fread(&h, sizeof h, 1, f) == 1 && memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 && h.e_type == ET_EXEC;
    fclose(f);
    return exec;
}

/* file:line of one address via addr2line, or 0. */
static int addr2line(const char *mod, unsigned long long addr, char **path, uint32_t *line, char **func)
{
    int pfd[2];
    if (pipe(pfd) != 0) return 0;
    pid_t pid = fork();
    if (pid < 0) { close(pfd[0]); close(pfd[1]); return 0; }
    if (pid == 0) {
        dup2(pfd[1], 1);
        int devnull = open("/dev/null", 1);
        if (devnull >= 0) dup2(devnull, 2);
        close(pfd[0]);
        char a[32];
        snprintf(a, sizeof a, "0x%llx", addr);
        execlp("addr2line", "addr2line", "-f", "-C", "-e", mod, a, (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    FILE *f = fdopen(pfd[0], "r");
    char fn[1024] = "", fl[4096] = "";
    int ok = 0;
    if (f && fgets(fn, sizeof fn, f) && fgets(fl, sizeof fl, f)) {
        fn[strcspn(fn, "\n")] = 0;
        fl[strcspn(fl, "\n")] = 0;
        char *colon = strrchr(fl, ':');
        if (colon && fl[0] != '?') {
            *colon = 0;
            unsigned long l = strtoul(colon + 1, NULL, 10);
            if (l > 0) {
                *path = strdup(fl);
                *line = (uint32_t)l;
                *func = strdup(fn[0] == '?' ? "?" : fn);
                ok = 1;
            }
        }
    }
    if (f) fclose(f); else close(pfd[0]);
    int st;
    waitpid(pid, &st, 0);
    return ok;
}

/* Whether line `line` of `path` defines a kernel: a launch's host stub maps there. */
static int kernel_definition(const char *path, uint32_t line)
{
    char ferr[256];
    FILE *f = cg_file_fopen(path, ferr, sizeof ferr);
    if (!f) return 0;
    char buf[4096];
    int hit = 0;
    for (uint32_t at = 1; fgets(buf, sizeof buf, f); at++)
        if (at == line) { hit = strstr(buf, "__global__") != NULL; break; }
    fclose(f);
    return hit;
}

/* Frames from [[path, line, func]...] (Python) or [[module, off, abs]...] (native). */
static void frames_from(json_t *py, json_t *native, cg_ev_frame **out, size_t *n)
{
    size_t i;
    json_t *fr;
    json_array_foreach(py, i, fr) {
        const char *p = json_string_value(json_array_get(fr, 0));
        if (!p || (p[0] == '<' && strcmp(p, "<string>") != 0)) continue;   /* `python -c`'s code is kept */
        cg_ev_frame f = {strdup(p), (uint32_t)json_integer_value(json_array_get(fr, 1)),
                         dup_or_null(json_string_value(json_array_get(fr, 2)))};
        PUSH(*out, *n, f);
    }
    int symbolised = 0;
    json_array_foreach(native, i, fr) {
        const char *mod = json_string_value(json_array_get(fr, 0));
        if (!mod || skip_module(mod) || symbolised >= 4) continue;
        const char *off = json_string_value(json_array_get(fr, 1));
        const char *abs = json_string_value(json_array_get(fr, 2));
        unsigned long long a = strtoull(elf_is_exec(mod) ? (abs ? abs : "0") : (off ? off : "0"), NULL, 16);
        /* a return address: the call is the instruction before it */
        if (a) a--;
        cg_ev_frame f = {0};
        if (addr2line(mod, a, &f.path, &f.line, &f.func)) {
            /* kernel launch stubs and generated files are nvcc's, not the user's */
            if (strstr(f.path, "tmpxft") || strstr(f.path, ".stub.c") || strncmp(f.func, "__device_stub", 13) == 0 ||
                strstr(f.path, "/include/crt/") || strstr(f.path, "/targets/x86_64-linux/include/") ||
                strstr(f.path, "/targets/sbsa-linux/include/") || strncmp(f.path, "/usr/include/", 13) == 0 ||
                strncmp(f.path, "/usr/local/cuda", 15) == 0 || strncmp(f.func, "__cuda", 6) == 0 ||
                strncmp(f.func, "cuda", 4) == 0 || kernel_definition(f.path, f.line)) {
                free(f.path);
                free(f.func);
                continue;
            }
            PUSH(*out, *n, f);
            symbolised++;
        }
    }
}

/* ---- reading ------------------------------------------------------------------ */

typedef struct {
    int pid; long long rid; size_t idx;
    unsigned long replays, entries, samples, recaptures;
    int same_graph;
    double mean;
    double eager_ms;         /* the step's eager GPU time; < 0 none */
    unsigned long eager_calls;
    char *eager_fns;
} pid_region;
typedef struct { int pid; size_t region; long long t0, t1; } py_capture;
typedef struct { int pid; long long t1; long nodes; } cupti_capture;

typedef struct {
    cg_events *ev;
    pid_region *pr; size_t npr;
    py_capture *pc; size_t npc;
    cupti_capture *cc; size_t ncc;
    int *py_pids; size_t npy;
    int *all_pids; size_t nall;
    /* one CUPTI file (one process) at a time: its captures and its failing or
     * eager calls, to put each call in the capture that was open at the time */
    struct native_cap { size_t idx; long long t0, t1; } *ncap; size_t nncap;
    struct native_hit { size_t hit; long long t; } *nhit; size_t nnhit;
    /* CUPTI observations in Python processes, put in the Python capture open at their time */
    size_t *pyhit; size_t npyhit;
} reader;

static size_t region_index(cg_events *ev, const char *path, uint32_t line, const char *kind)
{
    for (size_t i = 0; i < ev->nregions; i++) {
        cg_ev_region *r = &ev->regions[i];
        if (r->line == line && strcmp(r->path, path) == 0 && strcmp(r->kind, kind) == 0) return i;
    }
    cg_ev_region r = {.path = strdup(path), .line = line, .kind = strdup(kind), .nodes = -1};
    PUSH(ev->regions, ev->nregions, r);
    return ev->nregions - 1;
}

static struct cg_rank_stat *rank_stat(cg_ev_region *r, int rank)
{
    if (rank < 0) return NULL;
    size_t i = 0;
    while (i < r->nranks && r->ranks[i].rank < rank) i++;
    if (i < r->nranks && r->ranks[i].rank == rank) return &r->ranks[i];
    r->ranks = xrealloc(r->ranks, (r->nranks + 1) * sizeof *r->ranks);
    memmove(&r->ranks[i + 1], &r->ranks[i], (r->nranks - i) * sizeof *r->ranks);
    r->nranks++;
    r->ranks[i] = (struct cg_rank_stat){.rank = rank};
    return &r->ranks[i];
}

const cg_ev_proc *cg_events_proc(const cg_events *ev, int pid)
{
    for (size_t i = 0; i < ev->nprocs; i++)
        if (ev->procs[i].pid == pid) return &ev->procs[i];
    return NULL;
}

static int rank_of(const cg_events *ev, int pid)
{
    const cg_ev_proc *p = cg_events_proc(ev, pid);
    return p ? p->rank : -1;
}

char *cg_events_line_text(const cg_events *ev, int pid, const char *path, uint32_t line)
{
    if (!path || !line) return NULL;
    if (strcmp(path, "<string>") != 0) return cg_file_line(path, line, 1u << 20);
    const cg_ev_proc *p = cg_events_proc(ev, pid);
    const char *s = p ? p->command : NULL;
    for (size_t i = 0; i < ev->nprocs && !s; i++) s = ev->procs[i].command;   /* pid unknown: the first command */
    if (!s) return NULL;
    for (uint32_t at = 1; at < line && s; at++) {
        s = strchr(s, '\n');
        if (s) s++;
    }
    if (!s) return NULL;
    size_t n = strcspn(s, "\n");
    return strndup(s, n > (1u << 20) ? (1u << 20) : n);
}

/* A process's record, made at its first `process` event (either observer). */
static cg_ev_proc *proc_get(cg_events *ev, int pid)
{
    for (size_t i = 0; i < ev->nprocs; i++)
        if (ev->procs[i].pid == pid) return &ev->procs[i];
    cg_ev_proc p = {.pid = pid, .rank = -1, .world_size = -1};
    PUSH(ev->procs, ev->nprocs, p);
    return &ev->procs[ev->nprocs - 1];
}

static pid_region *pid_region_get(reader *rd, int pid, long long rid)
{
    for (size_t i = 0; i < rd->npr; i++)
        if (rd->pr[i].pid == pid && rd->pr[i].rid == rid) return &rd->pr[i];
    return NULL;
}

static int region_of(reader *rd, int pid, json_t *o)
{
    json_t *r = json_object_get(o, "rid");
    if (!json_is_integer(r)) return -1;
    pid_region *p = pid_region_get(rd, pid, json_integer_value(r));
    return p ? (int)p->idx : -1;
}

static void add_pid(int **arr, size_t *n, int pid)
{
    for (size_t i = 0; i < *n; i++) if ((*arr)[i] == pid) return;
    PUSH(*arr, *n, pid);
}

static int has_pid(int *arr, size_t n, int pid)
{
    for (size_t i = 0; i < n; i++) if (arr[i] == pid) return 1;
    return 0;
}

static void set_once(char **dst, const char *v)
{
    if (!*dst && v && *v) *dst = strdup(v);
}

static cg_hit new_hit(cg_hit_kind kind, int region, char *text)
{
    cg_hit h = {0};
    h.kind = kind;
    h.region = region;
    h.text = text;
    h.cudagraphs = -1;
    return h;
}

static void push_frame(cg_hit *h, const char *path, long long line)
{
    if (!path || !*path || path[0] == '?') return;
    cg_ev_frame f = {strdup(path), (uint32_t)line, NULL};
    PUSH(h->stack, h->nstack, f);
}

/* The reason Dynamo or inductor gave, without the stack trace they append. */
static char *short_reason(const char *r)
{
    if (!r) return strdup("?");
    size_t n = strcspn(r, "\n");
    const char *found = strstr(r, ". Found from");
    if (found && (size_t)(found - r) < n) n = (size_t)(found - r) + 1;
    if (n > 200) n = 200;
    return xasprintf("%.*s", (int)n, r);
}

static char *fmt_number(json_t *v)
{
    if (json_is_boolean(v)) return strdup(json_is_true(v) ? "True" : "False");
    if (json_is_integer(v)) return xasprintf("%lld", (long long)json_integer_value(v));
    if (json_is_real(v)) return xasprintf("%.6g", json_real_value(v));
    return strdup("?");
}

static void python_event(reader *rd, int pid, json_t *o)
{
    cg_events *ev = rd->ev;
    const char *k = jstr(o, "ev");
    if (!k) { ev->bad_lines++; return; }
    if (strcmp(k, "env") == 0) {
        set_once(&ev->torch, jstr(o, "torch"));
        set_once(&ev->cuda, jstr(o, "cuda"));
        set_once(&ev->gpu, jstr(o, "gpu"));
    } else if (strcmp(k, "region") == 0) {
        const char *path = jstr(o, "path"), *kind = jstr(o, "kind");
        if (!path || !kind) return;
        size_t idx = region_index(ev, path, (uint32_t)jint(o, "line"), kind);
        pid_region p = {.pid = pid, .rid = jint(o, "rid"), .idx = idx, .eager_ms = -1};
        PUSH(rd->pr, rd->npr, p);
    } else if (strcmp(k, "capture") == 0) {
        int r = region_of(rd, pid, o);
        if (r < 0) return;
        ev->regions[r].captures++;
        int bad = !json_is_true(json_object_get(o, "ok"));
        if (bad) ev->regions[r].failed++;
        struct cg_rank_stat *rs = rank_stat(&ev->regions[r], rank_of(ev, pid));
        if (rs) { rs->captures++; rs->failed += bad; }
        json_t *nodes = json_object_get(o, "nodes");
        if (json_is_integer(nodes)) ev->regions[r].nodes = (long)json_integer_value(nodes);
        py_capture c = {pid, (size_t)r, jint(o, "t0"), jint(o, "t1")};
        PUSH(rd->pc, rd->npc, c);
    } else if (strcmp(k, "replays") == 0 || strcmp(k, "entries") == 0) {
        pid_region *p = pid_region_get(rd, pid, jint(o, "rid"));
        if (!p) return;
        unsigned long n = (unsigned long)jint(o, "n");
        if (k[0] == 'r') {
            if (n >= p->replays) p->replays = n;
            json_t *m = json_object_get(o, "mean_ms");
            unsigned long s = (unsigned long)jint(o, "samples");
            if (json_is_number(m) && s >= p->samples) { p->samples = s; p->mean = json_number_value(m); }
        } else if (n > p->entries) {
            p->entries = n;
        }
    } else if (strcmp(k, "eager") == 0) {
        pid_region *p = pid_region_get(rd, pid, jint(o, "rid"));
        json_t *ms = json_object_get(o, "ms"), *fns = json_object_get(o, "fns");
        if (!p || !json_is_number(ms) || json_number_value(ms) < 0 || jint(o, "calls") <= 0) return;
        p->eager_ms = json_number_value(ms);
        p->eager_calls = (unsigned long)jint(o, "calls");
        free(p->eager_fns);
        p->eager_fns = NULL;
        size_t i;
        json_t *f;
        json_array_foreach(fns, i, f) {
            if (!json_is_string(f) || i >= 8) continue;
            char *cat = p->eager_fns ? xasprintf("%s + %s", p->eager_fns, json_string_value(f))
                                     : strdup(json_string_value(f));
            free(p->eager_fns);
            p->eager_fns = cat;
        }
    } else if (strcmp(k, "recapture") == 0) {
        pid_region *p = pid_region_get(rd, pid, jint(o, "rid"));
        if (!p) return;
        unsigned long n = (unsigned long)jint(o, "recaptures");
        if (n > p->recaptures) p->recaptures = n;
        if (json_is_true(json_object_get(o, "same_graph"))) p->same_graph = 1;
    } else if (strcmp(k, "break") == 0 || strcmp(k, "skip") == 0) {
        char *why = short_reason(jstr(o, "reason"));
        int brk = k[0] == 'b';
        cg_hit h = new_hit(brk ? CG_HIT_BREAK : CG_HIT_SKIP, -1,
                           brk ? xasprintf("torch.compile graph break: %s", why)
                               : xasprintf("inductor skipped CUDA graphs: %s", why));
        free(why);
        h.pid = pid;
        h.t = jint(o, "t");
        h.phase = strdup(brk ? "break" : "skip");
        json_t *cg = json_object_get(o, "cudagraphs");
        h.cudagraphs = json_is_true(cg) ? 1 : json_is_false(cg) ? 0 : -1;
        push_frame(&h, jstr(o, "path"), jint(o, "line"));
        json_t *site = json_object_get(o, "site");
        push_frame(&h, json_string_value(json_array_get(site, 0)), json_integer_value(json_array_get(site, 1)));
        PUSH(ev->hits, ev->nhits, h);
    } else if (strcmp(k, "lines") == 0) {
        int r = region_of(rd, pid, o);
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(o, "counts"), i, c) {
            const char *path = json_string_value(json_array_get(c, 0));
            uint32_t line = (uint32_t)json_integer_value(json_array_get(c, 1));
            unsigned long n = (unsigned long)json_integer_value(json_array_get(c, 2));
            if (!path) continue;
            int merged = 0;
            for (size_t j = 0; j < ev->nlines && !merged; j++)
                if (ev->lines[j].line == line && ev->lines[j].region == r && strcmp(ev->lines[j].path, path) == 0) {
                    ev->lines[j].count += n;
                    merged = 1;
                }
            if (!merged) {
                cg_line_count lc = {strdup(path), line, n, r};
                PUSH(ev->lines, ev->nlines, lc);
            }
        }
    } else if (strcmp(k, "error") == 0) {
        const char *type = jstr(o, "type"), *msg = jstr(o, "message"), *code = jstr(o, "code");
        const char *surface = jstr(o, "surface"), *phase = jstr(o, "phase"), *thread = jstr(o, "thread");
        char *text;
        if (code && msg && !strstr(msg, code)) text = xasprintf("%s: %s (%s)", type ? type : "error", msg, code);
        else text = xasprintf("%s: %s", type ? type : "error", msg ? msg : "");
        cg_hit h = new_hit(CG_HIT_ERROR, region_of(rd, pid, o), text);
        h.surface = dup_or_null(surface);
        h.message = xasprintf("%s: %s", type ? type : "error", msg ? msg : "");
        h.code = dup_or_null(code ? code : jstr(o, "surface_code"));
        h.phase = dup_or_null(phase);
        h.other_thread = thread && strcmp(thread, "main") != 0;
        h.collateral = phase && strcmp(phase, "uncaught") == 0 ? 2 : 0;   /* outside any capture: no evidence */
        h.pid = pid;
        h.t = jint(o, "t");
        frames_from(json_object_get(o, "stack"), NULL, &h.stack, &h.nstack);
        frames_from(json_object_get(o, "lib"), NULL, &h.stack, &h.nstack);
        PUSH(ev->hits, ev->nhits, h);
    } else if (strcmp(k, "op") == 0) {
        const char *what = jstr(o, "what"), *op = jstr(o, "op");
        if (!what || !op) return;
        cg_hit h;
        if (strcmp(what, "eager") == 0)
            h = new_hit(CG_HIT_EAGER, region_of(rd, pid, o),
                        json_is_true(json_object_get(o, "legacy"))
                            ? xasprintf("%s ran on the legacy default stream, which was not capturing: ran eagerly, "
                                        "not captured", op)
                            : xasprintf("%s ran on a stream that was not capturing: ran eagerly, not captured", op));
        else if (strcmp(what, "cpu") == 0)
            h = new_hit(CG_HIT_CPU, region_of(rd, pid, o),
                        xasprintf("%s ran on CPU tensors during capture: not captured, runs once", op));
        else if (strcmp(what, "pin") == 0)
            h = new_hit(CG_HIT_PIN, region_of(rd, pid, o),
                        xasprintf("%s allocated pinned host memory during capture", op));
        else if (strcmp(what, "failed") == 0) {
            json_t *e = json_object_get(o, "error");
            const char *code = jstr(e, "code"), *msg = jstr(e, "message");
            h = new_hit(CG_HIT_DYNOP, region_of(rd, pid, o),
                        code ? xasprintf("%s failed at capture: %s", op, code)
                             : xasprintf("%s failed at capture: %s", op, msg ? msg : "?"));
            h.code = dup_or_null(code);
            h.message = msg ? xasprintf("%s: %s", jstr(e, "type") ? jstr(e, "type") : "error", msg) : NULL;
        } else {
            return;
        }
        h.phase = strdup("op");
        h.pid = pid;
        h.t = jint(o, "t");
        frames_from(json_object_get(o, "stack"), NULL, &h.stack, &h.nstack);
        PUSH(ev->hits, ev->nhits, h);
    } else if (strcmp(k, "scalar") == 0 || strcmp(k, "hparam") == 0 || strcmp(k, "rebind") == 0) {
        const char *expr = jstr(o, "expr");
        long long replay = jint(o, "replay");
        cg_hit h;
        if (k[0] == 'r') {
            h = new_hit(CG_HIT_REBIND, region_of(rd, pid, o),
                        xasprintf("`%s` held another tensor at replay %lld than at capture; the replay read "
                                  "the storage captured", expr ? expr : "?", replay));
        } else if (json_is_true(json_object_get(o, "branch"))) {
            char *a = fmt_number(json_object_get(o, "capture")), *b = fmt_number(json_object_get(o, "now"));
            h = new_hit(CG_HIT_SCALAR, region_of(rd, pid, o),
                        xasprintf("the branch here read `%s` = %s at capture, %s at replay %lld; the replay "
                                  "follows the path taken at capture", expr ? expr : "?", a, b, replay));
            free(a);
            free(b);
        } else {
            char *a = fmt_number(json_object_get(o, "capture")), *b = fmt_number(json_object_get(o, "now"));
            const char *opt = jstr(o, "optimizer");
            h = new_hit(k[0] == 's' ? CG_HIT_SCALAR : CG_HIT_HPARAM, region_of(rd, pid, o),
                        xasprintf("`%s%s%s` was %s at capture, %s at replay %lld; the replay used %s",
                                  opt ? opt : "", opt ? "." : "", expr ? expr : "?", a, b, replay, a));
            free(a);
            free(b);
        }
        h.pid = pid;
        const char *path = jstr(o, "path");
        if (path) {
            cg_ev_frame f = {strdup(path), (uint32_t)jint(o, "line"), NULL};
            PUSH(h.stack, h.nstack, f);
        }
        PUSH(ev->hits, ev->nhits, h);
    } else if (strcmp(k, "exit") == 0) {
        proc_get(ev, pid)->exited = 1;
        if (json_is_false(json_object_get(o, "cuda_available"))) ev->cuda_unavailable = 1;
        json_t *init = json_object_get(o, "cuda_initialized");
        if (json_is_true(init)) ev->cuda_initialized++;
        else if (json_is_false(init)) ev->cuda_uninitialized++;
    }
}

typedef struct { long long rid; size_t idx; } native_region;

static void cupti_event(reader *rd, int pid, json_t *o, native_region **nr, size_t *nnr)
{
    cg_events *ev = rd->ev;
    const char *k = jstr(o, "ev");
    if (!k) { ev->bad_lines++; return; }
    int python = has_pid(rd->py_pids, rd->npy, pid);
    if (strcmp(k, "cupti_error") == 0) {
        ev->cupti_failed = 1;
        set_once(&ev->cupti_error, jstr(o, "message"));
    } else if (strcmp(k, "subscribed") == 0) {
        if (!python) ev->cuda_initialized++;   /* the driver loads the library at cuInit */
    } else if (strcmp(k, "recapture") == 0 && !python) {
        for (size_t i = 0; i < *nnr; i++) {
            if ((*nr)[i].rid != jint(o, "rid")) continue;
            cg_ev_region *r = &ev->regions[(*nr)[i].idx];
            unsigned long n = (unsigned long)jint(o, "recaptures");
            if (n > r->recaptures) r->recaptures = n;
        }
    } else if (strcmp(k, "capture") == 0 && python) {
        json_t *nodes = json_object_get(o, "nodes");
        if (json_is_true(json_object_get(o, "ok")) && json_is_integer(nodes)) {
            cupti_capture c = {pid, jint(o, "t1"), (long)json_integer_value(nodes)};
            PUSH(rd->cc, rd->ncc, c);
        }
    } else if (strcmp(k, "region") == 0 && !python) {
        cg_ev_frame *st = NULL;
        size_t ns = 0;
        frames_from(json_object_get(o, "py"), json_object_get(o, "native"), &st, &ns);
        size_t idx = region_index(ev, ns ? st[0].path : "?", ns ? st[0].line : 0, "cudaStreamBeginCapture");
        for (size_t i = 0; i < ns; i++) { free(st[i].path); free(st[i].func); }
        free(st);
        native_region r = {jint(o, "rid"), idx};
        PUSH(*nr, *nnr, r);
        ev->regions[idx].entries++;
    } else if ((strcmp(k, "capture") == 0 || strcmp(k, "replays") == 0) && !python) {
        for (size_t i = 0; i < *nnr; i++) {
            if ((*nr)[i].rid != jint(o, "rid")) continue;
            cg_ev_region *r = &ev->regions[(*nr)[i].idx];
            if (k[1] == 'a') {
                struct native_cap c = {(*nr)[i].idx, jint(o, "t0"), jint(o, "t1")};
                PUSH(rd->ncap, rd->nncap, c);
                r->captures++;
                int bad = !json_is_true(json_object_get(o, "ok"));
                if (bad) r->failed++;
                struct cg_rank_stat *rs = rank_stat(r, rank_of(ev, pid));
                if (rs) { rs->captures++; rs->failed += bad; }
                json_t *nodes = json_object_get(o, "nodes");
                if (json_is_integer(nodes)) r->nodes = (long)json_integer_value(nodes);
            } else {
                r->replays += (unsigned long)jint(o, "n");
                struct cg_rank_stat *rs = rank_stat(r, rank_of(ev, pid));
                if (rs) rs->replays += (unsigned long)jint(o, "n");
            }
        }
    } else if (strcmp(k, "api") == 0 || strcmp(k, "eager") == 0) {
        const char *api = jstr(o, "api"), *code = jstr(o, "code");
        cg_hit h;
        if (k[0] == 'a') {
            h = new_hit(CG_HIT_ERROR, -1, xasprintf("%s -> %s", api ? api : "?", code ? code : "error"));
            h.api = dup_or_null(api);
            h.code = dup_or_null(code);
            h.phase = strdup("api");
        } else {
            int legacy = json_is_true(json_object_get(o, "legacy"));
            h = new_hit(CG_HIT_EAGER, -1,
                        legacy ? xasprintf("%s on the legacy default stream during a capture: ran eagerly, not "
                                           "captured", api ? api : "?")
                               : xasprintf("%s on stream %s, which was not capturing, during a capture: ran "
                                           "eagerly, not captured", api ? api : "?",
                                           jstr(o, "stream") ? jstr(o, "stream") : "?"));
            h.api = dup_or_null(api);
            h.phase = strdup("eager");
        }
        h.other_thread = json_is_false(json_object_get(o, "capturing_thread"));
        h.in_python = python;
        h.pid = pid;
        h.t = jint(o, "t");
        frames_from(json_object_get(o, "py"), json_object_get(o, "native"), &h.stack, &h.nstack);
        PUSH(ev->hits, ev->nhits, h);
        if (!python) {
            struct native_hit nh = {ev->nhits - 1, jint(o, "t")};
            PUSH(rd->nhit, rd->nnhit, nh);
        } else {
            size_t at = ev->nhits - 1;
            PUSH(rd->pyhit, rd->npyhit, at);
        }
    }
}

/* A native call's capture: the latest one begun before it and ended after it
 * (or within 5 ms before: cudaStreamEndCapture's own failure is reported
 * after the capture event it ends). */
static void native_hits_to_regions(reader *rd)
{
    for (size_t i = 0; i < rd->nnhit; i++) {
        cg_hit *h = &rd->ev->hits[rd->nhit[i].hit];
        long long t = rd->nhit[i].t, best = -1;
        if (h->region >= 0 || !t) continue;
        for (size_t c = 0; c < rd->nncap; c++)
            if (rd->ncap[c].t0 <= t && t <= rd->ncap[c].t1 + 5000000LL && rd->ncap[c].t0 > best) {
                best = rd->ncap[c].t0;
                h->region = (int)rd->ncap[c].idx;
            }
    }
    rd->nncap = rd->nnhit = 0;
}

static int is_jsonl(const char *name)
{
    size_t n = strlen(name);
    return n > 6 && strcmp(name + n - 6, ".jsonl") == 0;
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int cg_events_load(const char *dir, cg_events *ev, char *err, size_t errlen)
{
    memset(ev, 0, sizeof *ev);
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot read the events directory %s: %s", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(d))) if (is_jsonl(e->d_name)) { char *s = strdup(e->d_name); PUSH(names, nn, s); }
    closedir(d);
    if (nn > 1) qsort(names, nn, sizeof *names, cmp_name);

    /* Load every file; Python ones first, so that CUPTI events of a Python
     * process know it is one. */
    typedef struct { json_t **lines; size_t n; int pid; int cupti; } file;
    file *files = calloc(nn ? nn : 1, sizeof *files);
    reader rd = {.ev = ev};
    for (size_t i = 0; i < nn; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char ferr[256];
        FILE *f = cg_file_fopen(path, ferr, sizeof ferr);   /* a FIFO named x.jsonl is no event file */
        if (!f) continue;
        ev->files++;
        char *buf = NULL;
        size_t cap = 0;
        while (getline(&buf, &cap, f) >= 0) {
            json_t *o = json_loads(buf, 0, NULL);
            if (!json_is_object(o)) { ev->bad_lines++; json_decref(o); continue; }
            const char *k = jstr(o, "ev");
            if (k && strcmp(k, "process") == 0) {
                files[i].pid = (int)jint(o, "pid");
                files[i].cupti = jstr(o, "source") && strcmp(jstr(o, "source"), "cupti") == 0;
                add_pid(&rd.all_pids, &rd.nall, files[i].pid);
                cg_ev_proc *p = proc_get(ev, files[i].pid);
                json_t *rk = json_object_get(o, "rank"), *ws = json_object_get(o, "world_size");
                if (json_is_integer(rk) && json_integer_value(rk) >= 0 && json_integer_value(rk) < 1 << 20) {
                    p->rank = (int)json_integer_value(rk);
                    ev->ranked = 1;
                }
                if (json_is_integer(ws) && json_integer_value(ws) > 0 && json_integer_value(ws) < 1 << 20)
                    p->world_size = (int)json_integer_value(ws);
                if (!files[i].cupti) p->python = 1;
                set_once(&p->command, jstr(o, "command"));
                if (!files[i].cupti) { add_pid(&rd.py_pids, &rd.npy, files[i].pid); ev->python_processes++; }
                else ev->cupti_processes++;
            }
            PUSH(files[i].lines, files[i].n, o);
        }
        free(buf);
        fclose(f);
    }
    ev->processes = rd.nall;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < nn; i++) {
            if (files[i].cupti != pass) continue;
            native_region *nr = NULL;
            size_t nnr = 0;
            for (size_t j = 0; j < files[i].n; j++) {
                if (pass == 0) python_event(&rd, files[i].pid, files[i].lines[j]);
                else cupti_event(&rd, files[i].pid, files[i].lines[j], &nr, &nnr);
            }
            if (pass == 1) native_hits_to_regions(&rd);
            free(nr);
        }
    /* CUPTI's observations in a Python process: the Python capture open at
     * their time (a call from a thread that holds no Python frame, such as
     * NCCL's watchdog or the autograd engine, has no other place) */
    for (size_t i = 0; i < rd.npyhit; i++) {
        cg_hit *h = &ev->hits[rd.pyhit[i]];
        long long best = -1;
        if (h->region >= 0 || !h->t) continue;
        for (size_t c = 0; c < rd.npc; c++)
            if (rd.pc[c].pid == h->pid && rd.pc[c].t0 <= h->t && h->t <= rd.pc[c].t1 + 5000000LL &&
                rd.pc[c].t0 > best) {
                best = rd.pc[c].t0;
                h->region = (int)rd.pc[c].region;
            }
    }
    /* per-process counters into the regions */
    for (size_t i = 0; i < rd.npr; i++) {
        cg_ev_region *r = &ev->regions[rd.pr[i].idx];
        r->replays += rd.pr[i].replays;
        struct cg_rank_stat *rs = rank_stat(r, rank_of(ev, rd.pr[i].pid));
        if (rs) rs->replays += rd.pr[i].replays;
        r->entries += rd.pr[i].entries;
        if (rd.pr[i].recaptures > r->recaptures) r->recaptures = rd.pr[i].recaptures;
        r->same_graph |= rd.pr[i].same_graph;
        if (rd.pr[i].samples) {
            r->ms_sum += rd.pr[i].mean * (double)rd.pr[i].samples;
            r->samples += rd.pr[i].samples;
        }
        if (rd.pr[i].eager_ms >= 0) {
            r->eager_sum += rd.pr[i].eager_ms * (double)rd.pr[i].eager_calls;
            r->eager_calls += rd.pr[i].eager_calls;
            if (!r->eager_fns && rd.pr[i].eager_fns) r->eager_fns = strdup(rd.pr[i].eager_fns);
        }
    }
    /* graph nodes that CUPTI counted, into the Python capture they ended */
    for (size_t i = 0; i < rd.ncc; i++)
        for (size_t j = 0; j < rd.npc; j++)
            if (rd.pc[j].pid == rd.cc[i].pid && rd.cc[i].t1 >= rd.pc[j].t0 && rd.cc[i].t1 <= rd.pc[j].t1)
                ev->regions[rd.pc[j].region].nodes = rd.cc[i].nodes;
    /* a graph captured again and again while it is replayed: the same
     * graph object, or the same code on inputs of the same shapes (one graph
     * per bucket shape, each captured once, is not) */
    for (size_t i = 0; i < ev->nregions; i++) {
        cg_ev_region *r = &ev->regions[i];
        if (r->recaptures >= 2) {
            cg_hit h = new_hit(CG_HIT_MANY, (int)i,
                               xasprintf("captured %lu times at this site, replayed %lu times; %lu of the captures "
                                         "re-captured %s that had been replayed",
                                         r->captures, r->replays, r->recaptures,
                                         r->same_graph ? "the same graph object" : "a graph of the same inputs"));
            cg_ev_frame f = {strdup(r->path), r->line, NULL};
            PUSH(h.stack, h.nstack, f);
            PUSH(ev->hits, ev->nhits, h);
        }
    }
    for (size_t i = 0; i < ev->nhits; i++) ev->hits[i].rank = rank_of(ev, ev->hits[i].pid);
    for (size_t i = 0; i < nn; i++) {
        for (size_t j = 0; j < files[i].n; j++) json_decref(files[i].lines[j]);
        free(files[i].lines);
        free(names[i]);
    }
    free(files);
    free(names);
    for (size_t i = 0; i < rd.npr; i++) free(rd.pr[i].eager_fns);
    free(rd.pr); free(rd.pc); free(rd.cc); free(rd.ncap); free(rd.nhit); free(rd.py_pids); free(rd.all_pids);
    free(rd.pyhit);
    return 0;
}

void cg_events_free(cg_events *ev)
{
    for (size_t i = 0; i < ev->nregions; i++) {
        free(ev->regions[i].path);
        free(ev->regions[i].kind);
        free(ev->regions[i].ranks);
        free(ev->regions[i].eager_fns);
    }
    for (size_t i = 0; i < ev->nprocs; i++) free(ev->procs[i].command);
    free(ev->procs);
    for (size_t i = 0; i < ev->nhits; i++) {
        cg_hit *h = &ev->hits[i];
        free(h->text); free(h->api); free(h->code); free(h->message); free(h->phase); free(h->surface);
        for (size_t k = 0; k < h->nstack; k++) { free(h->stack[k].path); free(h->stack[k].func); }
        free(h->stack);
    }
    for (size_t i = 0; i < ev->nlines; i++) free(ev->lines[i].path);
    free(ev->regions); free(ev->hits); free(ev->lines);
    free(ev->torch); free(ev->cuda); free(ev->gpu); free(ev->cupti_error);
    memset(ev, 0, sizeof *ev);
}
