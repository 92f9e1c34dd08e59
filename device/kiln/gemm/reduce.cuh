// kiln::gemm reductions in the epilogue — row sums r[i] += sum_j D[i,j] and column sums
// c[j] += sum_i D[i,j] of the result (after the epilogue's alpha/beta/bias/activation, in fp32,
// before rounding to D's type), added atomically into fp32 vectors.
//
// WithReductions<E> wraps any epilogue E. On the wgmma kernel (apply + reduce): each thread sums
// its fragment's values per row, the quad (the 4 lanes sharing a row) combines them with two
// shuffles and one lane adds the row's partial with one atomic; column partials go down the 8
// lane groups of a warp (three shuffles) and 4 lanes add them, so a 128 x BN tile costs 8
// atomics per column and BN/8 per row. On the generic kernel (operator()): one atomic per
// element and vector (a correct fallback, not a fast one).
// Requires: fp32 vectors of M (rows) / N (columns) per batch at row_sum + b * stride_row /
// col_sum + b * stride_col, zeroed (or holding earlier sums) by the caller; null = not wanted.
// Guarantees: only elements with row < M and col < N are summed.
#pragma once
#include <cstdint>

#include "kiln/gemm/epilogue_stage.cuh"

namespace kiln::gemm {

struct Reductions {
    float* row_sum = nullptr;
    float* col_sum = nullptr;
    int64_t stride_row = 0, stride_col = 0; // per batch
};

template <class E> struct WithReductions {
    E base;
    Reductions red;

    /// Generic kernel: one output element.
    __device__ __forceinline__ float operator()(float acc, int row, int col, int b) const {
        const float v = base(acc, row, col, b);
        if (red.row_sum)
            atomicAdd(red.row_sum + b * red.stride_row + row, v);
        if (red.col_sum)
            atomicAdd(red.col_sum + b * red.stride_col + col, v);
        return v;
    }

    /// Staging (epilogue_stage.cuh): whatever the wrapped epilogue stages.
    static constexpr int column_vectors = column_vectors_of<E>;
    __device__ __forceinline__ void stage_columns(float* cols, int width, int col_begin, int b,
                                                  int N, int t) const {
        if constexpr (column_vectors > 0) base.stage_columns(cols, width, col_begin, b, N, t);
    }
    __host__ __device__ CSource c_source() const {
        if constexpr (requires { base.c_source(); }) return base.c_source();
        else return {};
    }

    /// wgmma kernel: the base epilogue on the whole fragment (acc[4j+e] holds (row0 + 8*(e/2),
    /// col0 + 8j + e%2)), then the sums of the fragment's in-range values.
    template <int NAcc, class S = NoStage>
    __device__ __forceinline__ void apply(float (&acc)[NAcc], int row0, int col0, int b, int M,
                                          int N, const S& s = {}) const {
        if constexpr (requires { base.apply(acc, row0, col0, b, M, N, s); }) {
            base.apply(acc, row0, col0, b, M, N, s);
        } else {
#pragma unroll
            for (int j = 0; j < NAcc / 4; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    acc[4 * j + e] =
                        base(acc[4 * j + e], row0 + 8 * (e / 2), col0 + 8 * j + (e % 2), b);
        }
        if (red.row_sum)
            sum_rows(acc, row0, col0, b, M, N);
        if (red.col_sum)
            sum_cols(acc, row0, col0, b, M, N);
    }

private:
    template <int NAcc>
    __device__ __forceinline__ void sum_rows(const float (&acc)[NAcc], int row0, int col0, int b,
                                             int M, int N) const {
        float s[2] = {0.f, 0.f};
#pragma unroll
        for (int j = 0; j < NAcc / 4; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                if (col0 + 8 * j + e % 2 < N)
                    s[e / 2] += acc[4 * j + e];
        const bool leader = (threadIdx.x % 4) == 0;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            s[h] += __shfl_xor_sync(0xffffffffu, s[h], 1);
            s[h] += __shfl_xor_sync(0xffffffffu, s[h], 2);
            const int row = row0 + 8 * h;
            if (leader && row < M)
                atomicAdd(red.row_sum + b * red.stride_row + row, s[h]);
        }
    }

    template <int NAcc>
    __device__ __forceinline__ void sum_cols(const float (&acc)[NAcc], int row0, int col0, int b,
                                             int M, int N) const {
        const bool r0 = row0 < M, r1 = row0 + 8 < M;
        const bool leader = (threadIdx.x % 32) < 4; // lanes 0..3 hold the warp's 8 columns
#pragma unroll
        for (int j = 0; j < NAcc / 4; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                float v = (r0 ? acc[4 * j + e] : 0.f) + (r1 ? acc[4 * j + 2 + e] : 0.f);
                v += __shfl_xor_sync(0xffffffffu, v, 4);
                v += __shfl_xor_sync(0xffffffffu, v, 8);
                v += __shfl_xor_sync(0xffffffffu, v, 16);
                const int col = col0 + 8 * j + e;
                if (leader && col < N)
                    atomicAdd(red.col_sum + b * red.stride_col + col, v);
            }
    }
};

} // namespace kiln::gemm
