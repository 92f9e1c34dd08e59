// kiln::dev::tma — TMA tensor maps (host) and bulk tensor copies (device), sm_90.
//
// Host: make_tensor_map() encodes a CUtensorMap through the driver entry point obtained from the
// runtime (no -lcuda needed). Device: load/store wrappers over cuda::ptx::cp_async_bulk_tensor.
// Pass the map as a `const __grid_constant__ CUtensorMap` kernel parameter and take its address.
// Under NVRTC (`__CUDACC_RTC__`) only the device side exists, with an opaque CUtensorMap.
// TMA rules enforced by make_tensor_map(): base 16-byte aligned, strides multiples of 16 bytes,
// box dims <= 256, inner box bytes <= swizzle span. Out-of-bounds box elements read as zero and
// are not written by stores, which is how the GEMM predicates ragged M, N and K.
#pragma once
#include <cuda/ptx>
#include "kiln/cstdint.cuh"
#include "kiln/swizzle.cuh"

#if defined(__CUDACC_RTC__)
// NVRTC cannot include <cuda.h> (a host header). Kernels only pass the map by value and take its
// address, so an opaque type of the driver's size and alignment (cuda.h: 16 x u64, 64-aligned)
// is all the device side needs; the host encodes the real one (cuTensorMapEncodeTiled).
struct alignas(64) CUtensorMap {
    unsigned long long opaque[16];
};
#else
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#endif

namespace kiln::dev::tma {

#if !defined(__CUDACC_RTC__)
/// Resolves cuTensorMapEncodeTiled once through the runtime (driver >= 12.0).
inline PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
    static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult q{};
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                             cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess)
            p = nullptr;
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    }();
    return fn;
}

inline CUtensorMapSwizzle to_cu(swizzle::Mode m) {
    switch (m) {
    case swizzle::Mode::B32: return CU_TENSOR_MAP_SWIZZLE_32B;
    case swizzle::Mode::B64: return CU_TENSOR_MAP_SWIZZLE_64B;
    case swizzle::Mode::B128: return CU_TENSOR_MAP_SWIZZLE_128B;
    default: return CU_TENSOR_MAP_SWIZZLE_NONE;
    }
}

/// Encodes a tiled tensor map of rank R (dims[0] is the contiguous one; strides_bytes has R-1
/// entries, for dims 1..R-1). Returns false (and leaves *map untouched) when a TMA rule fails.
template <int R>
inline bool make_tensor_map(CUtensorMap* map, CUtensorMapDataType dtype, const void* base,
                            const uint64_t (&dims)[R], const uint64_t (&strides_bytes)[R - 1],
                            const uint32_t (&box)[R], swizzle::Mode sw,
                            CUtensorMapL2promotion l2 = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
    static_assert(R >= 1 && R <= 5, "tiled tensor maps have rank 1..5");
    if (reinterpret_cast<uintptr_t>(base) % 16 != 0) return false;
    for (int i = 0; i < R - 1; ++i)
        if (strides_bytes[i] % 16 != 0) return false;
    for (int i = 0; i < R; ++i)
        if (box[i] == 0 || box[i] > 256) return false;
    auto fn = encode_fn();
    if (!fn) return false;
    uint32_t elem_strides[R];
    for (int i = 0; i < R; ++i) elem_strides[i] = 1;
    CUresult r = fn(map, dtype, R, const_cast<void*>(base), dims, strides_bytes, box, elem_strides,
                    CU_TENSOR_MAP_INTERLEAVE_NONE, to_cu(sw), l2,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS;
}
#endif

/// Hint the TMA unit to fetch the descriptor early (one thread, before the first copy).
__device__ __forceinline__ void prefetch_descriptor(const CUtensorMap* map) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

/// Global -> shared tile load, completing `bar` with the box's bytes (2D / 3D coordinates,
/// innermost first).
__device__ __forceinline__ void load(void* smem_dst, const CUtensorMap* map, uint64_t* bar,
                                     int32_t c0, int32_t c1) {
    const int32_t coords[2] = {c0, c1};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, coords, bar);
}
__device__ __forceinline__ void load(void* smem_dst, const CUtensorMap* map, uint64_t* bar,
                                     int32_t c0, int32_t c1, int32_t c2) {
    const int32_t coords[3] = {c0, c1, c2};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, coords, bar);
}

/// Multicast load: the box lands at the same smem offset (and completes the barrier at the same
/// offset) in every CTA of the cluster whose bit is set in `cta_mask` (sm_90a).
__device__ __forceinline__ void load_multicast(void* smem_dst, const CUtensorMap* map,
                                               uint64_t* bar, uint16_t cta_mask, int32_t c0,
                                               int32_t c1) {
    const int32_t coords[2] = {c0, c1};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, coords, bar, cta_mask);
}
__device__ __forceinline__ void load_multicast(void* smem_dst, const CUtensorMap* map,
                                               uint64_t* bar, uint16_t cta_mask, int32_t c0,
                                               int32_t c1, int32_t c2) {
    const int32_t coords[3] = {c0, c1, c2};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, coords, bar, cta_mask);
}

/// Any-rank forms (GETT operand views: up to two row modes, two K modes and a batch mode).
template <int R>
__device__ __forceinline__ void load(void* smem_dst, const CUtensorMap* map, uint64_t* bar,
                                     const int32_t (&coords)[R]) {
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, coords, bar);
}
template <int R>
__device__ __forceinline__ void load_multicast(void* smem_dst, const CUtensorMap* map,
                                               uint64_t* bar, uint16_t cta_mask,
                                               const int32_t (&coords)[R]) {
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, coords, bar, cta_mask);
}

/// A load multicast to the CTAs in `cta_mask`, or a plain one when the mask is 0: for kernels that
/// run both paired and unpaired.
template <int R>
__device__ __forceinline__ void load_or_multicast(void* smem_dst, const CUtensorMap* map,
                                                  uint64_t* bar, uint16_t cta_mask,
                                                  const int32_t (&coords)[R]) {
    if (cta_mask) load_multicast(smem_dst, map, bar, cta_mask, coords);
    else load(smem_dst, map, bar, coords);
}

/// How a load's lines rank for eviction from L2 (PTX createpolicy): evict_first for an operand
/// the kernel reads exactly once, so that its stream does not push out lines that are read
/// again; evict_last for lines worth keeping over the rest.
enum class L2Hint : uint8_t { normal, evict_first, evict_last };

/// The cache policy of `hint` for load_with_policy; 0 for normal (load without a policy).
__device__ __forceinline__ uint64_t l2_policy(L2Hint hint) {
    uint64_t p = 0;
    if (hint == L2Hint::evict_first)
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    else if (hint == L2Hint::evict_last)
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    return p;
}

/// The rank-3 tile load (mask != 0: multicast) under an L2 cache policy. Inline PTX because
/// cuda::ptx has no cache-hint form of cp.async.bulk.tensor.
__device__ __forceinline__ void load_with_policy(void* smem_dst, const CUtensorMap* map,
                                                 uint64_t* bar, uint16_t mask,
                                                 const int32_t (&c)[3], uint64_t policy) {
    const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
    const uint32_t mbar = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
    const uint64_t desc = reinterpret_cast<uint64_t>(map);
    if (mask)
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            ".multicast::cluster.L2::cache_hint [%0], [%1, {%2, %3, %4}], [%5], %6, %7;" ::"r"(dst),
            "l"(desc), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(mbar), "h"(mask), "l"(policy)
            : "memory");
    else
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            ".L2::cache_hint [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(dst),
            "l"(desc), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(mbar), "l"(policy)
            : "memory");
}

/// Shared -> global tile store (bulk-group completion; see commit/wait below).
__device__ __forceinline__ void store(const CUtensorMap* map, const void* smem_src, int32_t c0,
                                      int32_t c1, int32_t c2) {
    const int32_t coords[3] = {c0, c1, c2};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map, coords,
                                    smem_src);
}

/// Shared -> global tile store of a rank-R box at `coords` (innermost first).
template <int R>
__device__ __forceinline__ void store(const CUtensorMap* map, const void* smem_src,
                                      const int32_t (&coords)[R]) {
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map, coords,
                                    smem_src);
}

__device__ __forceinline__ void store_commit() { cuda::ptx::cp_async_bulk_commit_group(); }

/// Waits until at most N committed store groups still read their shared-memory source.
template <int N>
__device__ __forceinline__ void store_wait_read() {
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<N>{});
}

}  // namespace kiln::dev::tma
