/* join.c - the runtime events against the static findings.
 *
 * A finding is confirmed by an observation of a kind its rule's runtime
 * signal names (rules/CG*.md, `runtime-signal:`), seen at its line: the
 * innermost user frame of the observation lies in the finding's span.  Rules
 * whose signal belongs to a whole capture (`region`: an unjoined fork, a
 * changed hyperparameter, a site captured again and again) are confirmed by
 * an observation of that rule in the capture that the finding names.  Lines
 * that ran inside a capture make the rest "not reproduced", the others "not
 * exercised".  What nobody predicted becomes a finding of its own. */
#include "run.h"
#include "core/file.h"
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The observations that confirm a finding of `rule`: its page's
 * `runtime-signal:` (rules/CG*.md), CG_SIG_* bits (core/rules.h). */
static int signals_of(int rule) { return (int)cg_rules[rule].runtime_signals; }

static int hit_signal(cg_hit_kind k)
{
    switch (k) {
    case CG_HIT_ERROR: return CG_SIG_ERROR;
    case CG_HIT_EAGER: return CG_SIG_EAGER;
    case CG_HIT_CPU: return CG_SIG_CPU;
    case CG_HIT_PIN: return CG_SIG_PIN;
    case CG_HIT_DYNOP: return CG_SIG_DYNOP;
    case CG_HIT_SCALAR: return CG_SIG_SCALAR;
    case CG_HIT_REBIND: return CG_SIG_REBIND;
    case CG_HIT_HPARAM: return CG_SIG_HPARAM;
    case CG_HIT_MANY: return CG_SIG_MANY;
    case CG_HIT_BREAK: return CG_SIG_BREAK;
    case CG_HIT_SKIP: return CG_SIG_SKIP;
    }
    return 0;
}

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

static int has(const char *hay, const char *needle) { return hay && strstr(hay, needle) != NULL; }

/* ---- classification ----------------------------------------------------------- */

static int rid(const char *id) { return cg_rule_index(id); }

/* The rule a failure's CUDA error, message, API call, operator and line point
 * to; -1 when none of them does. */
static int classify_failure(const cg_hit *h, const char *line)
{
    char all[2048];
    snprintf(all, sizeof all, "%s | %s | %s", h->message ? h->message : "", h->code ? h->code : "",
             h->text ? h->text : "");
    const char *api = h->api;
    /* the CUDA error first: 904 unjoined, 903 unmatched, 908 wrong thread */
    if (has(all, "Unjoined") || has(all, "UNJOINED") || has(all, "not joined")) return rid("CG402");
    if (has(all, "StreamCaptureUnmatched") || has(all, "CAPTURE_UNMATCHED")) return rid("CG707");
    if (has(all, "WrongThread") || has(all, "WRONG_THREAD")) return rid("CG708");
    if (has(all, "non-default stream")) return rid("CG404");
    if (has(all, "not in capture mode") || has(all, "register_generator_state") ||
        has(all, "Offset increment outside graph capture"))
        return rid("CG602");
    if (has(all, "capturable")) return rid("CG605");
    if (has(all, "CUBLAS_STATUS") || has(all, "CUDNN_STATUS") || has(all, "cublasCreate")) return rid("CG701");
    if (has(all, "hooks registered")) return rid("CG704");
    if (has(all, "AccumulateGrad")) return rid("CG702");
    if (h->other_thread) return rid("CG708");
    /* 906 implicit, 905 isolation: the legacy stream (in backward: AccumulateGrad's) */
    if (has(all, "Implicit") || has(all, "IMPLICIT") || has(all, "legacy stream")) {
        int backward = has(line, "backward(") || (h->phase && strstr(h->phase, "backward"));
        for (size_t i = 0; i < h->nstack && !backward; i++) backward = has(h->stack[i].func, "backward");
        return rid(backward ? "CG702" : "CG401");
    }
    if (has(all, "Isolation") || has(all, "ISOLATION")) return rid("CG401");
    if (has(all, "Cannot copy between CPU and CUDA")) {
        if (has(line, ".tolist(")) return rid("CG101");
        if (has(line, ".cpu(") || has(line, ".numpy(") || has(line, "\"cpu\"") || has(line, "'cpu'")) return rid("CG102");
        return rid("CG103");
    }
    if (api) {
        if (has(api, "BeginCapture")) return rid("CG404");
        if (has(api, "Synchronize")) return rid("CG104");
        if (has(api, "Query")) return rid("CG105");
        if (has(api, "Malloc") || has(api, "Free") || has(api, "HostAlloc") || has(api, "HostRegister") ||
            has(api, "MemAlloc"))
            return rid(has(api, "Async") ? "CG502" : "CG501");
        if ((has(api, "Memcpy") || has(api, "Memset")) && !has(api, "Async")) return rid("CG106");
        if (has(api, "GraphLaunch") && !has(all, "Unsupported") && !has(all, "UNSUPPORTED")) return rid("CG502");
        if (has(api, "LaunchKernel") && (has(all, "InvalidValue") || has(all, "INVALID_VALUE") ||
                                         has(all, "Configuration")))
            return rid("CG801");
    }
    /* 900 unsupported, 907 captured event: the sync and host-read rules, by
     * the operator seen and the line */
    if (has(all, "Unsupported") || has(all, "not permitted") || has(all, "CapturedEvent") ||
        has(all, "CAPTURE_UNSUPPORTED") || has(all, "CAPTURED_EVENT") || h->kind == CG_HIT_DYNOP) {
        if (has(line, "synchronize(") || has(line, "barrier(")) return rid("CG104");
        if (has(line, ".query(")) return rid("CG105");
        if (has(line, "clip_grad_norm_") || has(line, "allclose(") || has(line, "equal(") ||
            has(line, ".any(") || has(line, ".all(") || has(line, "scaler."))
            return rid("CG108");
        if (has(all, "nonzero") || has(all, "masked_select") || has(all, "unique") || has(all, "argwhere") ||
            has(all, "repeat_interleave") || has(all, "aten.index.Tensor") || has(line, ".nonzero(") ||
            has(line, "unique(") || has(line, "masked_select("))
            return rid("CG202");
        if (has(line, "print(") || has(line, "repr(") || has(line, "str(") || has(line, "format(") ||
            has(line, "logging.") || has(line, "f\"") || has(line, "f'"))
            return rid("CG107");
        int item = has(line, ".item(") || has(all, "_local_scalar_dense");
        if (item && (has(line, "[:") || has(line, "empty(") || has(line, "zeros(") || has(line, "view(") ||
                     has(line, "reshape(") || has(line, "range(")))
            return rid("CG203");
        const char *l = line ? line : "";
        while (*l == ' ' || *l == '\t') l++;
        if (!strncmp(l, "if ", 3) || !strncmp(l, "elif ", 5) || !strncmp(l, "while ", 6) || !strncmp(l, "assert ", 7))
            return rid("CG201");
        if (item || has(line, ".tolist(") || has(line, "float(") || has(line, "int(") || has(line, "bool("))
            return rid("CG101");
        if (has(all, "CapturedEvent") || has(all, "CAPTURED_EVENT")) return rid("CG104");
        if (api && (has(api, "Event") || has(api, "Stream")) && has(api, "Wait")) return rid("CG401");
        return -1;
    }
    return -1;
}

int cg_classify_hit(const cg_hit *h, const char *line)
{
    switch (h->kind) {
    case CG_HIT_EAGER: return rid(has(h->text, "legacy") ? "CG401" : "CG403");
    case CG_HIT_CPU: return rid("CG305");
    case CG_HIT_PIN: return rid("CG503");
    case CG_HIT_SCALAR: return rid("CG304");
    case CG_HIT_REBIND: return rid("CG504");
    case CG_HIT_HPARAM: return rid("CG606");
    case CG_HIT_MANY: return rid("CG705");
    case CG_HIT_BREAK: return rid("CG901");
    case CG_HIT_SKIP: return rid("CG902");
    case CG_HIT_ERROR: case CG_HIT_DYNOP: break;
    }
    int rule = classify_failure(h, line);
    /* nothing maps it: the catch-all, so that no failure goes unexplained */
    return rule >= 0 ? rule : rid("CG002");
}

/* ---- paths ------------------------------------------------------------------- */

/* A path as an absolute, resolved one (malloc'd). */
static char *abs_of(const char *root, const char *path)
{
    char joined[PATH_MAX * 2], res[PATH_MAX];
    if (!path) return strdup("");
    if (path[0] == '<') return strdup(path);   /* `python -c`'s "<string>" */
    if (path[0] != '/' && root) snprintf(joined, sizeof joined, "%s/%s", root, path);
    else snprintf(joined, sizeof joined, "%s", path);
    if (realpath(joined, res)) return strdup(res);
    return strdup(joined);
}

/* A path for people: relative to the root when under it. */
static char *display_path(const char *root, const char *abs)
{
    size_t n = root ? strlen(root) : 0;
    if (n && strncmp(abs, root, n) == 0 && abs[n] == '/') return strdup(abs + n + 1);
    return strdup(abs);
}

static int user_path(const char *p)
{
    if (p && strcmp(p, "<string>") == 0) return 1;   /* the code of `python -c CODE` */
    return p && p[0] != '<' && p[0] && !strstr(p, "/site-packages/") && !strstr(p, "/dist-packages/") &&
           !strstr(p, "/lib/python3") && !strstr(p, "/torch/") && !strstr(p, "cglint_runtime/") &&
           !strstr(p, "/torchinductor_");
}

/* The frame an observation is about: its innermost frame in user code.  A
 * kernel launch's nvcc-made stub (__device_stub__...) and the host wrapper
 * that calls it stand at the kernel's definition, so the launch's line is
 * the frame after them. */
static const cg_ev_frame *site_of(const cg_hit *h)
{
    for (size_t i = 0; i < h->nstack; i++) {
        const char *fn = h->stack[i].func;
        if (fn && strncmp(fn, "__device_stub__", 15) == 0) { i++; continue; }
        if (user_path(h->stack[i].path) && h->stack[i].line) return &h->stack[i];
    }
    return NULL;
}


/* Whether `line` of file `abs` lies inside the block that the `with`
 * statement at `opener` starts (every line between is blank or indented
 * deeper than the opener). */
static int inside_with_block(const char *abs, uint32_t opener, uint32_t line)
{
    if (line <= opener) return 0;
    char ferr[256];
    FILE *f = cg_file_fopen(abs, ferr, sizeof ferr);
    if (!f) return 0;
    char buf[4096];
    int indent = -1, ok = 0;
    for (uint32_t at = 1; fgets(buf, sizeof buf, f); at++) {
        if (at < opener) continue;
        size_t ind = strspn(buf, " \t");
        if (at == opener) {
            if (strncmp(buf + ind, "with ", 5) != 0) break;
            indent = (int)ind;
            continue;
        }
        if (buf[ind] == '\n' || buf[ind] == '#' || buf[ind] == 0) { if (at == line) break; continue; }
        if ((int)ind <= indent) break;
        if (at == line) { ok = 1; break; }
    }
    fclose(f);
    return ok;
}

/* ---- ranks ----------------------------------------------------------------------- */

/* The ranks an observation was seen on (sorted), and how many of its
 * processes had none. */
typedef struct { int r[64]; size_t n, unranked; } rankset;

static void rankset_add(rankset *s, int rank)
{
    if (rank < 0) { s->unranked++; return; }
    size_t i = 0;
    while (i < s->n && s->r[i] < rank) i++;
    if ((i < s->n && s->r[i] == rank) || s->n == 64) return;
    memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof *s->r);
    s->r[i] = rank;
    s->n++;
}

static int rankset_has(const rankset *s, int rank)
{
    for (size_t i = 0; i < s->n; i++) if (s->r[i] == rank) return 1;
    return 0;
}

/* "rank 1" / "ranks 0,1" */
static char *rankset_text(const rankset *s)
{
    char buf[512];
    size_t at = (size_t)snprintf(buf, sizeof buf, "rank%s ", s->n == 1 ? "" : "s");
    for (size_t i = 0; i < s->n && at < sizeof buf - 16; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%d", i ? "," : "", s->r[i]);
    return strdup(buf);
}

/* A failure of the communicator itself (NCCL aborted or timed out, the peer
 * gone): what a rank dies of when another rank failed first. */
static int comm_failure(const cg_hit *h)
{
    static const char *const pat[] = {
        "DistBackendError", "DistNetworkError", "ncclRemoteError", "ncclSystemError", "communicator was aborted",
        "Watchdog caught collective operation timeout", "collective operation timeout", "timed out", "Timeout",
        "remote process exited", "Connection reset by peer", "Connection closed by peer", "Broken pipe",
        "NCCL_ERROR_REMOTE", "ncclInvalidUsage: remote"};
    for (size_t i = 0; i < sizeof pat / sizeof *pat; i++)
        if (has(h->message, pat[i]) || has(h->text, pat[i]) || has(h->code, pat[i])) return 1;
    return 0;
}

static int is_failure(const cg_hit *h);
static int invalidated_only(const cg_hit *h);

/* Ranks of a run where one rank failed and others died of it.  `blamed`:
 * the ranks whose own failure was seen (not the communicator's); `victims`:
 * ranks that failed only in the communicator, or ended without exiting,
 * after a blamed rank failed.  The victims' observations are marked
 * collateral: they confirm nothing and become no finding. */
typedef struct {
    rankset blamed, victims, died;   /* died: ranks that ended without exiting */
    const cg_hit *first;             /* the first blamed failure */
    const cg_hit *victim_hit[64];    /* each victim's first communicator failure, or NULL */
} rank_fate;

static void rank_fates(cg_events *ev, rank_fate *rf, int run_failed)
{
    memset(rf, 0, sizeof *rf);
    if (!ev->ranked) return;
    for (size_t i = 0; i < ev->nhits; i++) {
        const cg_hit *h = &ev->hits[i];
        if (h->rank < 0 || h->collateral || !is_failure(h) || invalidated_only(h) || comm_failure(h)) continue;
        if (!rf->first || (h->t && rf->first->t && h->t < rf->first->t)) rf->first = h;
        rankset_add(&rf->blamed, h->rank);
    }
    /* a rank that never exited, in a run that failed (one that ended well
     * may have left through os._exit, as some launchers' workers do) */
    for (size_t i = 0; i < ev->nprocs && run_failed; i++)
        if (ev->procs[i].python && ev->procs[i].rank >= 0 && !ev->procs[i].exited)
            rankset_add(&rf->died, ev->procs[i].rank);
    if (!rf->blamed.n) return;
    for (size_t i = 0; i < ev->nhits; i++) {
        cg_hit *h = &ev->hits[i];
        if (h->rank < 0 || rankset_has(&rf->blamed, h->rank) || !comm_failure(h)) continue;
        if (!rankset_has(&rf->victims, h->rank) && rf->victims.n < 64) {
            rankset_add(&rf->victims, h->rank);
            for (size_t k = 0; k < rf->victims.n; k++) if (rf->victims.r[k] == h->rank) {
                memmove(&rf->victim_hit[k + 1], &rf->victim_hit[k], (rf->victims.n - 1 - k) * sizeof *rf->victim_hit);
                rf->victim_hit[k] = h;
            }
        }
    }
    for (size_t i = 0; i < rf->died.n; i++)
        if (!rankset_has(&rf->blamed, rf->died.r[i]) && !rankset_has(&rf->victims, rf->died.r[i])) {
            rankset_add(&rf->victims, rf->died.r[i]);
            for (size_t k = 0; k < rf->victims.n; k++) if (rf->victims.r[k] == rf->died.r[i]) {
                memmove(&rf->victim_hit[k + 1], &rf->victim_hit[k], (rf->victims.n - 1 - k) * sizeof *rf->victim_hit);
                rf->victim_hit[k] = NULL;
            }
        }
    /* everything a victim saw after the blamed failure is its echo */
    for (size_t i = 0; i < ev->nhits; i++) {
        cg_hit *h = &ev->hits[i];
        if (h->rank >= 0 && rankset_has(&rf->victims, h->rank) && is_failure(h) && !h->collateral) h->collateral = 1;
    }
}

static char *with_victims(char *evidence, const rankset *seen, const rank_fate *rf);

/* "...; confirmed on ranks 0,1" when the run had ranks. */
static char *confirmed_on(char *evidence, const rankset *seen, const rank_fate *rf)
{
    if (seen->n && !seen->unranked) {
        char *rt = rankset_text(seen);
        char *t = xasprintf("%s; confirmed on %s", evidence, rt);
        free(rt);
        free(evidence);
        evidence = t;
    }
    return with_victims(evidence, seen, rf);
}

/* "; rank 1 died of it (not blamed)" for evidence naming a blamed rank. */
static char *with_victims(char *evidence, const rankset *seen, const rank_fate *rf)
{
    int blamed = 0;
    for (size_t i = 0; i < seen->n && !blamed; i++) blamed = rankset_has(&rf->blamed, seen->r[i]);
    if (!blamed || !rf->victims.n) return evidence;
    char *v = rankset_text(&rf->victims);
    char *t = xasprintf("%s; %s died of it (not blamed)", evidence, v);
    free(v);
    free(evidence);
    return t;
}

/* One notice per victim rank: what it died of, and whose failure it was. */
static void report_fates(cg_report *r, cg_events *ev, const rank_fate *rf, const char *root)
{
    if (rf->victims.n && rf->first) {
        const cg_ev_frame *s = NULL;
        for (size_t i = 0; i < rf->first->nstack && !s; i++)
            if (user_path(rf->first->stack[i].path) && rf->first->stack[i].line) s = &rf->first->stack[i];
        char *where = s ? display_path(root, s->path) : NULL;
        char *blamed = rankset_text(&rf->blamed);
        for (size_t i = 0; i < rf->victims.n; i++) {
            const cg_hit *vh = rf->victim_hit[i];
            char at[512] = "";
            if (where) snprintf(at, sizeof at, " at %s:%u", where, (unsigned)s->line);
            if (vh)
                cg_report_notice(r, CG_NOTE, NULL, 0, 0,
                                 "rank %d died because %s failed first%s: it saw only the communicator's failure "
                                 "(%s); not blamed", rf->victims.r[i], blamed, at, vh->text);
            else
                cg_report_notice(r, CG_NOTE, NULL, 0, 0,
                                 "rank %d ended without exiting (stopped by the launcher or aborted) after %s "
                                 "failed%s; not blamed", rf->victims.r[i], blamed, at);
        }
        free(blamed);
        free(where);
        return;
    }
    if (!rf->died.n || rf->blamed.n) return;
    /* nobody failed, yet ranks died: a hang ended by a timeout or a kill */
    char *died = rankset_text(&rf->died);
    rankset all = {0};
    for (size_t i = 0; i < ev->nprocs; i++) if (ev->procs[i].rank >= 0) rankset_add(&all, ev->procs[i].rank);
    cg_report_notice(r, CG_WARN, NULL, 0, 0,
                     "%s ended without exiting (killed, or aborted by NCCL's watchdog): the run hung or timed out "
                     "and no rank saw an error of its own", died);
    free(died);
    for (size_t k = 0; k < ev->nregions; k++) {
        const cg_ev_region *g = &ev->regions[k];
        if (!g->nranks || g->nranks >= all.n) continue;
        rankset on = {0}, off = {0};
        for (size_t i = 0; i < g->nranks; i++) rankset_add(&on, g->ranks[i].rank);
        for (size_t i = 0; i < all.n; i++) if (!rankset_has(&on, all.r[i])) rankset_add(&off, all.r[i]);
        char *a = rankset_text(&on), *b = rankset_text(&off), *where = display_path(root, g->path);
        cg_report_notice(r, CG_WARN, where, g->line, 0,
                         "this capture ran on %s only, not on %s: a collective captured on some ranks waits for "
                         "ranks that never launch it", a, b);
        free(a);
        free(b);
        free(where);
    }
}

/* ---- what no finding predicted ----------------------------------------------- */

/* A failure that only echoes an earlier one: capture_end's (or
 * cudaStreamEndCapture's) cudaErrorStreamCaptureInvalidated. */
static int invalidated_only(const cg_hit *h)
{
    if (h->kind != CG_HIT_ERROR) return 0;
    if (h->api) return has(h->code, "Invalidated") || has(h->code, "INVALIDATED");
    return has(h->message, "previous error during capture") || has(h->message, "Invalidated");
}

static int is_failure(const cg_hit *h)
{
    return h->kind == CG_HIT_ERROR || h->kind == CG_HIT_DYNOP || h->kind == CG_HIT_EAGER;
}

typedef struct {
    int keep;            /* becomes a finding (or a notice) */
    int rule;            /* -1: none fits and the catch-all is off */
    char *path;          /* absolute, or NULL: no place */
    uint32_t line;
    char *line_text;
    int group;           /* the first hit of its (rule, path, line) */
    size_t npids;
    int pids[8];
    rankset ranks;
} unpredicted;

static void report_unpredicted(cg_report *r, cg_events *ev, const char *root, const rank_fate *rf)
{
    size_t nh = ev->nhits;
    if (!nh) return;
    unpredicted *u = calloc(nh, sizeof *u);
    /* which captures (and, where the capture is not known, which processes)
     * saw the cause of a failure; a compiled region in the run */
    char *cause = calloc(ev->nregions + 1, 1);
    char *py_error = calloc(ev->nregions + 1, 1);
    int compiled = 0;
    for (size_t i = 0; i < ev->nregions; i++) compiled |= ev->regions[i].kind && !strcmp(ev->regions[i].kind, "torch.compile");
    for (size_t h = 0; h < nh; h++) {
        const cg_hit *hit = &ev->hits[h];
        if (!is_failure(hit) || invalidated_only(hit)) continue;
        if (hit->region >= 0) cause[hit->region] = 1;
        if (hit->region >= 0 && hit->kind == CG_HIT_ERROR && !hit->api) py_error[hit->region] = 1;
    }
    for (size_t h = 0; h < nh; h++) {
        cg_hit *hit = &ev->hits[h];
        unpredicted *x = &u[h];
        x->group = (int)h;
        if (hit->used || hit->collateral) continue;
        const cg_ev_region *g = hit->region >= 0 ? &ev->regions[hit->region] : NULL;
        if (invalidated_only(hit)) {
            /* an invalidated capture is the echo of its cause, when the cause was seen */
            int seen = g ? cause[hit->region] : 0;
            if (!g)
                for (size_t k = 0; k < nh && !seen; k++)
                    seen = k != h && ev->hits[k].pid == hit->pid && is_failure(&ev->hits[k]) &&
                           !invalidated_only(&ev->hits[k]);
            if (seen) continue;
        }
        const cg_ev_frame *s = site_of(hit);
        /* a CUDA call seen by CUPTI in a Python process with no Python frame
         * (the GIL released, another thread): the Python exception of the same
         * capture tells it, if there was one; else the capture site does */
        if (!s && hit->in_python && g && py_error[hit->region]) continue;
        if (!s && hit->in_python && !g) continue;
        if (hit->kind == CG_HIT_BREAK && !(hit->cudagraphs == 1 || (hit->cudagraphs < 0 && compiled))) continue;
        const char *path = NULL;
        uint32_t line = 0;
        if (s) { path = s->path; line = s->line; }
        else if (g && g->line && g->path[0] != '?') { path = g->path; line = g->line; }
        else if (hit->nstack && hit->stack[0].line) { path = hit->stack[0].path; line = hit->stack[0].line; }
        if (!path && (hit->kind == CG_HIT_BREAK || hit->kind == CG_HIT_SKIP))
            for (size_t i = 0; i < ev->nregions && !path; i++)
                if (!strcmp(ev->regions[i].kind, "torch.compile") && ev->regions[i].line) {
                    path = ev->regions[i].path;
                    line = ev->regions[i].line;
                }
        x->line_text = path && line ? cg_events_line_text(ev, hit->pid, path, line) : NULL;
        x->rule = cg_classify_hit(hit, x->line_text);
        if (x->rule >= 0 && !strcmp(cg_rules[x->rule].id, "CG002") && hit->kind == CG_HIT_DYNOP &&
            !(g && g->failed) && !has(hit->code, "StreamCapture") && !has(hit->code, "CapturedEvent")) {
            /* an operator failed and the code around it handled it: the capture went on */
            free(x->line_text);
            x->line_text = NULL;
            continue;
        }
        x->keep = 1;
        x->path = path ? strdup(path) : NULL;
        x->line = line;
        x->npids = 1;
        x->pids[0] = hit->pid;
        rankset_add(&x->ranks, hit->rank);
        /* the same failure in several processes (DDP ranks): one finding */
        for (size_t k = 0; k < h; k++) {
            unpredicted *y = &u[k];
            if (!y->keep || y->group != (int)k || y->rule != x->rule || y->line != x->line ||
                !y->path != !x->path || (y->path && strcmp(y->path, x->path) != 0))
                continue;
            x->group = (int)k;
            int known = 0;
            for (size_t q = 0; q < y->npids && q < 8; q++) known |= y->pids[q] == hit->pid;
            if (!known) {
                if (y->npids < 8) y->pids[y->npids] = hit->pid;
                y->npids++;
                rankset_add(&y->ranks, hit->rank);
            }
            break;
        }
    }
    for (size_t h = 0; h < nh; h++) {
        unpredicted *x = &u[h];
        cg_hit *hit = &ev->hits[h];
        if (!x->keep || x->group != (int)h) continue;
        const cg_ev_region *g = hit->region >= 0 ? &ev->regions[hit->region] : NULL;
        int rule = x->rule;
        char *where = x->path ? display_path(root, x->path) : NULL;
        char procs[600] = "";
        if (x->ranks.n && !x->ranks.unranked) {
            char *rt = rankset_text(&x->ranks);
            snprintf(procs, sizeof procs, "; on %s", rt);
            free(rt);
        } else if (x->npids > 1) {
            snprintf(procs, sizeof procs, "; in %zu processes", x->npids);
        }
        if (rule < 0 || !x->path || !x->line || (r->rules && !r->rules->on[rule])) {
            if (rule < 0 || !r->rules || r->rules->on[rule])
                cg_report_notice(r, CG_WARN, where, x->line, 0, "the run saw %s%s%s%s", hit->text,
                                 hit->surface ? "; the program saw " : "", hit->surface ? hit->surface : "", procs);
        } else {
            const char *lt = x->line_text;
            cg_finding nfd = {0};
            nfd.rule = rule;
            nfd.level = cg_rules[rule].severity;
            nfd.loc.path = where;
            nfd.loc.line = nfd.loc.end_line = x->line;
            nfd.loc.col = 1;
            nfd.loc.end_col = 1;
            nfd.line_text = x->line_text;
            if (lt) {
                uint32_t c = 1;
                while (lt[c - 1] == ' ' || lt[c - 1] == '\t') c++;
                nfd.loc.col = c;
                nfd.loc.end_col = c + (uint32_t)strlen(lt + c - 1);
            }
            int catchall = !strcmp(cg_rules[rule].id, "CG002");
            nfd.message = xasprintf("%s: %s", catchall ? "the capture failed" : "seen at run time", hit->text);
            char *capwhere = g ? display_path(root, g->path) : NULL;
            if (g && g->path[0] != '?') {
                nfd.has_capture = 1;
                nfd.capture.path = capwhere;
                nfd.capture.line = nfd.capture.end_line = g->line;
                nfd.capture.col = 1;
                nfd.capture_kind = g->kind;
            }
            nfd.verdict = CG_VERDICT_RUNTIME;
            nfd.evidence = with_victims(xasprintf("%s, at %s:%u%s%s%s; no static finding predicted it", hit->text,
                                                  where, (unsigned)x->line, hit->surface ? "; the program saw " : "",
                                                  hit->surface ? hit->surface : "", procs),
                                        &x->ranks, rf);
            cg_report_add(r, &nfd);
            free(nfd.message);
            free(nfd.evidence);
            free(capwhere);
        }
        free(where);
    }
    for (size_t h = 0; h < nh; h++) { free(u[h].path); free(u[h].line_text); }
    free(u);
    free(cause);
    free(py_error);
}

/* ---- the join ---------------------------------------------------------------- */

typedef struct {
    char *abs;          /* the finding's file */
    char *cap_abs;      /* its capture's file, or NULL */
    int done;
} fmeta;

static int in_span(const cg_finding *f, const fmeta *m, const char *abs, uint32_t line)
{
    uint32_t end = f->loc.end_line > f->loc.line ? f->loc.end_line : f->loc.line;
    return line >= f->loc.line && line <= end && strcmp(abs, m->abs) == 0;
}

static void set_verdict(cg_finding *f, cg_verdict v, char *evidence)
{
    f->verdict = v;
    free(f->evidence);
    f->evidence = evidence;
}

static unsigned long lines_ran(const cg_events *ev, const cg_finding *f, const fmeta *m, unsigned long *replays)
{
    unsigned long n = 0;
    *replays = 0;
    int counted[64] = {0};
    for (size_t i = 0; i < ev->nlines; i++) {
        const cg_line_count *lc = &ev->lines[i];
        if (!in_span(f, m, lc->path, lc->line)) continue;
        n += lc->count;
        if (lc->region >= 0 && lc->region < 64 && !counted[lc->region]) {
            counted[lc->region] = 1;
            *replays += ev->regions[lc->region].replays;
        }
    }
    return n;
}

void cg_join(cg_report *r, cg_events *ev)
{
    const char *root = r->root;
    size_t nf = r->nfindings;
    fmeta *meta = calloc(nf ? nf : 1, sizeof *meta);
    for (size_t i = 0; i < nf; i++) {
        meta[i].abs = abs_of(root, r->findings[i].loc.path);
        if (r->findings[i].has_capture) meta[i].cap_abs = abs_of(root, r->findings[i].capture.path);
    }
    /* hit paths are absolute already; resolve them once more for symlinks */
    for (size_t i = 0; i < ev->nhits; i++)
        for (size_t k = 0; k < ev->hits[i].nstack; k++) {
            char *a = abs_of(root, ev->hits[i].stack[k].path);
            free(ev->hits[i].stack[k].path);
            ev->hits[i].stack[k].path = a;
        }
    for (size_t i = 0; i < ev->nlines; i++) {
        char *a = abs_of(root, ev->lines[i].path);
        free(ev->lines[i].path);
        ev->lines[i].path = a;
    }
    for (size_t i = 0; i < ev->nregions; i++) {
        char *a = abs_of(root, ev->regions[i].path);
        free(ev->regions[i].path);
        ev->regions[i].path = a;
    }
    rank_fate rf;
    rank_fates(ev, &rf, r->run && (r->run->exit_code != 0 || r->run->signal != 0));
    size_t total_captures = 0;
    unsigned long unplaced = 0;   /* captures of native code without line information */
    for (size_t i = 0; i < ev->nregions; i++) {
        total_captures += ev->regions[i].captures;
        if (!ev->regions[i].path || !ev->regions[i].path[0] || !ev->regions[i].line) unplaced += ev->regions[i].captures;
    }

    /* 1. observations at the finding's own line */
    for (size_t i = 0; i < nf; i++) {
        cg_finding *f = &r->findings[i];
        if (!signals_of(f->rule)) {
            set_verdict(f, CG_VERDICT_STATIC_ONLY, strdup("the rule has no runtime signal"));
            meta[i].done = 1;
            continue;
        }
        int sig = signals_of(f->rule);
        char *ev_text = NULL;
        rankset seen = {0};
        for (size_t h = 0; h < ev->nhits; h++) {
            cg_hit *hit = &ev->hits[h];
            if (hit->collateral || !(hit_signal(hit->kind) & sig & ~(CG_SIG_REGION | CG_SIG_BLOCK))) continue;
            const cg_ev_frame *s = site_of(hit);
            if (s && !in_span(f, &meta[i], s->path, s->line)) {
                /* the finding's line further out on the stack: a kernel
                 * launch's innermost user frames are nvcc's stub and wrapper,
                 * placed at the kernel's definition; a call made in a helper
                 * the finding's line calls */
                const cg_ev_frame *in = NULL;
                for (size_t k = 1; k < hit->nstack && !in; k++)
                    if (user_path(hit->stack[k].path) && in_span(f, &meta[i], hit->stack[k].path, hit->stack[k].line))
                        in = &hit->stack[k];
                /* a rule reported at `with torch.cuda.stream(...)` (signal
                 * `block`): what happened in its block is its evidence */
                if (!in && (sig & CG_SIG_BLOCK) &&
                    (hit->kind == CG_HIT_ERROR || hit->kind == CG_HIT_EAGER || hit->kind == CG_HIT_DYNOP))
                    for (size_t k = 0; k < hit->nstack && !in; k++)
                        if (strcmp(hit->stack[k].path, meta[i].abs) == 0 &&
                            inside_with_block(meta[i].abs, f->loc.line, hit->stack[k].line))
                            in = &hit->stack[k];
                s = in;
            }
            if (!s) continue;
            hit->used = 1;
            rankset_add(&seen, hit->rank);
            if (!ev_text) {
                char *where = display_path(root, s->path);
                ev_text = xasprintf("%s, at %s:%u%s%s", hit->text, where, (unsigned)s->line,
                                    hit->surface ? "; the program saw " : "", hit->surface ? hit->surface : "");
                free(where);
            } else if (!strstr(ev_text, hit->text) && strlen(ev_text) < 600) {
                char *t = xasprintf("%s; %s", ev_text, hit->text);
                free(ev_text);
                ev_text = t;
            }
        }
        if (ev_text) {
            set_verdict(f, CG_VERDICT_CONFIRMED, confirmed_on(ev_text, &seen, &rf));
            meta[i].done = 1;
        }
    }
    /* 2. observations of the finding's rule in the finding's capture */
    for (size_t i = 0; i < nf; i++) {
        cg_finding *f = &r->findings[i];
        if (meta[i].done || !(signals_of(f->rule) & CG_SIG_REGION)) continue;
        int sig = signals_of(f->rule);
        rankset seen = {0};
        char *text = NULL;
        for (size_t h = 0; h < ev->nhits; h++) {
            cg_hit *hit = &ev->hits[h];
            if (hit->collateral || !(hit_signal(hit->kind) & sig) || hit->region < 0) continue;
            const cg_ev_region *g = &ev->regions[hit->region];
            int same = f->has_capture ? f->capture.line == g->line && strcmp(meta[i].cap_abs, g->path) == 0
                                      : strcmp(meta[i].abs, g->path) == 0;
            if (!same) continue;
            const cg_ev_frame *s = site_of(hit);
            char *lt = s ? cg_events_line_text(ev, hit->pid, s->path, s->line) : NULL;
            int rule = cg_classify_hit(hit, lt);
            free(lt);
            if (rule != f->rule) continue;
            hit->used = 1;
            rankset_add(&seen, hit->rank);
            if (text) continue;    /* the first one is the evidence; the others add their ranks */
            char *where = display_path(root, g->path);
            text = xasprintf("%s, in the capture at %s:%u", hit->text, where, (unsigned)g->line);
            free(where);
        }
        if (text) {
            set_verdict(f, CG_VERDICT_CONFIRMED, confirmed_on(text, &seen, &rf));
            meta[i].done = 1;
        }
    }
    /* 2b. a rule about the capture itself (signal `region`: CG705's capture
     * in a loop), reported at the capture's own site: that capture ran and
     * the run saw none of the rule's signals in it. The site is where the
     * capture begins, not a line inside it, so step 3 cannot see it run. */
    for (size_t i = 0; i < nf; i++) {
        cg_finding *f = &r->findings[i];
        if (meta[i].done || !(signals_of(f->rule) & CG_SIG_REGION)) continue;
        for (size_t k = 0; k < ev->nregions; k++) {
            const cg_ev_region *g = &ev->regions[k];
            int same = (f->has_capture && f->capture.line == g->line && strcmp(meta[i].cap_abs, g->path) == 0) ||
                       (f->loc.line == g->line && strcmp(meta[i].abs, g->path) == 0);
            if (!same || !g->captures) continue;
            char *where = display_path(root, g->path);
            set_verdict(f, CG_VERDICT_NOT_REPRODUCED,
                        xasprintf("the capture at %s:%u ran %lu time%s and was replayed %lu time%s; the run saw "
                                  "nothing of this rule in it", where, (unsigned)g->line,
                                  g->captures, g->captures == 1 ? "" : "s",
                                  g->replays, g->replays == 1 ? "" : "s"));
            free(where);
            meta[i].done = 1;
            break;
        }
    }
    /* 3. lines that ran inside a capture */
    for (size_t i = 0; i < nf; i++) {
        cg_finding *f = &r->findings[i];
        if (meta[i].done) continue;
        unsigned long replays;
        unsigned long ran = lines_ran(ev, f, &meta[i], &replays);
        int sig = signals_of(f->rule);
        if (ran && (sig & CG_SIG_LINES) && replays)
            set_verdict(f, CG_VERDICT_CONFIRMED,
                        xasprintf("ran %lu time%s at capture, 0 times in %lu replay%s (a replay runs no Python)",
                                  ran, ran == 1 ? "" : "s", replays, replays == 1 ? "" : "s"));
        else if (ran && (sig & CG_SIG_LINES))
            set_verdict(f, CG_VERDICT_NOT_REPRODUCED,
                        xasprintf("ran %lu time%s at capture, but the graph was never replayed", ran,
                                  ran == 1 ? "" : "s"));
        else if (ran)
            set_verdict(f, CG_VERDICT_NOT_REPRODUCED,
                        xasprintf("its line ran %lu time%s inside a capture and the run saw nothing wrong", ran,
                                  ran == 1 ? "" : "s"));
        else if (unplaced)
            set_verdict(f, CG_VERDICT_NOT_EXERCISED,
                        xasprintf("%lu capture%s ran at places cglint could not map to source lines (the "
                                  "program has no line information: build it with -g or -lineinfo), so "
                                  "whether this line ran in one is unknown", unplaced, unplaced == 1 ? "" : "s"));
        else
            set_verdict(f, CG_VERDICT_NOT_EXERCISED,
                        strdup(total_captures ? "its line never ran inside a capture"
                                              : "the program captured nothing"));
    }
    /* 4. what the run saw that no finding predicted: every failure of a
     * capture becomes a finding at the user's line (or its capture site),
     * under the rule its error maps to, or CG002 when none does */
    report_unpredicted(r, ev, root, &rf);
    report_fates(r, ev, &rf, root);
    /* regions for the report */
    cg_run_info *ri = r->run;
    if (ri && ev->nregions) {
        ri->regions = calloc(ev->nregions, sizeof *ri->regions);
        for (size_t i = 0; i < ev->nregions; i++) {
            const cg_ev_region *g = &ev->regions[i];
            cg_region_stat *s = &ri->regions[ri->nregions++];
            s->site.path = display_path(root, g->path);
            s->site.line = s->site.end_line = g->line;
            s->kind = strdup(g->kind);
            s->captures = g->captures;
            s->failed = g->failed;
            s->replays = g->replays;
            s->nodes = g->nodes;
            s->mean_replay_ms = g->samples ? g->ms_sum / (double)g->samples : -1;
            s->eager_step_ms = g->eager_calls ? g->eager_sum / (double)g->eager_calls : -1;
            s->eager_calls = g->eager_calls;
            s->eager_step = g->eager_fns ? strdup(g->eager_fns) : NULL;
            if (g->nranks) {
                s->ranks = calloc(g->nranks, sizeof *s->ranks);
                memcpy(s->ranks, g->ranks, g->nranks * sizeof *s->ranks);
                s->nranks = g->nranks;
            }
            ri->captures += g->captures;
        }
    }
    for (size_t i = 0; i < nf; i++) { free(meta[i].abs); free(meta[i].cap_abs); }
    free(meta);
    cg_report_sort(r);
}
