// CG403 negative: the other stream joins the capture through an event
// first, and is joined back.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s, other;
    float *x = setup(&s);
    cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
    cudaEvent_t fork, join;
    cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaEventRecord(fork, s);
    cudaStreamWaitEvent(other, fork, 0);
    add_one<<<N / 256, 256, 0, other>>>(x, N);
    cudaEventRecord(join, other);
    cudaStreamWaitEvent(s, join, 0);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
