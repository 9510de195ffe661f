// CG501: cudaMalloc during a global-mode capture: refused, and the capture
// is invalidated.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    float *tmp = nullptr;
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaMalloc(&tmp, N * sizeof(float));  // expect: CG501
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
