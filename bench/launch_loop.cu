// A CUDA C launch loop for bench/runtime_overhead.sh: N launches of a tiny
// kernel on one stream, then one graph of 20 such launches captured and
// launched N/20 times.  Prints one JSON line: launch_us (per kernel launch,
// eager: the fastest of 5 blocks), graph_us (per graph launch), capture_ms,
// launch_after_us (eager again, after the capture).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void tiny(float *x) { x[threadIdx.x] += 1.0f; }

#define CK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)

/* Per eager launch: the fastest of 5 blocks of n/5 launches (each block
 * synchronised): the noise of one long loop (clocks, other work on the
 * machine) was larger than the harness's cost in earlier runs. */
static double eager_us(float *x, cudaStream_t s, int n)
{
    int block = n / 5 > 0 ? n / 5 : 1;
    double best = 1e30;
    for (int b = 0; b < 5; b++) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < block; i++) tiny<<<1, 256, 0, s>>>(x);
        if (cudaStreamSynchronize(s) != cudaSuccess) return -1;
        double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / block;
        if (us < best) best = us;
    }
    return best;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    float *x;
    cudaStream_t s;
    CK(cudaMalloc(&x, 256 * sizeof(float)));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int i = 0; i < 100; i++) tiny<<<1, 256, 0, s>>>(x);
    CK(cudaStreamSynchronize(s));
    double launch_us = eager_us(x, s, n);
    if (launch_us < 0) return 1;
    auto t0 = std::chrono::steady_clock::now();

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    t0 = std::chrono::steady_clock::now();
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < 20; i++) tiny<<<1, 256, 0, s>>>(x);
    CK(cudaStreamEndCapture(s, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    double capture_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (int i = 0; i < 10; i++) CK(cudaGraphLaunch(exec, s));
    CK(cudaStreamSynchronize(s));
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n / 20; i++) CK(cudaGraphLaunch(exec, s));
    CK(cudaStreamSynchronize(s));
    double graph_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / (n / 20);
    /* eager launches again, after a capture: the harness switched its
     * per-call callbacks on for the capture and off after it */
    double after_us = eager_us(x, s, n);
    printf("{\"launch_us\": %.4f, \"graph_us\": %.4f, \"capture_ms\": %.4f, \"launch_after_us\": %.4f, \"n\": %d}\n",
           launch_us, graph_us, capture_ms, after_us, n);
    return 0;
}
