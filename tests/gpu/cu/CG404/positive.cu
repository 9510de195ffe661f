// CG404: a capture begun on the legacy default stream: refused.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaError_t b = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);  // expect: CG404
    printf("begin capture: %s\n", cudaGetErrorName(b));
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t end = cudaStreamEndCapture(0, &g);
    return replay(g, end, s);
}
