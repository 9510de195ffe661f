/* cu_project.c - one run of the CUDA/C/C++ front end over a set of files.
 *
 * Phase 1, on all cores: read and validate every file (the same checks as
 * for Python: size, binary, UTF-8), keeping the text for line excerpts.
 * Phase 2, on all cores, one CXIndex per thread: parse each source file as
 * a translation unit and lower the functions defined in analysed files
 * (cu_lower.c).  Phase 3: sources the compile database does not list, and
 * headers, that no analysed source includes are parsed on their own, so
 * their functions are known too.  Phase 4, on one
 * thread: merge the functions of all files by USR (the first definition in
 * path order wins) and walk the captures (cu_analyze.c). */
#include "cu_eval.h"
#include "cu_cache.h"
#include "core/pool.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cu_is_header_path(const char *path);
void cu_parse_summary(cu_project *p);

static int is_c_path(const char *path)
{
    size_t n = strlen(path);
    return n > 2 && strcmp(path + n - 2, ".c") == 0;
}

static void project_init(cu_project *p, const cg_file *files, size_t n, const cg_cu_opts *opts, cg_report *r)
{
    memset(p, 0, sizeof *p);
    p->opts = opts;
    p->report = r;
    p->arena = cg_arena_new();
    pthread_mutex_init(&p->lock, NULL);
    cg_map_init(&p->by_inode);
    cg_map_init(&p->funcs);
    cg_map_init(&p->rsp_reported);
    cg_map_init(&p->deep_reported);
    cg_map_init(&p->missing_cuda);
    cg_map_init(&p->missing_project);
    /* switches read once, here, not from the parse threads */
    p->no_pch = getenv("CGLINT_CU_NO_PCH") != NULL;   /* measure without the toolkit PCH */
    const char *t = getenv("CGLINT_CU_TIMES");       /* per-file milliseconds; 2: and the flags */
    p->times = t ? (t[0] == '2' ? 2 : 1) : 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += files[i].lang == CG_LANG_CU;
    p->files = cg_xcalloc(k ? k : 1, sizeof *p->files);
    for (size_t i = 0; i < n; i++) {
        if (files[i].lang != CG_LANG_CU) continue;
        cu_file *f = &p->files[p->nfiles++];
        f->file = &files[i];
        f->path = files[i].path;
        f->arena = cg_arena_new();
        f->lang = is_c_path(f->path);
        f->header = cu_is_header_path(f->path);
        struct stat st;
        if (stat(f->path, &st) == 0) {
            f->dev = (uint64_t)st.st_dev;
            f->ino = (uint64_t)st.st_ino;
            /* libclang's CXFileUniqueID is (device, inode, mtime) */
            char key[64];
            int kl = snprintf(key, sizeof key, "%llx:%llx", (unsigned long long)f->dev,
                              (unsigned long long)f->ino);
            char *kk = cg_arena_strndup(p->arena, key, (size_t)kl);
            if (!cg_map_get(&p->by_inode, kk, (size_t)kl))
                cg_map_put(&p->by_inode, kk, (size_t)kl, (void *)(uintptr_t)(p->nfiles));
        }
    }
}

static void project_free(cu_project *p)
{
    for (size_t i = 0; i < p->nfiles; i++) {
        cg_source_free(&p->files[i].src);
        cg_arena_free(p->files[i].arena);
    }
    free(p->files);
    cg_map_free(&p->by_inode);
    cg_map_free(&p->funcs);
    if (p->hdr_index_ready) cg_map_free(&p->hdr_by_name);
    cg_map_free(&p->rsp_reported);
    cg_map_free(&p->deep_reported);
    cg_map_free(&p->missing_cuda);
    cg_map_free(&p->missing_project);
    for (int i = 0; i < p->npch; i++) pthread_mutex_destroy(&p->pch[i].lock);
    pthread_mutex_destroy(&p->lock);
    cg_arena_free(p->arena);
}

void cu_report_too_deep(cu_project *p, const cu_loc *at, const char *fn, const char *why)
{
    if (at->file < 0 || (size_t)at->file >= p->nfiles) return;
    const cu_file *f = &p->files[at->file];
    if (!f->file->report) return;   /* a context file: not this run's to complain about */
    cg_loc g = cu_cg_loc(p, at);
    char key[64];
    int kl = snprintf(key, sizeof key, "%d:%u:%u", at->file, at->line, at->col);
    pthread_mutex_lock(&p->lock);
    int seen = cg_map_get(&p->deep_reported, key, (size_t)kl) != NULL;
    if (!seen) cg_map_put(&p->deep_reported, cg_arena_strndup(p->arena, key, (size_t)kl), (size_t)kl, (void *)1);
    pthread_mutex_unlock(&p->lock);
    if (seen) return;
    cg_report_notice(p->report, CG_ERROR, f->path, g.line, g.col,
                     "too deeply nested (%s): cglint stopped analysing this construct in `%s`; the rest of "
                     "the file is analysed", why, fn ? fn : "?");
}

typedef struct phase { cu_project *p; int level; int stage; size_t done; } phase;
static void parse_one(void *arg, size_t i);

static void load_one(void *arg, size_t i)
{
    phase *ph = arg;
    cu_file *f = &ph->p->files[i];
    char err[512];
    /* libclang reads the file itself: bytes that are not UTF-8 (Latin-1 in old
     * comments) only need to stay out of the report's excerpts */
    if (cg_source_load_ex(&f->src, f->path, ph->p->opts->max_file_size, CG_SRC_C | CG_SRC_LENIENT_UTF8,
                          err, sizeof err) != CG_SRC_OK) {
        cg_report_notice(ph->p->report, CG_ERROR, f->path, 0, 0, "%s", err);
        f->status = -1;
        return;
    }
    f->loaded = 1;
    __atomic_add_fetch(&ph->p->report->progress_done, 1, __ATOMIC_RELAXED);
    f->marker = memmem(f->src.text, f->src.len, "BeginCapture", 12) != NULL ||
                memmem(f->src.text, f->src.len, "EndCapture", 10) != NULL;
}

static void parse_one(void *arg, size_t i)
{
    phase *ph = arg;
    cu_file *f = &ph->p->files[i];
    if (!f->loaded || f->status < 0 || f->parse || !f->wanted) return;
    if (ph->stage != f->stage) return;
    if (f->stage > 0 && __atomic_load_n(&f->included, __ATOMIC_RELAXED)) return;
    f->parse = 1;
    if (ph->p->report->progress_phase == 4) __atomic_add_fetch(&ph->p->report->progress_done, 1, __ATOMIC_RELAXED);
    cu_parse_file(ph->p, f, ph->level);
    if (f->status == 0) __atomic_add_fetch(&ph->done, 1, __ATOMIC_RELAXED);
}

/* libclang writes its own report to stderr when it crashes on a file; the
 * user gets our one line instead.  stderr goes to a file while files are
 * parsed, and what is not such a report is copied back afterwards. */
typedef struct hold { int saved; char path[4200]; } hold;

static void hold_stderr(cu_project *p, hold *h)
{
    h->saved = -1;
    if (getenv("CGLINT_LIBCLANG_STDERR")) return;
    snprintf(h->path, sizeof h->path, "%s/stderr.txt", p->tmpdir);
    int fd = open(h->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return;
    fflush(stderr);
    h->saved = dup(STDERR_FILENO);
    if (h->saved < 0 || dup2(fd, STDERR_FILENO) < 0) {
        if (h->saved >= 0) close(h->saved);
        h->saved = -1;
    }
    close(fd);
    cg_alloc_error_fd(h->saved);   /* out of memory meanwhile: said on the real stderr */
}

static void release_stderr(hold *h)
{
    if (h->saved < 0) return;
    fflush(stderr);
    dup2(h->saved, STDERR_FILENO);
    cg_alloc_error_fd(-1);
    close(h->saved);
    FILE *f = fopen(h->path, "r");
    if (!f) return;
    char line[4096];
    int in_report = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "libclang: crash detected", 24) == 0) { in_report = 1; continue; }
        if (in_report) { if (line[0] == '}') in_report = 0; continue; }
        if (strncmp(line, "LIBCLANG FATAL ERROR", 20) == 0) continue;
        fputs(line, stderr);
    }
    fclose(f);
}

static void merge_funcs(cu_project *p)
{
    /* one entry per definition: a header's functions come from every TU that
     * includes it (kept once), while separate programs in one tree may each
     * define main() (all kept) */
    for (size_t i = 0; i < p->nfiles; i++) {
        cu_file *f = &p->files[i];
        for (size_t k = 0; k < f->nfuncs; k++) {
            cu_func *fn = f->funcs[k];
            size_t ul = strlen(fn->usr);
            cu_func *head = cg_map_get(&p->funcs, fn->usr, ul), *q = head;
            while (q && q != fn && !(q->file == fn->file && q->loc.line == fn->loc.line)) q = q->next_same_usr;
            if (q) continue;
            if (!head) { cg_map_put(&p->funcs, fn->usr, ul, fn); continue; }
            while (head->next_same_usr) head = head->next_same_usr;
            head->next_same_usr = fn;
        }
    }
}

/* Does the text mention one of the names as a whole identifier? */
static int ident_char(unsigned char c)
{
    return c == '_' || (unsigned)((c | 32) - 'a') < 26u || (unsigned)(c - '0') < 10u;
}

/* Does the text after an identifier look like a function definition:
 * `(` balanced `)`, then the body `{` (or a constructor's `:` initialisers)
 * before any `;`, `,`, `)` or `=`?  `name(args);` and `if (name(x)) {` are
 * calls; `T name(args) const noexcept -> R {` is a definition.  Comments and
 * strings are not skipped: a definition missed here is looked for again by
 * nobody, a call taken for one costs only a parse. */
static int looks_defined_at(const char *t, const char *end)
{
    while (t < end && (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')) t++;
    if (t >= end || *t != '(') return 0;
    int depth = 0;
    const char *stop = end - t > 4096 ? t + 4096 : end;
    for (; t < stop; t++) {
        if (*t == '(') depth++;
        else if (*t == ')' && --depth == 0) { t++; break; }
    }
    if (depth) return 0;
    stop = end - t > 512 ? t + 512 : end;
    for (; t < stop; t++) {
        switch (*t) {
        case '{': return 1;
        case ':': return !(t + 1 < end && t[1] == ':');   /* Foo(int x) : x_(x) { */
        case ';': case ',': case ')': case '=': case '}': case '(': return 0;
        default: break;
        }
    }
    return 0;
}

/* Does the file mention a wanted name in the way it is wanted
 * (CU_WANT_CALLER: at all; CU_WANT_DEF: as a definition)? */
static int mentions_any(const cu_file *f, const cg_map *names, int callers_too)
{
    const char *t = f->src.text, *end = t + f->src.len;
    while (t < end) {
        unsigned char c = (unsigned char)*t;
        if (!ident_char(c)) { t++; continue; }
        const char *s = t;
        while (t < end && ident_char((unsigned char)*t)) t++;
        if ((unsigned)(c - '0') < 10u) continue;
        uintptr_t how = (uintptr_t)cg_map_get(names, s, (size_t)(t - s));
        if ((how & CU_WANT_CALLER) && callers_too) return 1;
        if ((how & CU_WANT_DEF) && looks_defined_at(t, end)) return 1;
    }
    return 0;
}

static void parse_wanted(cu_project *p, phase *ph)
{
    for (ph->stage = 0; ph->stage < 3; ph->stage++) cg_pool_for(p->nfiles, p->opts->jobs, parse_one, ph);
}

/* Parse in rounds: first the files that mention a capture API, then the
 * files that mention a name the parsed code needs (cu_collect_names), until
 * no file is added.  With parse_all, or for the parse floor, everything at
 * once. */
static void run_phases(cu_project *p, int level, size_t *done, int loaded)
{
    phase ph = { .p = p, .level = level };
    if (!loaded) cg_pool_for(p->nfiles, p->opts->jobs, load_one, &ph);
    if (level == 1) {
        for (size_t i = 0; i < p->nfiles; i++) *done += p->files[i].loaded;
        return;
    }
    /* the progress line: C/C++ files parsed so far (of those read) */
    __atomic_store_n(&p->report->progress_done, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&p->report->progress_phase, 4, __ATOMIC_RELAXED);
    hold h;
    hold_stderr(p, &h);
    int all = p->opts->parse_all || level == 2;
    /* Named files (pre-commit): the named files are parsed first, and the
     * project around them only for the definitions their captures call, not
     * for every file that mentions a capture API (its findings would not be
     * reported) nor for callers of theirs. */
    int named = 0;
    for (size_t i = 0; i < p->nfiles; i++) named |= !p->files[i].file->report;
    p->named_only = named && !all;
    for (size_t i = 0; i < p->nfiles; i++)
        p->files[i].wanted = all || (p->files[i].marker && (!named || p->files[i].file->report));
    parse_wanted(p, &ph);
    merge_funcs(p);
    /* Named files (pre-commit) are analysed as clang-tidy analyses a file:
     * their own captures and the functions they define; a call into another
     * file is matched by name, as a library call is.  Following it would
     * parse what it reaches (30 files and 33 s for one TransformerEngine
     * test against clang's 2.6 s) to find hazards in files that are not
     * reported.  The directory run (CI) follows everything.
     * CGLINT_CU_NAMED_ROUNDS=N follows N levels, to measure. */
    int rounds_left = -1;
    if (p->named_only) {
        const char *e = getenv("CGLINT_CU_NAMED_ROUNDS");
        rounds_left = e ? atoi(e) : 0;
    }
    while (!all && rounds_left != 0) {
        if (rounds_left > 0) rounds_left--;
        cg_arena *a = cg_arena_new();
        cg_map names;
        cg_map_init(&names);
        cu_collect_names(p, &names, a);
        if (getenv("CGLINT_CU_ROUNDS")) {
            fprintf(stderr, "round: %zu names:", names.count);
            for (size_t i = 0; i < names.cap; i++) if (names.keys[i]) fprintf(stderr, " %.*s", (int)names.klen[i], names.keys[i]);
            fputc('\n', stderr);
        }
        size_t added = 0;
        for (size_t i = 0; i < p->nfiles; i++) {
            cu_file *f = &p->files[i];
            if (f->parse || !f->loaded || f->status < 0 || (f->stage > 0 && f->included)) continue;
            if (names.count && mentions_any(f, &names, !(p->named_only && !f->file->report))) { f->wanted = 1; added++; }
        }
        cg_map_free(&names);
        cg_arena_free(a);
        if (!added) break;
        parse_wanted(p, &ph);
        merge_funcs(p);
    }
    release_stderr(&h);
    *done = ph.done;
}

/* The walk recurses once a level of the code it walks (bounded: cu_eval.h);
 * it runs on a thread whose stack is sized for that bound, whatever the
 * main thread's stack limit is (ulimit -s). */
static void *analyze_thread(void *arg)
{
    cu_analyze_project(arg);
    return NULL;
}

static void analyze_on_big_stack(cu_project *p)
{
    pthread_attr_t attr;
    pthread_t t;
    int ok = pthread_attr_init(&attr) == 0;
    if (ok && pthread_attr_setstacksize(&attr, CU_WALK_STACK) == 0 &&
        pthread_create(&t, &attr, analyze_thread, p) == 0) {
        pthread_join(t, NULL);
    } else {
        cu_analyze_project(p);   /* no thread to be had: the caller's stack */
    }
    if (ok) pthread_attr_destroy(&attr);
}

void cg_cu_analyze(const cg_file *files, size_t n, const cg_cu_opts *opts, cg_report *report)
{
    cu_project p;
    project_init(&p, files, n, opts, report);
    if (!p.nfiles) { project_free(&p); return; }
    report->files_seen += p.nfiles;
    cu_cache_state *memo = NULL;
    if (cu_cache_begin(&p, opts->cache, &memo)) {   /* the project index answered */
        project_free(&p);
        return;
    }
    /* the progress line: C/C++ files read, then parsed (phases 3 and 4) */
    __atomic_store_n(&report->progress_done, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&report->progress_total, p.nfiles, __ATOMIC_RELAXED);
    __atomic_store_n(&report->progress_phase, 3, __ATOMIC_RELAXED);
    /* the files are read first: when none mentions a capture API (and none
     * must be parsed) libclang is not loaded at all (20 ms on Megatron-LM's
     * two C++ files) */
    phase ph = { .p = &p, .level = 0 };
    cg_pool_for(p.nfiles, opts->jobs, load_one, &ph);
    int named = 0, wanted = opts->parse_all;
    for (size_t i = 0; i < p.nfiles; i++) named |= !p.files[i].file->report;
    for (size_t i = 0; i < p.nfiles && !wanted; i++)
        wanted = p.files[i].loaded && p.files[i].marker && (!named || p.files[i].file->report);
    if (!wanted) {
        size_t analysed = 0;
        for (size_t i = 0; i < p.nfiles; i++) analysed += p.files[i].loaded && p.files[i].status == 0;
        __atomic_add_fetch(&report->files_analysed, analysed, __ATOMIC_RELAXED);
    } else if (cu_parse_setup(&p) == 0) {
        size_t done = 0;
        run_phases(&p, 0, &done, 1);
        cu_parse_summary(&p);
        /* files skipped because no capture can reach them count as analysed,
         * as in the Python front end */
        size_t analysed = 0;
        for (size_t i = 0; i < p.nfiles; i++) analysed += p.files[i].loaded && p.files[i].status == 0;
        __atomic_add_fetch(&report->files_analysed, analysed, __ATOMIC_RELAXED);
        analyze_on_big_stack(&p);
    }
    cu_cache_end(&p, memo);
    cu_parse_teardown(&p);
    project_free(&p);
}

/* One line a file: the path, a tab, the clang arguments (tab-separated) it
 * is parsed with, without the per-run precompiled header. */
static void print_flags(cu_project *p, FILE *out)
{
    for (size_t i = 0; i < p->nfiles; i++) {
        cu_file *f = &p->files[i];
        fprintf(out, "%s", f->path);
        for (int k = 0; k < f->argc; k++) fprintf(out, "\t%s", f->argv[k]);
        fprintf(out, "\t#stage=%d%s\n", f->stage, f->from_db ? " from-db" : "");
    }
}

size_t cg_cu_floor(const cg_file *files, size_t n, const cg_cu_opts *opts, int level, cg_report *report)
{
    cu_project p;
    project_init(&p, files, n, opts, report);
    size_t done = 0;
    if (p.nfiles && cu_parse_setup(&p) == 0) {
        if (level == 3) { print_flags(&p, stdout); done = p.nfiles; }
        else run_phases(&p, level, &done, 0);
    }
    report->files_seen += p.nfiles;
    cu_parse_teardown(&p);
    project_free(&p);
    return done;
}
