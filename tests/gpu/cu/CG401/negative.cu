// CG401 negative: both launches name the capturing stream.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
