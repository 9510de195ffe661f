/* py_project.c - one run of the Python front end over a set of files.
 *
 * Phase 1, on all cores: read and validate every file and look for the names
 * of capture APIs in its bytes.  Files that mention one are parsed and
 * indexed at once; the rest are released, to be read again only if a capture
 * elsewhere calls into them.  Phase 2, on all cores, one analysis a capture
 * file: find the regions and follow calls from them (py_analyze.c), parsing
 * reached modules on demand.
 * Whole-tree time therefore stays near the cost of reading when captures are
 * rare, which they are. */
#include "py_int.h"
#include "core/alloc.h"
#include "py_cache.h"
#include "workflow/cache.h"
#include "core/pool.h"
#include "workflow/suppress.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Does the text mention a capture API?  Generous enough that a miss is
 * unlikely (a false hit costs one parse, a miss loses findings), specific
 * enough that "cuda" and "computational graph" in one file are not a hit. */
static int ident_char(unsigned char c)
{
    return c == '_' || (unsigned)((c | 32) - 'a') < 26u || (unsigned)(c - '0') < 10u;
}

static int names_capture_api(const char *t, size_t n)
{
    if (memmem(t, n, "capture_begin", 13) || memmem(t, n, "reduce-overhead", 15)) return 1;
    /* the other names all spell "raph": one pass over its occurrences (a
     * search per name read every file many times) */
    static const struct { const char *s; size_t at; } apis[] = { { "make_graphed_callables", 6 },
        { "CUDAGraph", 5 }, { "cuda.graph", 6 }, { "triton.cudagraphs", 12 }, { "CudaGraphManager", 5 },
        { "FullCudaGraphWrapper", 9 } };
    int torch_graph = 0;
    for (const char *p = t, *end = t + n; (p = memmem(p, (size_t)(end - p), "raph", 4)) != NULL; p++) {
        for (size_t i = 0; i < sizeof apis / sizeof *apis; i++) {
            size_t l = strlen(apis[i].s);
            const char *s = p - apis[i].at;
            /* a whole name: `CUDAGraph(`, not `CUDAGraphBatchDimensionBuilder` (Megatron-LM) */
            if ((size_t)(p - t) >= apis[i].at && (size_t)(end - s) >= l && memcmp(s, apis[i].s, l) == 0 &&
                (s + l == end || !ident_char((unsigned char)s[l])))
                return 1;
        }
        /* `import torch.cuda as tc; tc.graph(g)`, `from torch.cuda import graph` */
        if (((size_t)(p - t) >= 2 && end - p >= 5 && memcmp(p - 2, ".graph(", 7) == 0) ||
            ((size_t)(p - t) >= 8 && memcmp(p - 8, "import graph", 12) == 0))
            torch_graph = 1;
    }
    return torch_graph && memmem(t, n, "torch.cuda", 10) != NULL;
}

/* The end of the string literal whose quote is at t[i] (one past its
 * closing quote; at the line's end for an unterminated short string). */
static size_t string_end(const char *t, size_t n, size_t i, int *triple)
{
    char c = t[i];
    *triple = i + 2 < n && t[i + 1] == c && t[i + 2] == c;
    size_t j = i + (*triple ? 3 : 1);
    while (j < n) {
        if (t[j] == '\\') { j += 2; continue; }
        if (!*triple && t[j] == '\n') break;
        if (t[j] == c && (!*triple || (j + 2 < n && t[j + 1] == c && t[j + 2] == c))) return j + (*triple ? 3 : 1);
        j++;
    }
    return j > n ? n : j;
}

/* Does t[from..i) hold nothing but at most two string prefix letters (r, b, u, f)? */
static int only_prefix(const char *t, size_t from, size_t i)
{
    if (i - from > 2) return 0;
    for (size_t k = from; k < i; k++)
        if (!strchr("rRbBuUfF", t[k])) return 0;
    return 1;
}

/* The text with its comments and its docstring-like strings (a triple-quoted
 * string that begins its line, as docstrings and help texts do) blanked,
 * newlines kept.  Other strings stay: `mode="reduce-overhead"` is code. */
static char *blank_prose(const char *t, size_t n)
{
    char *o = cg_xmalloc(n ? n : 1);
    memcpy(o, t, n);
    size_t i = 0, first = SIZE_MAX;   /* the line's first byte that is not blank */
    while (i < n) {
        char c = t[i];
        if (c == '\n') {
            first = SIZE_MAX;
            i++;
        } else if (c == '#') {
            while (i < n && t[i] != '\n') o[i++] = ' ';
        } else if (c == '"' || c == '\'') {
            int triple;
            size_t j = string_end(t, n, i, &triple);
            if (triple && only_prefix(t, first == SIZE_MAX ? i : first, i))
                for (size_t k = i; k < j; k++)
                    if (t[k] != '\n') o[k] = ' ';
            if (first == SIZE_MAX) first = i;
            i = j;
        } else {
            if (first == SIZE_MAX && c != ' ' && c != '\t' && c != '\r' && c != '\f') first = i;
            i++;
        }
    }
    return o;
}

int cg_py_mentions_capture(const char *t, size_t n)
{
    if (!names_capture_api(t, n)) return 0;
    /* a name in a docstring or a comment ("TE make_graphed_callables()
     * creates per-layer graphs", Megatron-LM's transformer_config.py, 166 KB)
     * is not a capture: the file need not be parsed as one */
    char *code = blank_prose(t, n);
    int hit = names_capture_api(code, n);
    free(code);
    return hit;
}

typedef struct phase1 { py_project *p; int level; size_t done; } phase1;

static void load_one(void *arg, size_t i)
{
    phase1 *ph = arg;
    py_project *p = ph->p;
    __atomic_add_fetch(&p->report->progress_done, 1, __ATOMIC_RELAXED);
    py_module *m = &p->mods[i];
    const cg_py_focus *fo = p->opts->focus;
    if (ph->level == 0 && fo && fo->scan && !m->file->report && !fo->scan(fo->ctx, m->file->path)) {
        /* context only: read if a call reaches it, or if it calls a function
         * whose callers are wanted (its names, from the focus, else any) */
        const cg_py_names *nm = fo->names ? fo->names(fo->ctx, m->file->path) : NULL;
        if (nm) {
            memcpy(m->call_names, nm->call, sizeof m->call_names);
            memcpy(m->import_names, nm->import, sizeof m->import_names);
        } else {
            memset(m->call_names, 0xff, sizeof m->call_names);
            memset(m->import_names, 0xff, sizeof m->import_names);
        }
        return;
    }
    if (ph->level == 0) py_cache_before_read(p, i);
    char err[512];
    /* most files are only scanned here: their line index is made if they are parsed */
    if (cg_source_load_ex(&m->src, m->file->path, p->opts->max_file_size, ph->level == 0 ? CG_SRC_NO_LINES : 0, err,
                          sizeof err) != CG_SRC_OK) {
        cg_report_notice(p->report, CG_ERROR, m->file->path, 0, 0, "%s", err);
        m->state = -1;
        return;
    }
    if (ph->level == 1) { cg_source_free(&m->src); __atomic_add_fetch(&ph->done, 1, __ATOMIC_RELAXED); return; }
    if (ph->level == 2) {
        TSParser *parser = ts_parser_new();
        ts_parser_set_language(parser, tree_sitter_python());
        TSTree *t = ts_parser_parse_string(parser, NULL, m->src.text, (uint32_t)m->src.len);
        if (t) ts_tree_delete(t);
        ts_parser_delete(parser);
        cg_source_free(&m->src);
        __atomic_add_fetch(&ph->done, 1, __ATOMIC_RELAXED);
        return;
    }
    m->file->directives = cg_suppress_maybe(m->src.text, m->src.len) ? 2 : 1;
    py_index_call_names(m, m->src.text, m->src.len);
    m->has_marker = cg_py_mentions_capture(m->src.text, m->src.len);
    if (m->has_marker) {
        py_module_ensure(p, m);
    } else {
        /* not needed unless a capture reaches it: free the bytes, keep a count */
        cg_source_free(&m->src);
        __atomic_add_fetch(&p->report->files_analysed, 1, __ATOMIC_RELAXED);
    }
}

/* ---- prefetch ------------------------------------------------------------------- */
/* The project modules that capture files import are where their calls go: parse
 * them now, on all cores, before the analyses start: every analysis then
 * sees them loaded (py_ctx_has), whichever analysis would have reached them
 * first.  One level only: deeper modules stay on demand. */
typedef struct prefetch { py_project *p; py_module **mods; } prefetch;

static void prefetch_one(void *arg, size_t i)
{
    prefetch *pf = arg;
    py_module_ensure(pf->p, pf->mods[i]);
}

static void prefetch_imports(py_project *p, int jobs)
{
    size_t n = 0, cap = 0;
    py_module **list = NULL;
    cg_map queued;
    cg_map_init(&queued);
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        if (!m->has_marker || m->state != 1) continue;
        for (size_t k = 0; k < m->imports.cap; k++) {
            if (!m->imports.keys[k]) continue;
            const char *t = ((py_import *)m->imports.vals[k])->target;
            py_module *d = py_import_module(p, t, m);
            if (!d || d->state != 0 || cg_map_get(&queued, d->file->path, strlen(d->file->path))) continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                list = cg_xrealloc(list, cap * sizeof *list);
            }
            list[n++] = d;
            cg_map_put(&queued, d->file->path, strlen(d->file->path), (void *)1);
        }
    }
    prefetch pf = { .p = p, .mods = list };
    if (n) cg_pool_for(n, jobs, prefetch_one, &pf);
    cg_map_free(&queued);
    free(list);
}

static double ms_of(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
static double now_ms(void) { return ms_of(CLOCK_MONOTONIC); }
static double cpu_ms(void) { return ms_of(CLOCK_PROCESS_CPUTIME_ID); }

/* ---- lookahead ------------------------------------------------------------------ */
/* While the analyses follow calls and parse the modules they reach as they
 * reach them, another thread parses ahead the modules that
 * the modules indexed so far import, newest first.  It only runs tree-sitter
 * (py_parse_text) into m->ahead, which nothing but py_parse_module reads:
 * a module is still indexed, and its parse errors reported, when and only
 * when the analysis reaches it, so the findings are those of a run without
 * the lookahead (and of --jobs 1, which has none).  Its source budget bounds
 * the memory that trees of modules never reached can take. */
enum { LOOKAHEAD_BUDGET = 6 << 20 };

typedef struct lookahead {
    py_project *p;
    pthread_t thread;
    int stop;                 /* set by the analysis thread when it is done */
    unsigned char *expanded;  /* per module: its imports were queued */
    unsigned char *queued;
    py_module **stack;
    size_t n, cap, bytes, parsed;
} lookahead;

static void la_push(lookahead *la, py_module *d)
{
    size_t i = (size_t)(d - la->p->mods);
    if (la->queued[i]) return;
    if (la->n == la->cap) {
        la->cap = la->cap ? la->cap * 2 : 64;
        py_module **s = cg_xrealloc(la->stack, la->cap * sizeof *s);
        la->stack = s;
    }
    la->queued[i] = 1;
    la->stack[la->n++] = d;
}


/* queue the imports of modules indexed since the last look */
static void la_scan(lookahead *la)
{
    py_project *p = la->p;
    for (size_t i = 0; i < p->nmods; i++) {
        py_module *m = &p->mods[i];
        if (la->expanded[i] || pthread_mutex_trylock(&m->lock) != 0) continue;
        int ready = m->state == 1;
        pthread_mutex_unlock(&m->lock);
        if (!ready) continue;
        la->expanded[i] = 1;
        for (size_t k = 0; k < m->imports.cap; k++) {
            if (!m->imports.keys[k]) continue;
            py_module *d = py_import_module(p, ((py_import *)m->imports.vals[k])->target, m);
            if (d && d != m) la_push(la, d);
        }
    }
}

static void la_parse(lookahead *la, py_module *d)
{
    pthread_mutex_lock(&d->lock);
    if (d->state == 0 && !d->ahead) {
        char err[256];
        if (d->src.text || cg_source_load(&d->src, d->file->path, la->p->opts->max_file_size, err, sizeof err) == CG_SRC_OK) {
            d->ahead = py_parse_text(d->src.text, d->src.len);
            la->bytes += d->src.len;
            la->parsed++;
        }
    }
    pthread_mutex_unlock(&d->lock);
}

static void *la_main(void *arg)
{
    lookahead *la = arg;
    while (!__atomic_load_n(&la->stop, __ATOMIC_ACQUIRE) && la->bytes < LOOKAHEAD_BUDGET) {
        la_scan(la);
        if (!la->n) {
            struct timespec ts = { 0, 500000 };
            nanosleep(&ts, NULL);
            continue;
        }
        la_parse(la, la->stack[--la->n]);
    }
    return NULL;
}

static int lookahead_start(lookahead *la, py_project *p, int jobs)
{
    memset(la, 0, sizeof *la);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* off unless CGLINT_LOOKAHEAD=1: on TransformerEngine it parsed 39 files of which 26 were
     * never reached (+11 MB), and its gain could not be measured on the loaded 2-core
     * machine it was written on (BENCHMARKS.md) */
    const char *on = getenv("CGLINT_LOOKAHEAD");
    if (!on || strcmp(on, "1") != 0 || jobs == 1 || (jobs <= 0 && cores < 2)) return 0;
    la->p = p;
    la->expanded = calloc(p->nmods ? p->nmods : 1, 1);
    la->queued = calloc(p->nmods ? p->nmods : 1, 1);
    if (!la->expanded || !la->queued || pthread_create(&la->thread, NULL, la_main, la) != 0) {
        free(la->expanded);
        free(la->queued);
        la->p = NULL;
        return 0;
    }
    return 1;
}

static void lookahead_stop(lookahead *la)
{
    if (!la->p) return;
    __atomic_store_n(&la->stop, 1, __ATOMIC_RELEASE);
    pthread_join(la->thread, NULL);
    /* CGLINT_TRACE_PARSE=1 also says what the lookahead parsed */
    if (getenv("CGLINT_TRACE_PARSE")) {
        size_t unused = 0;
        for (size_t i = 0; i < la->p->nmods; i++) unused += la->p->mods[i].ahead != NULL;
        fprintf(stderr, "cglint: lookahead parsed %zu files (%zu bytes), %zu of them not reached\n", la->parsed,
                la->bytes, unused);
    }
    free(la->expanded);
    free(la->queued);
    free(la->stack);
}

/* ---- module names ------------------------------------------------------------ */
typedef struct dircache { cg_map has_init; cg_arena *arena; } dircache;

static int dir_has_init(dircache *dc, const char *dir)
{
    size_t len = strlen(dir);
    void *v = cg_map_get(&dc->has_init, dir, len);
    if (v) return v == (void *)2;
    char path[4200];
    snprintf(path, sizeof path, "%s/__init__.py", dir);
    int yes = access(path, F_OK) == 0;
    cg_map_put(&dc->has_init, cg_arena_strndup(dc->arena, dir, len), len, (void *)(uintptr_t)(yes ? 2 : 1));
    return yes;
}

/* "app/layers/block.py" with app/ and app/layers/ packages -> name
 * "app.layers.block", package "app.layers", root "." */
static void name_module(py_project *p, dircache *dc, py_module *m)
{
    cg_arena *a = p->arena;
    char *path = cg_arena_strdup(a, m->file->path);
    char *slash = strrchr(path, '/');
    char *dir = slash ? cg_arena_strndup(a, path, (size_t)(slash - path)) : cg_arena_strdup(a, ".");
    char *base = slash ? slash + 1 : path;
    size_t bl = strlen(base);
    if (bl > 3 && strcmp(base + bl - 3, ".py") == 0) base[bl - 3] = 0;
    m->is_init = strcmp(base, "__init__") == 0;
    /* climb while the directory is a package */
    char *parts[64];
    int np = 0;
    char *cur = dir;
    while (np < 63 && strcmp(cur, ".") != 0 && strcmp(cur, "/") != 0 && dir_has_init(dc, cur)) {
        char *s = strrchr(cur, '/');
        parts[np++] = s ? s + 1 : cur;
        cur = s ? cg_arena_strndup(a, cur, (size_t)(s - cur)) : cg_arena_strdup(a, ".");
        if (s && s == cur) break;
    }
    m->root = cur;
    /* package = parts reversed */
    size_t total = 1;
    for (int i = 0; i < np; i++) total += strlen(parts[i]) + 1;
    char *buf = cg_arena_alloc(a, total);
    size_t bo = 0;
    for (int i = np - 1; i >= 0; i--) {
        if (bo) buf[bo++] = '.';
        size_t l = strlen(parts[i]);
        memcpy(buf + bo, parts[i], l);
        bo += l;
    }
    buf[bo] = 0;
    m->package = buf;
    if (m->is_init) m->name = m->package[0] ? m->package : cg_arena_strdup(a, "__init__");
    else m->name = m->package[0] ? cg_arena_printf(a, "%s.%s", m->package, base) : cg_arena_strdup(a, base);
    if (m->is_init) {
        /* relative imports in a package's __init__ are relative to the package itself */
    }
}

static void project_init(py_project *p, cg_file *files, size_t n, const cg_py_opts *opts, cg_report *r)
{
    memset(p, 0, sizeof *p);
    p->opts = opts;
    p->report = r;
    p->arena = cg_arena_new();
    cg_map_init(&p->by_name);
    cg_map_init(&p->attr_assigns);
    size_t np = 0;
    for (size_t i = 0; i < n; i++) np += files[i].lang == CG_LANG_PY;
    p->mods = cg_xcalloc(np ? np : 1, sizeof *p->mods);
    dircache dc = { .arena = p->arena };
    cg_map_init(&dc.has_init);
    for (size_t i = 0; i < n; i++) {
        if (files[i].lang != CG_LANG_PY) continue;
        py_module *m = &p->mods[p->nmods++];
        m->file = &files[i];
        pthread_mutex_init(&m->lock, NULL);
        name_module(p, &dc, m);
        py_module *prev = cg_map_get(&p->by_name, m->name, strlen(m->name));
        if (prev) { m->next_same_name = prev->next_same_name; prev->next_same_name = m; }
        else cg_map_put(&p->by_name, m->name, strlen(m->name), m);
    }
    cg_map_free(&dc.has_init);
}

/* One module's trees, maps and arena: nothing in them is shared with
 * another module, so the modules are freed on all cores (tree-sitter's
 * ts_tree_delete of the parsed modules is a few per cent of a run).  With
 * a tree cache (`cglint server`) the index goes to its keep instead. */
static void free_module(void *arg, size_t i)
{
    py_project *p = arg;
    py_module *m = &p->mods[i];
    py_keep_give(p, m);
    if (m->ahead) ts_tree_delete(m->ahead);
    py_index_release(m);
    pthread_mutex_destroy(&m->lock);
}

static void project_free(py_project *p)
{
    cg_pool_for(p->nmods, p->opts->jobs, free_module, p);
    for (size_t i = 0; i < p->nan; i++) py_analysis_free(&p->an[i]);
    free(p->an);
    free(p->mods);
    cg_map_free(&p->by_name);
    cg_map_free(&p->attr_assigns);
    cg_arena_free(p->arena);
}

py_project *py_left_to_the_os[8];

void cg_py_analyze(cg_file *files, size_t n, const cg_py_opts *opts, cg_report *report)
{
    char err[256];
    if (py_grammar_init(err, sizeof err) != 0) {
        cg_report_notice(report, CG_ERROR, NULL, 0, 0, "%s", err);
        return;
    }
    py_project p;
    project_init(&p, files, n, opts, report);
    report->files_seen += p.nmods;
    __atomic_store_n(&report->progress_done, 0, __ATOMIC_RELAXED);   /* it counted files found */
    __atomic_store_n(&report->progress_total, p.nmods, __ATOMIC_RELAXED);
    __atomic_store_n(&report->progress_phase, 1, __ATOMIC_RELAXED);
    if (py_cache_begin(&p)) {   /* the project index answered: nothing changed that matters */
        __atomic_store_n(&report->progress_done, report->progress_total, __ATOMIC_RELAXED);
        project_free(&p);
        return;
    }
    /* CGLINT_PY_TIMES=1: wall and CPU milliseconds of each phase, for tuning */
    int times = getenv("CGLINT_PY_TIMES") != NULL;
    double t0 = times ? now_ms() : 0, c0 = times ? cpu_ms() : 0;
    /* a partial run (the project index answered for most capture files,
     * py_cache.c) has what phase 1 and the prefetch would find */
    if (!p.partial) {
        phase1 ph = { .p = &p, .level = 0 };
        cg_pool_for(p.nmods, opts->jobs, load_one, &ph);
    }
    double t1 = times ? now_ms() : 0, c1 = times ? cpu_ms() : 0;
    if (!p.partial) {
        prefetch_imports(&p, opts->jobs);
        /* what every analysis sees loaded: the same whichever runs first */
        for (size_t i = 0; i < p.nmods; i++)
            if (p.mods[i].state == 1) {
                p.mods[i].preloaded = 1;
                py_index_merge_counts(&p, &p.mods[i]);
            }
    }
    double t2 = times ? now_ms() : 0, c2 = times ? cpu_ms() : 0;
    __atomic_store_n(&report->progress_phase, 2, __ATOMIC_RELAXED);
    lookahead la;
    lookahead_start(&la, &p, opts->jobs);
    py_analyze_project(&p);
    lookahead_stop(&la);
    if (times)
        fprintf(stderr, "cglint: python phases (wall/CPU ms): read+prefilter+parse marked %.1f/%.1f, "
                "prefetch imports %.1f/%.1f, analysis %.1f/%.1f\n", t1 - t0, c1 - c0, t2 - t1, c2 - c1,
                now_ms() - t2, cpu_ms() - c2);
    py_cache_end(&p);
    if (opts->exit_after) {
        /* freeing every tree and index was 15% of a cold Megatron-LM run
         * (0.39 -> 0.33 s on 2 cores); the process ends after the report.
         * Kept reachable (py_left_to_the_os), so leak checkers do not count it. */
        for (int i = 0; i < 8; i++)
            if (!py_left_to_the_os[i]) {
                py_project *keep = malloc(sizeof *keep);
                if (!keep) break;
                *keep = p;
                py_left_to_the_os[i] = keep;
                return;
            }
    }
    project_free(&p);
}

size_t cg_py_floor(cg_file *files, size_t n, const cg_py_opts *opts, int level, cg_report *report)
{
    char err[256];
    if (py_grammar_init(err, sizeof err) != 0) {
        cg_report_notice(report, CG_ERROR, NULL, 0, 0, "%s", err);
        return 0;
    }
    py_project p;
    project_init(&p, files, n, opts, report);
    phase1 ph = { .p = &p, .level = level };
    report->files_seen += p.nmods;
    cg_pool_for(p.nmods, opts->jobs, load_one, &ph);
    size_t done = ph.done;
    project_free(&p);
    return done;
}
