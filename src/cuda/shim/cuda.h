/* cuda.h - cglint's stand-in for the CUDA driver API header (see
 * cglint_cuda_runtime.h for what the shim is and is not).  Written for
 * cglint from the public API documentation. */
#ifndef CGLINT_CUDA_DRIVER_H
#define CGLINT_CUDA_DRIVER_H
#include <stddef.h>
#ifdef __cplusplus
#define CGLINT_DRV extern "C" CUresult
#else
#define CGLINT_DRV CUresult
#endif
#define CUDA_VERSION 13000

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUmemPoolHandle_st *CUmemoryPool;

typedef enum cudaError_enum {
    CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3, CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
    CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903, CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904,
    CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906,
    CUDA_ERROR_CAPTURED_EVENT = 907, CUDA_ERROR_UNKNOWN = 999
} CUresult;
typedef enum CUstreamCaptureMode_enum {
    CU_STREAM_CAPTURE_MODE_GLOBAL = 0, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
    CU_STREAM_CAPTURE_MODE_RELAXED = 2
} CUstreamCaptureMode;
typedef enum CUstreamCaptureStatus_enum {
    CU_STREAM_CAPTURE_STATUS_NONE = 0, CU_STREAM_CAPTURE_STATUS_ACTIVE = 1,
    CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2
} CUstreamCaptureStatus;
typedef enum CUstream_flags_enum { CU_STREAM_DEFAULT = 0, CU_STREAM_NON_BLOCKING = 1 } CUstream_flags;
typedef enum CUevent_flags_enum { CU_EVENT_DEFAULT = 0, CU_EVENT_BLOCKING_SYNC = 1, CU_EVENT_DISABLE_TIMING = 2 } CUevent_flags;
typedef enum CUfunction_attribute_enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
} CUfunction_attribute;
typedef enum CUgraphInstantiate_flags_enum {
    CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH = 1, CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD = 2
} CUgraphInstantiate_flags;
#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

CGLINT_DRV cuInit(unsigned int flags);
CGLINT_DRV cuDeviceGet(CUdevice *dev, int ordinal);
CGLINT_DRV cuDeviceGetCount(int *count);
CGLINT_DRV cuCtxCreate(CUcontext *ctx, unsigned int flags, CUdevice dev);
CGLINT_DRV cuCtxDestroy(CUcontext ctx);
CGLINT_DRV cuCtxSetCurrent(CUcontext ctx);
CGLINT_DRV cuCtxGetCurrent(CUcontext *ctx);
CGLINT_DRV cuCtxSynchronize(void);
CGLINT_DRV cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev);
CGLINT_DRV cuModuleLoad(CUmodule *mod, const char *path);
CGLINT_DRV cuModuleLoadData(CUmodule *mod, const void *image);
CGLINT_DRV cuModuleGetFunction(CUfunction *fn, CUmodule mod, const char *name);
CGLINT_DRV cuFuncSetAttribute(CUfunction fn, CUfunction_attribute attr, int value);
CGLINT_DRV cuStreamCreate(CUstream *stream, unsigned int flags);
CGLINT_DRV cuStreamCreateWithPriority(CUstream *stream, unsigned int flags, int priority);
CGLINT_DRV cuStreamDestroy(CUstream stream);
CGLINT_DRV cuStreamSynchronize(CUstream stream);
CGLINT_DRV cuStreamQuery(CUstream stream);
CGLINT_DRV cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags);
CGLINT_DRV cuStreamBeginCapture(CUstream stream, CUstreamCaptureMode mode);
CGLINT_DRV cuStreamBeginCaptureToGraph(CUstream stream, CUgraph graph, const CUgraphNode *deps, const void *edges, size_t ndeps, CUstreamCaptureMode mode);
CGLINT_DRV cuStreamEndCapture(CUstream stream, CUgraph *graph);
CGLINT_DRV cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status);
CGLINT_DRV cuStreamGetCaptureInfo(CUstream stream, CUstreamCaptureStatus *status, unsigned long long *id, CUgraph *graph, const CUgraphNode **deps, const void **edges, size_t *ndeps);
CGLINT_DRV cuEventCreate(CUevent *event, unsigned int flags);
CGLINT_DRV cuEventDestroy(CUevent event);
CGLINT_DRV cuEventRecord(CUevent event, CUstream stream);
CGLINT_DRV cuEventSynchronize(CUevent event);
CGLINT_DRV cuEventQuery(CUevent event);
CGLINT_DRV cuMemAlloc(CUdeviceptr *dptr, size_t size);
CGLINT_DRV cuMemFree(CUdeviceptr dptr);
CGLINT_DRV cuMemAllocHost(void **ptr, size_t size);
CGLINT_DRV cuMemFreeHost(void *ptr);
CGLINT_DRV cuMemHostAlloc(void **ptr, size_t size, unsigned int flags);
CGLINT_DRV cuMemHostRegister(void *ptr, size_t size, unsigned int flags);
CGLINT_DRV cuMemAllocManaged(CUdeviceptr *dptr, size_t size, unsigned int flags);
CGLINT_DRV cuMemAllocPitch(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned int elementSize);
CGLINT_DRV cuMemAllocAsync(CUdeviceptr *dptr, size_t size, CUstream stream);
CGLINT_DRV cuMemFreeAsync(CUdeviceptr dptr, CUstream stream);
CGLINT_DRV cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t count);
CGLINT_DRV cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t count, CUstream stream);
CGLINT_DRV cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t count);
CGLINT_DRV cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t count);
CGLINT_DRV cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t count);
CGLINT_DRV cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t count, CUstream stream);
CGLINT_DRV cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t count, CUstream stream);
CGLINT_DRV cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t count, CUstream stream);
CGLINT_DRV cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n);
CGLINT_DRV cuMemsetD16(CUdeviceptr dst, unsigned short value, size_t n);
CGLINT_DRV cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t n);
CGLINT_DRV cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, CUstream stream);
CGLINT_DRV cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t n, CUstream stream);
CGLINT_DRV cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t n, CUstream stream);
CGLINT_DRV cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                          unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem,
                          CUstream stream, void **params, void **extra);
CGLINT_DRV cuLaunchHostFunc(CUstream stream, void (*fn)(void *), void *data);
CGLINT_DRV cuGraphCreate(CUgraph *graph, unsigned int flags);
CGLINT_DRV cuGraphDestroy(CUgraph graph);
CGLINT_DRV cuGraphInstantiate(CUgraphExec *exec, CUgraph graph, unsigned long long flags);
CGLINT_DRV cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph, unsigned long long flags);
CGLINT_DRV cuGraphLaunch(CUgraphExec exec, CUstream stream);
CGLINT_DRV cuGraphExecDestroy(CUgraphExec exec);
CGLINT_DRV cuGraphAddKernelNode(CUgraphNode *node, CUgraph graph, const CUgraphNode *deps, size_t ndeps, const void *params);
CGLINT_DRV cuGetErrorString(CUresult error, const char **str);
CGLINT_DRV cuGetErrorName(CUresult error, const char **str);
#undef CGLINT_DRV
#endif
