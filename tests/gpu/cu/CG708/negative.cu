// CG708 negative: a thread-local capture leaves other threads' CUDA calls
// alone.
#include "../gpu_common.h"
#include <thread>

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    std::thread loader([] { float *p = nullptr; cudaMalloc(&p, 4096); cudaFree(p); });
    loader.join();
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
