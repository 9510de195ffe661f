// CG403: a launch on a stream that is not part of the capture: it runs once,
// eagerly, and is missing from the graph.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s, other;
    float *x = setup(&s);
    cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    add_one<<<N / 256, 256, 0, other>>>(x, N);  // expect: CG403
    cudaError_t end = cudaStreamEndCapture(s, &g);
    cudaStreamSynchronize(other);
    return replay(g, end, s);
}
