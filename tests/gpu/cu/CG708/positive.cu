// CG708: another thread calls cudaMalloc while a global-mode capture is open:
// refused in that thread, and the capture is invalidated.
#include "../gpu_common.h"
#include <thread>

int main()
{
    cudaStream_t s;
    float *x = setup(&s);
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<N / 256, 256, 0, s>>>(x, N);
    std::thread loader([] { float *p = nullptr; cudaMalloc(&p, 4096); });  // expect: CG708
    loader.join();
    cudaError_t end = cudaStreamEndCapture(s, &g);
    return replay(g, end, s);
}
