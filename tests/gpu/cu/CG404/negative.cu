// CG404 negative: the capture is begun on a stream created for it.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
