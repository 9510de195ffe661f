// CG705: the graph is captured again on every iteration of the loop that
// launches it.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    int rc = 0;
    for (int step = 0; step < 3; ++step) {
        cudaGraph_t g = nullptr;
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);  // expect: CG705
        add_one<<<N / 256, 256, 0, s>>>(x, N);
        cudaError_t end = cudaStreamEndCapture(s, &g);
        rc |= replay(g, end, s);
    }
    return rc;
}
