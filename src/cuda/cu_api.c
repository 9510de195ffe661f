/* cu_api.c - what cglint knows about the CUDA runtime and driver APIs: for
 * each function it cares about, what kind of call it is and which argument
 * is the stream, the size, the capture mode.  Calls are matched by name
 * after normalisation (cu_api_normalize), so the toolkit's macro aliases
 * (cuMemcpyHtoD -> cuMemcpyHtoD_v2, cudaMemcpy -> cudaMemcpy_ptds under
 * --default-stream per-thread) and undeclared calls in shim mode all land
 * on the same entry. */
#include "cu_eval.h"
#include <string.h>

#define S(n) n          /* stream argument index */
#define N -1

static const cu_api apis[] = {
    /* name                          flags                                  stream size  aux */
    /* capture */
    { "cudaStreamBeginCapture",        API_BEGIN,                             0,   N,   1 },
    { "cudaStreamBeginCaptureToGraph", API_BEGIN,                             0,   N,   5 },
    { "cuStreamBeginCapture",          API_BEGIN,                             0,   N,   1 },
    { "cuStreamBeginCaptureToGraph",   API_BEGIN,                             0,   N,   5 },
    { "cudaStreamEndCapture",          API_END,                               0,   N,   1 },
    { "cuStreamEndCapture",            API_END,                               0,   N,   1 },
    { "cudaStreamIsCapturing",         API_IS_CAPTURING,                      0,   N,   1 },
    { "cudaStreamGetCaptureInfo",      API_IS_CAPTURING,                      0,   N,   1 },
    { "cuStreamIsCapturing",           API_IS_CAPTURING,                      0,   N,   1 },
    { "cuStreamGetCaptureInfo",        API_IS_CAPTURING,                      0,   N,   1 },
    /* streams and events */
    { "cudaStreamCreate",              API_STREAM_CREATE,                     N,   N,   -1 },
    { "cudaStreamCreateWithFlags",     API_STREAM_CREATE,                     N,   N,   1 },
    { "cudaStreamCreateWithPriority",  API_STREAM_CREATE,                     N,   N,   1 },
    { "cuStreamCreate",                API_STREAM_CREATE,                     N,   N,   1 },
    { "cuStreamCreateWithPriority",    API_STREAM_CREATE,                     N,   N,   1 },
    { "cudaEventCreate",               API_EVENT_CREATE,                      N,   N,   -1 },
    { "cudaEventCreateWithFlags",      API_EVENT_CREATE,                      N,   N,   -1 },
    { "cuEventCreate",                 API_EVENT_CREATE,                      N,   N,   -1 },
    { "cudaEventRecord",               API_EVENT_RECORD,                      1,   N,   0 },
    { "cudaEventRecordWithFlags",      API_EVENT_RECORD,                      1,   N,   0 },
    { "cuEventRecord",                 API_EVENT_RECORD,                      1,   N,   0 },
    { "cuEventRecordWithFlags",        API_EVENT_RECORD,                      1,   N,   0 },
    { "cudaStreamWaitEvent",           API_STREAM_WAIT,                       0,   N,   1 },
    { "cuStreamWaitEvent",             API_STREAM_WAIT,                       0,   N,   1 },
    /* 1 sync */
    { "cudaDeviceSynchronize",         API_SYNC | API_DEVICE,                 N,   N,   -1 },
    { "cudaThreadSynchronize",         API_SYNC | API_DEVICE,                 N,   N,   -1 },
    { "cuCtxSynchronize",              API_SYNC | API_DEVICE,                 N,   N,   -1 },
    { "cudaStreamSynchronize",         API_SYNC,                              0,   N,   -1 },
    { "cuStreamSynchronize",           API_SYNC,                              0,   N,   -1 },
    { "cudaEventSynchronize",          API_SYNC | API_ON_EVENT,               N,   N,   0 },
    { "cuEventSynchronize",            API_SYNC | API_ON_EVENT,               N,   N,   0 },
    { "cudaStreamQuery",               API_QUERY,                             0,   N,   -1 },
    { "cuStreamQuery",                 API_QUERY,                             0,   N,   -1 },
    { "cudaEventQuery",                API_QUERY | API_ON_EVENT,              N,   N,   0 },
    { "cuEventQuery",                  API_QUERY | API_ON_EVENT,              N,   N,   0 },
    { "cudaEventElapsedTime",          API_QUERY | API_ON_EVENT,              N,   N,   1 },
    /* synchronous memory operations (CG106) */
    { "cudaMemcpy",                    API_SYNC_MEM,                          N,   2,   -1 },
    { "cudaMemcpy2D",                  API_SYNC_MEM,                          N,   4,   -1 },
    { "cudaMemcpy3D",                  API_SYNC_MEM,                          N,   N,   -1 },
    { "cudaMemcpyPeer",                API_SYNC_MEM,                          N,   4,   -1 },
    { "cudaMemcpyToSymbol",            API_SYNC_MEM,                          N,   2,   -1 },
    { "cudaMemcpyFromSymbol",          API_SYNC_MEM,                          N,   2,   -1 },
    { "cudaMemcpyToArray",             API_SYNC_MEM,                          N,   N,   -1 },
    { "cudaMemcpyFromArray",           API_SYNC_MEM,                          N,   N,   -1 },
    { "cudaMemcpy2DToArray",           API_SYNC_MEM,                          N,   N,   -1 },
    { "cudaMemcpy2DFromArray",         API_SYNC_MEM,                          N,   N,   -1 },
    { "cudaMemcpy3DPeer",              API_SYNC_MEM,                          N,   N,   -1 },
    { "cudaMemset",                    API_SYNC_MEM,                          N,   2,   -1 },
    { "cudaMemset2D",                  API_SYNC_MEM,                          N,   N,   -1 },
    { "cudaMemset3D",                  API_SYNC_MEM,                          N,   N,   -1 },
    { "cuMemcpy",                      API_SYNC_MEM,                          N,   2,   -1 },
    { "cuMemcpyHtoD",                  API_SYNC_MEM,                          N,   2,   -1 },
    { "cuMemcpyDtoH",                  API_SYNC_MEM,                          N,   2,   -1 },
    { "cuMemcpyDtoD",                  API_SYNC_MEM,                          N,   2,   -1 },
    { "cuMemcpy2D",                    API_SYNC_MEM,                          N,   N,   -1 },
    { "cuMemcpy3D",                    API_SYNC_MEM,                          N,   N,   -1 },
    { "cuMemcpyPeer",                  API_SYNC_MEM,                          N,   N,   -1 },
    { "cuMemsetD8",                    API_SYNC_MEM,                          N,   2,   -1 },
    { "cuMemsetD16",                   API_SYNC_MEM,                          N,   2,   -1 },
    { "cuMemsetD32",                   API_SYNC_MEM,                          N,   2,   -1 },
    { "cuMemsetD2D8",                  API_SYNC_MEM,                          N,   N,   -1 },
    { "cuMemsetD2D16",                 API_SYNC_MEM,                          N,   N,   -1 },
    { "cuMemsetD2D32",                 API_SYNC_MEM,                          N,   N,   -1 },
    /* asynchronous work on a stream */
    { "cudaMemcpyAsync",               API_WORK,                              4,   2,   -1 },
    { "cudaMemcpy2DAsync",             API_WORK,                              7,   4,   -1 },
    { "cudaMemcpy3DAsync",             API_WORK,                              1,   N,   -1 },
    { "cudaMemcpyPeerAsync",           API_WORK,                              5,   4,   -1 },
    { "cudaMemcpyToSymbolAsync",       API_WORK,                              5,   2,   -1 },
    { "cudaMemcpyFromSymbolAsync",     API_WORK,                              5,   2,   -1 },
    { "cudaMemsetAsync",               API_WORK,                              3,   2,   -1 },
    { "cudaMemset2DAsync",             API_WORK,                              5,   N,   -1 },
    { "cudaMemset3DAsync",             API_WORK,                              3,   N,   -1 },
    { "cudaMemPrefetchAsync",          API_WORK,                              4,   1,   -1 },
    { "cudaLaunchHostFunc",            API_WORK,                              0,   N,   -1 },
    { "cudaStreamAddCallback",         API_WORK,                              0,   N,   -1 },
    { "cudaGraphLaunch",               API_WORK,                              1,   N,   -1 },
    { "cuMemcpyAsync",                 API_WORK,                              3,   2,   -1 },
    { "cuMemcpyHtoDAsync",             API_WORK,                              3,   2,   -1 },
    { "cuMemcpyDtoHAsync",             API_WORK,                              3,   2,   -1 },
    { "cuMemcpyDtoDAsync",             API_WORK,                              3,   2,   -1 },
    { "cuMemsetD8Async",               API_WORK,                              3,   2,   -1 },
    { "cuMemsetD16Async",              API_WORK,                              3,   2,   -1 },
    { "cuMemsetD32Async",              API_WORK,                              3,   2,   -1 },
    { "cuLaunchHostFunc",              API_WORK,                              0,   N,   -1 },
    { "cuGraphLaunch",                 API_WORK,                              1,   N,   -1 },
    /* launches through the API: aux is the first geometry argument */
    { "cudaLaunchKernel",              API_WORK | API_LAUNCH,                 5,   N,   1 },
    { "cudaLaunchCooperativeKernel",   API_WORK | API_LAUNCH,                 5,   N,   1 },
    { "cuLaunchKernel",                API_WORK | API_LAUNCH | API_DRIVER,    8,   N,   1 },
    { "cuLaunchCooperativeKernel",     API_WORK | API_LAUNCH | API_DRIVER,    8,   N,   1 },
    /* memory (CG501, CG502) */
    { "cudaMalloc",                    API_ALLOC,                             N,   1,   0 },
    { "cudaMallocHost",                API_ALLOC,                             N,   1,   0 },
    { "cudaHostAlloc",                 API_ALLOC,                             N,   1,   0 },
    { "cudaHostRegister",              API_ALLOC,                             N,   1,   0 },
    { "cudaMallocManaged",             API_ALLOC,                             N,   1,   0 },
    { "cudaMallocPitch",               API_ALLOC,                             N,   N,   0 },
    { "cudaMalloc3D",                  API_ALLOC,                             N,   N,   0 },
    { "cudaMallocArray",               API_ALLOC,                             N,   N,   0 },
    { "cudaMalloc3DArray",             API_ALLOC,                             N,   N,   0 },
    { "cudaFree",                      API_FREE,                              N,   N,   0 },
    { "cudaFreeHost",                  API_FREE,                              N,   N,   0 },
    { "cudaHostUnregister",            API_FREE,                              N,   N,   0 },
    { "cudaFreeArray",                 API_FREE,                              N,   N,   0 },
    { "cuMemAlloc",                    API_ALLOC,                             N,   1,   0 },
    { "cuMemAllocHost",                API_ALLOC,                             N,   1,   0 },
    { "cuMemHostAlloc",                API_ALLOC,                             N,   1,   0 },
    { "cuMemHostRegister",             API_ALLOC,                             N,   1,   0 },
    { "cuMemAllocManaged",             API_ALLOC,                             N,   1,   0 },
    { "cuMemAllocPitch",               API_ALLOC,                             N,   N,   0 },
    { "cuMemFree",                     API_FREE,                              N,   N,   0 },
    { "cuMemFreeHost",                 API_FREE,                              N,   N,   0 },
    { "cuMemHostUnregister",           API_FREE,                              N,   N,   0 },
    { "cudaMallocAsync",               API_WORK | API_ASYNC_ALLOC,            2,   1,   0 },
    { "cudaMallocFromPoolAsync",       API_WORK | API_ASYNC_ALLOC,            3,   1,   0 },
    { "cuMemAllocAsync",               API_WORK | API_ASYNC_ALLOC,            2,   1,   0 },
    { "cuMemAllocFromPoolAsync",       API_WORK | API_ASYNC_ALLOC,            3,   1,   0 },
    { "cudaFreeAsync",                 API_WORK | API_ASYNC_FREE,             1,   N,   0 },
    { "cuMemFreeAsync",                API_WORK | API_ASYNC_FREE,             1,   N,   0 },
    /* graphs and kernels */
    { "cudaGraphInstantiate",          API_INSTANTIATE,                       N,   N,   2 },
    { "cudaGraphInstantiateWithFlags", API_INSTANTIATE,                       N,   N,   2 },
    { "cudaGraphInstantiateWithParams",API_INSTANTIATE,                       N,   N,   2 },
    { "cuGraphInstantiate",            API_INSTANTIATE,                       N,   N,   2 },
    { "cuGraphInstantiateWithFlags",   API_INSTANTIATE,                       N,   N,   2 },
    { "cuGraphInstantiateWithParams",  API_INSTANTIATE,                       N,   N,   2 },
    { "cudaFuncSetAttribute",          API_SET_ATTR,                          N,   N,   2 },
    { "cuFuncSetAttribute",            API_SET_ATTR | API_DRIVER,             N,   N,   2 },
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
