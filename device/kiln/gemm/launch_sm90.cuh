// Host-side launcher for kiln::gemm::sm90::gemm_kernel: builds the TMA maps, picks the grid,
// raises the smem limit, launches. Returns cudaErrorInvalidValue when a TMA rule fails (the
// caller then takes the generic path).
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "kiln/gemm/kernel_sm90.cuh"

namespace kiln::gemm::sm90 {

template <class T>
inline CUtensorMapDataType tma_dtype() {
    if constexpr (std::is_same_v<T, __nv_bfloat16>) return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    else return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
}

/// True when (ptr, ld, batch stride) satisfy TMA's 16-byte rules for 16-bit elements.
inline bool tma_compatible(const void* p, int64_t ld, int64_t batch_stride, int batch) {
    return reinterpret_cast<uintptr_t>(p) % 16 == 0 && ld % 8 == 0 &&
           (batch <= 1 || batch_stride % 8 == 0);
}

template <class Cfg, class Epi>
cudaError_t launch(const typename Cfg::Element* a, int64_t lda, int64_t stride_a,
                   const typename Cfg::Element* b, int64_t ldb, int64_t stride_b,
                   typename Cfg::Out* d, int64_t ldd, int64_t stride_d, int M, int N, int K,
                   int batch, const Epi& epi, cudaStream_t stream, int group_m = 16) {
    using E = typename Cfg::Element;
    if (M <= 0 || N <= 0 || batch <= 0) return cudaSuccess;
    if (!tma_compatible(a, lda, stride_a, batch) || !tma_compatible(b, ldb, stride_b, batch))
        return cudaErrorInvalidValue;
    const int64_t sa = batch > 1 ? stride_a : lda * M;
    const int64_t sb = batch > 1 ? stride_b : ldb * N;
    const int Kd = std::max(K, 1);
    CUtensorMap ma, mb;
    const uint64_t dims_a[3] = {uint64_t(Kd), uint64_t(M), uint64_t(batch)};
    const uint64_t str_a[2] = {uint64_t(lda) * sizeof(E), uint64_t(sa) * sizeof(E)};
    const uint32_t box_a[3] = {Cfg::BK, Cfg::BM, 1};
    const uint64_t dims_b[3] = {uint64_t(Kd), uint64_t(N), uint64_t(batch)};
    const uint64_t str_b[2] = {uint64_t(ldb) * sizeof(E), uint64_t(sb) * sizeof(E)};
    const uint32_t box_b[3] = {Cfg::BK, Cfg::BRowsPerCta, 1};
    if (!dev::tma::make_tensor_map<3>(&ma, tma_dtype<E>(), a, dims_a, str_a, box_a, Cfg::Swizzle) ||
        !dev::tma::make_tensor_map<3>(&mb, tma_dtype<E>(), b, dims_b, str_b, box_b, Cfg::Swizzle))
        return cudaErrorInvalidValue;

    // KILN_GEMM_GROUP_M overrides the rasterization group (tuning experiments only).
    if (const char* g = std::getenv("KILN_GEMM_GROUP_M")) group_m = std::max(1, std::atoi(g));
    // The scheduler walks cluster tiles (ClusterM M-tiles each); see gemm_kernel.
    const int tiles_m = (M + Cfg::BM - 1) / Cfg::BM;
    TileScheduler sched{(tiles_m + Cfg::ClusterM - 1) / Cfg::ClusterM, (N + Cfg::BN - 1) / Cfg::BN,
                        batch, std::max(1, group_m / Cfg::ClusterM)};
    static const int sms = [] {
        int dev_id = 0, n = 0;
        cudaGetDevice(&dev_id);
        cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev_id);
        return n;
    }();
    auto kernel = gemm_kernel<Cfg, Epi>;
    static const cudaError_t attr = cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::SmemBytes);  // once per kernel
    if (attr != cudaSuccess) return attr;
    // A persistent grid must be co-resident. With clusters, GPCs with an odd number of free SMs
    // leave SMs unused, so fewer than sms/2 pairs fit: ask the occupancy API, or the extra
    // clusters would run as a second wave and double the time.
    static const int max_clusters = [&] {
        if (Cfg::ClusterM == 1) return sms;
        cudaLaunchConfig_t q{};
        q.gridDim = dim3(sms / Cfg::ClusterM * Cfg::ClusterM);
        q.blockDim = dim3(Cfg::Threads);
        q.dynamicSmemBytes = Cfg::SmemBytes;
        cudaLaunchAttribute a[1];
        a[0].id = cudaLaunchAttributeClusterDimension;
        a[0].val.clusterDim.x = Cfg::ClusterM;
        a[0].val.clusterDim.y = 1;
        a[0].val.clusterDim.z = 1;
        q.attrs = a;
        q.numAttrs = 1;
        int n = 0;
        if (cudaOccupancyMaxActiveClusters(&n, kernel, &q) != cudaSuccess || n < 1)
            n = sms / Cfg::ClusterM;
        return n;
    }();
    const int grid = std::min(max_clusters, sched.total()) * Cfg::ClusterM;
    if (std::getenv("KILN_GEMM_DEBUG"))
        std::fprintf(stderr, "kiln sm90: BN=%d stages=%d cluster=%d max_clusters=%d grid=%d tiles=%d\n",
                     Cfg::BN, Cfg::Stages, Cfg::ClusterM, max_clusters, grid, sched.total());
    Problem p{M, N, K, batch};
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(Cfg::Threads);
    cfg.dynamicSmemBytes = Cfg::SmemBytes;
    cfg.stream = stream;
    cudaLaunchAttribute attrs[1];
    attrs[0].id = cudaLaunchAttributeClusterDimension;
    attrs[0].val.clusterDim.x = Cfg::ClusterM;
    attrs[0].val.clusterDim.y = 1;
    attrs[0].val.clusterDim.z = 1;
    cfg.attrs = attrs;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, kernel, ma, mb, d, ldd, stride_d, p, sched, epi);
}

}  // namespace kiln::gemm::sm90
