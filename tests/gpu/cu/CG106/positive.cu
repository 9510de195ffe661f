// CG106: a synchronous cudaMemset (the legacy stream, waits for the host)
// during the capture.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemset(x, 0, N * sizeof(float));  // expect: CG106
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
