// kiln::gemm::detail::device_resident_clusters — how many clusters of a given size the current
// device keeps resident at once, for the planners that must fit a persistent grid of clusters
// in one wave (short_rows.cuh's 4 x 2 two-tile clusters).
//
// A GPC holds a cluster whole, so clusters of 8 CTAs at one CTA per SM leave each GPC's
// remainder of SMs idle: an H200's 132 SMs keep 15 of them, not 16 (bench/NOTES.md v42). The
// count depends on the GPCs, not the kernel, so a probe with the sm90 kernel's footprint (two
// consumer warpgroups and a producer, shared memory past half an SM's: one CTA per SM) asks the
// occupancy API once per size.
#include <array>
#include <cuda_runtime.h>
#include "dispatch.h"
#include "kiln/gemm/cluster_residency.cuh"

namespace kiln::gemm::detail {

namespace {

__global__ void cluster_probe_kernel() {}

constexpr int kProbeThreads = 384;
constexpr int kProbeSmemBytes = 200 * 1024;

/// Resident clusters of `size` CTAs of the probe, or 0 where the device cannot say.
int query_resident_clusters(int size) {
    if (cudaFuncSetAttribute(cluster_probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             kProbeSmemBytes) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return resident_clusters(cluster_probe_kernel, size, kProbeThreads, kProbeSmemBytes);
}

}  // namespace

int device_resident_clusters(int size) {
    if (size < 1 || size > kMaxPortableClusterSize) return 0;
    static const std::array<int, kMaxPortableClusterSize + 1> counts = [] {
        std::array<int, kMaxPortableClusterSize + 1> c{};
        for (int s = 1; s <= kMaxPortableClusterSize; ++s) c[s] = query_resident_clusters(s);
        return c;
    }();
    return counts[size];
}

}  // namespace kiln::gemm::detail
