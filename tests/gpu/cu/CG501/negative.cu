// CG501 negative: the buffer is allocated before the capture and freed after
// the replays.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    float *tmp = nullptr;
    cudaMalloc(&tmp, N * sizeof(float));
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(tmp, N);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    int rc = replay(g, end, s);
    cudaFree(tmp);
    (void)x;
    return rc;
}
