/* cglint_cupti.c - the CUPTI injection library of `cglint run`.
 *
 * Loaded by the CUDA driver through CUDA_INJECTION64_PATH (it calls
 * InitializeInjection once, at cuInit), in any CUDA program: C/C++ with
 * shared or static cudart, or a PyTorch process.  It subscribes to the
 * runtime and driver API callbacks and writes, one JSON object a line, to
 * $CGLINT_EVENTS_DIR/cupti-PID-*.jsonl (format: runtime/README.md):
 *
 *   api     a call that failed while a capture was active (or a capture call
 *           that failed): its name, the error's name, where (native frames
 *           and, in a Python process holding the GIL, the Python frames)
 *   eager   a launch or memory operation issued during a capture on a stream
 *           that was not capturing: it ran once, eagerly, and is not in the
 *           graph
 *   region / capture / replays: the captures it saw (site, graph nodes) and
 *           how often each graph was launched
 *
 *   recapture a capture site captured again after a graph it captured was
 *           launched, with the same kernels and launch geometry (CG705)
 *
 * Costs: outside captures only the calls that begin and end a capture,
 * instantiate a graph or launch one are subscribed (a few cbids), so eager
 * work pays nothing; the first capture that begins enables both API
 * domains, and the last one that ends disables them again.  While a capture
 * is active, every call pays the callback, which returns at once unless the
 * call failed or is a launch or memory operation, and only then walks the
 * stack.  Calls made from inside the callback (cuStreamIsCapturing,
 * cuGraphGetNodes) re-enter it: a thread-local flag turns those away. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda.h>
#include <cupti.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_REGIONS 256
#define MAX_MAP 4096

static CUpti_SubscriberHandle subscriber;
static atomic_int active_captures;
static _Thread_local int in_callback;
static _Thread_local int runtime_depth;
static _Thread_local int eager_in_runtime;   /* a driver call inside this runtime call ran eagerly */
/* runtime_depth counts the runtime calls whose ENTER callback this thread saw;
 * when the domains are switched on or off between a call's ENTER and EXIT one
 * of them is missed, so the depth is reset whenever the switch generation
 * changed since this thread last counted */
static atomic_int switch_gen;
static _Thread_local int depth_gen;
/* the kernels (function, grid, block, shared memory) launched by the capture
 * this thread began: the signature of what it captured */
static _Thread_local uint64_t capture_sig;
static _Thread_local int capturing_here;
/* CGLINT_CUPTI_DEBUG: the calls seen while a capture was active, listed at exit */
static int debug;
static struct { int dom; unsigned cbid; } debug_seen[256];
static int ndebug;
/* CGLINT_CUPTI_DEBUG: callbacks outside captures, per call (said on stderr at exit) */
static struct { int dom; unsigned cbid; long n; } debug_outside[64];
static int ndebug_outside;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int out_fd = -1;
static pid_t out_pid;
static char events_dir[3072];
static atomic_long dropped;

/* ---- output ------------------------------------------------------------------ */

typedef struct { char *p; size_t n, cap; } buf;

static void b_put(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) n = b->cap > b->n + 1 ? b->cap - b->n - 1 : 0;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

/* a string literal, its length counted by the compiler */
#define B_LIT(b, lit) b_put((b), (lit), sizeof(lit) - 1)

static void b_fmt(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void b_fmt(buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) b_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void b_str(buf *b, const char *s)
{
    B_LIT(b, "\"");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') { char e[2] = {'\\', (char)c}; b_put(b, e, 2); }
        else if (c < 0x20) b_fmt(b, "\\u%04x", c);
        else b_put(b, (const char *)&c, 1);
    }
    B_LIT(b, "\"");
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The distributed rank the launcher gave this process (torchrun, MPI, Slurm),
 * or -1: the first of these variables that holds a number. */
static int env_rank(const char *const *names)
{
    for (; *names; names++) {
        const char *v = getenv(*names);
        if (!v || !*v) continue;
        char *end;
        long r = strtol(v, &end, 10);
        if (*end == 0 && r >= 0 && r < (1 << 20)) return (int)r;
    }
    return -1;
}

static void emit(buf *b)
{
    B_LIT(b, "\n");
    pthread_mutex_lock(&mu);
    if (out_fd < 0 || out_pid != getpid()) {
        if (out_fd >= 0) close(out_fd);
        char path[4096];
        unsigned r = (unsigned)now_ns() ^ (unsigned)getpid() * 2654435761u;
        out_pid = getpid();
        snprintf(path, sizeof path, "%s/cupti-%d-%08x.jsonl", events_dir, (int)out_pid, r);
        out_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (out_fd >= 0) {
            static const char *const rank_vars[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                                     "SLURM_PROCID", NULL};
            static const char *const size_vars[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                                     "SLURM_NTASKS", NULL};
            int rank = env_rank(rank_vars), size = env_rank(size_vars);
            char head[256], extra[64] = "";
            if (rank >= 0) snprintf(extra, sizeof extra, ",\"rank\":%d", rank);
            if (rank >= 0 && size > 0) snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
                                                ",\"world_size\":%d", size);
            int n = snprintf(head, sizeof head,
                             "{\"ev\":\"process\",\"v\":1,\"source\":\"cupti\",\"pid\":%d,\"ppid\":%d%s,\"t\":%lld}\n",
                             (int)out_pid, (int)getppid(), extra, now_ns());
            if (write(out_fd, head, (size_t)n) < 0) {}
        }
    }
    if (out_fd >= 0 && write(out_fd, b->p, b->n) < 0) atomic_fetch_add(&dropped, 1);
    pthread_mutex_unlock(&mu);
}

/* ---- where: Python frames and native frames -------------------------------- */

typedef int (*fn_int_void)(void);
typedef void *(*fn_ptr_void)(void);
typedef void *(*fn_ptr_ptr)(void *);
typedef int (*fn_int_ptr)(void *);
typedef void *(*fn_getattr)(void *, const char *);
typedef const char *(*fn_utf8)(void *);
typedef void (*fn_decref)(void *);
typedef void (*fn_fetch)(void **, void **, void **);
typedef void (*fn_restore)(void *, void *, void *);

static struct {
    int ok;
    fn_int_void is_initialized, gil_check;
    fn_ptr_void get_frame;
    fn_ptr_ptr frame_code, frame_back;
    fn_int_ptr frame_line;
    fn_getattr getattr;
    fn_utf8 utf8;
    fn_decref decref;
    fn_fetch fetch;
    fn_restore restore;
} py;

static void py_init(void)
{
    py.is_initialized = (fn_int_void)dlsym(RTLD_DEFAULT, "Py_IsInitialized");
    py.gil_check = (fn_int_void)dlsym(RTLD_DEFAULT, "PyGILState_Check");
    py.get_frame = (fn_ptr_void)dlsym(RTLD_DEFAULT, "PyEval_GetFrame");
    py.frame_code = (fn_ptr_ptr)dlsym(RTLD_DEFAULT, "PyFrame_GetCode");
    py.frame_back = (fn_ptr_ptr)dlsym(RTLD_DEFAULT, "PyFrame_GetBack");
    py.frame_line = (fn_int_ptr)dlsym(RTLD_DEFAULT, "PyFrame_GetLineNumber");
    py.getattr = (fn_getattr)dlsym(RTLD_DEFAULT, "PyObject_GetAttrString");
    py.utf8 = (fn_utf8)dlsym(RTLD_DEFAULT, "PyUnicode_AsUTF8");
    py.decref = (fn_decref)dlsym(RTLD_DEFAULT, "Py_DecRef");
    py.fetch = (fn_fetch)dlsym(RTLD_DEFAULT, "PyErr_Fetch");
    py.restore = (fn_restore)dlsym(RTLD_DEFAULT, "PyErr_Restore");
    py.ok = py.is_initialized && py.gil_check && py.get_frame && py.frame_code && py.frame_back &&
            py.frame_line && py.getattr && py.utf8 && py.decref;
}

/* [[path, line, function]...], innermost first, when this thread holds the
 * GIL (never waits for it: no deadlock). */
static void put_python(buf *b)
{
    B_LIT(b, "\"py\":[");
    if (!py.ok) {
        /* the library may have been loaded before libpython: look again */
        py_init();
    }
    if (py.ok && py.is_initialized() && py.gil_check() == 1) {
        void *et = NULL, *ev = NULL, *etb = NULL;
        if (py.fetch) py.fetch(&et, &ev, &etb);
        void *f = py.get_frame();   /* borrowed */
        void *owned = NULL;
        for (int i = 0; f && i < 16; i++) {
            void *code = py.frame_code(f);
            if (code) {
                void *fn = py.getattr(code, "co_filename"), *name = py.getattr(code, "co_name");
                const char *sfn = fn ? py.utf8(fn) : NULL, *sname = name ? py.utf8(name) : NULL;
                if (i) B_LIT(b, ",");
                B_LIT(b, "[");
                b_str(b, sfn ? sfn : "?");
                b_fmt(b, ",%d,", py.frame_line(f));
                b_str(b, sname ? sname : "?");
                B_LIT(b, "]");
                if (fn) py.decref(fn);
                if (name) py.decref(name);
                py.decref(code);
            }
            void *back = py.frame_back(f);  /* new reference */
            if (owned) py.decref(owned);
            owned = back;
            f = back;
        }
        if (owned) py.decref(owned);
        if (py.restore) py.restore(et, ev, etb);
    }
    B_LIT(b, "]");
}

/* [[module, "0xoffset", "0xaddress"]...] of the caller's stack. */
static void put_native(buf *b)
{
    void *frames[24];
    int n = backtrace(frames, 24);
    B_LIT(b, "\"native\":[");
    int first = 1;
    for (int i = 2; i < n; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
        if (!first) B_LIT(b, ",");
        first = 0;
        B_LIT(b, "[");
        b_str(b, info.dli_fname);
        b_fmt(b, ",\"0x%llx\",\"0x%llx\"]",
              (unsigned long long)((uintptr_t)frames[i] - (uintptr_t)info.dli_fbase),
              (unsigned long long)(uintptr_t)frames[i]);
    }
    B_LIT(b, "]");
}

/* ---- names ------------------------------------------------------------------- */

static const char *error_name(int code, int driver)
{
    switch (code) {
    case 1: return driver ? "CUDA_ERROR_INVALID_VALUE" : "cudaErrorInvalidValue";
    case 2: return driver ? "CUDA_ERROR_OUT_OF_MEMORY" : "cudaErrorMemoryAllocation";
    case 3: return driver ? "CUDA_ERROR_NOT_INITIALIZED" : "cudaErrorInitializationError";
    case 9: return driver ? "CUDA_ERROR_INVALID_CONFIGURATION?" : "cudaErrorInvalidConfiguration";
    case 100: return driver ? "CUDA_ERROR_NO_DEVICE" : "cudaErrorNoDevice";
    case 400: return driver ? "CUDA_ERROR_INVALID_HANDLE" : "cudaErrorInvalidResourceHandle";
    case 700: return driver ? "CUDA_ERROR_ILLEGAL_ADDRESS" : "cudaErrorIllegalAddress";
    case 701: return driver ? "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES" : "cudaErrorLaunchOutOfResources";
    case 719: return driver ? "CUDA_ERROR_LAUNCH_FAILED" : "cudaErrorLaunchFailure";
    case 800: return driver ? "CUDA_ERROR_NOT_PERMITTED" : "cudaErrorNotPermitted";
    case 801: return driver ? "CUDA_ERROR_NOT_SUPPORTED" : "cudaErrorNotSupported";
    case 900: return driver ? "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED" : "cudaErrorStreamCaptureUnsupported";
    case 901: return driver ? "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED" : "cudaErrorStreamCaptureInvalidated";
    case 902: return driver ? "CUDA_ERROR_STREAM_CAPTURE_MERGE" : "cudaErrorStreamCaptureMerge";
    case 903: return driver ? "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED" : "cudaErrorStreamCaptureUnmatched";
    case 904: return driver ? "CUDA_ERROR_STREAM_CAPTURE_UNJOINED" : "cudaErrorStreamCaptureUnjoined";
    case 905: return driver ? "CUDA_ERROR_STREAM_CAPTURE_ISOLATION" : "cudaErrorStreamCaptureIsolation";
    case 906: return driver ? "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT" : "cudaErrorStreamCaptureImplicit";
    case 907: return driver ? "CUDA_ERROR_CAPTURED_EVENT" : "cudaErrorCapturedEvent";
    case 908: return driver ? "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD" : "cudaErrorStreamCaptureWrongThread";
    default: return NULL;
    }
}

/* "cudaStreamSynchronize_v3020" -> "cudaStreamSynchronize" */
static void api_name(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const CUpti_CallbackData *d, char *out,
                     size_t n)
{
    const char *name = d->functionName;
    if (!name) {
        const char *nm = NULL;
        if (cuptiGetCallbackName(dom, cbid, &nm) == CUPTI_SUCCESS) name = nm;
    }
    snprintf(out, n, "%s", name ? name : "?");
    char *v = strstr(out, "_v");
    while (v) {
        char *p = v + 2;
        while (*p >= '0' && *p <= '9') p++;
        if (p > v + 2 && (*p == 0 || *p == '_')) { memmove(v, p, strlen(p) + 1); v = strstr(out, "_v"); }
        else v = strstr(v + 2, "_v");
    }
    char *s = strstr(out, "_ptsz");
    if (!s) s = strstr(out, "_ptds");
    if (s && s[5] == 0) *s = 0;
}

/* ---- captures, graphs, launches ---------------------------------------------- */

typedef struct { uintptr_t key; int rid; int used; } pair;
static pair stream_rid[MAX_MAP], graph_rid[MAX_MAP], exec_rid[MAX_MAP];
static long long stream_t0[MAX_MAP];
static pid_t capture_tid[MAX_MAP];
static uintptr_t region_site[MAX_REGIONS];
static unsigned long region_replays[MAX_REGIONS];
static unsigned long region_recaptures[MAX_REGIONS];
/* per region, the signatures of its captures and how often graphs of each were launched */
#define MAX_SIGS 32
static uint64_t region_sig[MAX_REGIONS][MAX_SIGS];
static unsigned long sig_launches[MAX_REGIONS][MAX_SIGS];
static int region_nsig[MAX_REGIONS];
static int nregions;

/* graph and exec maps hold rid * MAX_SIGS + signature index + 1 */
#define KEY_OF(rid, idx) ((rid) * MAX_SIGS + (idx) + 1)
#define RID_OF(key) (((key) - 1) / MAX_SIGS)
#define SIG_OF(key) (((key) - 1) % MAX_SIGS)

static void mix_sig(uint64_t v)
{
    capture_sig = (capture_sig ^ v) * 0x100000001b3ULL;
}

/* Open addressing (a graph launch looks its exec up on every call): a slot
 * never used ends a probe; one whose rid went back to 0 is free but does not. */
static unsigned map_hash(uintptr_t key)
{
    uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;
    return (unsigned)(h >> 40) % MAX_MAP;
}

static int map_get(pair *m, uintptr_t key)
{
    unsigned h = map_hash(key);
    for (int n = 0; n < MAX_MAP; n++) {
        pair *e = &m[(h + (unsigned)n) % MAX_MAP];
        if (!e->used) return 0;
        if (e->rid && e->key == key) return e->rid;
    }
    return 0;
}

static int map_set(pair *m, uintptr_t key, int rid)
{
    unsigned h = map_hash(key);
    int slot = -1;
    for (int n = 0; n < MAX_MAP; n++) {
        int i = (int)((h + (unsigned)n) % MAX_MAP);
        if (m[i].rid && m[i].key == key) { m[i].rid = rid; return i; }
        if (slot < 0 && !m[i].rid) slot = i;
        if (!m[i].used) break;
    }
    if (slot >= 0 && rid) { m[slot].key = key; m[slot].rid = rid; m[slot].used = 1; }
    return rid ? slot : -1;
}

static pid_t tid(void) { return (pid_t)syscall(SYS_gettid); }

/* A key for the call site: the first return addresses outside CUDA and this
 * library (with a static cudart the first of them are still cudart's, so
 * several are combined). */
static uintptr_t site_address(void)
{
    void *frames[24];
    int n = backtrace(frames, 24);
    uintptr_t key = 0;
    int used = 0;
    for (int i = 2; i < n && used < 6; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
        const char *b = strrchr(info.dli_fname, '/');
        b = b ? b + 1 : info.dli_fname;
        if (!strncmp(b, "libcuda", 7) || !strncmp(b, "libcupti", 8) || !strncmp(b, "libcglint", 9)) continue;
        key = (key << 7 | key >> (sizeof key * 8 - 7)) ^ (uintptr_t)frames[i];
        used++;
    }
    return key;
}

/* ---- what is subscribed ------------------------------------------------------- */

static int always_all;   /* CGLINT_CUPTI_ALL: every call, all the time (the old way) */
static int outside_runtime_only = 1;   /* no driver calls outside captures (CGLINT_CUPTI_OUTSIDE=all: both) */

/* The calls seen outside captures: those that begin or end a capture,
 * instantiate a graph or launch one, in the runtime API only: subscribing to
 * any driver callback makes CUPTI intercept every driver call (measured on
 * the H100: +14% per eager kernel launch with the driver's capture calls
 * subscribed, +0.7% without).  CGLINT_CUPTI_OUTSIDE=all adds the driver's
 * (cuStreamBeginCapture and cuGraphLaunch called directly, as some programs
 * do); a graph launch is then counted in the driver domain. */
static const struct { CUpti_CallbackDomain dom; CUpti_CallbackId cbid; } capture_calls[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_v12000},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz},
};

static CUptiResult subscribe_capture_calls(void)
{
    CUptiResult r = CUPTI_SUCCESS;
    if (outside_runtime_only) {
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000);
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000);
    }
    for (size_t i = 0; i < sizeof capture_calls / sizeof *capture_calls; i++) {
        if (outside_runtime_only && capture_calls[i].dom == CUPTI_CB_DOMAIN_DRIVER_API) continue;
        CUptiResult e = cuptiEnableCallback(1, subscriber, capture_calls[i].dom, capture_calls[i].cbid);
        if (e != CUPTI_SUCCESS && r == CUPTI_SUCCESS) r = e;
    }
    return r;
}

/* CGLINT_CUPTI_DURING=calls: while a capture is active, only the calls the
 * rules look at (launches, copies and sets, allocation, synchronisation and
 * queries, events, capture and graph calls; by name, from CUPTI's own
 * tables) instead of both whole domains: PyTorch's many cudaGetDevice,
 * cudaGetLastError and cudaStreamGetCaptureInfo calls, and the driver calls
 * every runtime call makes, then cost no callback.  A failing call outside
 * the list is not seen.  The default is both domains (every failing call
 * during a capture is seen); bench/runtime_overhead.sh measures both. */
static int during_calls;
static CUpti_CallbackId *during_ids[2];
static size_t n_during[2];

static int wanted_call(const char *nm, int driver)
{
    static const char *const rt[] = {"Launch", "Memcpy", "Memset", "Malloc", "Free", "HostAlloc", "HostRegister",
                                     "HostUnregister", "Synchronize", "Query", "EventRecord", "ElapsedTime",
                                     "WaitEvent", "BeginCapture", "EndCapture", "Graph", "MemPool", "Prefetch",
                                     "AttachMem", "AddCallback", "External", NULL};
    static const char *const drv[] = {"cuLaunch", "cuMemcpy", "cuMemset", "cuMemAlloc", "cuMemFree", "cuMemHost",
                                      "Synchronize", "Query", "cuEventRecord", "ElapsedTime", "WaitEvent",
                                      "BeginCapture", "EndCapture", "cuGraphLaunch", "cuGraphInstantiate",
                                      "cuMemPool", "AddCallback", "External", NULL};
    for (const char *const *w = driver ? drv : rt; *w; w++)
        if (strstr(nm, *w)) return 1;
    return 0;
}

static void build_during_calls(void)
{
    static const CUpti_CallbackDomain dom[2] = {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API};
    static const unsigned size[2] = {CUPTI_RUNTIME_TRACE_CBID_SIZE, CUPTI_DRIVER_TRACE_CBID_SIZE};
    for (int d = 0; d < 2; d++) {
        during_ids[d] = calloc(size[d], sizeof *during_ids[d]);
        if (!during_ids[d]) { during_calls = 0; return; }
        for (unsigned id = 1; id < size[d]; id++) {
            const char *nm = NULL;
            if (cuptiGetCallbackName(dom[d], id, &nm) == CUPTI_SUCCESS && nm && wanted_call(nm, d))
                during_ids[d][n_during[d]++] = id;
        }
    }
}

/* Every call of both domains (or the listed ones) while some capture is
 * active; only the capture calls otherwise.  Called from inside the
 * callback, with in_callback set. */
static void all_calls(int on)
{
    if (always_all) return;
    atomic_fetch_add(&switch_gen, 1);
    /* (unsubscribing and subscribing again here instead made eager launches
     * after the capture slower still: +29% against +7-12%, BENCHMARKS E3) */
    if (during_calls) {
        for (size_t i = 0; i < n_during[0]; i++)
            cuptiEnableCallback((uint32_t)on, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, during_ids[0][i]);
        for (size_t i = 0; i < n_during[1]; i++)
            cuptiEnableCallback((uint32_t)on, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, during_ids[1][i]);
    } else {
        cuptiEnableDomain((uint32_t)on, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
        cuptiEnableDomain((uint32_t)on, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    }
    if (!on) subscribe_capture_calls();
}

static void on_begin_capture(CUstream stream, int ok)
{
    if (!ok) return;
    if (atomic_fetch_add(&active_captures, 1) == 0) all_calls(1);
    uintptr_t site = site_address();
    pthread_mutex_lock(&mu);
    int rid = 0;
    for (int i = 0; i < nregions; i++) if (region_site[i] == site) rid = i + 1;
    int fresh = 0;
    if (!rid && nregions < MAX_REGIONS) {
        region_site[nregions++] = site;
        rid = nregions;
        fresh = 1;
    }
    int slot = map_set(stream_rid, (uintptr_t)stream, rid);
    if (slot >= 0) { stream_t0[slot] = now_ns(); capture_tid[slot] = tid(); }
    pthread_mutex_unlock(&mu);
    capture_sig = 0xcbf29ce484222325ULL;
    capturing_here = 1;
    if (fresh) {
        char mem[16384];
        buf b = {mem, 0, sizeof mem};
        b_fmt(&b, "{\"ev\":\"region\",\"rid\":%d,\"t\":%lld,", rid, now_ns());
        put_python(&b);
        B_LIT(&b, ",");
        put_native(&b);
        B_LIT(&b, "}");
        emit(&b);
    }
}

static int is_capturing_thread(void)
{
    pid_t me = tid();
    for (int i = 0; i < MAX_MAP; i++) if (stream_rid[i].rid && capture_tid[i] == me) return 1;
    return 0;
}

static void on_end_capture(CUstream stream, CUgraph *pgraph, int ok)
{
    int cur = atomic_load(&active_captures);
    if (cur > 0 && atomic_fetch_sub(&active_captures, 1) == 1) all_calls(0);
    pthread_mutex_lock(&mu);
    int rid = 0;
    long long t0 = 0;
    for (int i = 0; i < MAX_MAP; i++)
        if (stream_rid[i].rid && stream_rid[i].key == (uintptr_t)stream) {
            rid = stream_rid[i].rid;
            t0 = stream_t0[i];
            stream_rid[i].rid = 0;
        }
    pthread_mutex_unlock(&mu);
    long long nodes = -1;
    unsigned long recaptures = 0;
    if (ok && pgraph && *pgraph && rid > 0 && rid <= MAX_REGIONS) {
        size_t n = 0;
        if (cuGraphGetNodes(*pgraph, NULL, &n) == CUDA_SUCCESS) nodes = (long long)n;
        uint64_t sig = capture_sig ^ (uint64_t)n;
        pthread_mutex_lock(&mu);
        int idx = -1;
        for (int i = 0; i < region_nsig[rid - 1]; i++) if (region_sig[rid - 1][i] == sig) idx = i;
        if (idx >= 0 && sig_launches[rid - 1][idx] > 0) recaptures = ++region_recaptures[rid - 1];
        if (idx < 0 && region_nsig[rid - 1] < MAX_SIGS) {
            idx = region_nsig[rid - 1]++;
            region_sig[rid - 1][idx] = sig;
        }
        map_set(graph_rid, (uintptr_t)*pgraph, idx >= 0 ? KEY_OF(rid, idx) : 0);
        pthread_mutex_unlock(&mu);
    }
    capturing_here = 0;
    char mem[512];
    buf b = {mem, 0, sizeof mem};
    b_fmt(&b, "{\"ev\":\"capture\",\"rid\":%d,\"t0\":%lld,\"t1\":%lld,\"ok\":%s,\"nodes\":", rid, t0, now_ns(),
          ok ? "true" : "false");
    if (nodes >= 0) b_fmt(&b, "%lld}", nodes);
    else B_LIT(&b, "null}");
    emit(&b);
    if (recaptures) {
        /* captured again, with the same kernels and geometry, after a graph
         * of this site and signature was launched */
        b.n = 0;
        b_fmt(&b, "{\"ev\":\"recapture\",\"rid\":%d,\"recaptures\":%lu,\"t\":%lld}", rid, recaptures, now_ns());
        emit(&b);
    }
}

static void on_instantiate(CUgraphExec *pexec, CUgraph graph, int ok)
{
    if (!ok || !pexec || !*pexec) return;
    pthread_mutex_lock(&mu);
    int key = map_get(graph_rid, (uintptr_t)graph);
    if (key) map_set(exec_rid, (uintptr_t)*pexec, key);
    pthread_mutex_unlock(&mu);
}

static void write_replays(int rid)
{
    char mem[256];
    buf b = {mem, 0, sizeof mem};
    b_fmt(&b, "{\"ev\":\"replays\",\"rid\":%d,\"n\":%lu}", rid, region_replays[rid - 1]);
    emit(&b);
}

static void on_launch(CUgraphExec exec)
{
    pthread_mutex_lock(&mu);
    int key = map_get(exec_rid, (uintptr_t)exec);
    unsigned long n = 0;
    if (key) {
        int rid = RID_OF(key);
        n = ++region_replays[rid - 1];
        sig_launches[rid - 1][SIG_OF(key)]++;
    }
    pthread_mutex_unlock(&mu);
    (void)n;
}

/* The stream of a driver call that takes one, or (CUstream)-1 if none. */
#define NO_STREAM ((CUstream)(intptr_t)-1)
static CUstream stream_of(CUpti_CallbackId cbid, const void *p, int *sync_legacy)
{
    *sync_legacy = 0;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: return ((const cuLaunchKernel_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
        CUstream s = ((const cuLaunchKernel_ptsz_params *)p)->hStream;
        return s ? s : CU_STREAM_PER_THREAD;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
        const CUlaunchConfig *c = ((const cuLaunchKernelEx_params *)p)->config;
        return c ? c->hStream : NO_STREAM;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        return ((const cuLaunchCooperativeKernel_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync: return ((const cuMemcpyAsync_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2: return ((const cuMemcpyHtoDAsync_v2_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2: return ((const cuMemcpyDtoHAsync_v2_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2: return ((const cuMemcpyDtoDAsync_v2_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async: return ((const cuMemsetD8Async_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async: return ((const cuMemsetD32Async_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc: return ((const cuLaunchHostFunc_params *)p)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2:
        *sync_legacy = 1;
        return CU_STREAM_LEGACY;
    default: return NO_STREAM;
    }
}

/* ---- the callback ---------------------------------------------------------------- */

static uintptr_t seen_sites[512];
static int nseen;

/* Once per (call, site): a loop of failing calls is one event. */
static int first_time(CUpti_CallbackId cbid, int dom)
{
    uintptr_t key = site_address() ^ ((uintptr_t)cbid << 40) ^ ((uintptr_t)dom << 60);
    pthread_mutex_lock(&mu);
    int fresh = 1;
    for (int i = 0; i < nseen; i++) if (seen_sites[i] == key) fresh = 0;
    if (fresh && nseen < 512) seen_sites[nseen++] = key;
    else if (fresh) fresh = 0;
    pthread_mutex_unlock(&mu);
    return fresh;
}

static void record_api(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const CUpti_CallbackData *d, int code)
{
    if (!first_time(cbid, dom)) return;
    char name[128];
    api_name(dom, cbid, d, name, sizeof name);
    const char *en = error_name(code, dom == CUPTI_CB_DOMAIN_DRIVER_API);
    char mem[16384];
    buf b = {mem, 0, sizeof mem};
    B_LIT(&b, "{\"ev\":\"api\",\"api\":");
    b_str(&b, name);
    B_LIT(&b, ",\"code\":");
    if (en) b_str(&b, en);
    else b_fmt(&b, "\"%s %d\"", dom == CUPTI_CB_DOMAIN_DRIVER_API ? "CUresult" : "cudaError", code);
    b_fmt(&b, ",\"result\":%d,\"capturing\":%d,\"capturing_thread\":%s,\"tid\":%d,\"t\":%lld,", code,
          atomic_load(&active_captures), is_capturing_thread() ? "true" : "false", (int)tid(), now_ns());
    put_python(&b);
    B_LIT(&b, ",");
    put_native(&b);
    B_LIT(&b, "}");
    emit(&b);
}

static void record_eager_dom(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const CUpti_CallbackData *d,
                             CUstream s, int legacy)
{
    if (!first_time(cbid, dom + 8)) return;
    char name[128];
    api_name(dom, cbid, d, name, sizeof name);
    char mem[16384];
    buf b = {mem, 0, sizeof mem};
    B_LIT(&b, "{\"ev\":\"eager\",\"api\":");
    b_str(&b, name);
    b_fmt(&b, ",\"stream\":\"%p\",\"legacy\":%s,\"capturing_thread\":%s,\"tid\":%d,\"t\":%lld,", (void *)s,
          legacy ? "true" : "false", is_capturing_thread() ? "true" : "false", (int)tid(), now_ns());
    put_python(&b);
    B_LIT(&b, ",");
    put_native(&b);
    B_LIT(&b, "}");
    emit(&b);
}

/* The same bookkeeping for runtime API calls: whether the runtime's own
 * driver calls reach the driver callbacks is not promised, so a runtime
 * call is handled here and the driver calls it makes are skipped. */
/* A stream whose capture this library saw begin and not yet end: capturing,
 * without asking the driver (cuStreamIsCapturing is a driver call, and every
 * launch of a PyTorch capture would make one). */
static int known_capturing(CUstream s)
{
    if (s == NULL || s == CU_STREAM_LEGACY) return 0;
    pthread_mutex_lock(&mu);
    int rid = map_get(stream_rid, (uintptr_t)s);
    pthread_mutex_unlock(&mu);
    return rid > 0;
}

static void runtime_exit(CUpti_CallbackId cbid, const CUpti_CallbackData *d, int code)
{
    int already = eager_in_runtime;
    eager_in_runtime = 0;
    const void *p = d->functionParams;
    int ok = code == 0;
    CUstream s = NO_STREAM;
    int legacy = 0;
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000:
        on_begin_capture((CUstream)((const cudaStreamBeginCapture_v10000_params *)p)->stream, ok);
        return;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000:
        on_begin_capture((CUstream)((const cudaStreamBeginCapture_ptsz_v10000_params *)p)->stream, ok);
        return;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000: {
        const cudaStreamEndCapture_v10000_params *e = p;
        on_end_capture((CUstream)e->stream, (CUgraph *)e->pGraph, ok);
        return;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000: {
        const cudaStreamEndCapture_ptsz_v10000_params *e = p;
        on_end_capture((CUstream)e->stream, (CUgraph *)e->pGraph, ok);
        return;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000: {
        const cudaGraphInstantiate_v12000_params *e = p;
        on_instantiate((CUgraphExec *)e->pGraphExec, (CUgraph)e->graph, ok);
        return;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040: {
        const cudaGraphInstantiateWithFlags_v11040_params *e = p;
        on_instantiate((CUgraphExec *)e->pGraphExec, (CUgraph)e->graph, ok);
        return;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_v12000: {
        const cudaGraphInstantiateWithParams_v12000_params *e = p;
        on_instantiate((CUgraphExec *)e->pGraphExec, (CUgraph)e->graph, ok);
        return;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
        if (ok) on_launch((CUgraphExec)((const cudaGraphLaunch_v10000_params *)p)->graphExec);
        return;
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
        if (ok) on_launch((CUgraphExec)((const cudaGraphLaunch_ptsz_v10000_params *)p)->graphExec);
        return;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000: {
        const cudaLaunchKernel_v7000_params *k = p;
        s = (CUstream)k->stream;
        if (capturing_here && ok)
            mix_sig((uint64_t)(uintptr_t)k->func ^ ((uint64_t)k->gridDim.x << 20) ^ ((uint64_t)k->gridDim.y << 36) ^
                    ((uint64_t)k->blockDim.x << 8) ^ ((uint64_t)k->blockDim.y << 48) ^ (uint64_t)k->sharedMem);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000: {
        const cudaLaunchKernel_ptsz_v7000_params *k = p;
        s = (CUstream)k->stream;
        if (!s) s = CU_STREAM_PER_THREAD;
        if (capturing_here && ok)
            mix_sig((uint64_t)(uintptr_t)k->func ^ ((uint64_t)k->gridDim.x << 20) ^ ((uint64_t)k->gridDim.y << 36) ^
                    ((uint64_t)k->blockDim.x << 8) ^ ((uint64_t)k->blockDim.y << 48) ^ (uint64_t)k->sharedMem);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060: {
        const cudaLaunchConfig_t *c = ((const cudaLaunchKernelExC_v11060_params *)p)->config;
        s = c ? (CUstream)c->stream : NO_STREAM;
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
        s = (CUstream)((const cudaMemcpyAsync_v3020_params *)p)->stream;
        break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020:
        s = (CUstream)((const cudaMemsetAsync_v3020_params *)p)->stream;
        break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
        s = CU_STREAM_LEGACY;
        legacy = 1;
        break;
    default: return;
    }
    if (already) return;   /* a driver call it made reported it */
    if (!ok || atomic_load(&active_captures) <= 0 || s == NO_STREAM || known_capturing(s)) return;
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    if (cuStreamIsCapturing(s, &st) != CUDA_SUCCESS) return;
    if (st == CU_STREAM_CAPTURE_STATUS_NONE)
        record_eager_dom(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, d, s, legacy || s == CU_STREAM_LEGACY || s == NULL);
}

static void driver_exit(CUpti_CallbackId cbid, const CUpti_CallbackData *d, int code)
{
    const void *p = d->functionParams;
    int ok = code == 0;
    if (runtime_depth > 0) goto eager;   /* capture bookkeeping of a runtime call: runtime_exit */
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
        on_begin_capture(((const cuStreamBeginCapture_params *)p)->hStream, ok);
        return;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
        on_begin_capture(((const cuStreamBeginCapture_v2_params *)p)->hStream, ok);
        return;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
        on_begin_capture(((const cuStreamBeginCapture_ptsz_params *)p)->hStream, ok);
        return;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
        on_begin_capture(((const cuStreamBeginCapture_v2_ptsz_params *)p)->hStream, ok);
        return;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture: {
        const cuStreamEndCapture_params *e = p;
        on_end_capture(e->hStream, e->phGraph, ok);
        return;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz: {
        const cuStreamEndCapture_ptsz_params *e = p;
        on_end_capture(e->hStream, e->phGraph, ok);
        return;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags: {
        const cuGraphInstantiateWithFlags_params *e = p;
        on_instantiate(e->phGraphExec, e->hGraph, ok);
        return;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2: {
        const cuGraphInstantiate_v2_params *e = p;
        on_instantiate(e->phGraphExec, e->hGraph, ok);
        return;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams: {
        const cuGraphInstantiateWithParams_params *e = p;
        on_instantiate(e->phGraphExec, e->hGraph, ok);
        return;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
        if (ok) on_launch(((const cuGraphLaunch_params *)p)->hGraph);
        return;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
        if (ok) on_launch(((const cuGraphLaunch_ptsz_params *)p)->hGraphExec);
        return;
    default: break;
    }
eager:
    if (!ok || atomic_load(&active_captures) <= 0) return;
    if (capturing_here && runtime_depth == 0 && cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) {
        const cuLaunchKernel_params *k = p;
        mix_sig((uint64_t)(uintptr_t)k->f ^ ((uint64_t)k->gridDimX << 20) ^ ((uint64_t)k->gridDimY << 36) ^
                ((uint64_t)k->blockDimX << 8) ^ ((uint64_t)k->blockDimY << 48) ^ (uint64_t)k->sharedMemBytes);
    }
    int legacy = 0;
    CUstream s = stream_of(cbid, p, &legacy);
    if (s == NO_STREAM || known_capturing(s)) return;
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    if (cuStreamIsCapturing(s, &st) != CUDA_SUCCESS) return;
    if (st == CU_STREAM_CAPTURE_STATUS_NONE) {
        /* inside a runtime call the runtime's name is better, but whether
         * runtime_exit knows the call is not sure: report it here, once */
        if (runtime_depth > 0) eager_in_runtime = 1;
        record_eager_dom(CUPTI_CB_DOMAIN_DRIVER_API, cbid, d, s, legacy || s == CU_STREAM_LEGACY || s == NULL);
    }
}

static void CUPTIAPI callback(void *userdata, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (in_callback) return;
    if (dom != CUPTI_CB_DOMAIN_RUNTIME_API && dom != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const CUpti_CallbackData *d = data;
    int g = atomic_load_explicit(&switch_gen, memory_order_relaxed);
    if (depth_gen != g) { depth_gen = g; runtime_depth = 0; }
    if (d->callbackSite == CUPTI_API_ENTER) {
        if (dom == CUPTI_CB_DOMAIN_RUNTIME_API) runtime_depth++;
        return;
    }
    if (dom == CUPTI_CB_DOMAIN_RUNTIME_API && runtime_depth > 0) runtime_depth--;
    in_callback = 1;
    int code = d->functionReturnValue ? *(const int *)d->functionReturnValue : 0;
    if (debug && atomic_load(&active_captures) <= 0) {
        pthread_mutex_lock(&mu);
        int k = 0;
        while (k < ndebug_outside && !(debug_outside[k].dom == (int)dom && debug_outside[k].cbid == cbid)) k++;
        if (k == ndebug_outside && k < 64) { debug_outside[k].dom = (int)dom; debug_outside[k].cbid = cbid; ndebug_outside++; }
        if (k < 64) debug_outside[k].n++;
        pthread_mutex_unlock(&mu);
    }
    if (debug && atomic_load(&active_captures) > 0) {
        pthread_mutex_lock(&mu);
        int seen = 0;
        for (int i = 0; i < ndebug; i++) seen |= debug_seen[i].dom == (int)dom && debug_seen[i].cbid == cbid;
        if (!seen && ndebug < 256) { debug_seen[ndebug].dom = (int)dom; debug_seen[ndebug].cbid = cbid; ndebug++; }
        pthread_mutex_unlock(&mu);
    }
    if (dom == CUPTI_CB_DOMAIN_DRIVER_API) driver_exit(cbid, d, code);
    else runtime_exit(cbid, d, code);
    if (code != 0 && code != 600 /* not ready */ && code != 34 /* cudaErrorCudartUnloading */) {
        int capture_call = 0;
        if (dom == CUPTI_CB_DOMAIN_RUNTIME_API) {
            capture_call = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000 ||
                           cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000 ||
                           cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000;
            if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020 ||
                cbid == CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020)
                capture_call = -1;
        } else {
            capture_call = cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2 ||
                           cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture ||
                           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch;
            if (runtime_depth > 0) capture_call = -1;  /* the runtime call reports it, by its own name */
        }
        if (capture_call >= 0 && (capture_call || atomic_load(&active_captures) > 0 || (code >= 900 && code <= 908)))
            record_api(dom, cbid, d, code);
    }
    in_callback = 0;
}

static void at_exit(void)
{
    in_callback = 1;
    for (int rid = 1; rid <= nregions; rid++) if (region_replays[rid - 1]) write_replays(rid);
    if (debug) {
        char big[16384];
        buf d = {big, 0, sizeof big};
        B_LIT(&d, "{\"ev\":\"debug\",\"during_capture\":[");
        for (int i = 0; i < ndebug; i++) {
            const char *nm = NULL;
            cuptiGetCallbackName((CUpti_CallbackDomain)debug_seen[i].dom, debug_seen[i].cbid, &nm);
            if (i) B_LIT(&d, ",");
            b_str(&d, nm ? nm : "?");
        }
        B_LIT(&d, "]}");
        emit(&d);
        for (int i = 0; i < ndebug_outside; i++) {
            const char *nm = NULL;
            cuptiGetCallbackName((CUpti_CallbackDomain)debug_outside[i].dom, debug_outside[i].cbid, &nm);
            fprintf(stderr, "cglint-cupti: outside captures: %s x%ld\n", nm ? nm : "?", debug_outside[i].n);
        }
    }
    char mem[256];
    buf b = {mem, 0, sizeof mem};
    b_fmt(&b, "{\"ev\":\"exit\",\"t\":%lld,\"dropped\":%ld}", now_ns(), atomic_load(&dropped));
    emit(&b);
}

__attribute__((visibility("default"))) int InitializeInjection(void)
{
    const char *dir = getenv("CGLINT_EVENTS_DIR");
    if (!dir || !*dir || getenv("CGLINT_RUNTIME_OFF")) return 1;
    snprintf(events_dir, sizeof events_dir, "%s", dir);
    debug = getenv("CGLINT_CUPTI_DEBUG") != NULL;
    always_all = getenv("CGLINT_CUPTI_ALL") != NULL && *getenv("CGLINT_CUPTI_ALL") && strcmp(getenv("CGLINT_CUPTI_ALL"), "0");
    outside_runtime_only = !(getenv("CGLINT_CUPTI_OUTSIDE") != NULL && strcmp(getenv("CGLINT_CUPTI_OUTSIDE"), "all") == 0);
    during_calls = getenv("CGLINT_CUPTI_DURING") != NULL && strcmp(getenv("CGLINT_CUPTI_DURING"), "calls") == 0;
    in_callback = 1;
    if (during_calls) build_during_calls();
    py_init();
    /* the first backtrace() loads the unwinder (dlopen): not in a capture */
    void *warm[4];
    (void)backtrace(warm, 4);
    Dl_info warm_info;
    (void)dladdr((void *)&InitializeInjection, &warm_info);
    /* CGLINT_CUPTI_SUBSCRIBE (measuring what CUPTI itself costs, BENCHMARKS
     * E4): "0" injected but not subscribed (the run sees nothing), "bare"
     * subscribed with no callback enabled */
    const char *how = getenv("CGLINT_CUPTI_SUBSCRIBE");
    if (how && strcmp(how, "0") == 0) { in_callback = 0; return 1; }
    CUptiResult r = cuptiSubscribe(&subscriber, (CUpti_CallbackFunc)callback, NULL);
    if (how && strcmp(how, "bare") == 0) {
        in_callback = 0;
        return 1;
    }
    if (r == CUPTI_SUCCESS && always_all) {
        r = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
        if (r == CUPTI_SUCCESS) r = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    } else if (r == CUPTI_SUCCESS) {
        r = subscribe_capture_calls();
    }
    char mem[1024];
    buf b = {mem, 0, sizeof mem};
    if (r != CUPTI_SUCCESS) {
        const char *msg = NULL;
        cuptiGetResultString(r, &msg);
        B_LIT(&b, "{\"ev\":\"cupti_error\",\"message\":");
        b_str(&b, msg ? msg : "cuptiSubscribe failed");
        B_LIT(&b, "}");
    } else {
        b_fmt(&b, "{\"ev\":\"subscribed\",\"python\":%s,\"calls\":\"%s\",\"t\":%lld}", py.ok ? "true" : "false",
              always_all ? "all" : outside_runtime_only ? (during_calls ? "capture-runtime,during-listed" : "capture-runtime")
                                                        : (during_calls ? "capture,during-listed" : "capture"),
              now_ns());
        atexit(at_exit);
    }
    emit(&b);
    in_callback = 0;
    return 1;
}
