// CG002 negative: the same copy from a valid buffer.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    float *y = nullptr;
    cudaMalloc(&y, N * sizeof(float));
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaMemcpyAsync(y, x, N * sizeof(float), cudaMemcpyDeviceToDevice, s);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
