// CG802: 100 KiB of dynamic shared memory without raising the kernel's limit
// first: the launch fails and the capture is invalidated.
#include "../gpu_common.h"

/* its own kernel: an attribute set on a kernel anywhere in the analysed
 * code counts for every launch of it */
__global__ void rotate_pos(float *x)
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
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    rotate_pos<<<1, 256, 100 * 1024, s>>>(x);  // expect: CG802
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
