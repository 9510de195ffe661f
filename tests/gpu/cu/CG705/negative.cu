// CG705 negative: captured once, replayed on every iteration.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    if (end != cudaSuccess) return 1;
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) return 1;
    for (int step = 0; step < 3; ++step) cudaGraphLaunch(exec, s);
    return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 1;
}
