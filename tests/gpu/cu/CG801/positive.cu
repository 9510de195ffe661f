// CG801: a block of 2048 threads: the launch fails and the capture is
// invalidated.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<1, 2048, 0, s>>>(x, N);  // expect: CG801
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
