// CG002: a call that fails during the capture for a reason no rule names
// (a copy from a null pointer): the run reports it at its line.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t copy = cudaMemcpyAsync(x, nullptr, N * sizeof(float), cudaMemcpyDeviceToDevice, s);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    printf("copy: %s\n", cudaGetErrorName(copy));
    replay(g, end, s);
    return 0;
}
