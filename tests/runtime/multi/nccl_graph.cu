// nccl_graph.cu - NCCL's all-reduce captured in a CUDA graph (as nccl-tests'
// graph mode does), one process per rank.  The launcher sets RANK and
// WORLD_SIZE and NCCL_ID_FILE (a path both ranks can read: rank 0 writes the
// ncclUniqueId there, the others wait for it).
//   nccl_graph clean   capture scale + ncclAllReduce, replay 10 times: exit 0
//   nccl_graph sync    cudaStreamSynchronize inside the capture (CG104): the
//                      capture fails on every rank at that line
// Build: nvcc -g -o nccl_graph nccl_graph.cu -I$NCCL/include -L$NCCL/lib -l:libnccl.so.2
#include <cuda_runtime.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "rank %d: %s:%d: %s\n", rank, __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)
#define NK(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { \
    fprintf(stderr, "rank %d: %s:%d: %s\n", rank, __FILE__, __LINE__, ncclGetErrorString(r_)); return 1; } } while (0)

__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

static int rank = 0;

static int share_id(ncclUniqueId *id, int world, const char *file)
{
    if (rank == 0) {
        NK(ncclGetUniqueId(id));
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", file);
        FILE *f = fopen(tmp, "wb");
        if (!f || fwrite(id, sizeof *id, 1, f) != 1) { perror(tmp); return 1; }
        fclose(f);
        rename(tmp, file);
        return 0;
    }
    (void)world;
    for (int i = 0; i < 600; i++) {   /* 60 s */
        FILE *f = fopen(file, "rb");
        if (f) {
            size_t ok = fread(id, sizeof *id, 1, f);
            fclose(f);
            if (ok == 1) return 0;
        }
        usleep(100000);
    }
    fprintf(stderr, "rank %d: no id in %s\n", rank, file);
    return 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clean";
    rank = getenv("RANK") ? atoi(getenv("RANK")) : 0;
    int world = getenv("WORLD_SIZE") ? atoi(getenv("WORLD_SIZE")) : 1;
    const char *file = getenv("NCCL_ID_FILE") ? getenv("NCCL_ID_FILE") : "/tmp/nccl_graph.id";
    ncclUniqueId id;
    if (share_id(&id, world, file)) return 1;
    int ndev = 0;
    CK(cudaGetDeviceCount(&ndev));
    CK(cudaSetDevice(rank % ndev));
    ncclComm_t comm;
    NK(ncclCommInitRank(&comm, world, id, rank));
    const int n = 1 << 20;
    float *buf;
    CK(cudaMalloc(&buf, n * sizeof(float)));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float one = 1.0f;
    CK(cudaMemcpy(buf, &one, sizeof one, cudaMemcpyHostToDevice));
    CK(cudaMemset(buf + 1, 0, (n - 1) * sizeof(float)));
    /* warm-up: the communicator connects before the capture */
    NK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(buf, &one, sizeof one, cudaMemcpyHostToDevice));

    cudaGraph_t graph;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    scale<<<(n + 255) / 256, 256, 0, s>>>(buf, 0.5f, n);
    NK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s));
    cudaError_t sync = cudaSuccess;
    if (strcmp(mode, "sync") == 0)
        sync = cudaStreamSynchronize(s);   /* CG104: not allowed while capturing */
    cudaError_t end = cudaStreamEndCapture(s, &graph);
    if (sync != cudaSuccess)
        fprintf(stderr, "rank %d: cudaStreamSynchronize in the capture: %s\n", rank, cudaGetErrorString(sync));
    if (end != cudaSuccess) {
        fprintf(stderr, "rank %d: capture failed: %s\n", rank, cudaGetErrorString(end));
        ncclCommAbort(comm);
        return 3;
    }
    cudaGraphExec_t exec;
    CK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < 10; i++) CK(cudaGraphLaunch(exec, s));
    CK(cudaStreamSynchronize(s));
    float got;
    CK(cudaMemcpy(&got, buf, sizeof got, cudaMemcpyDeviceToHost));
    /* each replay: x = world * x / 2 */
    float want = 1.0f;
    for (int i = 0; i < 10; i++) want = want * 0.5f * (float)world;
    printf("rank %d of %d: %s, buf[0] = %g (want %g)\n", rank, world, got == want ? "ok" : "WRONG", got, want);
    /* the graph holds NCCL resources: destroy it before the communicator */
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    NK(ncclCommDestroy(comm));
    CK(cudaFree(buf));
    return got == want ? 0 : 2;
}
