/* cu_parse.c - turning files into translation units: flags, modes, the
 * compile database, precompiled headers, diagnostics.
 *
 * Two ways to see the CUDA API
 *   toolkit  the real headers: -x cuda --cuda-host-only --cuda-path=$CUDA.
 *            cuda_runtime.h costs about 290 ms a file, so it is precompiled
 *            once per run (per distinct set of macro flags) into a PCH in a
 *            temporary directory, and each file is parsed with -include-pch:
 *            about 60 ms a file.
 *   shim     cglint's own declarations (src/cuda/shim/, embedded in the
 *            binary and written to the temporary directory), with
 *            -nocudainc: about 13 ms a file, no toolkit needed.  Calls to
 *            functions the shim does not declare are still seen, by name.
 * Findings must not depend on the mode; only the diagnostics do, and shim
 * mode keeps the semantic errors its gaps cause out of the user's way.
 *
 * Bad input
 *   Each file gets at most one message: not parsed at all (libclang failed
 *   or crashed: CXErrorCode), or parsed with errors (the first one, with a
 *   count; what parsed is still analysed).  Trouble inside the CUDA or
 *   system headers, or a missing CUDA library header, is one note per run.
 *   libclang prints its own report when it crashes; that text is held back
 *   while files are parsed (stderr goes to a file in the temporary
 *   directory) so the user sees one line per file. */
#include "cu_int.h"
#include "cu_shim.h"
#include "cu_cache.h"
#include "core/file.h"
#include "core/hash.h"
#include "core/path.h"
#include "cu_clang.h"
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- per-thread libclang indexes ------------------------------------------------ */
typedef struct tl_index { CXIndex idx; unsigned gen; } tl_index;
static __thread tl_index tl;
static unsigned run_gen;                 /* bumped per run: indexes of old runs are gone */
static CXIndex all_idx[512];
static int nall_idx;
static pthread_mutex_t idx_lock = PTHREAD_MUTEX_INITIALIZER;

static CXIndex thread_index(void)
{
    unsigned g = __atomic_load_n(&run_gen, __ATOMIC_ACQUIRE);
    if (tl.idx && tl.gen == g) return tl.idx;
    /* excludeDeclarationsFromPCH: the toolkit's declarations are not visited */
    tl.idx = clang_createIndex(1, 0);
    tl.gen = g;
    pthread_mutex_lock(&idx_lock);
    if (nall_idx < 512) all_idx[nall_idx++] = tl.idx;
    pthread_mutex_unlock(&idx_lock);
    return tl.idx;
}

static void thread_index_reset_after_crash(void)
{
    /* the index a crash happened in is left alone (it may be inconsistent);
     * the next parse on this thread gets a fresh one */
    tl.idx = NULL;
}

static void dispose_indexes(void)
{
    pthread_mutex_lock(&idx_lock);
    for (int i = 0; i < nall_idx; i++) clang_disposeIndex(all_idx[i]);
    nall_idx = 0;
    __atomic_add_fetch(&run_gen, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&idx_lock);
}

/* ---- small helpers ------------------------------------------------------------- */
static int exists(const char *path) { struct stat st; return stat(path, &st) == 0; }

typedef struct argv_b { char **v; int n, cap; cg_arena *a; } argv_b;

static void av_push(argv_b *b, const char *s)
{
    if (b->n == b->cap) {
        int nc = b->cap ? b->cap * 2 : 32;
        char **nv = cg_arena_alloc(b->a, (size_t)nc * sizeof *nv);
        if (b->n) memcpy(nv, b->v, (size_t)b->n * sizeof *nv);
        b->v = nv;
        b->cap = nc;
    }
    b->v[b->n++] = cg_arena_strdup(b->a, s);
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int ok = fputs(text, f) >= 0;
    ok &= fclose(f) == 0;
    return ok ? 0 : -1;
}

static int rm_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

/* Headers of CUDA's libraries: when one is missing it is the environment's
 * trouble (or shim mode's), reported once, not the file's. */
static int is_cuda_family_header(const char *h) { return cu_header_origin(h) == CU_HDR_LIBRARY; }

/* ---- the compile database ---------------------------------------------------- */
/* Why a reader of our own and not libclang's clang_CompilationDatabase_fromDirectory
 * (issue 13 asked for it; kept, from reading CXCompilationDatabase.h, not from a
 * trial port):
 *   - errors: the API's only answer is CXCompilationDatabase_CanNotLoadDatabase,
 *     for a missing file, a file that is not JSON and a bad entry alike; load_db
 *     says which in one line, and a bad entry costs that entry only;
 *   - response files: an unreadable `@file`, a cycle or a too-deep chain is one
 *     note naming it (filter_response_file); the API gives no diagnostic;
 *   - it takes a directory and opens whatever is there: load_db opens regular
 *     files only, so a FIFO named compile_commands.json cannot block the run;
 *   - it may add arguments of its own (driver-mode and target inference), which
 *     filter_flags would then have to undo for nvcc command lines;
 *   - checked again against clang's JSONCompilationDatabase.cpp: loadFromDirectory
 *     returns inferTargetAndDriverMode(inferMissingCompileCommands(
 *     expandResponseFiles(db))), so a file the database does not list gets a
 *     command borrowed from a neighbour, where cglint guesses its headers and
 *     says the file is not in the database (stage 1).
 * "arguments" vs "command" strings and directory-relative paths are handled as
 * the API's JSONCompilationDatabase does; tests/cuda (headers.sh, bad_input.sh)
 * and the compile_db fixture check them. */
typedef struct db_entry { char *file; char **argv; int argc; char *dir; } db_entry;

/* Split a shell command line (the "command" form): quotes and backslashes. */
static int shell_split(cg_arena *a, const char *s, char ***out)
{
    argv_b b = { .a = a };
    char *buf = malloc(strlen(s) + 1);
    if (!buf) return 0;
    const char *p = s;
    while (*p) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        size_t k = 0;
        int any = 0;
        while (*p && !isspace((unsigned char)*p)) {
            any = 1;
            if (*p == '\'') {
                p++;
                while (*p && *p != '\'') buf[k++] = *p++;
                if (*p) p++;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1]) p++;
                    buf[k++] = *p++;
                }
                if (*p) p++;
            } else if (*p == '\\' && p[1]) {
                p++;
                buf[k++] = *p++;
            } else {
                buf[k++] = *p++;
            }
        }
        buf[k] = 0;
        if (any) av_push(&b, buf);
    }
    free(buf);
    *out = b.v;
    return b.n;
}

static char *join_path(cg_arena *a, const char *dir, const char *p)
{
    if (!p || p[0] == '/' || !dir) return cg_arena_strdup(a, p ? p : "");
    return cg_arena_printf(a, "%s/%s", dir, p);
}

/* A CUDA toolkit's include directory: the parsing mode provides it (or,
 * in shim mode, must not see it). */
static int is_toolkit_include(const char *dir)
{
    char probe[PATH_MAX];
    snprintf(probe, sizeof probe, "%s/cuda_runtime_api.h", dir);
    return exists(probe);
}

/* The whole of a response file, NUL-terminated (malloc), or NULL with errno. */
static char *read_whole_file(const char *path)
{
    char ferr[256];
    cu_cache_note_path(path);
    FILE *f = cg_file_fopen(path, ferr, sizeof ferr);   /* a regular file: a FIFO would block */
    if (!f) return NULL;
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n + 1 < cap) break;
        char *nb = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
        if (!nb) { free(buf); buf = NULL; errno = EFBIG; break; }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (buf && bad) { free(buf); buf = NULL; errno = EIO; }
    if (buf) buf[n] = 0;
    return buf;
}

/* Keep what changes how a file parses: include paths, macros, the standard,
 * forced includes.  The rest (nvcc's code generation, warnings, output)
 * means nothing to libclang or is not understood by it.  Response files
 * (nvcc's --options-file, @file) are read in place; one that includes itself,
 * directly or through others, is read once (an error, once per run), and
 * nesting stops at CU_MAX_RSP_DEPTH. */
#define CU_MAX_RSP_DEPTH 16

typedef struct flag_ctx {
    cu_project *p;
    cg_arena *a;
    argv_b *out;
    int *has_std, *ptds;
    const char *reading[CU_MAX_RSP_DEPTH];   /* the response files being read (canonical paths) */
    const char *shown[CU_MAX_RSP_DEPTH];     /* ... as their includers name them */
    int depth;
} flag_ctx;

static void filter_flags(flag_ctx *fc, const db_entry *e);

/* One message per response file and kind of trouble, however many files use it. */
static int rsp_first_report(flag_ctx *fc, const char *kind, const char *path)
{
    char *key = cg_arena_printf(fc->p->arena, "%s\x1f%s", kind, path);
    size_t kl = strlen(key);
    if (cg_map_get(&fc->p->rsp_reported, key, kl)) return 0;
    cg_map_put(&fc->p->rsp_reported, key, kl, (void *)1);
    return 1;
}

static void filter_response_file(flag_ctx *fc, const db_entry *e, const char *file)
{
    cg_arena *a = fc->a;
    char *path = join_path(a, e->dir, file);
    char rp[PATH_MAX];
    const char *canon = realpath(path, rp) ? cg_arena_strdup(a, rp) : path;
    for (int i = 0; i < fc->depth; i++) {
        if (strcmp(fc->reading[i], canon) != 0) continue;
        if (rsp_first_report(fc, "cycle", canon)) {
            char *chain = cg_arena_strdup(a, "");
            for (int k = i; k < fc->depth; k++) chain = cg_arena_printf(a, "%s%s -> ", chain, fc->shown[k]);
            cg_report_notice(fc->p->report, CG_ERROR, canon, 0, 0,
                             "this response file includes itself (%s%s); it is read once", chain, file);
        }
        return;
    }
    if (fc->depth == CU_MAX_RSP_DEPTH) {
        if (rsp_first_report(fc, "depth", canon))
            cg_report_notice(fc->p->report, CG_ERROR, canon, 0, 0,
                             "response files nested more than %d deep (through %s); this one and those it "
                             "names are not read", CU_MAX_RSP_DEPTH, fc->shown[0]);
        return;
    }
    char *text = read_whole_file(path);
    if (!text) {
        if (rsp_first_report(fc, "read", canon))
            cg_report_notice(fc->p->report, CG_WARN, path, 0, 0,
                             "cannot read this response file (named in the compile database): %s; its "
                             "flags are not used", strerror(errno));
        return;
    }
    db_entry sub = *e;
    char **v;
    int n = shell_split(a, text, &v);
    free(text);
    /* filter_flags skips argv[0] (the compiler) */
    sub.argv = cg_arena_alloc(a, (size_t)(n + 1) * sizeof *sub.argv);
    sub.argv[0] = "";
    for (int i = 0; i < n; i++) sub.argv[i + 1] = v[i];
    sub.argc = n + 1;
    fc->reading[fc->depth] = canon;
    fc->shown[fc->depth] = file;
    fc->depth++;
    filter_flags(fc, &sub);
    fc->depth--;
}

static void filter_flags(flag_ctx *fc, const db_entry *e)
{
    cg_arena *a = fc->a;
    argv_b *out = fc->out;
    int *has_std = fc->has_std, *ptds = fc->ptds;
    for (int i = 1; i < e->argc; i++) {
        const char *s = e->argv[i];
        if ((strcmp(s, "--options-file") == 0 || strcmp(s, "-optf") == 0) && i + 1 < e->argc) {
            filter_response_file(fc, e, e->argv[++i]);
            continue;
        }
        if (strncmp(s, "--options-file=", 15) == 0) { filter_response_file(fc, e, s + 15); continue; }
        if (s[0] == '@' && s[1]) { filter_response_file(fc, e, s + 1); continue; }
        const char *val = NULL;
        const char *opt = NULL;
        static const char *const with_path[] = { "-I", "-isystem", "-iquote", "-idirafter",
            "-include", "--include-path", "--system-include", "--pre-include", NULL };
        for (int k = 0; with_path[k] && !opt; k++) {
            size_t n = strlen(with_path[k]);
            if (strcmp(s, with_path[k]) == 0 && i + 1 < e->argc) { opt = with_path[k]; val = e->argv[++i]; }
            else if (strncmp(s, with_path[k], n) == 0 && s[n] == '=') { opt = with_path[k]; val = s + n + 1; }
            else if (k == 0 && strncmp(s, "-I", 2) == 0 && s[2]) { opt = "-I"; val = s + 2; }
        }
        if (opt) {
            const char *o = strcmp(opt, "--include-path") == 0 ? "-I" :
                            strcmp(opt, "--system-include") == 0 ? "-isystem" :
                            strcmp(opt, "--pre-include") == 0 ? "-include" : opt;
            char *path = join_path(a, e->dir, val);
            if (strcmp(o, "-include") != 0 && is_toolkit_include(path)) continue;
            av_push(out, o);
            av_push(out, path);
            continue;
        }
        if ((strncmp(s, "-D", 2) == 0 || strncmp(s, "-U", 2) == 0)) {
            if (s[2]) av_push(out, s);
            else if (i + 1 < e->argc) { char *t = cg_arena_printf(a, "%.2s%s", s, e->argv[++i]); av_push(out, t); }
            if (strstr(s, "CUDA_API_PER_THREAD_DEFAULT_STREAM")) *ptds = 1;
            continue;
        }
        if (strncmp(s, "--define-macro", 14) == 0) {
            const char *v = s[14] == '=' ? s + 15 : (i + 1 < e->argc ? e->argv[++i] : "");
            av_push(out, cg_arena_printf(a, "-D%s", v));
            continue;
        }
        if (strncmp(s, "-std=", 5) == 0 || strncmp(s, "--std=", 6) == 0 ||
            ((strcmp(s, "-std") == 0 || strcmp(s, "--std") == 0) && i + 1 < e->argc)) {
            const char *v = strchr(s, '=') ? strchr(s, '=') + 1 : e->argv[++i];
            if (strstr(v, "++")) { av_push(out, cg_arena_printf(a, "-std=%s", v)); *has_std = 1; }
            continue;
        }
        /* relocatable device code: kernels launched from kernels (dynamic parallelism) */
        if (strcmp(s, "-rdc=true") == 0 || strcmp(s, "--relocatable-device-code=true") == 0 ||
            strcmp(s, "-dc") == 0 || strcmp(s, "--device-c") == 0 || strcmp(s, "-fgpu-rdc") == 0) {
            av_push(out, "-fgpu-rdc");
            continue;
        }
        if ((strcmp(s, "-rdc") == 0 || strcmp(s, "--relocatable-device-code") == 0) && i + 1 < e->argc) {
            if (strcmp(e->argv[++i], "true") == 0) av_push(out, "-fgpu-rdc");
            continue;
        }
        if (strcmp(s, "-fopenmp") == 0 || strcmp(s, "-Xcompiler=-fopenmp") == 0 ||
            ((strcmp(s, "-Xcompiler") == 0 || strcmp(s, "--compiler-options") == 0) && i + 1 < e->argc &&
             strstr(e->argv[i + 1], "-fopenmp"))) {
            if (s[0] == '-' && s[1] == 'X' && !strchr(s, '=')) i++;
            else if (strcmp(s, "--compiler-options") == 0) i++;
            av_push(out, "-fopenmp");
            continue;
        }
        if (strcmp(s, "--default-stream") == 0 || strcmp(s, "-default-stream") == 0) {
            if (i + 1 < e->argc && strcmp(e->argv[++i], "per-thread") == 0) *ptds = 1;
            continue;
        }
        if (strcmp(s, "--default-stream=per-thread") == 0 || strcmp(s, "-default-stream=per-thread") == 0) {
            *ptds = 1;
            continue;
        }
    }
}

static int load_db(cu_project *p, const char *path, cg_map *out)
{
    json_error_t err;
    /* a regular file only: a FIFO named compile_commands.json must not block */
    char rerr[JSON_ERROR_TEXT_LENGTH];
    size_t dblen;
    cu_cache_note_path(path);
    char *dbtext = cg_file_read(path, 0, &dblen, rerr, sizeof rerr);
    if (!dbtext) memcpy(err.text, rerr, sizeof err.text), err.line = err.column = 0;
    json_t *root = dbtext ? json_loadb(dbtext, dblen, 0, &err) : NULL;
    free(dbtext);
    if (!root) {
        cg_report_notice(p->report, CG_ERROR, path, (uint32_t)(err.line > 0 ? err.line : 0),
                         (uint32_t)(err.column > 0 ? err.column : 0),
                         "cannot read the compile database: %s; every file gets the default flags", err.text);
        return -1;
    }
    if (!json_is_array(root)) {
        cg_report_notice(p->report, CG_ERROR, path, 0, 0,
                         "the compile database is not a JSON array of entries; every file gets the default flags");
        json_decref(root);
        return -1;
    }
    size_t i;
    json_t *ent;
    int bad = 0;
    json_array_foreach(root, i, ent) {
        json_t *jf = json_object_get(ent, "file"), *jd = json_object_get(ent, "directory");
        json_t *ja = json_object_get(ent, "arguments"), *jc = json_object_get(ent, "command");
        if (!json_is_string(jf) || !json_is_string(jd) || !(json_is_array(ja) || json_is_string(jc))) {
            if (!bad)
                cg_report_notice(p->report, CG_ERROR, path, 0, 0,
                                 "entry %zu of the compile database lacks \"file\", \"directory\" or "
                                 "\"arguments\"/\"command\"; such entries are ignored", i + 1);
            bad = 1;
            continue;
        }
        db_entry *e = cg_arena_alloc(p->arena, sizeof *e);
        /* "directory" should be absolute; a relative one is taken from the
         * database's own folder (a checked-in database, a test fixture) */
        const char *dv = json_string_value(jd);
        if (dv[0] == '/') {
            e->dir = cg_arena_strdup(p->arena, dv);
        } else {
            const char *slash = strrchr(path, '/');
            e->dir = slash ? cg_arena_printf(p->arena, "%.*s/%s", (int)(slash - path), path, dv)
                           : cg_arena_strdup(p->arena, dv);
        }
        e->file = join_path(p->arena, e->dir, json_string_value(jf));
        if (json_is_array(ja)) {
            argv_b b = { .a = p->arena };
            size_t k;
            json_t *x;
            json_array_foreach(ja, k, x) if (json_is_string(x)) av_push(&b, json_string_value(x));
            e->argv = b.v;
            e->argc = b.n;
        } else {
            e->argc = shell_split(p->arena, json_string_value(jc), &e->argv);
        }
        char rp[PATH_MAX];
        const char *key = realpath(e->file, rp) ? rp : e->file;
        char *k2 = cg_arena_strdup(p->arena, key);
        if (!cg_map_get(out, k2, strlen(k2))) cg_map_put(out, k2, strlen(k2), e);
    }
    json_decref(root);
    return 0;
}

static const char *find_db(cu_project *p)
{
    const cg_cu_opts *o = p->opts;
    if (o->compile_commands) {
        struct stat st;
        const char *c = o->compile_commands;
        if (stat(c, &st) == 0 && S_ISREG(st.st_mode)) return cg_arena_strdup(p->arena, c);
        char *f = cg_arena_printf(p->arena, "%s/compile_commands.json", c);
        if (exists(f)) return f;
        cg_report_notice(p->report, CG_ERROR, c, 0, 0,
                         "no compile_commands.json here (-p); every file gets the default flags");
        return NULL;
    }
    /* From each path named on the command line (a directory, or the directory
     * of a named file, as pre-commit passes them) up to its project root (the
     * closest directory holding .git, pyproject.toml or .cglint.toml): the
     * first DIR/compile_commands.json or DIR/build/compile_commands.json. */
    for (size_t i = 0; i < o->nroots; i++) {
        struct stat st;
        if (stat(o->roots[i], &st) != 0) continue;
        char rp[PATH_MAX];
        if (!realpath(o->roots[i], rp)) continue;
        char *dir = cg_arena_strdup(p->arena, rp);
        if (!S_ISDIR(st.st_mode)) {
            char *slash = strrchr(dir, '/');
            if (!slash) continue;
            *(slash == dir ? slash + 1 : slash) = 0;
        }
        for (int up = 0; up < 64; up++) {
            char *f = cg_arena_printf(p->arena, "%s/compile_commands.json", dir);
            if (exists(f)) return f;
            f = cg_arena_printf(p->arena, "%s/build/compile_commands.json", dir);
            if (exists(f)) return f;
            if (exists(cg_arena_printf(p->arena, "%s/.git", dir)) ||
                exists(cg_arena_printf(p->arena, "%s/pyproject.toml", dir)) ||
                exists(cg_arena_printf(p->arena, "%s/.cglint.toml", dir)))
                break;
            char *slash = strrchr(dir, '/');
            if (!slash || slash == dir) break;
            *slash = 0;
        }
    }
    return NULL;
}

/* ---- mode and flags ------------------------------------------------------------- */
static char *find_toolkit(cu_project *p, int *explicit_bad)
{
    const char *cands[4] = { p->opts->cuda_path, getenv("CUDA_PATH"), getenv("CUDA_HOME"), "/usr/local/cuda" };
    for (int i = 0; i < 4; i++) {
        if (!cands[i] || !*cands[i]) continue;
        char *h = cg_arena_printf(p->arena, "%s/include/cuda_runtime.h", cands[i]);
        if (exists(h)) return cg_arena_strdup(p->arena, cands[i]);
        if (i == 0) {
            *explicit_bad = 1;
            cg_report_notice(p->report, CG_ERROR, NULL, 0, 0,
                             "--cuda-path %s: no include/cuda_runtime.h there; using cglint's shim headers",
                             cands[i]);
            return NULL;
        }
    }
    return NULL;
}

static void base_flags(cu_project *p, argv_b *b, int is_c, int has_std)
{
    if (is_c) {
        av_push(b, "-x"); av_push(b, "c");
        if (!has_std) av_push(b, "-std=gnu11");
        av_push(b, "-isystem");
        av_push(b, p->toolkit ? cg_arena_printf(p->arena, "%s/include", p->cuda_path) : p->shim_dir);
    } else if (p->toolkit) {
        av_push(b, "-x"); av_push(b, "cuda");
        av_push(b, "--cuda-host-only");
        if (!has_std) av_push(b, "-std=c++17");
        av_push(b, cg_arena_printf(p->arena, "--cuda-path=%s", p->cuda_path));
        av_push(b, "-isystem"); av_push(b, cg_arena_printf(p->arena, "%s/include/cccl", p->cuda_path));
        av_push(b, "-Wno-unknown-cuda-version");
        if (p->clang_major < 20) {   /* clang 19's wrapper still includes texture_fetch_functions.h */
            av_push(b, "-isystem"); av_push(b, cg_arena_printf(p->arena, "%s/compat", p->tmpdir));
        }
    } else {
        av_push(b, "-x"); av_push(b, "cuda");
        av_push(b, "--cuda-host-only");
        if (!has_std) av_push(b, "-std=c++17");
        av_push(b, "-nocudainc"); av_push(b, "-nocudalib");
        av_push(b, "--cuda-path=/nonexistent");
        av_push(b, "-isystem"); av_push(b, p->shim_dir);
        av_push(b, "-include"); av_push(b, "cuda_runtime.h");
    }
    av_push(b, "-w");
    av_push(b, "-ferror-limit=0");   /* errors are sorted by kind, none must hide the others */
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

void cg_cu_clang_version(char *buf, size_t n)
{
    char err[1024];
    if (cu_clang_load(err, sizeof err) != 0) {
        snprintf(buf, n, "unavailable (%s)", err);
        return;
    }
    CXString vs = clang_getClangVersion();
    const char *v = clang_getCString(vs);
    snprintf(buf, n, "%s", v ? v : "unknown");
    clang_disposeString(vs);
}

int cu_parse_setup(cu_project *p)
{
    /* libclang is loaded here, once a run has C/C++/CUDA files to analyse */
    char err[1024];
    if (cu_clang_load(err, sizeof err) != 0) {
        cg_report_notice(p->report, CG_ERROR, NULL, 0, 0, "%s; C/C++/CUDA files not analysed", err);
        return -1;
    }
    /* libclang's version: 19 or newer parses CUDA 12+ headers */
    CXString vs = clang_getClangVersion();
    const char *v = clang_getCString(vs);
    const char *d = v ? strstr(v, "version ") : NULL;
    p->clang_major = d ? atoi(d + 8) : 0;
    clang_disposeString(vs);

    char tmpl[PATH_MAX];
    const char *td = getenv("TMPDIR");
    if (snprintf(tmpl, sizeof tmpl, "%s/cglint-XXXXXX", td && *td ? td : "/tmp") >= (int)sizeof tmpl) {
        errno = ENAMETOOLONG;
        tmpl[0] = 0;
    }
    if (!tmpl[0] || !mkdtemp(tmpl)) {
        cg_report_notice(p->report, CG_ERROR, NULL, 0, 0,
                         "cannot create a temporary directory in %s: %s; C/C++/CUDA files not analysed",
                         td && *td ? td : "/tmp", strerror(errno));
        return -1;
    }
    p->tmpdir = cg_arena_strdup(p->arena, tmpl);
    p->shim_dir = cg_arena_printf(p->arena, "%s/shim", p->tmpdir);
    mkdir(p->shim_dir, 0700);
    for (unsigned i = 0; i < cu_shim_nfiles; i++)
        if (write_file(cg_arena_printf(p->arena, "%s/%s", p->shim_dir, cu_shim_files[i].name),
                       cu_shim_files[i].text) != 0) {
            cg_report_notice(p->report, CG_ERROR, NULL, 0, 0, "cannot write the shim headers to %s: %s",
                             p->shim_dir, strerror(errno));
            return -1;
        }

    int explicit_bad = 0;
    if (p->opts->mode != CG_CU_MODE_SHIM) {
        p->cuda_path = find_toolkit(p, &explicit_bad);
        if (p->cuda_path && p->clang_major && p->clang_major < 19) {
            cg_report_notice(p->report, CG_WARN, NULL, 0, 0,
                             "libclang %d cannot parse the headers of CUDA 12 and later (19 or newer is "
                             "needed, 22 recommended); using cglint's shim headers", p->clang_major);
            p->cuda_path = NULL;
        }
        if (!p->cuda_path && p->opts->mode == CG_CU_MODE_TOOLKIT && !explicit_bad)
            cg_report_notice(p->report, CG_ERROR, NULL, 0, 0,
                             "--cuda-mode toolkit: no CUDA toolkit found (--cuda-path, CUDA_PATH, CUDA_HOME, "
                             "/usr/local/cuda); using cglint's shim headers");
    }
    p->toolkit = p->cuda_path != NULL;
    if (p->toolkit && p->clang_major < 20) {
        char *c = cg_arena_printf(p->arena, "%s/compat", p->tmpdir);
        mkdir(c, 0700);
        write_file(cg_arena_printf(p->arena, "%s/texture_fetch_functions.h", c), "/* empty: cglint */\n");
    }

    /* flags for each file */
    cg_map db;
    cg_map_init(&db);
    int have_db = 0;
    const char *dbpath = find_db(p);
    if (dbpath && load_db(p, dbpath, &db) == 0) have_db = 1;
    for (size_t i = 0; i < p->nfiles; i++) {
        cu_file *f = &p->files[i];
        argv_b b = { .a = f->arena };
        db_entry *e = NULL;
        if (have_db) {
            char rp[PATH_MAX];
            const char *key = realpath(f->path, rp) ? rp : f->path;
            e = cg_map_get(&db, key, strlen(key));
        }
        argv_b extra = { .a = f->arena };
        int has_std = 0, ptds = 0;
        if (e) {
            flag_ctx fc = { .p = p, .a = f->arena, .out = &extra, .has_std = &has_std, .ptds = &ptds };
            filter_flags(&fc, e);
            f->from_db = 1;
        }
        else if (have_db && !f->header) {
            p->not_in_db++;
            if (!p->not_in_db_first) p->not_in_db_first = cg_arena_strdup(p->arena, f->path);
        }
        f->stage = f->header ? 2 : (have_db && !e) ? 1 : 0;
        const cg_cu_opts *o = p->opts;
        if (o->std && !has_std) {
            /* --std c++17 / std = "gnu11": C++ standards for C++ and CUDA, C ones for C */
            int c_std = strncmp(o->std, "c++", 3) != 0 && strncmp(o->std, "gnu++", 5) != 0;
            if (c_std == (f->lang == 1)) {
                av_push(&extra, cg_arena_printf(f->arena, "-std=%s", o->std));
                has_std = 1;
            }
        }
        for (size_t k = 0; k < o->ndefines; k++) av_push(&extra, cg_arena_printf(f->arena, "-D%s", o->defines[k]));
        for (size_t k = 0; k < o->ninclude_dirs; k++) { av_push(&extra, "-I"); av_push(&extra, o->include_dirs[k]); }
        base_flags(p, &b, f->lang == 1, has_std);
        for (int k = 0; k < extra.n; k++) av_push(&b, extra.v[k]);
        f->argv = b.v;
        f->argc = b.n;
        f->ptds = ptds;
    }
    if (have_db && p->not_in_db)
        cg_report_notice(p->report, CG_NOTE, NULL, 0, 0,
                         "%d file%s not in %s (%s%s) %s the default flags", p->not_in_db,
                         p->not_in_db == 1 ? " is" : "s are", dbpath, p->not_in_db_first,
                         p->not_in_db > 1 ? ", ..." : "", p->not_in_db == 1 ? "and gets" : "and get");
    cg_map_free(&db);
    if (!p->toolkit && p->opts->mode == CG_CU_MODE_AUTO && !explicit_bad)
        cg_report_notice(p->report, CG_NOTE, NULL, 0, 0,
                         "no CUDA toolkit found (--cuda-path, CUDA_PATH, CUDA_HOME, /usr/local/cuda): "
                         "C/C++/CUDA files are parsed with cglint's shim headers");
    return 0;
}

void cu_parse_teardown(cu_project *p)
{
    dispose_indexes();
    if (p->tmpdir) nftw(p->tmpdir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- precompiled headers ------------------------------------------------------- */
/* The PCH depends on the language and on every macro flag; include paths do
 * not change what cuda_runtime.h means. */
static char *pch_key(cu_file *f)
{
    size_t n = 1;
    for (int i = 0; i < f->argc; i++) n += strlen(f->argv[i]) + 1;
    char *k = cg_arena_alloc(f->arena, n);
    size_t o = 0;
    for (int i = 0; i < f->argc; i++) {
        const char *s = f->argv[i];
        if (strcmp(s, "-I") == 0 || strcmp(s, "-iquote") == 0 || strcmp(s, "-idirafter") == 0) { i++; continue; }
        if (strncmp(s, "-I", 2) == 0) continue;
        size_t l = strlen(s);
        memcpy(k + o, s, l);
        o += l;
        k[o++] = '\x1f';
    }
    k[o] = 0;
    return k;
}

static char *keep_pch_dir;   /* cg_cu_keep: set between runs, read during one */

/* The translation units of editor buffers (cglint server), kept with their
 * precompiled preamble (the #includes at the top) so that the next analysis
 * of the buffer reparses only the file itself (clang_reparseTranslationUnit).
 * Keyed by the path and every argument; a few at most.  Their index visits
 * declarations from precompiled files (the preamble holds project headers,
 * which the lowering filters by file as usual). */
enum { KEPT_MAX = 4 };
typedef struct kept_tu { char *key; CXTranslationUnit tu; } kept_tu;
static kept_tu kept[KEPT_MAX];
static CXIndex kept_idx;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static void kept_free_all(void)
{
    pthread_mutex_lock(&kept_lock);
    for (int i = 0; i < KEPT_MAX; i++) {
        if (kept[i].tu) clang_disposeTranslationUnit(kept[i].tu);
        free(kept[i].key);
        kept[i] = (kept_tu){ 0 };
    }
    if (kept_idx) clang_disposeIndex(kept_idx);
    kept_idx = NULL;
    pthread_mutex_unlock(&kept_lock);
}

void cg_cu_keep(const char *dir)
{
    free(keep_pch_dir);
    keep_pch_dir = dir ? strdup(dir) : NULL;
    if (!dir) kept_free_all();
}

/* The kept TU of `key`, taken out of the set (NULL: none). */
static CXTranslationUnit kept_take(const char *key)
{
    CXTranslationUnit tu = NULL;
    pthread_mutex_lock(&kept_lock);
    for (int i = 0; i < KEPT_MAX; i++)
        if (kept[i].key && strcmp(kept[i].key, key) == 0) {
            tu = kept[i].tu;
            free(kept[i].key);
            kept[i] = (kept_tu){ 0 };
            break;
        }
    pthread_mutex_unlock(&kept_lock);
    return tu;
}

/* Keep `tu` under `key`: in a free slot, else instead of the first. */
static void kept_put(const char *key, CXTranslationUnit tu)
{
    pthread_mutex_lock(&kept_lock);
    int at = 0;
    for (int i = 0; i < KEPT_MAX; i++)
        if (!kept[i].tu) { at = i; break; }
    if (kept[at].tu) clang_disposeTranslationUnit(kept[at].tu);
    free(kept[at].key);
    kept[at].key = strdup(key);
    kept[at].tu = kept[at].key ? tu : NULL;
    if (!kept[at].key) clang_disposeTranslationUnit(tu);
    pthread_mutex_unlock(&kept_lock);
}

static CXIndex kept_index(void)
{
    pthread_mutex_lock(&kept_lock);
    if (!kept_idx) kept_idx = clang_createIndex(0, 0);
    CXIndex i = kept_idx;
    pthread_mutex_unlock(&kept_lock);
    return i;
}

static const char *get_pch(cu_project *p, cu_file *f)
{
    if (!p->toolkit || f->lang == 1 || p->no_pch) return NULL;
    char *key = pch_key(f);
    cu_pch *slot = NULL;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->npch; i++)
        if (strcmp(p->pch[i].key, key) == 0) { slot = &p->pch[i]; break; }
    if (!slot && p->npch < 8) {   /* past 8 sets of macro flags: parsed without a PCH (slower, same result) */
        slot = &p->pch[p->npch++];
        slot->key = cg_arena_strdup(p->arena, key);
        slot->state = 0;
        if (keep_pch_dir) {
            /* kept across runs, named by its flags: built by the first run that needs it */
            slot->path = cg_arena_printf(p->arena, "%s/cuda_runtime-%016llx.pch", keep_pch_dir,
                                         (unsigned long long)cg_hash_bytes(key, strlen(key)));
            if (access(slot->path, R_OK) == 0) slot->state = 1;
        } else {
            slot->path = cg_arena_printf(p->arena, "%s/cuda_runtime-%d.pch", p->tmpdir, p->npch);
        }
        pthread_mutex_init(&slot->lock, NULL);
    }
    pthread_mutex_unlock(&p->lock);
    if (!slot) return NULL;
    pthread_mutex_lock(&slot->lock);
    if (slot->state == 0) {
        slot->state = -1;
        char *src = cg_arena_printf(p->arena, "%s.cuh", slot->path);
        if (write_file(src, "#include <cuda_runtime.h>\n") == 0) {
            CXIndex idx = thread_index();
            CXTranslationUnit tu = NULL;
            enum CXErrorCode e = clang_parseTranslationUnit2(
                idx, src, (const char *const *)f->argv, f->argc, NULL, 0,
                CXTranslationUnit_ForSerialization | CXTranslationUnit_Incomplete, &tu);
            int errors = 0;
            if (e == CXError_Success && tu) {
                unsigned nd = clang_getNumDiagnostics(tu);
                for (unsigned i = 0; i < nd; i++) {
                    CXDiagnostic dg = clang_getDiagnostic(tu, i);
                    if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error) errors++;
                    clang_disposeDiagnostic(dg);
                }
                cu_cache_note_tu(tu);
                if (!errors && clang_saveTranslationUnit(tu, slot->path, 0) == CXSaveError_None)
                    slot->state = 1;
            }
            if (tu) clang_disposeTranslationUnit(tu);
            if (e == CXError_Crashed) thread_index_reset_after_crash();
        }
    }
    const char *r = slot->state == 1 ? slot->path : NULL;
    pthread_mutex_unlock(&slot->lock);
    return r;
}

/* ---- one file ------------------------------------------------------------------ */
/* Files are parsed on several threads in any order: what a run-wide note
 * quotes as "first" is the smallest by path, and lists are sets printed
 * sorted, so the notes are the same in every run. Callers hold p->lock. */
static void keep_first(cu_project *p, char **slot, const char *cand)
{
    if (!*slot || strcmp(cand, *slot) < 0) *slot = cg_arena_strdup(p->arena, cand);
}

static void note_sys(cu_project *p, const char *msg)
{
    pthread_mutex_lock(&p->lock);
    p->sys_errors++;
    keep_first(p, &p->sys_first, msg);
    pthread_mutex_unlock(&p->lock);
}

static void set_add(cu_project *p, cg_map *set, const char *h)
{
    size_t hl = strlen(h);
    if (!cg_map_get(set, h, hl)) {
        char *k = cg_arena_strdup(p->arena, h);
        cg_map_put(set, k, hl, k);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "a, b, c, ..." of a set, sorted, about 400 characters at most (arena string). */
static char *set_list(cu_project *p, const cg_map *set)
{
    if (!set->count) return NULL;
    const char **v = cg_arena_alloc(p->arena, set->count * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < set->cap; i++)
        if (set->keys[i]) v[n++] = set->keys[i];
    qsort(v, n, sizeof *v, cmp_str);
    char *r = "";
    for (size_t i = 0; i < n; i++) {
        if (strlen(r) >= 400) { r = cg_arena_printf(p->arena, "%s, ...", r); break; }   /* kept short, and says so */
        r = i ? cg_arena_printf(p->arena, "%s, %s", r, v[i]) : (char *)v[i];
    }
    return r;
}

static void note_missing_header(cu_project *p, const char *h)
{
    pthread_mutex_lock(&p->lock);
    set_add(p, &p->missing_cuda, h);
    pthread_mutex_unlock(&p->lock);
}

static void note_missing_project_header(cu_project *p, cu_file *f, const char *h, int first_in_file)
{
    pthread_mutex_lock(&p->lock);
    set_add(p, &p->missing_project, h);
    keep_first(p, &p->missing_project_first, f->path);
    p->missing_project_files += first_in_file;
    pthread_mutex_unlock(&p->lock);
}

static int lost_cuda_header(CXTranslationUnit tu)
{
    unsigned nd = clang_getNumDiagnostics(tu);
    int lost = 0;
    for (unsigned i = 0; i < nd && !lost; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error) {
            CXString ms = clang_getDiagnosticSpelling(dg);
            const char *msg = clang_getCString(ms);
            const char *nf = msg ? strstr(msg, "' file not found") : NULL;
            if (nf && msg[0] == '\'') {
                char h[256];
                snprintf(h, sizeof h, "%.*s", (int)(nf - msg - 1), msg + 1);
                lost = is_cuda_family_header(h) ? 1 : 2;
            }
            clang_disposeString(ms);
        }
        clang_disposeDiagnostic(dg);
    }
    return lost;
}

static void diagnose(cu_project *p, cu_file *f, CXTranslationUnit tu)
{
    /* a context file (the project around named files) is not this run's to
     * complain about: neither its errors nor its missing headers are reported */
    if (!f->file->report) return;
    unsigned nd = clang_getNumDiagnostics(tu);
    int nerr = 0, shim_sem = 0, project_missing = 0;
    /* whole messages (in the file's arena): one cut short could end inside a UTF-8 sequence */
    const char *first = "", *nsem_first = "";
    /* a file that lost a CUDA library header: its other errors follow from
     * that (the environment's trouble, reported once), not from the file */
    int lost = lost_cuda_header(tu);
    unsigned fl = 0, fc = 0;
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
        if (sev < CXDiagnostic_Error) { clang_disposeDiagnostic(dg); continue; }
        CXSourceLocation loc = clang_getDiagnosticLocation(dg);
        CXFile file;
        unsigned line, col;
        clang_getFileLocation(loc, &file, &line, &col, NULL);
        CXString ms = clang_getDiagnosticSpelling(dg);
        const char *msg = clang_getCString(ms);
        CXString cs = clang_getDiagnosticCategoryText(dg);
        const char *cat = clang_getCString(cs);
        int in_system = file && clang_Location_isInSystemHeader(loc);
        const char *nf = msg ? strstr(msg, "' file not found") : NULL;
        if (nf && msg[0] == '\'') {
            char h[256];
            snprintf(h, sizeof h, "%.*s", (int)(nf - msg - 1), msg + 1);
            if (is_cuda_family_header(h) || in_system) { note_missing_header(p, h); goto next; }
            /* a header of the project that was not found: a warning for the run,
             * naming what fixes it; what it would have declared is missing too,
             * so the errors that follow are its consequences, not the file's */
            note_missing_project_header(p, f, h, project_missing++ == 0);
            goto next;
        }
        if (lost == 2) goto next;
        if (in_system) {
            /* after a lost CUDA library header (PyTorch's generated
             * c10/macros/cmake_macros.h) the system headers' errors are its
             * consequences: the missing header is the one note */
            if (lost) goto next;
            CXString fn = clang_getFileName(file);
            /* the file being parsed too: what the header saw depends on what it included first */
            const char *buf = cg_arena_printf(f->arena, "%s:%u:%u: %s, parsing %s", clang_getCString(fn), line, col,
                                              msg ? msg : "", f->path);
            clang_disposeString(fn);
            note_sys(p, buf);
            goto next;
        }
        /* an attribute where clang takes none and nvcc does (`__device__
         * alignas(128) CUtensorMap m[N];`): clang drops the attribute and the
         * declaration stands, as after a semantic error */
        int attr_place = msg && strstr(msg, "attribute") &&
                         (strstr(msg, "cannot be applied to types") || strstr(msg, "cannot appear here"));
        int semantic = (cat && strcmp(cat, "Semantic Issue") == 0) || lost || attr_place;
        if (semantic) {
            /* the shim's gaps, or C++ that clang rejects where nvcc does not (host
             * calls to device-only overloads...): the file parsed; summarised once */
            shim_sem++;
            if (!nsem_first[0]) {
                CXString fn = clang_getFileName(file);
                nsem_first = cg_arena_printf(f->arena, "%s:%u: %s", file ? clang_getCString(fn) : f->path, line,
                                             msg ? msg : "");
                clang_disposeString(fn);
            }
            goto next;
        }
        if (nerr++ == 0) {
            CXFile mf = clang_getFile(tu, f->path);
            if (file && mf && !clang_File_isEqual(file, mf)) {
                CXString fn = clang_getFileName(file);
                first = cg_arena_printf(f->arena, "in %s:%u:%u: %s", clang_getCString(fn), line, col, msg ? msg : "");
                clang_disposeString(fn);
            } else {
                first = cg_arena_strdup(f->arena, msg ? msg : "");
                fl = line;
                fc = col;
            }
        }
    next:
        clang_disposeString(ms);
        clang_disposeString(cs);
        clang_disposeDiagnostic(dg);
    }
    if (shim_sem && !nerr && f->stage == 0) {
        pthread_mutex_lock(&p->lock);
        if (!p->toolkit) {
            p->shim_sem_errors += shim_sem;
            p->shim_sem_files++;
            keep_first(p, &p->shim_first, f->path);
        } else {
            p->sem_files++;
            keep_first(p, &p->sem_first, nsem_first);
        }
        pthread_mutex_unlock(&p->lock);
    }
    if ((nerr || shim_sem) && f->stage > 0) {
        /* a header no analysed file includes, parsed on its own: its errors
         * usually mean it needs what its includers provide; one warning for all */
        pthread_mutex_lock(&p->lock);
        p->hdr_bad++;
        keep_first(p, &p->hdr_first, !nerr ? nsem_first
                   : fl ? cg_arena_printf(f->arena, "%s:%u: %s", f->path, fl, first)
                        : cg_arena_printf(f->arena, "%s: %s", f->path, first));
        pthread_mutex_unlock(&p->lock);
        return;
    }
    if (nerr) {
        uint32_t col = fl ? cg_source_column(&f->src, fl, fc ? fc - 1 : 0) : 0;
        cg_report_notice(p->report, CG_ERROR, f->path, fl, col,
                         "cannot be parsed: %s%s; analysed as far as it parsed", first,
                         nerr > 1 ? cg_arena_printf(f->arena, " (and %d more error%s)", nerr - 1, nerr > 2 ? "s" : "") : "");
    }
}

/* ---- input libclang cannot take ---------------------------------------------- */
/* libclang parses on a thread of its own with an 8 MiB stack, and its parser
 * recurses once a level of nesting: calls or parentheses nested 2,000 deep,
 * lambdas 1,000 deep, 3,000 prefix operators or casts, 10,000 chained
 * assignments overflow it; so do some 100,000 chained binary operators.  A
 * stack overflow is a crash its crash recovery cannot catch: the whole
 * process dies.  So the text of each file is measured before it is parsed,
 * and a file past a limit is skipped, with an error:
 *   - brackets nested more than CU_MAX_SOURCE_BRACKETS deep;
 *   - an expression that recurses more than CU_MAX_SOURCE_CHAIN levels: the
 *     open brackets, plus at each open level the prefix operators, casts and
 *     other bracketed groups (not the condition of an if, while, for or
 *     switch), assignments, `?`, `<` and operator keywords
 *     since the last `;` (or `,`, except in a bare parenthesis, where it is
 *     the comma operator);
 *   - more than CU_MAX_SOURCE_BINARY binary operators and member accesses
 *     chained that way.
 * Real code stays far below: in the CUDA toolkit's, the system's and LLVM's
 * headers (11,000 files) brackets nest at most 40 deep, expressions at most
 * about 470 levels, and binary chains are under 1,000.  This
 * sees the file's own text only: nesting that macros or included headers
 * build is not measured. */
#define CU_MAX_SOURCE_BRACKETS 1024
#define CU_MAX_SOURCE_CHAIN 1500
#define CU_MAX_SOURCE_BINARY 20000

typedef struct nest_scan { uint32_t line, col; int why; } nest_scan;   /* why: 0 brackets, 1 chain, 2 binary */

static int is_ident_byte(unsigned char c) { return c == '_' || isalnum(c) || c >= 0x80; }

/* Keywords that are prefix or binary operators. */
static int operator_keyword(const char *w, size_t n)
{
    static const char *const kw[] = { "sizeof", "alignof", "_Alignof", "__alignof__", "new", "delete",
        "throw", "not", "compl", "and", "or", "xor", "bitand", "bitor", "not_eq", "co_await",
        "co_yield", NULL };
    for (int i = 0; kw[i]; i++)
        if (strlen(kw[i]) == n && memcmp(kw[i], w, n) == 0) return 1;
    return 0;
}

/* Keywords after which a parenthesis is not a call's: `return (a, b)`. */
static int statement_keyword(const char *w, size_t n)
{
    static const char *const kw[] = { "return", "case", "if", "while", "for", "switch", "do", "else",
        "co_return", NULL };
    for (int i = 0; kw[i]; i++)
        if (strlen(kw[i]) == n && memcmp(kw[i], w, n) == 0) return 1;
    return 0;
}

/* Length of the operator token at t (1 to 3). */
static size_t operator_len(const char *t, size_t left)
{
    static const char *const ops[] = { ">>=", "<<=", "<=>", "->*", "...", "&&", "||", "==", "!=", "<=",
        ">=", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--", "##", NULL };
    for (int i = 0; ops[i]; i++) {
        size_t n = strlen(ops[i]);
        if (n <= left && memcmp(t, ops[i], n) == 0) return n;
    }
    return 1;
}

/* 1 (and where) when the text nests too deep for libclang. */
static int source_too_deep(const char *t, size_t len, nest_scan *out)
{
    int rec[CU_MAX_SOURCE_BRACKETS + 1];   /* recursive steps since the last `;` or `,` at each open level */
    int bin[CU_MAX_SOURCE_BRACKETS + 1];   /* binary operators, the same way */
    char bare[CU_MAX_SOURCE_BRACKETS + 1]; /* the level is a parenthesis not after a name: `,` is an operator */
    char cond[CU_MAX_SOURCE_BRACKETS + 1]; /* the level is the condition of an if, while, for or switch */
    int depth = 0, chain = 0, binary = 0;  /* chain: depth + the sum of rec[0..depth]; binary: of bin[] */
    int operand = 0;                       /* the last token ends an operand (a name, a literal, a group) */
    int keyword = 0;                       /* the last token is a statement keyword */
    uint32_t line = 1;
    size_t line_at = 0;
    rec[0] = bin[0] = 0;
    bare[0] = cond[0] = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\n') { line++; line_at = i + 1; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') continue;
        if (c == '\\' && i + 1 < len && t[i + 1] == '\n') { i++; line++; line_at = i + 1; continue; }
        if (c == '/' && i + 1 < len && t[i + 1] == '/') {
            while (i + 1 < len && t[i + 1] != '\n') i++;
            continue;
        }
        if (c == '/' && i + 1 < len && t[i + 1] == '*') {
            for (i += 2; i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'); i++)
                if (t[i] == '\n') { line++; line_at = i + 1; }
            i++;
            continue;
        }
        if (c == 'R' && i + 1 < len && t[i + 1] == '"' &&
            (i == 0 || !is_ident_byte((unsigned char)t[i - 1]) || strchr("uUL8", t[i - 1]))) {
            /* R"delim( ... )delim" */
            size_t d0 = i + 2, d1 = d0;
            while (d1 < len && d1 - d0 <= 16 && t[d1] != '(') d1++;
            if (d1 < len && t[d1] == '(') {
                size_t dl = d1 - d0;
                for (i = d1 + 1; i < len; i++) {
                    if (t[i] == '\n') { line++; line_at = i + 1; continue; }
                    if (t[i] == ')' && i + dl + 1 < len && memcmp(t + i + 1, t + d0, dl) == 0 &&
                        t[i + 1 + dl] == '"') {
                        i += dl + 1;
                        break;
                    }
                }
                operand = 1;
                continue;
            }
        }
        if (c == '"' || (c == '\'' && !(i > 0 && isxdigit((unsigned char)t[i - 1])))) {
            /* a string or character literal (in 1'000 the quote is a digit separator) */
            for (i++; i < len && t[i] != (char)c && t[i] != '\n'; i++)
                if (t[i] == '\\' && i + 1 < len) {
                    if (t[i + 1] == '\n') { line++; line_at = i + 2; }
                    i++;
                }
            if (i < len && t[i] == '\n') { line++; line_at = i + 1; }
            operand = 1;
            continue;
        }
        if (c == '#') {
            /* a directive: to the end of its (continued) line; its text is not measured */
            int first = 1;
            for (size_t k = line_at; k < i && first; k++) first = t[k] == ' ' || t[k] == '\t';
            if (first) {
                for (; i + 1 < len && t[i + 1] != '\n'; i++)
                    if (t[i + 1] == '\\' && i + 2 < len && t[i + 2] == '\n') { i += 2; line++; line_at = i + 1; }
                continue;
            }
        }
        size_t at = i;
        int step = 0;                      /* 1: a recursive step, 2: a binary operator */
        int after_keyword = keyword;
        keyword = 0;
        if (is_ident_byte(c)) {
            while (i + 1 < len && (is_ident_byte((unsigned char)t[i + 1]) || (t[i + 1] == '.' && isdigit(c)))) i++;
            if (operator_keyword(t + at, i + 1 - at)) { step = 1; operand = 0; }
            else {
                keyword = statement_keyword(t + at, i + 1 - at);
                operand = !keyword;
                continue;
            }
        } else if (c == '(' || c == '[' || c == '{') {
            chain++;
            if (++depth > CU_MAX_SOURCE_BRACKETS || chain > CU_MAX_SOURCE_CHAIN) {
                out->why = depth > CU_MAX_SOURCE_BRACKETS ? 0 : 1;
                goto too_deep;
            }
            rec[depth] = bin[depth] = 0;
            bare[depth] = c == '(' && !operand;
            cond[depth] = c == '(' && after_keyword;
            operand = 0;
            continue;
        } else if (c == ')' || c == ']' || c == '}') {
            int was_cond = cond[depth];
            if (depth > 0) {
                chain -= 1 + rec[depth];
                binary -= bin[depth];
                depth--;
            }
            if (was_cond) {   /* if (...) { : the statement's block nests, its condition does not */
                operand = 0;
                continue;
            }
            if (c == '}') {   /* a block ends a statement */
                chain -= rec[depth];
                binary -= bin[depth];
                rec[depth] = bin[depth] = 0;
                operand = 0;
                continue;
            }
            step = 1;         /* a group is one more step of its level: (int)(int)x, f(x)(y) */
            operand = 1;
        } else if (c == ';' || (c == ',' && !bare[depth])) {
            chain -= rec[depth];
            binary -= bin[depth];
            rec[depth] = bin[depth] = 0;
            operand = 0;
            continue;
        } else if (c == '.' && !(i + 2 < len && t[i + 1] == '.' && t[i + 2] == '.')) {
            step = 2;         /* member access chains like a binary operator */
            operand = 0;
        } else if (c == '-' && i + 1 < len && t[i + 1] == '>' && !(i + 2 < len && t[i + 2] == '*')) {
            i++;
            step = 2;
            operand = 0;
        } else if (c == ':' && i + 1 < len && t[i + 1] == ':') {
            i++;
            continue;
        } else {
            size_t n = operator_len(t + i, len - i);
            i += n - 1;
            int assign = (n == 1 && c == '=') || (n >= 2 && t[i] == '=' && c != '=' && c != '!' &&
                                                  !(n == 2 && (c == '<' || c == '>')));
            if (assign || c == '?' || (c == '<' && n == 1) || c == '~' || (c == '!' && n == 1) || !operand) step = 1;
            else if (c == ':' || c == '#') step = 0;
            else step = 2;
            operand = 0;
        }
        if (step == 1) {
            rec[depth]++;
            if (++chain > CU_MAX_SOURCE_CHAIN) { out->why = 1; goto too_deep; }
        } else if (step == 2) {
            bin[depth]++;
            if (++binary > CU_MAX_SOURCE_BINARY) { out->why = 2; goto too_deep; }
        }
        continue;
    too_deep:
        out->line = line;
        out->col = (uint32_t)(at - line_at + 1);
        return 1;
    }
    return 0;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Files libclang could #include that are not regular files (a FIFO named
 * like a header would block its read for ever): those in the file's own
 * directory and its -I and -iquote directories, each given to libclang as
 * an empty unsaved file, so it never opens them.  libclang matches an
 * unsaved file by the spelling it builds (the includer's directory or the
 * -I argument as written, '/', the name), so each is given under that
 * spelling and as an absolute path. */
static void add_unsaved(struct CXUnsavedFile **out, unsigned *n, const char *name)
{
    struct CXUnsavedFile *g = realloc(*out, (*n + 1) * sizeof *g);
    if (!g) return;
    *out = g;
    g[(*n)++] = (struct CXUnsavedFile){ name, "", 0 };
}

static unsigned special_headers(cu_file *f, const char *const *argv, int argc, struct CXUnsavedFile **out)
{
    *out = NULL;
    unsigned n = 0;
    /* the directories an #include "..." is looked up in, as spelled */
    const char **dirs = cg_arena_alloc(f->arena, (size_t)(argc + 1) * sizeof *dirs);
    int nd = 0;
    const char *sl = strrchr(f->path, '/');
    dirs[nd++] = sl ? cg_arena_strndup(f->arena, f->path, sl > f->path ? (size_t)(sl - f->path) : 1) : ".";
    for (int i = 0; i < argc; i++) {
        if ((!strcmp(argv[i], "-I") || !strcmp(argv[i], "-iquote")) && i + 1 < argc) dirs[nd++] = argv[++i];
        else if (!strncmp(argv[i], "-I", 2) && argv[i][2]) dirs[nd++] = argv[i] + 2;
    }
    for (int d = 0; d < nd; d++) {
        size_t dl = strlen(dirs[d]);
        while (dl > 1 && dirs[d][dl - 1] == '/') dl--;
        /* what the directory holds, and what the file #includes from it by a longer path */
        char **sp = NULL;
        size_t k = cg_file_specials(dirs[d], &sp);
        for (size_t j = 0; j < k; j++) {
            add_unsaved(out, &n, cg_arena_printf(f->arena, "%.*s/%s", (int)dl, dirs[d], strrchr(sp[j], '/') + 1));
            char *abs = cg_path_abs(sp[j]);
            if (abs) add_unsaved(out, &n, cg_arena_strdup(f->arena, abs));
            free(abs);
            free(sp[j]);
        }
        free(sp);
        const char *t = f->loaded ? f->src.text : NULL, *end = t ? t + f->src.len : NULL;
        for (; t && t < end; t = memchr(t, '\n', (size_t)(end - t)), t = t ? t + 1 : NULL) {
            const char *q = t;
            while (q < end && (*q == ' ' || *q == '\t')) q++;
            if (q >= end || *q != '#') continue;
            q++;
            while (q < end && (*q == ' ' || *q == '\t')) q++;
            if ((size_t)(end - q) < 8 || strncmp(q, "include", 7) != 0) continue;
            q += 7;
            while (q < end && (*q == ' ' || *q == '\t')) q++;
            if (q >= end || (*q != '"' && *q != '<')) continue;
            char close = *q == '"' ? '"' : '>';
            const char *b = ++q;
            while (q < end && *q != close && *q != '\n') q++;
            if (q >= end || *q != close || q == b || !memchr(b, '/', (size_t)(q - b))) continue;
            char *cand = cg_arena_printf(f->arena, "%.*s/%.*s", (int)dl, dirs[d], (int)(q - b), b);
            struct stat st;
            if (stat(cand, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) continue;
            add_unsaved(out, &n, cand);
            char *abs = cg_path_abs(cand);
            if (abs) add_unsaved(out, &n, cg_arena_strdup(f->arena, abs));
            free(abs);
        }
    }
    return n;
}

void cu_parse_file(cu_project *p, cu_file *f, int level)
{
    nest_scan ns;
    if (f->loaded && source_too_deep(f->src.text, f->src.len, &ns)) {
        uint32_t col = cg_source_column(&f->src, ns.line, ns.col ? ns.col - 1 : 0);
        static const char *const why[] = { "brackets nested more than %d deep",
            "an expression nested more than %d levels deep", "an expression of more than %d operators" };
        static const int lim[] = { CU_MAX_SOURCE_BRACKETS, CU_MAX_SOURCE_CHAIN, CU_MAX_SOURCE_BINARY };
        char what[80];
        snprintf(what, sizeof what, why[ns.why], lim[ns.why]);
        cg_report_notice(p->report, CG_ERROR, f->path, ns.line, col,
                         "too deeply nested for libclang to parse safely (%s); skipped", what);
        f->status = -1;
        return;
    }
    double t0 = now_ms();
    const char *pch = get_pch(p, f);
    size_t nguess = 0;
    char **guess = f->from_db ? NULL : cu_guess_include_dirs(p, f, f->arena, &nguess);
    const char **argv = cg_arena_alloc(f->arena, ((size_t)f->argc + 2 * nguess + 2) * sizeof *argv);
    int argc = 0;
    for (int i = 0; i < f->argc; i++) argv[argc++] = f->argv[i];
    /* after the user's -I: theirs win */
    for (size_t i = 0; i < nguess; i++) { argv[argc++] = "-I"; argv[argc++] = guess[i]; }
    if (pch) { argv[argc++] = "-include-pch"; argv[argc++] = pch; }
    unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
    CXTranslationUnit tu = NULL;
    struct CXUnsavedFile *uf;
    unsigned nuf = special_headers(f, argv, argc, &uf);
    /* an editor's unsaved buffer (or --stdin-filename) stands for the file on disk */
    size_t blen;
    const char *buf = cg_source_provided(f->path, &blen);
    unsigned nspecial = nuf;
    if (buf) {
        struct CXUnsavedFile *g = realloc(uf, (nuf + 1) * sizeof *g);
        if (g) {
            uf = g;
            uf[nuf++] = (struct CXUnsavedFile){ f->path, buf, (unsigned long)blen };
        }
    }
    /* an editor's buffer in the server: its TU and preamble are kept */
    char *keep_key = NULL;
    if (buf && keep_pch_dir && level != 2) {
        size_t kl = strlen(f->path) + 1;
        for (int i = 0; i < argc; i++) kl += strlen(argv[i]) + 1;
        keep_key = cg_arena_alloc(f->arena, kl + 1);
        char *o = stpcpy(keep_key, f->path);
        for (int i = 0; i < argc; i++) { *o++ = '\x1f'; o = stpcpy(o, argv[i]); }
    }
    enum CXErrorCode e = CXError_Failure;
    if (keep_key && (tu = kept_take(keep_key)) != NULL) {
        if (clang_reparseTranslationUnit(tu, nuf, uf, clang_defaultReparseOptions(tu)) == 0) {
            e = CXError_Success;
        } else {   /* libclang says the TU is unusable now: parse afresh */
            clang_disposeTranslationUnit(tu);
            tu = NULL;
        }
    }
    if (!tu && keep_key)
        e = clang_parseTranslationUnit2(kept_index(), f->path, argv, argc, uf, nuf,
                                        flags | CXTranslationUnit_PrecompiledPreamble |
                                            CXTranslationUnit_CreatePreambleOnFirstParse, &tu);
    else if (!tu)
        e = clang_parseTranslationUnit2(thread_index(), f->path, argv, argc, uf, nuf, flags, &tu);
    if (e == CXError_ASTReadError && pch) {
        /* the PCH did not fit this file's flags after all (or a kept one is
         * stale: the toolkit's headers changed): parse without it */
        if (keep_pch_dir) unlink(pch);
        if (tu) clang_disposeTranslationUnit(tu);
        tu = NULL;
        keep_key = NULL;   /* parsed in this run's index: not kept */
        e = clang_parseTranslationUnit2(thread_index(), f->path, argv, argc - 2, uf, nuf, flags, &tu);
    }
    for (unsigned i = 0; tu && i < nspecial; i += 2)   /* each under two names: said once */
        if (clang_getFile(tu, uf[i].Filename) || (i + 1 < nuf && clang_getFile(tu, uf[i + 1].Filename)))
            cg_report_notice(p->report, CG_WARN, f->path, 0, 0, "reads %s, which is not a regular file "
                             "(a FIFO or a device): read as empty", uf[i].Filename);
    free(uf);
    if (e != CXError_Success || !tu) {
        if (tu) clang_disposeTranslationUnit(tu);
        if (e == CXError_Crashed) {
            thread_index_reset_after_crash();
            cg_report_notice(p->report, CG_ERROR, f->path, 0, 0,
                             "libclang crashed while parsing this file; skipped");
        } else if (e == CXError_InvalidArguments) {
            cg_report_notice(p->report, CG_ERROR, f->path, 0, 0,
                             "libclang rejected the flags for this file%s; skipped",
                             f->from_db ? " (from compile_commands.json)" : "");
        } else {
            cg_report_notice(p->report, CG_ERROR, f->path, 0, 0,
                             "libclang could not parse this file (error %d); skipped", (int)e);
        }
        f->status = -1;
        return;
    }
    double t1 = now_ms();
    if (level != 2) {
        cu_cache_note_tu(tu);
        diagnose(p, f, tu);
        cu_lower_tu(p, f, tu);
    } else {
        cu_mark_inclusions(p, tu);
    }
    if (keep_key) kept_put(keep_key, tu);
    else clang_disposeTranslationUnit(tu);
    if (p->times) {
        fprintf(stderr, "cu-times %.1f %.1f stage=%d pch=%d %s", t1 - t0, now_ms() - t1, f->stage,
                pch != NULL, f->path);
        if (p->times == 2)
            for (int i = 0; i < argc; i++) fprintf(stderr, " %s", argv[i]);
        fputc('\n', stderr);
    }
}

/* Run-wide notes on header trouble, once. */
void cu_parse_summary(cu_project *p);
void cu_parse_summary(cu_project *p)
{
    if (p->sys_errors)
        cg_report_notice(p->report, CG_WARN, NULL, 0, 0,
                         "%s headers gave %d error%s (first: %s); files were analysed as far as they parsed",
                         p->toolkit ? "the CUDA or system" : "system", p->sys_errors,
                         p->sys_errors == 1 ? "" : "s", p->sys_first);
    char *missing_cuda_headers = set_list(p, &p->missing_cuda);
    char *missing_project_headers = set_list(p, &p->missing_project);
    if (missing_cuda_headers)
        cg_report_notice(p->report, CG_NOTE, NULL, 0, 0,
                         "CUDA library headers not found%s: %s; calls into them are matched by name",
                         p->toolkit ? "" : " (shim mode)", missing_cuda_headers);
    if (missing_project_headers)
        cg_report_notice(p->report, CG_WARN, NULL, 0, 0,
                         "headers of this project not found: %s (first wanted by %s%s); %s analysed as far as "
                         "%s parsed, and what those headers declare is unknown to cglint. Give their directory "
                         "with -I DIR (or include-dirs in the configuration), or a compile_commands.json with -p",
                         missing_project_headers, p->missing_project_first,
                         p->missing_project_files > 1 ? cg_arena_printf(p->arena, " and %d more file%s",
                             p->missing_project_files - 1, p->missing_project_files > 2 ? "s" : "") : "",
                         p->missing_project_files > 1 ? "those files were" : "it was",
                         p->missing_project_files > 1 ? "they" : "it");
    if (p->hdr_bad)
        cg_report_notice(p->report, CG_WARN, NULL, 0, 0,
                         "%d header%s or source%s outside the build that no analysed file includes did not "
                         "parse on %s own (first: %s); %s analysed as far as %s parsed", p->hdr_bad,
                         p->hdr_bad == 1 ? "" : "s", p->hdr_bad == 1 ? "" : "s",
                         p->hdr_bad == 1 ? "its" : "their", p->hdr_first,
                         p->hdr_bad == 1 ? "it was" : "they were", p->hdr_bad == 1 ? "it" : "they");
    if (p->sem_files)
        cg_report_notice(p->report, CG_WARN, NULL, 0, 0,
                         "%d file%s parsed with semantic errors that clang reports and nvcc may accept "
                         "(first: %s); %s analysed", p->sem_files, p->sem_files == 1 ? "" : "s",
                         p->sem_first, p->sem_files == 1 ? "it was" : "they were");
    if (p->shim_sem_errors)
        cg_report_notice(p->report, CG_NOTE, NULL, 0, 0,
                         "shim mode: %d file%s (first: %s) use CUDA declarations the shim lacks; "
                         "such calls are matched by name (--cuda-path gives exact parsing)",
                         p->shim_sem_files, p->shim_sem_files == 1 ? "" : "s", p->shim_first);
}

int cu_is_header_path(const char *path);
int cu_is_header_path(const char *path)
{
    return ends_with(path, ".h") || ends_with(path, ".cuh") || ends_with(path, ".hpp") ||
           ends_with(path, ".hh") || ends_with(path, ".hxx");
}
