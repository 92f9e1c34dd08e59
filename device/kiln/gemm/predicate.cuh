// kiln::gemm per-iteration predicates (GemmKernels §5.2): decide, for a block tile
// [m0, m0+BM) x [n0, n0+BN) and a k-slice [k0, k0+BK), whether the slice contributes at all.
// Skipped slices cost neither loads nor math.
#pragma once

namespace kiln::gemm::predicate {

// A predicate may also bound the k loop up front with
//   __device__ void k_range(int m0, int n0, int bm, int bn, int bk, int K, int& k0, int& k1)
// so a diagonal operand costs O(tile) iterations instead of testing every k-slice of K.

struct Always {
    __device__ constexpr bool operator()(int, int, int, int, int, int) const { return true; }
    __device__ void k_range(int, int, int, int, int, int K, int& k0, int& k1) const {
        k0 = 0, k1 = K;
    }
};

/// A is diagonal (M == K): only k-slices that intersect the tile's rows contribute.
struct DiagonalA {
    __device__ constexpr bool operator()(int m0, int, int k0, int bm, int, int bk) const {
        return k0 < m0 + bm && m0 < k0 + bk;
    }
    __device__ void k_range(int m0, int, int bm, int, int bk, int K, int& k0, int& k1) const {
        k0 = m0 / bk * bk, k1 = m0 + bm < K ? m0 + bm : K;
    }
};

/// B is diagonal (K == N): only k-slices that intersect the tile's columns contribute.
struct DiagonalB {
    __device__ constexpr bool operator()(int, int n0, int k0, int, int bn, int bk) const {
        return k0 < n0 + bn && n0 < k0 + bk;
    }
    __device__ void k_range(int, int n0, int, int bn, int bk, int K, int& k0, int& k1) const {
        k0 = n0 / bk * bk, k1 = n0 + bn < K ? n0 + bn : K;
    }
};

}  // namespace kiln::gemm::predicate
