// kiln::gemm per-iteration predicates (GemmKernels §5.2): decide, for a block tile
// [m0, m0+BM) x [n0, n0+BN) and a k-slice [k0, k0+BK), whether the slice contributes at all.
// Skipped slices cost neither loads nor math.
#pragma once

namespace kiln::gemm::predicate {

struct Always {
    __device__ constexpr bool operator()(int, int, int, int, int, int) const { return true; }
};

/// A is diagonal (M == K): only k-slices that intersect the tile's rows contribute.
struct DiagonalA {
    __device__ constexpr bool operator()(int m0, int, int k0, int bm, int, int bk) const {
        return k0 < m0 + bm && m0 < k0 + bk;
    }
};

/// B is diagonal (K == N): only k-slices that intersect the tile's columns contribute.
struct DiagonalB {
    __device__ constexpr bool operator()(int, int n0, int k0, int, int bn, int bk) const {
        return k0 < n0 + bn && n0 < k0 + bk;
    }
};

}  // namespace kiln::gemm::predicate
