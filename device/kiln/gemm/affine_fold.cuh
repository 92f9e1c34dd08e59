// kiln::gemm affine fold — A/B transforms x -> s*x + c (no ReLU) moved out of the mainloop.
//
// What it does: for A' = sa*A + ca and B' = sb*B + cb (element-wise, K-major A: M x K, B: N x K)
//   (A' B'^T)[i,j] = sa*sb*(A B^T)[i,j] + (sa*cb*rA[i] + ca*cb*K) + ca*sb*rB[j],
// with rA[i] = sum_k A[i,k] and rB[j] = sum_k B[j,k]. kiln::gemm::fold_prepass (one warp per
// row, 16-byte loads) writes u[i] = sa*cb*rA[i] + ca*cb*K and v[j] = ca*sb*rB[j]; AffineFold<E>
// then turns the plain product's fragment into A'B'^T (scale, + u[row] + v[col]) before the
// wrapped epilogue E (alpha / beta*C / bias / activation) sees it; with u == nullptr it is E.
// Why: the general transform rewrites every stage in shared memory (operand_transform.cuh),
// which doubles the SM's shared-memory traffic; a linear map needs only one extra read of A and
// B (the prepass) and two vector loads per output row / column in the epilogue.
// Requires: K-major A and B rows of 16-bit elements, 16-byte aligned with ld % 8 == 0 (the TMA
// rules); u, v: fp32 vectors per batch at u + b*u_stride, v + b*v_stride, v's rows 8-byte
// aligned (v and v_stride even).
// Guarantees: the same function as transforming the operands, computed in fp32 (the transformed
// operands are never rounded to 16 bits, unlike the shared-memory path).
#pragma once
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/epilogue_stage.cuh"
#include "kiln/gemm/numeric.cuh"

namespace kiln::gemm {

/// out[b*out_stride + r] = mul * sum_k X[b][r, k] + add, one warp per row (X: rows x K,
/// leading dimension ld, batch stride bs; 16-byte aligned rows with ld % 8 == 0).
template <class T>
__global__ void fold_prepass(const T* __restrict__ x, int rows, int K, int64_t ld, int64_t bs,
                             float mul, float add, float* __restrict__ out, int64_t out_stride) {
    const int warps = blockDim.x / 32, lane = threadIdx.x % 32;
    const int r = blockIdx.x * warps + threadIdx.x / 32, b = blockIdx.y;
    if (r >= rows)
        return;
    const T* row = x + b * bs + int64_t(r) * ld;
    float s = 0.f;
    const int vec = K / 8; // whole 16-byte vectors
    for (int i = lane; i < vec; i += 32) {
        const uint4 v = reinterpret_cast<const uint4*>(row)[i];
        const T* e = reinterpret_cast<const T*>(&v);
#pragma unroll
        for (int j = 0; j < 8; ++j)
            s += to_float(e[j]);
    }
    for (int k = vec * 8 + lane; k < K; k += 32)
        s += to_float(row[k]);
#pragma unroll
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0)
        out[b * out_stride + r] = mul * s + add;
}

/// The wgmma fragment epilogue: acc <- scale*acc + u[row] + v[col], then E::apply.
template <class E>
struct AffineFold {
    E base;
    float scale = 1.f;                   // sa * sb
    const float* u = nullptr;            // per row (nullptr: no fold)
    const float* v = nullptr;            // per column
    int64_t u_stride = 0, v_stride = 0;  // per batch

    /// Staging (epilogue_stage.cuh): v first, then the wrapped epilogue's vectors.
    static constexpr int column_vectors = 1 + column_vectors_of<E>;
    __device__ __forceinline__ void stage_columns(float* cols, int width, int col_begin, int b,
                                                  int N, int t) const {
        if (u) stage_column_vector(cols, width, col_begin, v, BiasType::F32, b * v_stride, N, t);
        if constexpr (column_vectors_of<E> > 0)
            base.stage_columns(cols + width, width, col_begin, b, N, t);
    }
    __host__ __device__ CSource c_source() const { return base.c_source(); }

    /// acc[4j+e] holds (row0 + 8*(e/2), col0 + 8j + e%2) (the wgmma layout).
    template <int NAcc, class S = NoStage>
    __device__ __forceinline__ void apply(float (&acc)[NAcc], int row0, int col0, int b, int M,
                                          int N, const S& s = {}) const {
        if (u) fold(acc, row0, col0, b, M, N, s);
        // The corrected fragment is pinned before the wrapped epilogue's loads are scheduled:
        // with both phases' loads interleaved ptxas spilled 40-150 bytes.
#pragma unroll
        for (int i = 0; i < NAcc; ++i) asm volatile("" : "+f"(acc[i])::"memory");
        if constexpr (S::staged) base.apply(acc, row0, col0, b, M, N, s.inner(1));
        else base.apply(acc, row0, col0, b, M, N);
    }

  private:
    template <int NAcc, class S>
    __device__ __forceinline__ void fold(float (&acc)[NAcc], int row0, int col0, int b, int M,
                                         int N, const S& s) const {
        const float* ub = u + b * u_stride;
        const float* vb = v + b * v_stride;
        const float ur[2] = {row0 < M ? ub[row0] : 0.f, row0 + 8 < M ? ub[row0 + 8] : 0.f};
        constexpr int Chunk = 4;  // column groups per batch of loads (few live registers)
#pragma unroll
        for (int jc = 0; jc < NAcc / 4; jc += Chunk) {
            float vc[Chunk][2];
#pragma unroll
            for (int j = 0; j < Chunk; ++j) {
                const int c = col0 + 8 * (jc + j);  // even: (c, c+1) is one 8-byte load
                if constexpr (S::staged) {
                    const float2 p = s.column_pair(0, jc + j);
                    vc[j][0] = p.x, vc[j][1] = p.y;
                } else if (c + 1 < N) {
                    const float2 p = *reinterpret_cast<const float2*>(vb + c);
                    vc[j][0] = p.x, vc[j][1] = p.y;
                } else {
                    vc[j][0] = c < N ? vb[c] : 0.f, vc[j][1] = 0.f;
                }
            }
#pragma unroll
            for (int j = 0; j < Chunk; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    float& a = acc[4 * (jc + j) + e];
                    a = scale * a + ur[e / 2] + vc[j][e % 2];
                }
        }
    }
};

}  // namespace kiln::gemm
