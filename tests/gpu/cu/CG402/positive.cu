// CG402: a side stream forked into the capture and never joined back:
// cudaStreamEndCapture fails with cudaErrorStreamCaptureUnjoined.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s, side;
    float *x = setup(&s);
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaEvent_t fork;
    cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaEventRecord(fork, s);
    cudaStreamWaitEvent(side, fork, 0);  // expect: CG402
    add_one<<<N / 256, 256, 0, side>>>(x, N);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
