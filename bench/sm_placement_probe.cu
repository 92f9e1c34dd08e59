// Where the hardware places the CTAs of a persistent cluster launch: prints, for one launch of
// 2-CTA clusters (one CTA per SM, as the library's 128 x 256 kernels) the SM of every blockIdx,
// and for launches of 16-CTA clusters the SMs each cluster took, which are one GPC's (a cluster
// never spans GPCs). bench/NOTES.md "v24" asks which workers share a GPC.
//   nvcc -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a bench/sm_placement_probe.cu -o probe
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr int kSmem = 200 * 1024;  // one CTA per SM

__global__ void record_sm(int* sm_of_block) {
    extern __shared__ char smem[];
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (threadIdx.x == 0) sm_of_block[blockIdx.y * gridDim.x + blockIdx.x] = int(sm);
    smem[threadIdx.x] = 0;
    // Stay resident long enough that every CTA is placed before any leaves.
    const long long until = clock64() + 2000000;
    while (clock64() < until) {
    }
}

bool check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    return false;
}

/// A launch of record_sm over `grid` in clusters of `cluster`; `attr` holds its one attribute.
cudaLaunchConfig_t cluster_launch(dim3 grid, dim3 cluster, cudaLaunchAttribute& attr) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = grid;
    cfg.blockDim = dim3(128);
    cfg.dynamicSmemBytes = kSmem;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster.x;
    attr.val.clusterDim.y = cluster.y;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    return cfg;
}

/// The SM of every block (x fastest) of a launch of grid `grid` in clusters of `cluster`;
/// empty on failure.
std::vector<int> place(dim3 grid, dim3 cluster) {
    const int blocks = int(grid.x * grid.y);
    int* d;
    if (!check(cudaMalloc(&d, sizeof(int) * blocks), "cudaMalloc")) return {};
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_launch(grid, cluster, attr);
    std::vector<int> out(blocks);
    if (check(cudaLaunchKernelEx(&cfg, record_sm, d), "launch") &&
        check(cudaDeviceSynchronize(), "sync"))
        check(cudaMemcpy(out.data(), d, sizeof(int) * blocks, cudaMemcpyDeviceToHost), "copy");
    else
        out.clear();
    cudaFree(d);
    return out;
}

/// How many clusters of `size` CTAs (one per SM) can be resident at once.
int max_clusters(int size) {
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_launch(dim3(size * 132), dim3(size, 1), attr);
    int n = 0;
    check(cudaOccupancyMaxActiveClusters(&n, record_sm, &cfg), "occupancy");
    return n;
}

}  // namespace

int main() {
    check(cudaFuncSetAttribute(record_sm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem),
          "smem attribute");
    check(cudaFuncSetAttribute(record_sm, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
          "non-portable clusters");
    for (int size : {2, 4, 8, 16}) std::printf("size %d: %d clusters resident\n", size,
                                               max_clusters(size));
    const int pairs = max_clusters(2);
    const std::vector<int> p = place(dim3(2 * pairs), dim3(2, 1));
    std::printf("pairs: blockIdx -> SM\n");
    for (size_t b = 0; b < p.size(); ++b) std::printf("%d%c", p[b], b % 16 == 15 ? '\n' : ' ');
    std::printf("\n");
    // A 2 x 66 grid in (1, 2) clusters, cuBLAS's launch of its 1x2-cluster kernels: which of
    // (x, y) share a TPC (SMs 2t, 2t + 1) and which a cluster.
    const std::vector<int> q = place(dim3(2, pairs), dim3(1, 2));
    std::printf("2 x %d grid, (1, 2) clusters: (x, y) -> SM\n", pairs);
    for (size_t b = 0; b < q.size(); ++b)
        std::printf("(%zu,%zu)%d%c", b % 2, b / 2, q[b], b % 8 == 7 ? '\n' : ' ');
    std::printf("\n");
    // Several launches of GPC-sized clusters: the SM sets they take are GPCs (or parts of one).
    for (int size : {16, 8}) {
        const int n = max_clusters(size);
        for (int rep = 0; rep < 2; ++rep) {
            const std::vector<int> g = place(dim3(size * n), dim3(size, 1));
            std::printf("clusters of %d, launch %d:\n", size, rep);
            for (int c = 0; c < int(g.size()) / size; ++c) {
                std::printf("  cluster %d:", c);
                for (int i = 0; i < size; ++i) std::printf(" %d", g[c * size + i]);
                std::printf("\n");
            }
        }
    }
    return 0;
}
