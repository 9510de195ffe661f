/* join.c - the runtime events against the static findings.
 *
 * A finding is confirmed by an observation of the kind its rule's runtime
 * signal names (rules/CG*.md, `runtime:`), seen at its line: the innermost
 * user frame of the observation lies in the finding's span.  Rules whose
 * signal belongs to a whole capture (an unjoined fork, a changed
 * hyperparameter, a site captured again and again) are confirmed by an
 * observation of that rule in the capture that the finding names.  Lines
 * that ran inside a capture make the rest "not reproduced", the others "not
 * exercised".  What nobody predicted becomes a finding of its own. */
#include "run.h"
#include "core/file.h"
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SIG_ERROR = 1, SIG_EAGER = 2, SIG_CPU = 4, SIG_PIN = 8, SIG_DYNOP = 16, SIG_SCALAR = 32,
    SIG_REBIND = 64, SIG_HPARAM = 128, SIG_MANY = 256, SIG_LINES = 512, SIG_REGION = 1024,
};

static const struct { const char *id; int sig; } rule_signals[] = {
    {"CG101", SIG_ERROR | SIG_DYNOP}, {"CG102", SIG_ERROR | SIG_DYNOP}, {"CG103", SIG_ERROR | SIG_DYNOP},
    {"CG104", SIG_ERROR | SIG_DYNOP}, {"CG105", SIG_ERROR | SIG_DYNOP}, {"CG106", SIG_ERROR | SIG_EAGER},
    {"CG107", SIG_ERROR | SIG_DYNOP}, {"CG108", SIG_ERROR | SIG_DYNOP}, {"CG201", SIG_ERROR | SIG_DYNOP},
    {"CG202", SIG_ERROR | SIG_DYNOP}, {"CG203", SIG_ERROR | SIG_DYNOP},
    {"CG301", SIG_LINES}, {"CG302", SIG_LINES}, {"CG303", SIG_LINES}, {"CG304", SIG_SCALAR},
    {"CG305", SIG_CPU}, {"CG401", SIG_ERROR | SIG_EAGER | SIG_DYNOP}, {"CG402", SIG_ERROR | SIG_REGION},
    {"CG403", SIG_EAGER | SIG_ERROR | SIG_DYNOP}, {"CG404", SIG_ERROR}, {"CG501", SIG_ERROR}, {"CG502", SIG_ERROR},
    {"CG503", SIG_PIN | SIG_ERROR}, {"CG504", SIG_REBIND | SIG_REGION}, {"CG602", SIG_ERROR | SIG_DYNOP},
    {"CG605", SIG_ERROR}, {"CG606", SIG_HPARAM | SIG_SCALAR | SIG_REGION},
    {"CG701", SIG_ERROR | SIG_DYNOP | SIG_REGION}, {"CG702", SIG_ERROR | SIG_DYNOP | SIG_REGION},
    {"CG704", SIG_ERROR}, {"CG705", SIG_MANY | SIG_REGION}, {"CG706", SIG_ERROR | SIG_DYNOP | SIG_REGION},
    {"CG707", SIG_ERROR}, {"CG708", SIG_ERROR | SIG_DYNOP | SIG_REGION},
    {"CG801", SIG_ERROR}, {"CG802", SIG_ERROR}, {"CG803", SIG_ERROR},
};

static int signals_of(int rule)
{
    const char *id = cg_rules[rule].id;
    for (size_t i = 0; i < sizeof rule_signals / sizeof *rule_signals; i++)
        if (strcmp(rule_signals[i].id, id) == 0) return rule_signals[i].sig;
    return SIG_ERROR;
}

static int hit_signal(cg_hit_kind k)
{
    switch (k) {
    case CG_HIT_ERROR: return SIG_ERROR;
    case CG_HIT_EAGER: return SIG_EAGER;
    case CG_HIT_CPU: return SIG_CPU;
    case CG_HIT_PIN: return SIG_PIN;
    case CG_HIT_DYNOP: return SIG_DYNOP;
    case CG_HIT_SCALAR: return SIG_SCALAR;
    case CG_HIT_REBIND: return SIG_REBIND;
    case CG_HIT_HPARAM: return SIG_HPARAM;
    case CG_HIT_MANY: return SIG_MANY;
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
    case CG_HIT_ERROR: case CG_HIT_DYNOP: break;
    }
    char all[2048];
    snprintf(all, sizeof all, "%s | %s | %s", h->message ? h->message : "", h->code ? h->code : "",
             h->text ? h->text : "");
    const char *api = h->api;
    if (has(all, "Unjoined") || has(all, "not joined")) return rid("CG402");
    if (has(all, "non-default stream")) return rid("CG404");
    if (has(all, "not in capture mode") || has(all, "register_generator_state") ||
        has(all, "Offset increment outside graph capture"))
        return rid("CG602");
    if (has(all, "capturable")) return rid("CG605");
    if (has(all, "CUBLAS_STATUS") || has(all, "CUDNN_STATUS") || has(all, "cublasCreate")) return rid("CG701");
    if (has(all, "hooks registered")) return rid("CG704");
    if (has(all, "AccumulateGrad")) return rid("CG702");
    if (h->other_thread) return rid("CG708");
    if (has(all, "Implicit") || has(all, "legacy stream")) {
        int backward = has(line, "backward(") || (h->phase && strstr(h->phase, "backward"));
        for (size_t i = 0; i < h->nstack && !backward; i++) backward = has(h->stack[i].func, "backward");
        return rid(backward ? "CG702" : "CG401");
    }
    if (has(all, "Isolation")) return rid("CG401");
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
        if (has(api, "GraphLaunch")) return rid("CG502");
        if (has(api, "LaunchKernel") && (has(all, "InvalidValue") || has(all, "INVALID_VALUE") ||
                                         has(all, "Configuration")))
            return rid("CG801");
    }
    if (has(all, "Unsupported") || has(all, "not permitted") || has(all, "CapturedEvent") ||
        has(all, "CAPTURE_UNSUPPORTED") || h->kind == CG_HIT_DYNOP) {
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
        return -1;
    }
    return -1;
}

/* ---- paths ------------------------------------------------------------------- */

/* A path as an absolute, resolved one (malloc'd). */
static char *abs_of(const char *root, const char *path)
{
    char joined[PATH_MAX * 2], res[PATH_MAX];
    if (!path) return strdup("");
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
    return p && p[0] != '<' && p[0] && !strstr(p, "/site-packages/") && !strstr(p, "/dist-packages/") &&
           !strstr(p, "/lib/python3") && !strstr(p, "/torch/") && !strstr(p, "cglint_runtime/");
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

static char *line_text_of(const char *abs, uint32_t line)
{
    return cg_file_line(abs, line, 1u << 20);   /* regular files only, a bounded line */
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
    size_t total_captures = 0;
    for (size_t i = 0; i < ev->nregions; i++) total_captures += ev->regions[i].captures;

    /* 1. observations at the finding's own line */
    for (size_t i = 0; i < nf; i++) {
        cg_finding *f = &r->findings[i];
        if (!cg_rules[f->rule].runtime) {
            set_verdict(f, CG_VERDICT_STATIC_ONLY, strdup("the rule has no runtime signal"));
            meta[i].done = 1;
            continue;
        }
        int sig = signals_of(f->rule);
        char *ev_text = NULL;
        for (size_t h = 0; h < ev->nhits; h++) {
            cg_hit *hit = &ev->hits[h];
            if (!(hit_signal(hit->kind) & sig & ~SIG_REGION)) continue;
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
                /* a stream rule reported at `with torch.cuda.stream(...)`: what
                 * happened in its block is its evidence */
                int stream_rule = !strcmp(cg_rules[f->rule].id, "CG401") || !strcmp(cg_rules[f->rule].id, "CG403");
                if (!in && stream_rule && (hit->kind == CG_HIT_ERROR || hit->kind == CG_HIT_EAGER || hit->kind == CG_HIT_DYNOP))
                    for (size_t k = 0; k < hit->nstack && !in; k++)
                        if (strcmp(hit->stack[k].path, meta[i].abs) == 0 &&
                            inside_with_block(meta[i].abs, f->loc.line, hit->stack[k].line))
                            in = &hit->stack[k];
                s = in;
            }
            if (!s) continue;
            hit->used = 1;
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
            set_verdict(f, CG_VERDICT_CONFIRMED, ev_text);
            meta[i].done = 1;
        }
    }
    /* 2. observations of the finding's rule in the finding's capture */
    for (size_t i = 0; i < nf; i++) {
        cg_finding *f = &r->findings[i];
        if (meta[i].done || !(signals_of(f->rule) & SIG_REGION)) continue;
        int sig = signals_of(f->rule);
        for (size_t h = 0; h < ev->nhits; h++) {
            cg_hit *hit = &ev->hits[h];
            if (!(hit_signal(hit->kind) & sig) || hit->region < 0) continue;
            const cg_ev_region *g = &ev->regions[hit->region];
            int same = f->has_capture ? f->capture.line == g->line && strcmp(meta[i].cap_abs, g->path) == 0
                                      : strcmp(meta[i].abs, g->path) == 0;
            if (!same) continue;
            const cg_ev_frame *s = site_of(hit);
            char *lt = s ? line_text_of(s->path, s->line) : NULL;
            int rule = cg_classify_hit(hit, lt);
            free(lt);
            if (rule != f->rule) continue;
            hit->used = 1;
            char *where = display_path(root, g->path);
            set_verdict(f, CG_VERDICT_CONFIRMED,
                        xasprintf("%s, in the capture at %s:%u", hit->text, where, (unsigned)g->line));
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
        if (ran && (sig & SIG_LINES) && replays)
            set_verdict(f, CG_VERDICT_CONFIRMED,
                        xasprintf("ran %lu time%s at capture, 0 times in %lu replay%s (a replay runs no Python)",
                                  ran, ran == 1 ? "" : "s", replays, replays == 1 ? "" : "s"));
        else if (ran && (sig & SIG_LINES))
            set_verdict(f, CG_VERDICT_NOT_REPRODUCED,
                        xasprintf("ran %lu time%s at capture, but the graph was never replayed", ran,
                                  ran == 1 ? "" : "s"));
        else if (ran)
            set_verdict(f, CG_VERDICT_NOT_REPRODUCED,
                        xasprintf("its line ran %lu time%s inside a capture and the run saw nothing wrong", ran,
                                  ran == 1 ? "" : "s"));
        else
            set_verdict(f, CG_VERDICT_NOT_EXERCISED,
                        strdup(total_captures ? "its line never ran inside a capture"
                                              : "the program captured nothing"));
    }
    /* 4. what the run saw that no finding predicted */
    int other_errors = 0;
    for (size_t h = 0; h < ev->nhits; h++)
        other_errors += !ev->hits[h].used && ev->hits[h].kind == CG_HIT_ERROR &&
                        !has(ev->hits[h].code, "Invalidated");
    for (size_t h = 0; h < ev->nhits; h++) {
        cg_hit *hit = &ev->hits[h];
        if (hit->used) continue;
        /* an invalidated capture is the echo of its cause, when the cause was seen */
        if (has(hit->code, "Invalidated") && (other_errors || hit->phase == NULL || strcmp(hit->phase, "api") == 0))
            continue;
        const cg_ev_frame *s = site_of(hit);
        if (!s && hit->in_python) continue;   /* no Python frame (GIL released): the exception tells it */
        const cg_ev_region *g = hit->region >= 0 ? &ev->regions[hit->region] : NULL;
        const char *path = s ? s->path : g ? g->path : NULL;
        uint32_t line = s ? s->line : g ? g->line : 0;
        char *lt = path && line ? line_text_of(path, line) : NULL;
        int rule = cg_classify_hit(hit, lt);
        char *where = path ? display_path(root, path) : NULL;
        if (rule < 0 || !path || !line || (r->rules && !r->rules->on[rule])) {
            if (rule < 0 || !r->rules || r->rules->on[rule])
                cg_report_notice(r, CG_WARN, where, line, 0, "the run saw %s%s", hit->text,
                                 rule < 0 ? " (no rule of this catalog matches it)" : "");
        } else {
            cg_finding nfd = {0};
            nfd.rule = rule;
            nfd.level = cg_rules[rule].severity;
            nfd.loc.path = where;
            nfd.loc.line = nfd.loc.end_line = line;
            nfd.loc.col = 1;
            nfd.loc.end_col = 1;
            nfd.line_text = lt;
            if (lt) {
                uint32_t c = 1;
                while (lt[c - 1] == ' ' || lt[c - 1] == '\t') c++;
                nfd.loc.col = c;
                nfd.loc.end_col = c + (uint32_t)strlen(lt + c - 1);
            }
            nfd.message = xasprintf("seen at run time: %s", hit->text);
            char *capwhere = g ? display_path(root, g->path) : NULL;
            if (g) {
                nfd.has_capture = 1;
                nfd.capture.path = capwhere;
                nfd.capture.line = nfd.capture.end_line = g->line;
                nfd.capture.col = 1;
                nfd.capture_kind = g->kind;
            }
            nfd.verdict = CG_VERDICT_RUNTIME;
            nfd.evidence = xasprintf("%s, at %s:%u%s%s; no static finding predicted it", hit->text, where,
                                     (unsigned)line, hit->surface ? "; the program saw " : "",
                                     hit->surface ? hit->surface : "");
            cg_report_add(r, &nfd);
            free(nfd.message);
            free(nfd.evidence);
            free(capwhere);
        }
        free(where);
        free(lt);
    }
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
            ri->captures += g->captures;
        }
    }
    for (size_t i = 0; i < nf; i++) { free(meta[i].abs); free(meta[i].cap_abs); }
    free(meta);
    cg_report_sort(r);
}
