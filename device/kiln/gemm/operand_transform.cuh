// kiln::gemm::sm90 operand transforms — GemmKernels' "transform after every load" for the
// TMA + wgmma kernel, where A and B go from global memory to shared memory (TMA) and from shared
// memory to the tensor cores (wgmma) without passing through registers.
//
// What it does: an element-wise transform does not depend on an element's position, so it can
// be applied in place in the swizzled shared-memory stage once the TMA has landed it: the two
// consumer warpgroups split the stage (16-byte vectors, consecutive per thread: bank-conflict
// free), rewrite it, fence.proxy.async (wgmma reads through the async proxy), then meet at a
// named barrier before their wgmmas. The previous k-block's wgmmas are still in flight meanwhile.
// Requires: K-major 16-bit A and B tiles (the k of a vector is found by undoing the 128B
// swizzle, needed only for the last, ragged k-block); a transform type with
//   static constexpr bool enabled;  V2 a(V2) const;  V2 b(V2) const;  (V2: bf16x2 / half2)
// Guarantees: elements with k >= K (TMA's zero fill of a ragged last k-block) stay zero, so the
// transform's value at 0 never reaches the product.
#pragma once
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <type_traits>

namespace kiln::gemm::sm90 {

/// The default: tiles go to wgmma as the TMA landed them (no pass over shared memory).
struct NoOperandTransform {
    static constexpr bool enabled = false;
};

/// x -> relu?(scale * x + shift), computed in the operand's 16-bit type (one fused multiply-add
/// per element pair, rounded once: with scale = 1 the same value as the fp32 sum rounded back).
struct Affine16 {
    float scale = 1.f, shift = 0.f;
    bool relu = false;

    template <class V2> __device__ __forceinline__ V2 operator()(V2 x) const {
        using T = decltype(x.x);
        const V2 s{T(scale), T(scale)}, c{T(shift), T(shift)};
        V2 y = __hfma2(x, s, c);
        return relu ? __hmax2(y, V2{T(0.f), T(0.f)}) : y;
    }
};

/// A and B transforms of the wgmma kernel (any functors on 16-bit pairs).
template <class FA, class FB> struct OperandTransform {
    static constexpr bool enabled = true;
    FA fa;
    FB fb;
    template <class V2> __device__ __forceinline__ V2 a(V2 x) const { return fa(x); }
    template <class V2> __device__ __forceinline__ V2 b(V2 x) const { return fb(x); }
};

/// Applies f to the 8 elements of one 16-byte vector; with `k_limit` < 8 elements at positions
/// >= k_limit stay as they are (TMA's zero fill past K).
template <class Element, class F>
__device__ __forceinline__ void transform_vector(uint4& v, const F& f, int k_limit) {
    using V2 = std::conditional_t<std::is_same_v<Element, __half>, __half2, __nv_bfloat162>;
    uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        V2 x = *reinterpret_cast<V2*>(&w[i]);
        V2 y = f(x);
        if (k_limit < 8) { // uniform except in the last k-block
            if (2 * i >= k_limit)
                y.x = x.x;
            if (2 * i + 1 >= k_limit)
                y.y = x.y;
        }
        w[i] = *reinterpret_cast<uint32_t*>(&y);
    }
    v = make_uint4(w[0], w[1], w[2], w[3]);
}

/// One consumer thread's share (thread `tid` of `threads`) of the in-place transform of a stage
/// holding the A tile (ATileBytes) followed by the B tile (BTileBytes), both K-major 128B
/// swizzled, 64 k per 128-byte row. `k_left` = K - first k of this block.
template <class Element, int ATileBytes, int BTileBytes, int Threads, class Xf>
__device__ __forceinline__ void transform_stage(uint8_t* stage, const Xf& xf, int k_left, int tid) {
    constexpr int AVec = ATileBytes / 16, Vec = (ATileBytes + BTileBytes) / 16;
    static_assert(AVec % Threads == 0 && Vec % Threads == 0, "stage must split evenly");
    static_assert(sizeof(Element) == 2, "16-bit operands (8 elements per vector)");
    uint4* v = reinterpret_cast<uint4*>(stage);
    constexpr int BK = 64; // k per 128-byte row
    const bool ragged = k_left < BK;
    // Two vectors in flight per thread: fully unrolled, ptxas hoists every load and the
    // 128-register accumulator no longer fits beside them (it spilled ~700 bytes).
#pragma unroll 2
    for (int r = 0; r < Vec / Threads; ++r) {
        const int i = tid + r * Threads;
        uint4 x = v[i];
        int k_limit = 8;
        if (ragged) {
            // Undo the 128B swizzle: the 16-byte chunk of row `row` at position p holds
            // logical chunk p ^ (row % 8), i.e. k = 8 * (p ^ (row % 8)) .. +7.
            const int in_tile = i < AVec ? i : i - AVec;
            const int row = in_tile / 8, chunk = (in_tile % 8) ^ (row % 8);
            k_limit = k_left - 8 * chunk;
            k_limit = k_limit < 0 ? 0 : k_limit;
        }
        if (r < AVec / Threads)
            transform_vector<Element>(
                x, [&](auto e) { return xf.a(e); }, k_limit);
        else
            transform_vector<Element>(
                x, [&](auto e) { return xf.b(e); }, k_limit);
        v[i] = x;
    }
}

} // namespace kiln::gemm::sm90
