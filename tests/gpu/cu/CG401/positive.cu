// CG401: a launch with no stream (the legacy default stream) while a
// non-blocking stream captures: no error, it runs once, eagerly.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    add_one<<<N / 256, 256>>>(x, N);  // expect: CG401
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
