// CG104 negative: the synchronization waits until the capture has ended.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    cudaStreamSynchronize(s);
    return replay(g, end, s);
}
