// CG803: a grid of zero blocks: invalid configuration, and the capture is
// invalidated.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<0, 256, 0, s>>>(x, N);  // expect: CG803
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
