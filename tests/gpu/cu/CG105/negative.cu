// CG105 negative: the stream is queried after the capture.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    int rc = replay(g, end, s);
    printf("query: %s\n", cudaGetErrorName(cudaStreamQuery(s)));
    return rc;
}
