// CG802 negative: cudaFuncSetAttribute raises the limit before the capture.
#include "../gpu_common.h"

/* its own kernel: an attribute set on a kernel anywhere in the analysed
 * code counts for every launch of it */
__global__ void rotate_neg(float *x)
{
    extern __shared__ float tile[];
    tile[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaFuncSetAttribute(rotate_neg, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    rotate_neg<<<1, 256, 100 * 1024, s>>>(x);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
