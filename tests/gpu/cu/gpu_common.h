// gpu_common.h - shared by the CUDA C programs of the GPU suite
// (tests/gpu/cu/<RULE>/{positive,negative}.cu): a kernel, the setup before a
// capture, and the replay after it.  Nothing here runs during a capture.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define N 1024

__global__ void add_one(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}

/* a device buffer, a non-blocking stream, and one eager launch (warm-up) */
static float *setup(cudaStream_t *s)
{
    float *x = nullptr;
    cudaMalloc(&x, N * sizeof(float));
    cudaMemset(x, 0, N * sizeof(float));
    cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
    add_one<<<N / 256, 256, 0, *s>>>(x, N);
    cudaStreamSynchronize(*s);
    return x;
}

/* Instantiate the captured graph and replay it three times.  Exit status: 0
 * when the capture, the instantiation and the replays all worked. */
static int replay(cudaGraph_t g, cudaError_t end, cudaStream_t s)
{
    printf("end capture: %s\n", cudaGetErrorName(end));
    if (end != cudaSuccess || !g) return 1;
    cudaGraphExec_t exec;
    cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
    printf("instantiate: %s\n", cudaGetErrorName(e));
    if (e != cudaSuccess) return 1;
    for (int i = 0; i < 3 && e == cudaSuccess; i++) e = cudaGraphLaunch(exec, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    printf("replays: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
