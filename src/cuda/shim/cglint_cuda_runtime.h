/* cglint_cuda_runtime.h - cglint's stand-in for the CUDA runtime headers.
 *
 * Used only when no CUDA toolkit is found (or with --cuda-mode shim): it
 * declares the types, constants and functions of the CUDA runtime API that
 * cglint's rules know, so that host code parses without NVIDIA's headers.
 * It is written for cglint from the public API documentation; it is not a
 * copy of any NVIDIA header, and it is never compiled into a program.
 * Signatures follow CUDA 12/13.  Valid C and C++: C++ adds dim3's
 * constructor, default arguments and the template overloads. */
#ifndef CGLINT_CUDA_RUNTIME_H
#define CGLINT_CUDA_RUNTIME_H
#define CGLINT_CUDA_SHIM 1
#include <stddef.h>

#ifdef __cplusplus
#define CGLINT_DEFAULT(x) = x
#define CGLINT_EXTERN_C extern "C"
#else
#define CGLINT_DEFAULT(x)
#define CGLINT_EXTERN_C
#endif

/* ---- execution space and memory space qualifiers -------------------------- */
#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(a) __align__(a)
#define __cudart_builtin__
#endif
#define CUDART_VERSION 13000
#define __CUDACC_VER_MAJOR__ 13

/* ---- vector types --------------------------------------------------------- */
#define CGLINT_VEC(T, N) \
    typedef struct N##1 { T x; } N##1; \
    typedef struct N##2 { T x, y; } N##2; \
    typedef struct N##3 { T x, y, z; } N##3; \
    typedef struct N##4 { T x, y, z, w; } N##4;
CGLINT_VEC(signed char, char)
CGLINT_VEC(unsigned char, uchar)
CGLINT_VEC(short, short)
CGLINT_VEC(unsigned short, ushort)
CGLINT_VEC(int, int)
CGLINT_VEC(unsigned int, uint)
CGLINT_VEC(long, long)
CGLINT_VEC(unsigned long, ulong)
CGLINT_VEC(long long, longlong)
CGLINT_VEC(unsigned long long, ulonglong)
CGLINT_VEC(float, float)
CGLINT_VEC(double, double)
#undef CGLINT_VEC

#ifdef __cplusplus
struct dim3 {
    unsigned int x, y, z;
    constexpr __host__ __device__ dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    constexpr __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr __host__ __device__ operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif

static __inline__ __host__ __device__ float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
static __inline__ __host__ __device__ float3 make_float3(float x, float y, float z) { float3 v = {x, y, z}; return v; }
static __inline__ __host__ __device__ float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }
static __inline__ __host__ __device__ int2 make_int2(int x, int y) { int2 v = {x, y}; return v; }
static __inline__ __host__ __device__ int3 make_int3(int x, int y, int z) { int3 v = {x, y, z}; return v; }
static __inline__ __host__ __device__ int4 make_int4(int x, int y, int z, int w) { int4 v = {x, y, z, w}; return v; }
static __inline__ __host__ __device__ uint3 make_uint3(unsigned x, unsigned y, unsigned z) { uint3 v = {x, y, z}; return v; }
static __inline__ __host__ __device__ double2 make_double2(double x, double y) { double2 v = {x, y}; return v; }

/* ---- built-in variables and device functions (declared only) --------------- */
extern __device__ const uint3 threadIdx;
extern __device__ const uint3 blockIdx;
extern __device__ const dim3 blockDim;
extern __device__ const dim3 gridDim;
extern __device__ const int warpSize;
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned mask CGLINT_DEFAULT(0xffffffffu));
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ long long clock64(void);
__device__ unsigned __activemask(void);
__device__ unsigned __ballot_sync(unsigned mask, int pred);
__device__ int __any_sync(unsigned mask, int pred);
__device__ int __all_sync(unsigned mask, int pred);
__device__ int __popc(unsigned);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __fdividef(float, float);
__device__ float __saturatef(float);
#ifdef __cplusplus
#define CGLINT_ATOMICS(T) \
    __device__ T atomicAdd(T *addr, T val); \
    __device__ T atomicSub(T *addr, T val); \
    __device__ T atomicExch(T *addr, T val); \
    __device__ T atomicMin(T *addr, T val); \
    __device__ T atomicMax(T *addr, T val); \
    __device__ T atomicCAS(T *addr, T cmp, T val); \
    __device__ T atomicAnd(T *addr, T val); \
    __device__ T atomicOr(T *addr, T val); \
    __device__ T atomicXor(T *addr, T val);
CGLINT_ATOMICS(int)
CGLINT_ATOMICS(unsigned int)
CGLINT_ATOMICS(unsigned long long)
#undef CGLINT_ATOMICS
__device__ float atomicAdd(float *addr, float val);
__device__ double atomicAdd(double *addr, double val);
__device__ float atomicExch(float *addr, float val);
#define CGLINT_SHFL(T) \
    __device__ T __shfl_sync(unsigned mask, T v, int src, int width = 32); \
    __device__ T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32); \
    __device__ T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32); \
    __device__ T __shfl_xor_sync(unsigned mask, T v, int m, int width = 32); \
    __device__ T __ldg(const T *p);
CGLINT_SHFL(int)
CGLINT_SHFL(unsigned int)
CGLINT_SHFL(long long)
CGLINT_SHFL(unsigned long long)
CGLINT_SHFL(float)
CGLINT_SHFL(double)
#undef CGLINT_SHFL
#endif

/* ---- handles ---------------------------------------------------------------- */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct CUuserObject_st *cudaUserObject_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUlib_st *cudaLibrary_t;
typedef unsigned long long cudaGraphConditionalHandle;
typedef void (*cudaHostFn_t)(void *userData);

#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceMapHost 0x08
#define cudaCpuDeviceId (-1)
#define cudaInvalidDeviceId (-2)

/* ---- enums ------------------------------------------------------------------ */
typedef enum cudaError {
    cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3, cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9, cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400, cudaErrorNotReady = 600,
    cudaErrorStreamCaptureUnsupported = 900, cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureMerge = 902, cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904, cudaErrorStreamCaptureIsolation = 905,
    cudaErrorStreamCaptureImplicit = 906, cudaErrorCapturedEvent = 907,
    cudaErrorStreamCaptureWrongThread = 908, cudaErrorUnknown = 999
} cudaError_t;
typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
} cudaMemcpyKind;
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2
};
enum cudaStreamUpdateCaptureDependenciesFlags {
    cudaStreamAddCaptureDependencies = 0, cudaStreamSetCaptureDependencies = 1
};
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10,
    cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 16,
    cudaFuncAttributeMax
};
enum cudaFuncCache {
    cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3
};
enum cudaGraphInstantiateFlags {
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
    cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8
};
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrWarpSize = 10,
    cudaDevAttrMultiProcessorCount = 16, cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0, cudaGraphNodeTypeMemcpy = 1, cudaGraphNodeTypeMemset = 2,
    cudaGraphNodeTypeHost = 3, cudaGraphNodeTypeGraph = 4, cudaGraphNodeTypeEmpty = 5
};
enum cudaGraphExecUpdateResult { cudaGraphExecUpdateSuccess = 0, cudaGraphExecUpdateError = 1 };
typedef struct cudaGraphExecUpdateResultInfo_st {
    enum cudaGraphExecUpdateResult result;
    void *errorNode, *errorFromNode;
} cudaGraphExecUpdateResultInfo;
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1,
                      cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };

/* ---- structs ------------------------------------------------------------------ */
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin;
    int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
    int major, minor, multiProcessorCount, concurrentKernels, asyncEngineCount;
    int unifiedAddressing, managedMemory, pageableMemoryAccess, cooperativeLaunch;
    int maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor, l2CacheSize;
    size_t memPitch, totalConstMem, textureAlignment;
    int pciBusID, pciDeviceID, pciDomainID, integrated, canMapHostMemory;
    int memoryBusWidth, computeMode, deviceOverlap;
};
struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, maxDynamicSharedSizeBytes;
};
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
static __inline__ __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{ struct cudaPitchedPtr s; s.ptr = d; s.pitch = p; s.xsize = xsz; s.ysize = ysz; return s; }
static __inline__ __host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{ struct cudaPos p; p.x = x; p.y = y; p.z = z; return p; }
static __inline__ __host__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{ struct cudaExtent e; e.width = w; e.height = h; e.depth = d; return e; }
struct cudaMemcpy3DParms {
    cudaArray_t srcArray; struct cudaPos srcPos; struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray; struct cudaPos dstPos; struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent; enum cudaMemcpyKind kind;
};
struct cudaKernelNodeParams {
    void *func; dim3 gridDim; dim3 blockDim; unsigned int sharedMemBytes;
    void **kernelParams; void **extra;
};
struct cudaMemsetParams {
    void *dst; size_t pitch; unsigned int value, elementSize; size_t width, height;
};
struct cudaHostNodeParams { cudaHostFn_t fn; void *userData; };
struct cudaChannelFormatDesc { int x, y, z, w, f; };
struct cudaPointerAttributes { enum cudaMemoryType type; int device; void *devicePointer, *hostPointer; };
struct cudaMemLocation { int type; int id; };
struct cudaGraphEdgeData { unsigned char from_port, to_port, type, reserved[5]; };
typedef struct cudaLaunchAttribute_st { int id; char val[64]; } cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
    dim3 gridDim, blockDim; size_t dynamicSmemBytes; cudaStream_t stream;
    cudaLaunchAttribute *attrs; unsigned int numAttrs;
} cudaLaunchConfig_t;
typedef struct cudaGraphInstantiateParams_st {
    unsigned long long flags; cudaStream_t uploadStream; cudaGraphNode_t errNode_out; int result_out;
} cudaGraphInstantiateParams;

/* ---- the runtime API ----------------------------------------------------------- */
#define CGLINT_API CGLINT_EXTERN_C __host__ cudaError_t
/* errors and devices */
CGLINT_EXTERN_C __host__ __device__ cudaError_t cudaGetLastError(void);
CGLINT_EXTERN_C __host__ __device__ cudaError_t cudaPeekAtLastError(void);
CGLINT_EXTERN_C __host__ __device__ const char *cudaGetErrorString(cudaError_t error);
CGLINT_EXTERN_C __host__ __device__ const char *cudaGetErrorName(cudaError_t error);
CGLINT_API cudaGetDeviceCount(int *count);
CGLINT_API cudaGetDevice(int *device);
CGLINT_API cudaSetDevice(int device);
CGLINT_API cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
CGLINT_API cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
CGLINT_API cudaDeviceReset(void);
CGLINT_API cudaDeviceSynchronize(void);
CGLINT_API cudaThreadSynchronize(void);
CGLINT_API cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
CGLINT_API cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
CGLINT_API cudaSetDeviceFlags(unsigned int flags);
CGLINT_API cudaDeviceCanAccessPeer(int *can, int device, int peer);
CGLINT_API cudaDeviceEnablePeerAccess(int peer, unsigned int flags);
CGLINT_API cudaDriverGetVersion(int *version);
CGLINT_API cudaRuntimeGetVersion(int *version);
CGLINT_API cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
CGLINT_API cudaPointerGetAttributes(struct cudaPointerAttributes *attrs, const void *ptr);
/* streams */
CGLINT_API cudaStreamCreate(cudaStream_t *stream);
CGLINT_API cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
CGLINT_API cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
CGLINT_API cudaStreamDestroy(cudaStream_t stream);
CGLINT_API cudaStreamSynchronize(cudaStream_t stream);
CGLINT_API cudaStreamQuery(cudaStream_t stream);
CGLINT_API cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags CGLINT_DEFAULT(0));
CGLINT_API cudaStreamAddCallback(cudaStream_t stream, void (*cb)(cudaStream_t, cudaError_t, void *), void *data, unsigned int flags);
CGLINT_API cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);
CGLINT_API cudaStreamGetPriority(cudaStream_t stream, int *priority);
CGLINT_API cudaStreamAttachMemAsync(cudaStream_t stream, void *ptr, size_t length CGLINT_DEFAULT(0), unsigned int flags CGLINT_DEFAULT(cudaMemAttachGlobal));
CGLINT_API cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
/* stream capture */
CGLINT_API cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
CGLINT_API cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *deps, const struct cudaGraphEdgeData *edges, size_t ndeps, enum cudaStreamCaptureMode mode);
CGLINT_API cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
CGLINT_API cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status);
CGLINT_API cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *status, unsigned long long *id CGLINT_DEFAULT(0), cudaGraph_t *graph CGLINT_DEFAULT(0), const cudaGraphNode_t **deps CGLINT_DEFAULT(0), const struct cudaGraphEdgeData **edges CGLINT_DEFAULT(0), size_t *ndeps CGLINT_DEFAULT(0));
CGLINT_API cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *deps, size_t n, unsigned int flags CGLINT_DEFAULT(0));
CGLINT_API cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
/* events */
CGLINT_API cudaEventCreate(cudaEvent_t *event);
CGLINT_API cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
CGLINT_API cudaEventDestroy(cudaEvent_t event);
CGLINT_API cudaEventRecord(cudaEvent_t event, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream CGLINT_DEFAULT(0), unsigned int flags CGLINT_DEFAULT(0));
CGLINT_API cudaEventSynchronize(cudaEvent_t event);
CGLINT_API cudaEventQuery(cudaEvent_t event);
CGLINT_API cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
/* memory */
CGLINT_API cudaMalloc(void **ptr, size_t size);
CGLINT_API cudaFree(void *ptr);
CGLINT_API cudaMallocHost(void **ptr, size_t size);
CGLINT_API cudaFreeHost(void *ptr);
CGLINT_API cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
CGLINT_API cudaHostRegister(void *ptr, size_t size, unsigned int flags);
CGLINT_API cudaHostUnregister(void *ptr);
CGLINT_API cudaHostGetDevicePointer(void **dptr, void *hptr, unsigned int flags);
CGLINT_API cudaMallocManaged(void **ptr, size_t size, unsigned int flags CGLINT_DEFAULT(cudaMemAttachGlobal));
CGLINT_API cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
CGLINT_API cudaMalloc3D(struct cudaPitchedPtr *ptr, struct cudaExtent extent);
CGLINT_API cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height CGLINT_DEFAULT(0), unsigned int flags CGLINT_DEFAULT(0));
CGLINT_API cudaFreeArray(cudaArray_t array);
CGLINT_API cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream);
CGLINT_API cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream);
CGLINT_API cudaFreeAsync(void *ptr, cudaStream_t stream);
CGLINT_API cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
CGLINT_API cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
CGLINT_API cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
CGLINT_API cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
CGLINT_API cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset CGLINT_DEFAULT(0), enum cudaMemcpyKind kind CGLINT_DEFAULT(cudaMemcpyHostToDevice));
CGLINT_API cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset CGLINT_DEFAULT(0), enum cudaMemcpyKind kind CGLINT_DEFAULT(cudaMemcpyDeviceToHost));
CGLINT_API cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
CGLINT_API cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
CGLINT_API cudaMemset(void *ptr, int value, size_t count);
CGLINT_API cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height);
CGLINT_API cudaMemset2DAsync(void *ptr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemset3D(struct cudaPitchedPtr ptr, int value, struct cudaExtent extent);
CGLINT_API cudaMemset3DAsync(struct cudaPitchedPtr ptr, int value, struct cudaExtent extent, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaMemPrefetchAsync(const void *ptr, size_t count, struct cudaMemLocation location, unsigned int flags, cudaStream_t stream CGLINT_DEFAULT(0));
CGLINT_API cudaGetSymbolAddress(void **dptr, const void *symbol);
CGLINT_API cudaGetSymbolSize(size_t *size, const void *symbol);
CGLINT_API cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device);
/* execution */
CGLINT_API cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t stream);
CGLINT_API cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t stream);
CGLINT_API cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
CGLINT_API cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *data);
CGLINT_API cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
CGLINT_API cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
CGLINT_API cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config);
CGLINT_API cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func, int blockSize, size_t smem);
CGLINT_EXTERN_C __host__ unsigned cudaConfigureCall(dim3 grid, dim3 block, size_t smem CGLINT_DEFAULT(0), cudaStream_t stream CGLINT_DEFAULT(0));
/* graphs */
CGLINT_API cudaGraphCreate(cudaGraph_t *graph, unsigned int flags);
CGLINT_API cudaGraphDestroy(cudaGraph_t graph);
CGLINT_API cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags CGLINT_DEFAULT(0));
CGLINT_API cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags CGLINT_DEFAULT(0));
CGLINT_API cudaGraphInstantiateWithParams(cudaGraphExec_t *exec, cudaGraph_t graph, cudaGraphInstantiateParams *params);
CGLINT_API cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
CGLINT_API cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
CGLINT_API cudaGraphExecDestroy(cudaGraphExec_t exec);
CGLINT_API cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, void *result);
CGLINT_API cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps, const struct cudaKernelNodeParams *params);
CGLINT_API cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
CGLINT_API cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps, const struct cudaMemsetParams *params);
CGLINT_API cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps, const struct cudaHostNodeParams *params);
CGLINT_API cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps);
CGLINT_API cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps, cudaGraph_t child);
CGLINT_API cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t n);
CGLINT_API cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *n);
CGLINT_API cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *params);
CGLINT_API cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *params);
CGLINT_API cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const struct cudaKernelNodeParams *params);
CGLINT_API cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags);
CGLINT_API cudaGraphClone(cudaGraph_t *clone, cudaGraph_t original);
CGLINT_API cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps, const struct cudaMemcpy3DParms *params);
CGLINT_API cudaGraphAddEventRecordNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t event);
CGLINT_API cudaGraphAddEventWaitNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t event);
CGLINT_API cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *type);
CGLINT_API cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *n);
#undef CGLINT_API

#ifdef __cplusplus
/* the C++ convenience overloads of the runtime (a kernel passed by name) */
template <class T> static __inline__ __host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value)
{ return ::cudaFuncSetAttribute((const void *)entry, attr, value); }
template <class T> static __inline__ __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry)
{ return ::cudaFuncGetAttributes(attr, (const void *)entry); }
template <class T> static __inline__ __host__ cudaError_t cudaLaunchKernel(T *func, dim3 grid, dim3 block, void **args, size_t smem = 0, cudaStream_t stream = 0)
{ return ::cudaLaunchKernel((const void *)func, grid, block, args, smem, stream); }
template <class T> static __inline__ __host__ cudaError_t cudaMalloc(T **ptr, size_t size)
{ return ::cudaMalloc((void **)(void *)ptr, size); }
template <class T> static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0)
{ (void)flags; return ::cudaMallocHost((void **)(void *)ptr, size); }
template <class T> static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{ return ::cudaHostAlloc((void **)(void *)ptr, size, flags); }
template <class T> static __inline__ __host__ cudaError_t cudaMallocManaged(T **ptr, size_t size, unsigned int flags = cudaMemAttachGlobal)
{ return ::cudaMallocManaged((void **)(void *)ptr, size, flags); }
template <class T> static __inline__ __host__ cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height)
{ return ::cudaMallocPitch((void **)(void *)ptr, pitch, width, height); }
template <class T> static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream)
{ return ::cudaMallocAsync((void **)(void *)ptr, size, stream); }
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{ return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind); }
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{ return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind); }
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0)
{ return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream); }
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGrid, int *blockSize, T func, size_t smem = 0, int limit = 0)
{ (void)func; (void)smem; (void)limit; *minGrid = 1; *blockSize = 256; return cudaSuccess; }
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* device-side overloads of the C library that kernels call (printf, malloc,
 * math), as internal device functions the way clang's own CUDA wrapper
 * declares them, so that kernels parse; only declared, never defined */
#ifdef __cplusplus
extern "C" {
#endif
__device__ int printf(const char *fmt, ...);
__device__ void *malloc(size_t n);
__device__ void free(void *p);
__device__ void __assertfail(const char *msg, const char *file, unsigned line, const char *fn, size_t sz);
#ifdef __cplusplus
}
#define CGLINT_DEV static __device__ __inline__
#define CGLINT_MATH1(fn) CGLINT_DEV float fn##f(float); CGLINT_DEV double fn(double);
CGLINT_MATH1(sqrt) CGLINT_MATH1(exp) CGLINT_MATH1(exp2) CGLINT_MATH1(expm1) CGLINT_MATH1(log)
CGLINT_MATH1(log2) CGLINT_MATH1(log10) CGLINT_MATH1(log1p) CGLINT_MATH1(sin) CGLINT_MATH1(cos)
CGLINT_MATH1(tan) CGLINT_MATH1(asin) CGLINT_MATH1(acos) CGLINT_MATH1(atan) CGLINT_MATH1(sinh)
CGLINT_MATH1(cosh) CGLINT_MATH1(tanh) CGLINT_MATH1(fabs) CGLINT_MATH1(floor) CGLINT_MATH1(ceil)
CGLINT_MATH1(round) CGLINT_MATH1(trunc) CGLINT_MATH1(erf) CGLINT_MATH1(erfc) CGLINT_MATH1(cbrt)
CGLINT_MATH1(rsqrt) CGLINT_MATH1(rint)
#undef CGLINT_MATH1
#define CGLINT_MATH2(fn) CGLINT_DEV float fn##f(float, float); CGLINT_DEV double fn(double, double);
CGLINT_MATH2(pow) CGLINT_MATH2(fmax) CGLINT_MATH2(fmin) CGLINT_MATH2(atan2) CGLINT_MATH2(fmod)
CGLINT_MATH2(hypot) CGLINT_MATH2(copysign)
#undef CGLINT_MATH2
CGLINT_DEV float fmaf(float, float, float);
CGLINT_DEV double fma(double, double, double);
CGLINT_DEV void sincosf(float, float *, float *);
CGLINT_DEV int abs(int);
CGLINT_DEV float max(float, float);
CGLINT_DEV float min(float, float);
CGLINT_DEV double max(double, double);
CGLINT_DEV double min(double, double);
CGLINT_DEV int max(int, int);
CGLINT_DEV int min(int, int);
CGLINT_DEV unsigned max(unsigned, unsigned);
CGLINT_DEV unsigned min(unsigned, unsigned);
#undef CGLINT_DEV
#endif
#endif
