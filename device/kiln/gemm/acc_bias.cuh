// kiln::gemm accumulator bias — a tile's column bias added by starting its accumulator at
// bias / alpha instead of 0, so that alpha * acc = alpha * A.B + bias.
//
// What: in a sm90 kernel built with Config::EpiStage = kAccBias, the producer thread loads each
// tile's BN bias values by TMA into one shared slot (its own type: fp32, bf16 or fp16; zero past
// N), the consumers start the tile's accumulator from it, and the epilogue (EpilogueBiasAct)
// only scales by alpha and activates.
// Why: added in the epilogue, the bias cost every tile 128 FFMA and 32 shared loads per thread
// while the tensor cores idled (both consumers run their epilogue at once), and the bias staged
// per consumer (2 KiB) left room for only one 8 KiB staging panel per consumer beside the
// 4-stage ring: four store rounds, each waiting for the one before. The slot here is 1 KiB,
// shared by both consumers and refilled by the producer ahead of the tile, and the
// accumulator's start is a register move where it was a zero (bench/NOTES.md, "v22").
// Split-K kernels: split 0 of a tile starts from the bias and the other splits from zeros (their
// producer loads a box wholly past N, which TMA zero-fills), so the sum of the partials holds
// the bias once and the last split's epilogue only scales and activates: with EpilogueLinear's
// unstaged bias loads instead, the last split's epilogue took 10.8 us of llama-qkv's 36.5 us
// tail-split launch (bench/NOTES.md, "v23"). Not SiLU (the dispatcher's rule: its 128 x 256
// split kernel spilled 16 bytes).
// Requires: a bias TMA can read (16-byte aligned, batch stride a multiple of 16 bytes) and a
// finite |alpha| >= 1, so that bias / alpha cannot overflow: bias_in_accumulator says which calls
// qualify, and launch_planes refuses the others.
#pragma once
#include <cmath>
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kiln/gemm/numeric.cuh"
#include "kiln/smem.cuh"
#include "kiln/tma.cuh"

namespace kiln::gemm {

/// Storage type of a bias vector, chosen at run time (one uniform branch per element).
enum class BiasType : int { F32 = 0, BF16 = 1, F16 = 2 };

__host__ __device__ constexpr int bias_bytes(BiasType t) { return t == BiasType::F32 ? 4 : 2; }

/// Config::EpiStage flag: the tile's column bias starts the accumulator (see above).
inline constexpr int kAccBias = 8;

/// Config::EpiStage flag: the tile's *row* bias starts the accumulator, the same way (a slot of
/// the tile's BM values; split 0's, in split kernels): the transposed products'
/// (src/gemm/short_rows.cuh, few_rows.cuh) D^T = B.A^T, whose D column bias is a row bias of the
/// problem the kernel runs. At 1 x 2 the column form of this kernel ran 10-16% faster than the
/// linear kernel those products took (harness, bench/NOTES.md v42).
inline constexpr int kAccRowBias = 16;

/// What an accumulator-bias kernel needs from its epilogue (EpilogueBiasAct::acc_bias).
struct AccBias {
    bool present = false;  // no bias: the accumulator starts at 0
    BiasType type = BiasType::F32;
    float scale = 1.f;     // 1 / alpha
    bool batched = false;  // one bias per batch (map rank 2 walks it), else one for all
};

/// The stage argument of an accumulator-bias kernel's epilogue: nothing to read, the bias is in
/// the accumulator (EpilogueBiasAct asserts it; epilogues that read staged inputs cannot take it).
struct AccBiasStage {
    static constexpr bool staged = true, has_c = false, bias_in_acc = true;
    static constexpr bool fold_alpha = true;  // EpilogueBiasAct may fold alpha into GELU
};
/// The same in split-K kernels, whose fix-up leaves no register for GELU's folded constants
/// (their 128 x 256 GELU and SiLU kernels spilled 16 bytes with them).
struct AccBiasSplitStage : AccBiasStage {
    static constexpr bool fold_alpha = false;
};

/// acc[4j + e] = scale * bias[lcol + 8j + e % 2] for the thread's fragment (wgmma layout: rows
/// lrow and lrow + 8 share a column), bias read from the slot at shared-window address `slot`.
template <int NAcc>
__device__ __forceinline__ void start_from_bias(float (&acc)[NAcc], uint32_t slot, int lcol,
                                                BiasType type, float scale) {
    // pair(j): the bias at columns lcol + 8j, +1. One unrolled loop per storage type: the
    // branch is uniform and taken once per tile.
    const auto start = [&](const auto& pair) {
#pragma unroll
        for (int j = 0; j < NAcc / 4; ++j) {
            const float2 v = pair(j);
            acc[4 * j] = acc[4 * j + 2] = scale * v.x;
            acc[4 * j + 1] = acc[4 * j + 3] = scale * v.y;
        }
    };
    const auto half_word = [&](int j) { return dev::smem::load_u32(slot + 2u * (lcol + 8 * j)); };
    if (type == BiasType::F32)
        start([&](int j) { return dev::smem::load_f32x2(slot + 4u * (lcol + 8 * j)); });
    else if (type == BiasType::BF16)
        start([&](int j) { return unpack_pair<__nv_bfloat16>(half_word(j)); });
    else
        start([&](int j) { return unpack_pair<__half>(half_word(j)); });
}

/// acc[4j + e] = scale * bias[lrow + 8 (e / 2)]: the thread's two fragment rows (lrow within the
/// tile), bias read from the slot at shared-window address `slot`.
template <int NAcc>
__device__ __forceinline__ void start_from_row_bias(float (&acc)[NAcc], uint32_t slot, int lrow,
                                                    BiasType type, float scale) {
    // A 16-bit value is read as the pair of its even-aligned word, as start_from_bias reads it.
    const auto value = [&](int r) {
        if (type == BiasType::F32) return __uint_as_float(dev::smem::load_u32(slot + 4u * r));
        const uint32_t word = dev::smem::load_u32(slot + 2u * (r & ~1));
        const float2 v = type == BiasType::BF16 ? unpack_pair<__nv_bfloat16>(word)
                                                : unpack_pair<__half>(word);
        return r & 1 ? v.y : v.x;
    };
    const float b0 = scale * value(lrow), b1 = scale * value(lrow + 8);
#pragma unroll
    for (int j = 0; j < NAcc / 4; ++j) {
        acc[4 * j] = acc[4 * j + 1] = b0;
        acc[4 * j + 2] = acc[4 * j + 3] = b1;
    }
}

#if !defined(__CUDACC_RTC__)
/// Whether a call's bias can start the accumulator: TMA reads it (16-byte aligned base, batch
/// stride a multiple of 16 bytes) and alpha is finite with |alpha| >= 1. Below 1, bias / alpha
/// overflows for a large enough bias (|bias| > FLT_MAX |alpha|) and the result would be inf
/// where alpha A.B + bias is finite. Otherwise the dispatcher adds the bias in the epilogue
/// (EpilogueLinear).
inline bool bias_in_accumulator(const void* bias, BiasType type, int64_t batch_stride,
                                float alpha) {
    return reinterpret_cast<uintptr_t>(bias) % 16 == 0 &&
           (batch_stride * bias_bytes(type)) % 16 == 0 && std::isfinite(alpha) &&
           std::fabs(alpha) >= 1.f;
}

/// The bias's map: rank 2 {N, batches} (batches = 1 for one bias shared by every batch), box
/// {bn, 1}, no swizzle; TMA fills the columns past N with zeros. A row bias passes M and BM.
inline bool make_bias_map(CUtensorMap* map, const void* bias, BiasType type, int N, int batch,
                          int64_t batch_stride, int bn) {
    const CUtensorMapDataType dt = type == BiasType::F32    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                   : type == BiasType::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                            : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    const int64_t eb = bias_bytes(type);
    const bool batched = batch > 1 && batch_stride != 0;
    // An unbatched map never steps its outer dimension; its stride only has to be legal.
    const uint64_t stride =
        batched ? uint64_t(batch_stride * eb) : uint64_t((N * eb + 15) / 16 * 16);
    const uint64_t dims[2] = {uint64_t(N), uint64_t(batched ? batch : 1)};
    const uint64_t strides[1] = {stride};
    const uint32_t box[2] = {uint32_t(bn), 1};
    return dev::tma::make_tensor_map<2>(map, dt, bias, dims, strides, box,
                                        dev::swizzle::Mode::None);
}
#endif

}  // namespace kiln::gemm
