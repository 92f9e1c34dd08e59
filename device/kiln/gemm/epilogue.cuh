// kiln::gemm epilogues — what happens to each accumulator element on its way to D.
//
// An epilogue is any type with
//   __device__ float operator()(float acc, int row, int col, int batch) const;
// called once per output element (row < M, col < N) just before the store; the kernel casts the
// result to D's element type. Epilogues compose by nesting (Chain), and a user functor is just
// another epilogue. All of them work unchanged on the TMA/wgmma kernel and the generic kernel.
#pragma once
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "kiln/gemm/acc_bias.cuh"
#include "kiln/gemm/epilogue_stage.cuh"
#include "kiln/gemm/numeric.cuh"
#include "kiln/gemm/transform.cuh"

namespace kiln::gemm {

#ifndef KILN_GEMM_ENUMS_DEFINED  // same definitions as include/kiln/gemm.h
#define KILN_GEMM_ENUMS_DEFINED
enum class Activation : int { None = 0, ReLU = 1, GELU = 2, SiLU = 3 };
// Row: bias[row] (length M); Col: bias[col] (length N)
enum class BiasMode : int { None = 0, Row = 1, Col = 2 };
#endif

/// tanh.approx.f32 (sm_75+): max relative error ~2^-11, well under bf16 output rounding.
__device__ __forceinline__ float tanh_fast(float x) {
    float y;
    asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

/// GELU(alpha x) in the tanh approximation, as cuBLASLt's GELU epilogue: with y = alpha x,
/// 0.5y (1 + tanh(sqrt(2/pi) (y + 0.044715 y^3))), alpha folded into three constants so that
/// the scaled element costs 5 fp32 operations beside the tanh, as many as the unscaled one (the
/// formula as written took 8, and alpha one more): the tile's epilogue issues about as many of
/// them as the SFU takes for its tanhs. At alpha = 1 the constants are the unscaled form's, and
/// the result is bit for bit the same. alpha^3 leaves fp32's normal range for |alpha| past
/// 2^42 or under 2^-42: gelu_folds_alpha says where the fold holds, and EpilogueBiasAct, which
/// scales in it, takes no other alpha (the dispatcher sends the others to EpilogueLinear).
struct GeluScaled {
    float half_alpha, p, q;  // 0.5 alpha, k alpha, k c alpha^3 (k = sqrt(2/pi), c = 0.044715)
    __host__ __device__ explicit GeluScaled(float alpha)
        : half_alpha(0.5f * alpha), p(0.7978845608028654f * alpha),
          q(0.7978845608028654f * 0.044715f * alpha * alpha * alpha) {}
    __device__ __forceinline__ float operator()(float x) const {
        const float h = half_alpha * x;
        return fmaf(h, tanh_fast(x * fmaf(q, x * x, p)), h);
    }
};

/// Whether GeluScaled's constants hold for this alpha: 0, or 2^-40 <= |alpha| <= 2^40 (NaN: no).
__host__ __device__ constexpr bool gelu_folds_alpha(float alpha) {
    const float a = alpha < 0.f ? -alpha : alpha;
    return a == 0.f || (a >= 0x1p-40f && a <= 0x1p40f);
}

/// Whether EpilogueBiasAct computes act(alpha * acc) for this activation and alpha: GELU folds
/// alpha into its constants, which hold for gelu_folds_alpha's range only. The dispatcher
/// (epilogue_kind) and launch_planes (EpilogueBiasAct::takes_alpha) both ask this.
__host__ __device__ constexpr bool bias_act_takes_alpha(Activation act, float alpha) {
    return act != Activation::GELU || gelu_folds_alpha(alpha);
}

__device__ __forceinline__ float activate(Activation a, float x) {
    switch (a) {
    case Activation::ReLU: return x < 0.f ? 0.f : x;  // NaN stays NaN (as torch.relu)
    case Activation::GELU: return GeluScaled{1.f}(x);
    case Activation::SiLU: return x / (1.f + __expf(-x));
    default: return x;
    }
}

/// D = acc (plain copy).
struct EpilogueCopy {
    template <class V>
    __device__ V operator()(V acc, int, int, int) const { return acc; }
};

__device__ __forceinline__ float load_as_float(const void* p, BiasType t, int64_t i) {
    switch (t) {
    case BiasType::BF16: return to_float(static_cast<const __nv_bfloat16*>(p)[i]);
    case BiasType::F16: return to_float(static_cast<const __half*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
    }
}

/// Staging (epilogue_stage.cuh) of a vector indexed by column (a bias, the affine fold's v):
/// thread t of 128 writes cols[i] = vec[offset + col_begin + i] as fp32, 0 past N or without a
/// vector.
__device__ __forceinline__ void stage_column_vector(float* cols, int width, int col_begin,
                                                    const void* vec, BiasType type,
                                                    int64_t offset, int N, int t) {
    for (int i = t; i < width; i += 128)
        cols[i] = vec && col_begin + i < N ? load_as_float(vec, type, offset + col_begin + i)
                                           : 0.f;
}

/// D = act(alpha * acc + beta * C + bias), the BLAS/cuBLASLt-style fused epilogue. C is read
/// with its element type CT, and never when beta == 0 (BLAS semantics: C may hold NaNs).
template <Activation A>
__device__ __forceinline__ float activate(float x) {
    return activate(A, x);  // A is a constant: the switch folds away
}

/// ActT: the activation as a compile-time constant (one kernel per activation keeps the
/// unrolled epilogue small). RuntimeAct = true ignores ActT and switches on `act` per element
/// (fine for the generic kernel; in the wgmma kernel it pushes the accumulators to local memory).
/// CXf: the transform applied to every element of C right after its load (float -> float).
template <class CT, Activation ActT = Activation::None, bool RuntimeAct = false,
          class CXf = transform::Identity>
struct EpilogueLinear {
    float alpha = 1.f, beta = 0.f;
    CXf c_op{};
    const CT* c = nullptr;
    int64_t ldc = 0, batch_stride_c = 0;
    const void* bias = nullptr;
    BiasType bias_type = BiasType::F32;
    BiasMode bias_mode = BiasMode::None;
    int64_t batch_stride_bias = 0;
    Activation act = Activation::None;

    __device__ __forceinline__ float operator()(float acc, int row, int col, int b) const {
        float v = alpha * acc;
        if (beta != 0.f)
            v += beta * c_op(to_float(c[b * batch_stride_c + int64_t(row) * ldc + col]));
        if (bias_mode == BiasMode::Row)
            v += load_as_float(bias, bias_type, b * batch_stride_bias + row);
        else if (bias_mode == BiasMode::Col)
            v += load_as_float(bias, bias_type, b * batch_stride_bias + col);
        if constexpr (RuntimeAct) return activate(act, v);
        else return activate<ActT>(v);
    }

    /// Staging (epilogue_stage.cuh): the column bias is this epilogue's one column vector.
    static constexpr int column_vectors = 1;
    __device__ __forceinline__ void stage_columns(float* cols, int width, int col_begin, int b,
                                                  int N, int t) const {
        if (bias_mode == BiasMode::Col)
            stage_column_vector(cols, width, col_begin, bias, bias_type, b * batch_stride_bias, N,
                               t);
    }
    __host__ __device__ CSource c_source() const {
        return {beta != 0.f ? c : nullptr, ldc, batch_stride_c};
    }

    /// Whole-fragment form used by the wgmma kernel: acc[4j+e] holds (row0 + 8*(e/2),
    /// col0 + 8j + e%2) (the wgmma accumulator layout). Unstaged (S = NoStage), loads of C
    /// and bias are issued in batches of Chunk column groups with the uniform branches hoisted
    /// out of the loops, so they overlap instead of serializing one global-load latency per
    /// element; staged, they are shared-memory reads.
    template <int NAcc, class S = NoStage>
    __device__ __forceinline__ void apply(float (&acc)[NAcc], int row0, int col0, int b, int M,
                                         int N, const S& s = {}) const {
        // 4 column groups per batch (2 for fp32 C): few live registers, no spills; a 16-wide
        // tile has 2, a 144-wide one's 18 go 3 at a time, a 104-wide one's 13 one at a time
        constexpr int J = NAcc / 4,
                      Chunk = J < 4 ? J : J % 4 == 0 ? 4 : J % 3 == 0 ? 3 : J % 2 == 0 ? 2 : 1;
        static_assert(J % Chunk == 0, "fragment must hold a multiple of Chunk column groups");
        float rb[2] = {0.f, 0.f};
        if (bias_mode == BiasMode::Row) {
            if (row0 < M) rb[0] = load_as_float(bias, bias_type, b * batch_stride_bias + row0);
            if (row0 + 8 < M)
                rb[1] = load_as_float(bias, bias_type, b * batch_stride_bias + row0 + 8);
        }
#pragma unroll
        for (int jc = 0; jc < J; jc += Chunk) {
            float* a = acc + 4 * jc;
            auto col_of = [&](int i) { return col0 + 8 * jc + 8 * (i / 4) + i % 2; };
            if (bias_mode == BiasMode::Col) {
                float cb[Chunk * 2];
                if constexpr (S::staged) {
#pragma unroll
                    for (int j = 0; j < Chunk; ++j) {
                        const float2 v = s.column_pair(0, jc + j);
                        cb[2 * j] = v.x, cb[2 * j + 1] = v.y;
                    }
                } else {
                    load_bias_cols(cb, [&](int k) { return col_of(4 * (k / 2) + k % 2); }, b, N);
                }
#pragma unroll
                for (int i = 0; i < Chunk * 4; ++i)
                    a[i] = alpha * a[i] + cb[2 * (i / 4) + i % 2] + rb[(i % 4) / 2];
            } else {
#pragma unroll
                for (int i = 0; i < Chunk * 4; ++i) a[i] = alpha * a[i] + rb[(i % 4) / 2];
            }
            if (beta != 0.f) {
                float cv[Chunk * 4];
                if constexpr (S::has_c) {
                    // The TMA zero-filled C past M and N; those values are never stored.
#pragma unroll
                    for (int i = 0; i < Chunk * 4; i += 2) {
                        const float2 v = s.template c_pair<CT>((i % 4) / 2, jc + i / 4);
                        cv[i] = c_op(v.x), cv[i + 1] = c_op(v.y);
                    }
                } else {
                    const CT* cp = c + b * batch_stride_c;
#pragma unroll
                    for (int i = 0; i < Chunk * 4; ++i) {
                        const int r = row0 + 8 * ((i % 4) / 2), cc = col_of(i);
                        cv[i] =
                            (r < M && cc < N) ? c_op(to_float(cp[int64_t(r) * ldc + cc])) : 0.f;
                    }
                }
#pragma unroll
                for (int i = 0; i < Chunk * 4; ++i) a[i] += beta * cv[i];
            }
        }
        // Activation in its own pass: keeps the load batches above and the transcendental
        // temporaries from being live at the same time (GELU/SiLU spilled otherwise).
#pragma unroll
        for (int i = 0; i < NAcc; ++i)
            acc[i] = RuntimeAct ? activate(act, acc[i]) : activate<ActT>(acc[i]);
    }

  private:
    /// cb[k] = bias[col_of(k)] (0 past N), one batch of loads per storage type.
    template <int K, class ColOf>
    __device__ __forceinline__ void load_bias_cols(float (&cb)[K], ColOf col_of, int b,
                                                   int N) const {
        const int64_t base = b * batch_stride_bias;
        auto ok = [&](int k) { return col_of(k) < N; };
        if (bias_type == BiasType::F32) {
#pragma unroll
            for (int k = 0; k < K; ++k)
                cb[k] = ok(k) ? static_cast<const float*>(bias)[base + col_of(k)] : 0.f;
        } else if (bias_type == BiasType::BF16) {
#pragma unroll
            for (int k = 0; k < K; ++k)
                cb[k] = ok(k) ? to_float(static_cast<const __nv_bfloat16*>(bias)[base + col_of(k)])
                              : 0.f;
        } else {
#pragma unroll
            for (int k = 0; k < K; ++k)
                cb[k] = ok(k) ? to_float(static_cast<const __half*>(bias)[base + col_of(k)]) : 0.f;
        }
    }
};

/// D = act(alpha * acc + bias[col]): the cuBLASLt-style fused epilogue (a column bias or none,
/// no C) as a kernel of its own, for the wgmma kernel built with Config::EpiStage = kAccBias
/// (or kAccRowBias: the bias is per row, the transposed products' D column bias): the bias
/// reaches the accumulator before the mainloop (acc_bias.cuh), so this epilogue only
/// scales and activates, with no run-time branch beyond alpha == 1 (bench/NOTES.md, v12, v22).
template <Activation ActT>
struct EpilogueBiasAct {
    float alpha = 1.f;
    const void* bias = nullptr;  // per column (per row with kAccRowBias); nullptr: none
    BiasType bias_type = BiasType::F32;
    int64_t batch_stride_bias = 0;

    /// Without a bias the accumulator starts from zeros, whatever alpha (even 0) is.
    __host__ __device__ AccBias acc_bias() const {
        return {bias != nullptr, bias_type, bias ? 1.f / alpha : 1.f, batch_stride_bias != 0};
    }
    /// Whether apply_columns computes act(alpha * acc) for this alpha (bias_act_takes_alpha).
    __host__ __device__ bool takes_alpha() const { return bias_act_takes_alpha(ActT, alpha); }

    /// acc[4j+e] holds (row0 + 8*(e/2), col0 + 8j + e%2) (the wgmma layout).
    template <int NAcc, class S>
    __device__ __forceinline__ void apply(float (&acc)[NAcc], int, int, int, int, int,
                                          const S& s) const {
        apply_columns(acc, s, 0, NAcc / 4);
    }

    /// apply on the column groups [j0, j1) only: the kernel runs it one staged-store round at a
    /// time (store_staged's before_round), under the TMA reads of the round before.
    /// Activate = false leaves the activation out, for a kernel whose pack applies it
    /// (relu_in_pack below); with alpha = 1 there is then nothing to do.
    template <bool Activate = true, int NAcc, class S>
    __device__ __forceinline__ void apply_columns(float (&acc)[NAcc], const S&, int j0,
                                                  int j1) const {
        static_assert(S::bias_in_acc, "EpilogueBiasAct runs in kAccBias kernels (acc_bias.cuh)");
        if (!Activate && alpha == 1.f) return;
        const GeluScaled gelu(alpha);
        // Every j in the unrolled loop: j0 and j1 are constants once inlined, and the test folds.
#pragma unroll
        for (int j = 0; j < NAcc / 4; ++j) {
            if (j < j0 || j >= j1) continue;
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                float& a = acc[4 * j + e];
                if (Activate && ActT == Activation::GELU && S::fold_alpha) a = gelu(a);
                else a = Activate ? activate<ActT>(alpha * a) : alpha * a;
            }
        }
    }
};

/// Whether kernels that pack this epilogue's results to 16 bits leave its activation to the
/// pack (pack_pair<T, true>: cvt.rn.relu) and run apply_columns<false>: ReLU's max then costs
/// no instruction of its own, a third of the bias + ReLU epilogue's arithmetic.
template <class E>
inline constexpr bool relu_in_pack = false;
template <>
inline constexpr bool relu_in_pack<EpilogueBiasAct<Activation::ReLU>> = true;

/// Applies `F` elementwise after `E`: D = f(e(acc, ...)).
template <class E, class F>
struct Chain {
    E first;
    F then;
    __device__ __forceinline__ float operator()(float acc, int row, int col, int b) const {
        return then(first(acc, row, col, b), row, col, b);
    }
};

/// Wraps a plain unary functor x -> f(x) (e.g. a user lambda) as an epilogue.
template <class F>
struct Elementwise {
    F f;
    __device__ __forceinline__ float operator()(float acc, int, int, int) const { return f(acc); }
};

}  // namespace kiln::gemm
