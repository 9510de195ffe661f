/* cu_includes.c - where a file's headers come from, when no compile database
 * says so.
 *
 * A tree without compile_commands.json still names its own headers:
 * `#include "transformer_engine/cast.h"` is `common/include/transformer_engine/
 * cast.h` somewhere below the project root.  Before a file that the database
 * does not cover is parsed, its #include lines (and those of the project
 * headers they lead to, breadth first) are matched by path suffix against the
 * headers of the analysed tree, and the directory each match sits in becomes
 * a -I.  Among several matches the one nearest the including file wins (the
 * longest common directory prefix).  Nothing here reads a file that is not
 * already loaded: the headers of the tree were read in phase 1.
 *
 * Where a header that is still missing would come from decides what is said
 * about it (cu_header_origin): the CUDA toolkit and the libraries around it
 * (cuBLAS, NCCL, CUTLASS, Thrust, PyTorch's ATen...) are the environment's,
 * one note per run; anything else is taken to be the project's own, a
 * warning naming the options that fix it. */
#include "cu_int.h"
#include "core/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- where a header comes from -------------------------------------------------- */
int cu_header_origin(const char *h)
{
    /* first path component (`cutlass/gemm.h` -> "cutlass"), or the file name
     * without its extension (`cublas_v2.h` -> "cublas_v2") */
    char first[64];
    size_t n = strcspn(h, "/.");
    if (n == 0 || n >= sizeof first) return CU_HDR_PROJECT;
    memcpy(first, h, n);
    first[n] = 0;
    int dir = h[n] == '/';
    /* whole names of the toolkit's headers and of libraries that ship beside it */
    static const char *const lib_dirs[] = { "thrust", "cub", "cuda", "cute", "cutlass", "cooperative_groups",
        "nvtx3", "crt", "torch", "ATen", "c10", "caffe2", "cccl", "libcudacxx", "nv", "cudnn_frontend",
        "cuco", "rmm", "raft", "cudf", "cuvs", "cutensor", "nvcomp", "cuda_runtime", NULL };
    static const char *const lib_prefixes[] = { "cuda", "cublas", "cufft", "curand", "cusparse", "cusolver",
        "cudnn", "cutensor", "cufile", "cupti", "cudla", "cuComplex", "nccl", "nvtx", "nvToolsExt", "npp",
        "nvrtc", "nvml", "nvjpeg", "nvJitLink", "nvperf", "nvPTXCompiler", "nvfatbin", "nvshmem",
        "math_constants", "math_functions", "device_", "texture_", "surface_", "vector_", "driver_",
        "host_", "sm_", "mma", "builtin_types", "channel_descriptor", "common_functions", "library_types",
        "helper_cuda", "helper_functions", "helper_string", "helper_timer", "helper_math", "helper_image",
        "helper_gl", "helper_multiprocess", "exception", "omp", "mpi", "gtest", "gmock", "benchmark",
        "pybind11", "Python", "dlpack", NULL };
    if (dir) {
        for (int i = 0; lib_dirs[i]; i++)
            if (strcmp(first, lib_dirs[i]) == 0) return CU_HDR_LIBRARY;
        return CU_HDR_PROJECT;
    }
    for (int i = 0; lib_prefixes[i]; i++)
        if (strncmp(first, lib_prefixes[i], strlen(lib_prefixes[i])) == 0) return CU_HDR_LIBRARY;
    return CU_HDR_PROJECT;
}

/* ---- the tree's headers, by file name ----------------------------------------------- */
typedef struct hdr_list { cu_file *f; struct hdr_list *next; } hdr_list;

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static void build_index(cu_project *p)
{
    cg_map_init(&p->hdr_by_name);
    for (size_t i = 0; i < p->nfiles; i++) {
        cu_file *f = &p->files[i];
        if (!f->loaded) continue;
        const char *b = base_name(f->path);
        hdr_list *e = cg_arena_alloc(p->arena, sizeof *e);
        e->f = f;
        e->next = cg_map_get(&p->hdr_by_name, b, strlen(b));
        cg_map_put(&p->hdr_by_name, b, strlen(b), e);
    }
}

static void ensure_index(cu_project *p)
{
    pthread_mutex_lock(&p->lock);
    if (!p->hdr_index_ready) {
        build_index(p);
        p->hdr_index_ready = 1;
    }
    pthread_mutex_unlock(&p->lock);
}

/* ---- the #include lines of a text ------------------------------------------------- */
/* Calls fn(name, len, angled) for each `#include "name"` / `<name>`. */
static void each_include(const char *t, size_t len, void (*fn)(void *, const char *, size_t, int), void *arg)
{
    const char *end = t + len;
    const char *s = t;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        const char *q = s;
        while (q < le && (*q == ' ' || *q == '\t')) q++;
        if (q < le && *q == '#') {
            q++;
            while (q < le && (*q == ' ' || *q == '\t')) q++;
            if (le - q > 7 && memcmp(q, "include", 7) == 0) {
                q += 7;
                while (q < le && (*q == ' ' || *q == '\t')) q++;
                if (q < le && (*q == '"' || *q == '<')) {
                    char close = *q == '"' ? '"' : '>';
                    const char *a = q + 1, *b = memchr(a, close, (size_t)(le - a));
                    if (b && b > a && b - a < 512) fn(arg, a, (size_t)(b - a), close == '>');
                }
            }
        }
        s = le + 1;
    }
}

/* ---- guessing ---------------------------------------------------------------------- */
typedef struct guess {
    cu_project *p;
    cu_file *from;          /* the file whose includes are being read */
    cg_arena *a;
    cg_map seen;            /* paths already queued */
    cu_file **queue;
    size_t nq, capq, head;
    char **dirs;
    size_t ndirs, capdirs;
    cg_map dirset;
} guess;

static size_t common_prefix(const char *a, const char *b)
{
    size_t n = 0, last = 0;
    while (a[n] && a[n] == b[n]) {
        if (a[n] == '/') last = n + 1;
        n++;
    }
    return last;
}

static void enqueue(guess *g, cu_file *f)
{
    if (cg_map_get(&g->seen, f->path, strlen(f->path)) || g->nq >= 4096) return;
    cg_map_put(&g->seen, f->path, strlen(f->path), (void *)1);
    if (g->nq == g->capq) {
        g->capq = g->capq ? 2 * g->capq : 64;
        cu_file **q = cg_xrealloc(g->queue, g->capq * sizeof *q);
        g->queue = q;
    }
    g->queue[g->nq++] = f;
}

static void add_dir(guess *g, const char *dir, size_t len)
{
    if (cg_map_get(&g->dirset, dir, len)) return;
    char *d = cg_arena_strndup(g->a, dir, len);
    cg_map_put(&g->dirset, d, len, (void *)1);
    if (g->ndirs == g->capdirs) {
        g->capdirs = g->capdirs ? 2 * g->capdirs : 16;
        char **v = cg_xrealloc(g->dirs, g->capdirs * sizeof *v);
        g->dirs = v;
    }
    g->dirs[g->ndirs++] = d;
}

/* Collapse the `.` and `..` components of a relative or absolute path, in
 * place (`a/b/../../c/./d.h` -> `c/d.h`); a `..` with nothing left to take
 * off stays. */
static void normalize_path(char *p)
{
    int abs = p[0] == '/';
    char *out = p + abs, *in = p + abs;
    size_t keep = 0;                  /* bytes of out that are leading `..` components */
    char *w = out;
    while (*in) {
        char *e = strchr(in, '/');
        size_t n = e ? (size_t)(e - in) : strlen(in);
        if (n == 0 || (n == 1 && in[0] == '.')) {
            /* empty or `.`: dropped */
        } else if (n == 2 && in[0] == '.' && in[1] == '.') {
            if ((size_t)(w - out) > keep) {
                /* take off the last component written */
                char *q = w - 1;
                while (q > out && q[-1] != '/') q--;
                w = q;
            } else if (!abs) {
                memcpy(w, "../", 3);
                w += 3;
                keep = (size_t)(w - out);
            }
        } else {
            memmove(w, in, n);
            w += n;
            *w++ = '/';
        }
        in += n;
        if (*in == '/') in++;
    }
    if (w > out && w[-1] == '/') w--;
    *w = 0;
}

/* The path of `name` beside the including file, normalised (arena). */
static char *path_beside(cg_arena *a, const char *from_path, const char *name, size_t len)
{
    const char *slash = strrchr(from_path, '/');
    char *p = slash ? cg_arena_printf(a, "%.*s/%.*s", (int)(slash - from_path), from_path, (int)len, name)
                    : cg_arena_printf(a, "%.*s", (int)len, name);
    normalize_path(p);
    return p;
}

static int exists_beside(cg_arena *a, const char *from_path, const char *name, size_t len)
{
    struct stat st;
    return stat(path_beside(a, from_path, name, len), &st) == 0;
}

static void on_include(void *arg, const char *name, size_t len, int angled)
{
    guess *g = arg;
    if (memchr(name, '\\', len) || (len >= 1 && name[0] == '/')) return;
    const char *b = name;
    for (size_t i = 0; i < len; i++) if (name[i] == '/') b = name + i + 1;
    size_t bl = (size_t)(name + len - b);
    hdr_list *l = cg_map_get(&g->p->hdr_by_name, b, bl);
    if (!l) return;
    /* beside the includer: the compiler finds it without help (quotes only);
     * its own includes are read in turn (`"../../util/x.cuh"` leads to the
     * headers that one names: compared as normalised paths) */
    if (!angled && exists_beside(g->a, g->from->path, name, len)) {
        const char *want = path_beside(g->a, g->from->path, name, len);
        for (hdr_list *e = l; e; e = e->next) {
            char *have = cg_arena_strdup(g->a, e->f->path);
            normalize_path(have);
            if (strcmp(have, want) == 0) enqueue(g, e->f);
        }
        return;
    }
    cu_file *best = NULL;
    size_t best_common = 0;
    for (hdr_list *e = l; e; e = e->next) {
        const char *p = e->f->path;
        size_t pl = strlen(p);
        if (pl < len || memcmp(p + pl - len, name, len) != 0) continue;
        if (pl > len && p[pl - len - 1] != '/') continue;
        size_t c = common_prefix(p, g->from->path);
        if (!best || c > best_common) { best = e->f; best_common = c; }
    }
    if (!best) return;
    size_t pl = strlen(best->path);
    size_t dl = pl - len;                       /* "dir/" + name */
    if (dl == 0) add_dir(g, ".", 1);
    else add_dir(g, best->path, dl - 1);
    enqueue(g, best);
}

char **cu_guess_include_dirs(cu_project *p, cu_file *f, cg_arena *a, size_t *n)
{
    ensure_index(p);
    guess g = { .p = p, .a = a };
    cg_map_init(&g.seen);
    cg_map_init(&g.dirset);
    enqueue(&g, f);
    while (g.head < g.nq) {
        cu_file *h = g.queue[g.head++];
        if (!h->loaded || !h->src.text) continue;
        g.from = h;
        each_include(h->src.text, h->src.len, on_include, &g);
    }
    char **out = NULL;
    if (g.ndirs) {
        out = cg_arena_alloc(a, g.ndirs * sizeof *out);
        memcpy(out, g.dirs, g.ndirs * sizeof *out);
    }
    *n = g.ndirs;
    free(g.queue);
    free(g.dirs);
    cg_map_free(&g.seen);
    cg_map_free(&g.dirset);
    return out;
}
