// Two hazards in one CUDA C capture, for `cglint run` on a native program
// (tests/gpu/run.sh builds it with nvcc -g and checks what the CUPTI library
// reports, mapped to these lines by addr2line):
//  - a kernel launched during the capture on a stream that is not part of it:
//    no error, it runs once, eagerly, and is missing from the graph (CG403);
//  - cudaStreamSynchronize on the capturing stream: refused with
//    cudaErrorStreamCaptureUnsupported, and the capture is invalidated (CG104).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add_one(float *x) { x[threadIdx.x] += 1.0f; }

int main()
{
    float *x;
    cudaStream_t s, other;
    cudaMalloc(&x, 256 * sizeof(float));
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
    add_one<<<1, 256, 0, s>>>(x);
    cudaStreamSynchronize(s);

    cudaGraph_t graph;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<1, 256, 0, s>>>(x);
    add_one<<<1, 256, 0, other>>>(x);                  // HAZARD-EAGER
    cudaError_t e = cudaStreamSynchronize(s);          // HAZARD-SYNC
    cudaError_t end = cudaStreamEndCapture(s, &graph);
    printf("sync: %s; end capture: %s\n", cudaGetErrorName(e), cudaGetErrorName(end));
    cudaStreamSynchronize(other);
    return 0;
}
