/* cu_api.c - what cglint knows about the CUDA runtime and driver APIs: for
 * each function it cares about, what kind of call it is and which argument
 * is the stream, the size, the capture mode.  Calls are matched by name
 * after normalisation (cu_api_normalize), so the toolkit's macro aliases
 * (cuMemcpyHtoD -> cuMemcpyHtoD_v2, cudaMemcpy -> cudaMemcpy_ptds under
 * --default-stream per-thread) and undeclared calls in shim mode all land
 * on the same entry. */
#include "cu_check.h"
#include "core/str.h"
#include <stdio.h>
#include <string.h>

#define S(n) n          /* stream argument index */
#define N -1

static const cu_api apis[] = {
    /* name                           flags                                        stream size  aux */
    /* capture */
    { "cudaStreamBeginCapture",         CU_API_BEGIN,                                0,   N,   1 },
    { "cudaStreamBeginCaptureToGraph",  CU_API_BEGIN,                                0,   N,   5 },
    { "cuStreamBeginCapture",           CU_API_BEGIN,                                0,   N,   1 },
    { "cuStreamBeginCaptureToGraph",    CU_API_BEGIN,                                0,   N,   5 },
    { "cudaStreamEndCapture",           CU_API_END,                                  0,   N,   1 },
    { "cuStreamEndCapture",             CU_API_END,                                  0,   N,   1 },
    { "cudaStreamIsCapturing",          CU_API_IS_CAPTURING,                         0,   N,   1 },
    { "cudaStreamGetCaptureInfo",       CU_API_IS_CAPTURING,                         0,   N,   1 },
    { "cuStreamIsCapturing",            CU_API_IS_CAPTURING,                         0,   N,   1 },
    { "cuStreamGetCaptureInfo",         CU_API_IS_CAPTURING,                         0,   N,   1 },
    /* streams and events */
    { "cudaStreamCreate",               CU_API_STREAM_CREATE,                        N,   N,   -1 },
    { "cudaStreamCreateWithFlags",      CU_API_STREAM_CREATE,                        N,   N,   1 },
    { "cudaStreamCreateWithPriority",   CU_API_STREAM_CREATE,                        N,   N,   1 },
    { "cuStreamCreate",                 CU_API_STREAM_CREATE,                        N,   N,   1 },
    { "cuStreamCreateWithPriority",     CU_API_STREAM_CREATE,                        N,   N,   1 },
    { "cudaEventCreate",                CU_API_EVENT_CREATE,                         N,   N,   -1 },
    { "cudaEventCreateWithFlags",       CU_API_EVENT_CREATE,                         N,   N,   -1 },
    { "cuEventCreate",                  CU_API_EVENT_CREATE,                         N,   N,   -1 },
    { "cudaEventRecord",                CU_API_EVENT_RECORD,                         1,   N,   0 },
    { "cudaEventRecordWithFlags",       CU_API_EVENT_RECORD,                         1,   N,   0 },
    { "cuEventRecord",                  CU_API_EVENT_RECORD,                         1,   N,   0 },
    { "cuEventRecordWithFlags",         CU_API_EVENT_RECORD,                         1,   N,   0 },
    { "cudaStreamWaitEvent",            CU_API_STREAM_WAIT,                          0,   N,   1 },
    { "cuStreamWaitEvent",              CU_API_STREAM_WAIT,                          0,   N,   1 },
    /* 1 sync */
    { "cudaDeviceSynchronize",          CU_API_SYNC | CU_API_DEVICE,                 N,   N,   -1 },
    { "cudaThreadSynchronize",          CU_API_SYNC | CU_API_DEVICE,                 N,   N,   -1 },
    { "cuCtxSynchronize",               CU_API_SYNC | CU_API_DEVICE,                 N,   N,   -1 },
    { "cudaStreamSynchronize",          CU_API_SYNC,                                 0,   N,   -1 },
    { "cuStreamSynchronize",            CU_API_SYNC,                                 0,   N,   -1 },
    { "cudaEventSynchronize",           CU_API_SYNC | CU_API_ON_EVENT,               N,   N,   0 },
    { "cuEventSynchronize",             CU_API_SYNC | CU_API_ON_EVENT,               N,   N,   0 },
    { "cudaStreamQuery",                CU_API_QUERY,                                0,   N,   -1 },
    { "cuStreamQuery",                  CU_API_QUERY,                                0,   N,   -1 },
    { "cudaEventQuery",                 CU_API_QUERY | CU_API_ON_EVENT,              N,   N,   0 },
    { "cuEventQuery",                   CU_API_QUERY | CU_API_ON_EVENT,              N,   N,   0 },
    { "cudaEventElapsedTime",           CU_API_QUERY | CU_API_ON_EVENT,              N,   N,   1 },
    /* synchronous memory operations (CG106) */
    { "cudaMemcpy",                     CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cudaMemcpy2D",                   CU_API_SYNC_MEM,                             N,   4,   -1 },
    { "cudaMemcpy3D",                   CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cudaMemcpyPeer",                 CU_API_SYNC_MEM,                             N,   4,   -1 },
    { "cudaMemcpyToSymbol",             CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cudaMemcpyFromSymbol",           CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cudaMemcpyToArray",              CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cudaMemcpyFromArray",            CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cudaMemcpy2DToArray",            CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cudaMemcpy2DFromArray",          CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cudaMemcpy3DPeer",               CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cudaMemset",                     CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cudaMemset2D",                   CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cudaMemset3D",                   CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cuMemcpy",                       CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cuMemcpyHtoD",                   CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cuMemcpyDtoH",                   CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cuMemcpyDtoD",                   CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cuMemcpy2D",                     CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cuMemcpy3D",                     CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cuMemcpyPeer",                   CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cuMemsetD8",                     CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cuMemsetD16",                    CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cuMemsetD32",                    CU_API_SYNC_MEM,                             N,   2,   -1 },
    { "cuMemsetD2D8",                   CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cuMemsetD2D16",                  CU_API_SYNC_MEM,                             N,   N,   -1 },
    { "cuMemsetD2D32",                  CU_API_SYNC_MEM,                             N,   N,   -1 },
    /* asynchronous work on a stream */
    { "cudaMemcpyAsync",                CU_API_WORK,                                 4,   2,   -1 },
    { "cudaMemcpy2DAsync",              CU_API_WORK,                                 7,   4,   -1 },
    { "cudaMemcpy3DAsync",              CU_API_WORK,                                 1,   N,   -1 },
    { "cudaMemcpyPeerAsync",            CU_API_WORK,                                 5,   4,   -1 },
    { "cudaMemcpyToSymbolAsync",        CU_API_WORK,                                 5,   2,   -1 },
    { "cudaMemcpyFromSymbolAsync",      CU_API_WORK,                                 5,   2,   -1 },
    { "cudaMemsetAsync",                CU_API_WORK,                                 3,   2,   -1 },
    { "cudaMemset2DAsync",              CU_API_WORK,                                 5,   N,   -1 },
    { "cudaMemset3DAsync",              CU_API_WORK,                                 3,   N,   -1 },
    { "cudaMemPrefetchAsync",           CU_API_WORK,                                 4,   1,   -1 },
    { "cudaLaunchHostFunc",             CU_API_WORK,                                 0,   N,   -1 },
    { "cudaStreamAddCallback",          CU_API_WORK,                                 0,   N,   -1 },
    { "cudaGraphLaunch",                CU_API_WORK,                                 1,   N,   -1 },
    { "cuMemcpyAsync",                  CU_API_WORK,                                 3,   2,   -1 },
    { "cuMemcpyHtoDAsync",              CU_API_WORK,                                 3,   2,   -1 },
    { "cuMemcpyDtoHAsync",              CU_API_WORK,                                 3,   2,   -1 },
    { "cuMemcpyDtoDAsync",              CU_API_WORK,                                 3,   2,   -1 },
    { "cuMemsetD8Async",                CU_API_WORK,                                 3,   2,   -1 },
    { "cuMemsetD16Async",               CU_API_WORK,                                 3,   2,   -1 },
    { "cuMemsetD32Async",               CU_API_WORK,                                 3,   2,   -1 },
    { "cuLaunchHostFunc",               CU_API_WORK,                                 0,   N,   -1 },
    { "cuGraphLaunch",                  CU_API_WORK,                                 1,   N,   -1 },
    /* launches through the API: aux is the first geometry argument */
    { "cudaLaunchKernel",               CU_API_WORK | CU_API_LAUNCH,                 5,   N,   1 },
    { "cudaLaunchCooperativeKernel",    CU_API_WORK | CU_API_LAUNCH,                 5,   N,   1 },
    { "cuLaunchKernel",                 CU_API_WORK | CU_API_LAUNCH | CU_API_DRIVER, 8,   N,   1 },
    { "cuLaunchCooperativeKernel",      CU_API_WORK | CU_API_LAUNCH | CU_API_DRIVER, 8,   N,   1 },
    /* memory (CG501, CG502) */
    { "cudaMalloc",                     CU_API_ALLOC,                                N,   1,   0 },
    { "cudaMallocHost",                 CU_API_ALLOC,                                N,   1,   0 },
    { "cudaHostAlloc",                  CU_API_ALLOC,                                N,   1,   0 },
    { "cudaHostRegister",               CU_API_ALLOC,                                N,   1,   0 },
    { "cudaMallocManaged",              CU_API_ALLOC,                                N,   1,   0 },
    { "cudaMallocPitch",                CU_API_ALLOC,                                N,   N,   0 },
    { "cudaMalloc3D",                   CU_API_ALLOC,                                N,   N,   0 },
    { "cudaMallocArray",                CU_API_ALLOC,                                N,   N,   0 },
    { "cudaMalloc3DArray",              CU_API_ALLOC,                                N,   N,   0 },
    { "cudaFree",                       CU_API_FREE,                                 N,   N,   0 },
    { "cudaFreeHost",                   CU_API_FREE,                                 N,   N,   0 },
    { "cudaHostUnregister",             CU_API_FREE,                                 N,   N,   0 },
    { "cudaFreeArray",                  CU_API_FREE,                                 N,   N,   0 },
    { "cuMemAlloc",                     CU_API_ALLOC,                                N,   1,   0 },
    { "cuMemAllocHost",                 CU_API_ALLOC,                                N,   1,   0 },
    { "cuMemHostAlloc",                 CU_API_ALLOC,                                N,   1,   0 },
    { "cuMemHostRegister",              CU_API_ALLOC,                                N,   1,   0 },
    { "cuMemAllocManaged",              CU_API_ALLOC,                                N,   1,   0 },
    { "cuMemAllocPitch",                CU_API_ALLOC,                                N,   N,   0 },
    { "cuMemFree",                      CU_API_FREE,                                 N,   N,   0 },
    { "cuMemFreeHost",                  CU_API_FREE,                                 N,   N,   0 },
    { "cuMemHostUnregister",            CU_API_FREE,                                 N,   N,   0 },
    { "cudaMallocAsync",                CU_API_WORK | CU_API_ASYNC_ALLOC,            2,   1,   0 },
    { "cudaMallocFromPoolAsync",        CU_API_WORK | CU_API_ASYNC_ALLOC,            3,   1,   0 },
    { "cuMemAllocAsync",                CU_API_WORK | CU_API_ASYNC_ALLOC,            2,   1,   0 },
    { "cuMemAllocFromPoolAsync",        CU_API_WORK | CU_API_ASYNC_ALLOC,            3,   1,   0 },
    { "cudaFreeAsync",                  CU_API_WORK | CU_API_ASYNC_FREE,             1,   N,   0 },
    { "cuMemFreeAsync",                 CU_API_WORK | CU_API_ASYNC_FREE,             1,   N,   0 },
    /* graphs and kernels */
    { "cudaGraphInstantiate",           CU_API_INSTANTIATE,                          N,   N,   2 },
    { "cudaGraphInstantiateWithFlags",  CU_API_INSTANTIATE,                          N,   N,   2 },
    { "cudaGraphInstantiateWithParams", CU_API_INSTANTIATE,                          N,   N,   2 },
    { "cuGraphInstantiate",             CU_API_INSTANTIATE,                          N,   N,   2 },
    { "cuGraphInstantiateWithFlags",    CU_API_INSTANTIATE,                          N,   N,   2 },
    { "cuGraphInstantiateWithParams",   CU_API_INSTANTIATE,                          N,   N,   2 },
    { "cudaFuncSetAttribute",           CU_API_SET_ATTR,                             N,   N,   2 },
    { "cuFuncSetAttribute",             CU_API_SET_ATTR | CU_API_DRIVER,             N,   N,   2 },
};

#undef S
#undef N

const cu_api *cu_api_lookup(const char *name)
{
    if (!name || strlen(name) >= 96) return NULL;   /* longer than any API name: not one */
    char buf[96];
    cu_api_normalize(name, buf, sizeof buf);
    if (strncmp(buf, "cu", 2) != 0) return NULL;
    for (size_t i = 0; i < sizeof apis / sizeof *apis; i++)
        if (strcmp(apis[i].name, buf) == 0) return &apis[i];
    return NULL;
}

void cu_api_normalize(const char *name, char *out, size_t outlen)
{
    /* "::cudaMalloc" / "std::..." are not ours; strip a leading "::" only */
    if (name[0] == ':' && name[1] == ':') name += 2;
    snprintf(out, outlen, "%s", name);
    static const char *const suffixes[] = { "_ptsz", "_ptds", "_v2", "_v3", NULL };
    for (int again = 1; again;) {
        again = 0;
        size_t n = strlen(out);
        for (int i = 0; suffixes[i]; i++) {
            size_t k = strlen(suffixes[i]);
            if (n > k + 2 && strcmp(out + n - k, suffixes[i]) == 0) { out[n - k] = 0; again = 1; break; }
        }
    }
}

int cu_host_entropy(const char *name, const char *usr)
{
    static const char *const rnd[] = { "rand", "random", "rand_r", "drand48", "erand48", "lrand48",
        "mrand48", "nrand48", NULL };
    static const char *const clk[] = { "time", "clock", "gettimeofday", "clock_gettime", "timespec_get", NULL };
    if (!name) return 0;
    /* a free function of the C library, not a method or a project's own static */
    int plain = !usr || !strstr(usr, "@S@");
    if (plain && cg_one_of(name, rnd)) return CU_ENTROPY_RANDOM;
    if (plain && cg_one_of(name, clk)) return CU_ENTROPY_CLOCK;
    if (cg_eq(name, "now") && usr && strstr(usr, "chrono")) return CU_ENTROPY_CLOCK;
    if (cg_eq(name, "operator()") && usr &&
        (strstr(usr, "random_device") || strstr(usr, "mersenne_twister") || strstr(usr, "linear_congruential") ||
         strstr(usr, "_distribution")))
        return CU_ENTROPY_RANDOM;
    return 0;
}
