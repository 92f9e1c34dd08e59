// kiln::gemm::resident_clusters — how many clusters of a kernel the current device keeps
// resident at once (host side).
// Why: a persistent grid of clusters must be co-resident, and a GPC holds a cluster whole, so
// GPCs whose free SMs are not a multiple of the cluster size leave SMs idle: an H200's 132 SMs
// keep 15 clusters of 8 CTAs, not 16, and the 16th ran as a second wave at half the speed
// (bench/NOTES.md v42). The launcher sizes its grid by it (launch_sm90.cuh); the planners ask it
// before they choose 8-CTA clusters (src/gemm/occupancy.cu).
#pragma once
#include <cuda_runtime.h>

namespace kiln::gemm {

/// Resident clusters of `cluster_size` CTAs of `kernel` launched with `threads` threads and
/// `smem_bytes` of dynamic shared memory each, or 0 where the occupancy API cannot say.
template <class Kernel>
int resident_clusters(Kernel* kernel, int cluster_size, int threads, int smem_bytes) {
    cudaLaunchConfig_t q{};
    q.gridDim = dim3(cluster_size);
    q.blockDim = dim3(threads);
    q.dynamicSmemBytes = smem_bytes;
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = cluster_size;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    q.attrs = a;
    q.numAttrs = 1;
    int n = 0;
    if (cudaOccupancyMaxActiveClusters(&n, kernel, &q) != cudaSuccess) {
        cudaGetLastError();  // the query's error is not the caller's
        return 0;
    }
    return n;
}

}  // namespace kiln::gemm
