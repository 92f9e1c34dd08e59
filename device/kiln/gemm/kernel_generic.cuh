// kiln::gemm::generic — the portable GEMM skeleton of GemmKernels §4, on the FPU.
//
// Every building block is a template parameter: global layouts for A (M x K) and B (K x N),
// transforms after load, an operator (here: FPU multiply-add on the layouts' value type, which
// makes complex and dual numbers plain instantiations), a per-k-slice predicate, an epilogue and
// an output store. Tiles move with the tiling API (tile.cuh). This path has no alignment or
// stride requirements, so gemmEx uses it when TMA's rules fail, for fp32/fp8 inputs and for
// operand layouts the wgmma kernel does not take; it is correct everywhere and fast nowhere,
// except where the predicate skips most of the work (diagonal operands).
#pragma once
#include <cstdint>
#include <type_traits>
#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/layout.cuh"
#include "kiln/gemm/numeric.cuh"
#include "kiln/gemm/predicate.cuh"
#include "kiln/gemm/tile.cuh"
#include "kiln/gemm/transform.cuh"

namespace kiln::gemm::generic {

inline constexpr int BM = 64, BN = 64, BK = 16, Threads = 256;

/// Output store for real results: D[b](row, col) = value, cast to T.
template <class T>
struct StridedOut {
    T* p;
    int64_t row_stride, col_stride, batch_stride;
    __device__ __forceinline__ void store(int b, int r, int c, float v) const {
        p[b * batch_stride + r * row_stride + c * col_stride] = from_float<T>(v);
    }
};

/// Output store for complex / dual results, interleaved fp32 parts.
template <class V>
struct InterleavedOut {
    float* p;
    int64_t row_stride, col_stride, batch_stride;  // in complex elements
    __device__ __forceinline__ void store(int b, int r, int c, V v) const {
        float* e = p + 2 * (b * batch_stride + r * row_stride + c * col_stride);
        reinterpret_cast<V*>(e)[0] = v;
    }
};

/// Operator: FPU fused multiply-add on any value type with + and *.
struct FpuOp {
    template <class V>
    __device__ __forceinline__ V operator()(V a, V b, V c) const { return a * b + c; }
};

template <class LA, class LB, class TA, class TB, class Op, class Pred, class Epi, class Out>
__global__ void __launch_bounds__(Threads)
    gemm_kernel(LA la, LB lb, TA ta, TB tb, Op op, Pred pred, Epi epi, Out out, int M, int N,
                int K) {
    using V = typename LA::value_type;
    static_assert(std::is_same_v<V, typename LB::value_type>, "A and B must load the same type");
    using SA = layout::PaddedRowMajor<BK, BM, 1>;  // [k][m], padded against bank conflicts
    using SB = layout::PaddedRowMajor<BK, BN, 1>;
    __shared__ V as[SA::size];
    __shared__ V bs[SB::size];

    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, b = blockIdx.z;
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    V acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = V{};

    using Block = Tile<Dim<'M', BM>, Dim<'N', BN>, Dim<'K', BK>>;
    int k_begin = 0, k_end = K;
    if constexpr (requires { pred.k_range(0, 0, 0, 0, 0, 0, k_begin, k_end); })
        pred.k_range(m0, n0, BM, BN, BK, K, k_begin, k_end);
    for (int k0 = k_begin; k0 < k_end; k0 += BK) {
        if (!pred(m0, n0, k0, BM, BN, BK)) continue;  // uniform over the block
        Block blk;
        blk.base[0] = m0, blk.base[1] = n0, blk.base[2] = k0;
        // K fastest for A, N fastest for B: consecutive threads walk the usual contiguous axis.
        parallelise<Tile<Dim<'K', 1>, Dim<'M', 1>>>(blk.project<'K', 'M'>(), threadIdx.x, Threads,
                                                    [&](auto s) {
            int k = s.template at<'K'>(), m = s.template at<'M'>();
            as[SA::offset(k - k0, m - m0)] = ta(la.load(b, m, k));
        });
        parallelise<Tile<Dim<'N', 1>, Dim<'K', 1>>>(blk.project<'N', 'K'>(), threadIdx.x, Threads,
                                                    [&](auto s) {
            int n = s.template at<'N'>(), k = s.template at<'K'>();
            bs[SB::offset(k - k0, n - n0)] = tb(lb.load(b, k, n));
        });
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            V a[4], bb[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) a[i] = as[SA::offset(kk, ty + 16 * i)];
#pragma unroll
            for (int j = 0; j < 4; ++j) bb[j] = bs[SB::offset(kk, tx + 16 * j)];
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = op(a[i], bb[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            int r = m0 + ty + 16 * i, c = n0 + tx + 16 * j;
            if (r < M && c < N) out.store(b, r, c, epi(acc[i][j], r, c, b));
        }
}

/// Grid for an M x N x batch problem.
inline dim3 grid(int M, int N, int batch) {
    return dim3((N + BN - 1) / BN, (M + BM - 1) / BM, batch);
}

}  // namespace kiln::gemm::generic
