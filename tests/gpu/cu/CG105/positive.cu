// CG105: cudaStreamQuery on the capturing stream, during the capture.
#include "../gpu_common.h"

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    cudaError_t q = cudaStreamQuery(s);  // expect: CG105
    cudaError_t end = cudaStreamEndCapture(s, &g);
    printf("query: %s\n", cudaGetErrorName(q));
    return replay(g, end, s);
}
