// CG402 negative: the side stream's work is joined back before the end.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s, side;
    float *x = setup(&s);
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaEvent_t fork, join;
    cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaEventRecord(fork, s);
    cudaStreamWaitEvent(side, fork, 0);
    add_one<<<N / 256, 256, 0, side>>>(x, N);
    cudaEventRecord(join, side);
    cudaStreamWaitEvent(s, join, 0);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
