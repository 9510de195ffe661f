// CG705 negative: one capture site, one graph per bucket size (each with its
// own grid), each captured once and launched many times, captures and
// launches interleaved as a server warming up lazily would.
#include "../gpu_common.h"

static cudaGraphExec_t capture(cudaStream_t s, float *x, int blocks)
{
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<blocks, 256, 0, s>>>(x, blocks * 256);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess) return nullptr;
    cudaGraphExec_t exec = nullptr;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) return nullptr;
    return exec;
}

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraphExec_t graphs[4] = {nullptr, nullptr, nullptr, nullptr};
    for (int step = 0; step < 16; ++step) {
        int b = step % 4;
        if (!graphs[b]) graphs[b] = capture(s, x, 1 << b);
        if (!graphs[b] || cudaGraphLaunch(graphs[b], s) != cudaSuccess) return 1;
    }
    return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 1;
}
