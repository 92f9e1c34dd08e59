// Internal: instantiates the sm90 kernel for one input type and every output type / tile width.
#pragma once
#include <iterator>
#include <type_traits>
#include <utility>
#include "dispatch.h"
#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/launch_sm90.cuh"

namespace kiln::gemm::detail {

inline BiasType to_bias_type(DataType t) {
    return t == DataType::BF16  ? BiasType::BF16
           : t == DataType::F16 ? BiasType::F16
                                : BiasType::F32;
}

/// Ring stages of a BM x BN tile. 128 rows: 4 at BN = 256 and 192, 6 at 160, 144 and 128, 7 at
/// 104, 96 and 88 (what fits; 8 at 96 ran level, bench/NOTES.md v38), 8 at 80, 72, 64 and 16
/// (the few-row kernel streams one operand from DRAM and needs the bytes in flight, v28; at 16,
/// 12 stages fit but ran 1-2% slower than 8, v29). 64 rows (the short product, the narrow
/// two-tile product and the untransposed few-row product, which stream the weights): about
/// 200 KiB of ring, at most 16 stages: 13 at 64, 8 at 128, 7 at 160 (what fits beside the
/// staging buffer); 12 at 72 (cuBLAS's tst_64x72 runs 12), 11 at 80 and 88, 10 at 96 and 104;
/// as measured in the harness (v44) 16 up to 40, 15 at 48, 14 at 56, 9 at 112, 7 up to 176, 6
/// up to 224, 5 past it.
constexpr int sm90_stages(int bm, int bn) {
    if (bm == 64)
        return bn <= 40    ? 16
               : bn <= 48  ? 15
               : bn <= 56  ? 14
               : bn <= 64  ? 13
               : bn <= 72  ? 12
               : bn <= 88  ? 11
               : bn <= 104 ? 10
               : bn <= 112 ? 9
               : bn <= 128 ? 8
               : bn <= 176 ? 7
               : bn <= 224 ? 6
                           : 5;
    return bn >= 192 ? 4 : bn >= 128 ? 6 : bn >= 88 ? 7 : 8;
}

/// The kernel shape of every sm90 instantiation: BM x BN tiles (BM = 128, or 64 for the short
/// product), 1- or 2-CTA clusters along M (Problem::cluster_m, run_sm90_act) or along N (the
/// two-tile product's, Problem::cluster_n); SplitK: whether it can split K (gemmEx and contract
/// without transforms). EpiStage: what the epilogue stages in shared memory
/// (epilogue_stage.cuh).
template <class In, class Out, int BN, bool MnA, bool MnB, bool SplitK = false,
          int ClusterM = sm90_default_cluster_m(BN), int EpiStage = 0, int BM = 128,
          int ClusterN = 1>
using Sm90Config = sm90::Config<In, Out, BN, sm90_stages(BM, BN), ClusterM, MnA, MnB, 1, SplitK,
                                EpiStage, BM, ClusterN>;

/// alpha * acc + beta * c_op(C) + bias, then Act (the Problem's epilogue fields).
template <class Out, Activation Act, class CXf = transform::Identity>
EpilogueLinear<Out, Act, false, CXf> linear_epilogue(const Problem& p) {
    EpilogueLinear<Out, Act, false, CXf> epi;
    epi.alpha = p.alpha;
    epi.beta = p.beta;
    epi.c = static_cast<const Out*>(p.c);
    epi.ldc = p.ldc;
    epi.batch_stride_c = p.sc;
    epi.bias = p.bias;
    epi.bias_type = to_bias_type(p.bias_type);
    epi.bias_mode = p.bias ? p.bias_mode : BiasMode::None;
    epi.batch_stride_bias = p.sbias;
    return epi;
}

/// act(alpha * acc + column bias) (EpilogueBiasAct; the bias starts the accumulator), from the
/// Problem's epilogue fields.
template <Activation Act>
EpilogueBiasAct<Act> bias_act_epilogue(const Problem& p, BiasMode acc_mode = BiasMode::Col) {
    EpilogueBiasAct<Act> epi;
    epi.alpha = p.alpha;
    epi.bias = p.bias && p.bias_mode == acc_mode ? p.bias : nullptr;
    epi.bias_type = to_bias_type(p.bias_type);
    epi.batch_stride_bias = p.sbias;
    return epi;
}

/// Calls f(std::integral_constant<Activation, a>{}): one kernel per activation.
template <class F>
cudaError_t with_activation(Activation a, F&& f) {
    using A = Activation;
    switch (a) {
    case A::ReLU: return f(std::integral_constant<A, A::ReLU>{});
    case A::GELU: return f(std::integral_constant<A, A::GELU>{});
    case A::SiLU: return f(std::integral_constant<A, A::SiLU>{});
    default: return f(std::integral_constant<A, A::None>{});
    }
}

/// The epilogue kernel a call's epilogue fields select (tests/cuda/gemm_dispatch_check.cu pins
/// the table): Copy for D = A.B exactly (alpha 1, beta 0, no bias, no activation); BiasAct for
/// act(alpha * A.B + column bias), no C and no row bias, split or not (but SiLU unsplit: its
/// 128 x 256 split kernel spilled 16 bytes), where the column bias can start the accumulator
/// (bias_fits: acc_bias.cuh's bias_in_accumulator, TMA-readable and |alpha| >= 1;
/// EpilogueBiasAct never reads C, so beta != 0 must never reach it) and, for GELU, an alpha its
/// constants can fold (gelu_folds_alpha); Linear for everything else. acc_mode: the bias the
/// kernel's accumulator can start from, the column bias (kAccBias) or, in the transposed
/// products' kernels (two tiles, few rows), the row bias (kAccRowBias).
enum class EpilogueKind { Copy, BiasAct, Linear };
constexpr EpilogueKind epilogue_kind(float alpha, float beta, bool bias, BiasMode mode,
                                     Activation act, bool bias_fits, bool split,
                                     BiasMode acc_mode = BiasMode::Col) {
    if (plain_epilogue(alpha, beta, bias, mode, act)) return EpilogueKind::Copy;
    const bool has_bias = bias && mode != BiasMode::None;
    if (beta == 0.f && (!has_bias || (mode == acc_mode && bias_fits)) &&
        bias_act_takes_alpha(act, alpha) &&
        !(split && act == Activation::SiLU))
        return EpilogueKind::BiasAct;
    return EpilogueKind::Linear;
}
inline EpilogueKind epilogue_kind(const Problem& p, bool split,
                                  BiasMode acc_mode = BiasMode::Col) {
    const bool fits = p.bias && bias_in_accumulator(p.bias, to_bias_type(p.bias_type), p.sbias,
                                                    p.alpha);
    return epilogue_kind(p.alpha, p.beta, p.bias != nullptr, p.bias_mode, p.act, fits, split,
                         acc_mode);
}

/// The accumulator bias a kernel built with EpiStage `acc_stage` starts from.
constexpr BiasMode accumulator_bias_mode(int acc_stage) {
    return acc_stage == kAccRowBias ? BiasMode::Row : BiasMode::Col;
}

/// One launch of the Cfg kernel on p with epilogue `epi`.
template <class Cfg, class Out, class Epi>
cudaError_t launch_sm90(const Problem& p, const Epi& epi) {
    return sm90::launch_views<Cfg>(p.va, p.vb, static_cast<Out*>(p.c), p.vd, p.M, p.N, p.K,
                                   p.batch, epi, p.stream, p.group_m, sm90::NoOperandTransform{},
                                   p.split, p.range);
}

/// The bias + activation kernel of one tile shape, per activation: EpilogueBiasAct, whose
/// column bias (AccStage = kAccBias) or row bias (kAccRowBias) starts the accumulator
/// (acc_bias.cuh; split 0's, in split kernels) and whose epilogue only scales and activates.
template <class In, class Out, bool MnA, bool MnB, int BN, bool SplitK, int ClusterM,
          int BM = 128, int AccStage = kAccBias, int ClusterN = 1>
cudaError_t run_sm90_bias_act(const Problem& p) {
    return with_activation(p.act, [&](auto act) {
        // epilogue_kind never picks split SiLU tiles: not compiled (the kernel spilled)
        if constexpr (SplitK && act.value == Activation::SiLU)
            return launch_sm90<Sm90Config<In, Out, BN, MnA, MnB, SplitK, ClusterM, 0, BM>, Out>(
                p, linear_epilogue<Out, act.value>(p));
        else
            return launch_sm90<Sm90Config<In, Out, BN, MnA, MnB, SplitK, ClusterM, AccStage, BM,
                                          ClusterN>,
                               Out>(p, bias_act_epilogue<act.value>(
                                           p, accumulator_bias_mode(AccStage)));
    });
}

/// The plain product gets its own kernel (EpilogueCopy): EpilogueLinear's run-time branches
/// unswitch into one unrolled copy of the epilogue per (bias, beta) case, the copy a tile runs
/// is fetched cold once per CTA, and a short problem waits on it (2048^3, one tile per CTA:
/// 36.8 -> 34.2 us per launch under ncu; bench/NOTES.md, v11). Skipping the linear part at
/// run time instead made ptxas spill 400+ bytes in every 128 x 256 kernel.
/// Unsplit linear kernels stage the column bias in shared memory during the mainloop
/// (epilogue_stage.cuh), so the epilogue does not wait on its loads, and the cuBLASLt-style
/// case (column bias and activation, no C) gets its own kernel (run_sm90_bias_act).
/// AccStage: the bias that kernel starts from (kAccBias: the column bias; kAccRowBias: the row
/// bias, the transposed products', whose D column bias it is).
template <class In, class Out, bool MnA, bool MnB, int BN, bool SplitK, int ClusterM,
          int BM = 128, int AccStage = kAccBias, int ClusterN = 1>
cudaError_t run_sm90_cfg(const Problem& p) {
    static_assert(AccStage == kAccRowBias || ClusterN == 1,
                  "a cluster along N: the transposed products' row-bias kernel only");
    const EpilogueKind kind = epilogue_kind(p, SplitK, accumulator_bias_mode(AccStage));
    if (kind == EpilogueKind::Copy)
        return launch_sm90<
            Sm90Config<In, Out, BN, MnA, MnB, SplitK, ClusterM, 0, BM, ClusterN>, Out>(
            p, EpilogueCopy{});
    if (kind == EpilogueKind::BiasAct)
        return run_sm90_bias_act<In, Out, MnA, MnB, BN, SplitK, ClusterM, BM, AccStage,
                                 ClusterN>(p);
    constexpr int Stage = SplitK ? 0 : stage_columns(1);
    return with_activation(p.act, [&](auto act) {
        return launch_sm90<
            Sm90Config<In, Out, BN, MnA, MnB, SplitK, ClusterM, Stage, BM, ClusterN>, Out>(
            p, linear_epilogue<Out, act.value>(p));
    });
}

/// The split-capable kernel only where K is split: compiled in, its fix-up cost unsplit
/// launches ~7% on a short problem (decode-ish 256x8192x8192: 0.82x cuBLAS with it, 0.88x
/// without, the same run; bench/NOTES.md v10). AccStage: as run_sm90_cfg's.
template <class In, class Out, bool MnA, bool MnB, int BN, int ClusterM, int BM = 128,
          int AccStage = kAccBias>
cudaError_t run_sm90_split(const Problem& p) {
    return p.split.splits > 1
               ? run_sm90_cfg<In, Out, MnA, MnB, BN, true, ClusterM, BM, AccStage>(p)
               : run_sm90_cfg<In, Out, MnA, MnB, BN, false, ClusterM, BM, AccStage>(p);
}

/// Whether a paired 128-wide launch of this epilogue kind runs in pairs: on the bias +
/// activation kernel, which runs the plain product too (run_sm90_act); the linear kernel runs
/// unpaired.
constexpr bool runs_narrow_pairs(EpilogueKind kind) { return kind != EpilogueKind::Linear; }

/// 2-CTA clusters for unsplit launches (run_sm90_any never asks for both): every epilogue on
/// 128 x 256 tiles; on 128 x 128 tiles, which pair for one wave only (default_params), the
/// bias + activation kernel of 16-bit K-major operands alone, which also runs the plain
/// product there (alpha 1, no bias, no activation: the same bits as EpilogueCopy). At
/// decode-ish 256x8192x8192 pairs gained bias + activation 2.5-3.5% and the plain product on
/// that kernel 2.5-4%, while the copy kernel lost 1.5% paired (bench/NOTES.md, v25 and v26).
/// Every other 128-wide launch runs unpaired: one wave either way, so no tail split was planned
/// for pairs (sm90_cluster_m).
template <class In, class Out, bool MnA, bool MnB, int BN>
cudaError_t run_sm90_act(const Problem& p) {
    if constexpr (BN == 256) {
        if (p.cluster_m == 2) return run_sm90_cfg<In, Out, MnA, MnB, BN, false, 2>(p);
    } else if constexpr (sizeof(In) == 2 && !MnA && !MnB) {
        if (p.cluster_m == 2 && runs_narrow_pairs(epilogue_kind(p, false)))
            return run_sm90_bias_act<In, Out, MnA, MnB, BN, false, 2>(p);
    }
    return run_sm90_split<In, Out, MnA, MnB, BN, 1>(p);
}

/// 128 x BN tiles (BN = 64 or 16), unpaired, split or not: the few-row product run transposed
/// (few_rows.cuh), for 16-bit K-major operands only; anything else is refused. D's column bias
/// is the transposed problem's row bias: its bias + activation kernel starts the accumulator
/// from that (kAccRowBias), as the two-tile product's does; D's row bias runs the linear kernel.
template <class In, class Out, bool MnA, bool MnB, int BN>
cudaError_t run_sm90_narrow(const Problem& p) {
    if constexpr (sizeof(In) == 2 && !MnA && !MnB) {
        if (p.cluster_m != 1) return cudaErrorInvalidValue;
        return run_sm90_split<In, Out, MnA, MnB, BN, 1, 128, kAccRowBias>(p);
    } else {
        return cudaErrorInvalidValue;
    }
}

/// 128 x BN tiles at a fill width (BN = 192, 160 or 144: one full wave where 128 x 256 tiles
/// leave SMs idle; params.h, fill_tile_n), unpaired and unsplit, for 16-bit inputs; 144 and 160
/// for K-major B only (their tiles are not whole 64-row chunks); anything else is refused.
template <class In, class Out, bool MnA, bool MnB, int BN>
cudaError_t run_sm90_fill(const Problem& p) {
    if constexpr (sizeof(In) == 2 && (BN % 64 == 0 || !MnB)) {
        if (p.cluster_m != 1 || p.split.splits > 1) return cudaErrorInvalidValue;
        return run_sm90_cfg<In, Out, MnA, MnB, BN, false, 1>(p);
    } else {
        return cudaErrorInvalidValue;
    }
}

/// 64 x BN tiles (BN = 64 or 128, short_rows.cuh's widths, or 160 transposed) in pairs: the
/// short product, split or not at 64, unsplit at 128 and 160 (short_rows_plan never splits
/// them), for 16-bit K-major operands only; anything else is refused.
template <class In, class Out, bool MnA, bool MnB>
cudaError_t run_sm90_short(const Problem& p, int bn) {
    if constexpr (sizeof(In) == 2 && !MnA && !MnB) {
        if (p.cluster_m != 2) return cudaErrorInvalidValue;
        if (bn == 64) return run_sm90_split<In, Out, MnA, MnB, 64, 2, 64>(p);
        if (p.split.splits != 1) return cudaErrorInvalidValue;
        if (bn == 128) return run_sm90_cfg<In, Out, MnA, MnB, 128, false, 2, 64>(p);
        if (bn == 160) return run_sm90_cfg<In, Out, MnA, MnB, 160, false, 2, 64>(p);
        return cudaErrorInvalidValue;
    } else {
        return cudaErrorInvalidValue;
    }
}

/// BM x bn tiles (bn = 72, 80, 88, 96 or 104: two_tile_width) of the transposed two-tile
/// product (short_rows.cuh): 129-208 rows of A in two column tiles, unsplit, the two CTAs of a
/// weight tile unpaired or (ClusterN = 2) a cluster sharing it, on 128-row tiles for the plain
/// product also 4 x 2 clusters (ClusterM = 4: four weight tiles' CTAs share the activations'
/// tile as well; the plans take them for no other epilogue, which ran slower in them), for
/// 16-bit K-major operands only; anything else is refused. BM = 64 up to 192 rows only: at
/// 193-208 rows the pairs of 64-row tiles fit wherever the 64-row two tiles would; clustered
/// 64-row tiles 72 wide only (two_tile_cluster_n). D's column bias is the transposed problem's
/// row bias: its bias + activation kernel starts the accumulator from that (kAccRowBias), and
/// D's row bias runs the linear kernel.
constexpr int two_tile_max_bn(int bm, int cluster_n) {
    return bm == 128 ? 104 : cluster_n == 2 ? 72 : 96;
}
template <class In, class Out, bool MnA, bool MnB, int BM, int ClusterM, int ClusterN, int BN>
cudaError_t run_sm90_two_tile_width(const Problem& p) {
    if constexpr (BN > two_tile_max_bn(BM, ClusterN)) {
        return cudaErrorInvalidValue;
    } else if constexpr (ClusterM == 4) {
        if (!plain_epilogue(p)) return cudaErrorInvalidValue;
        return launch_sm90<Sm90Config<In, Out, BN, MnA, MnB, false, 4, 0, BM, ClusterN>, Out>(
            p, EpilogueCopy{});
    } else {
        return run_sm90_cfg<In, Out, MnA, MnB, BN, false, ClusterM, BM, kAccRowBias,
                            ClusterN>(p);
    }
}
template <class In, class Out, bool MnA, bool MnB, int BM, int ClusterM, int ClusterN>
cudaError_t run_sm90_two_tiles_in(const Problem& p, int bn) {
    switch (bn) {
    case 72: return run_sm90_two_tile_width<In, Out, MnA, MnB, BM, ClusterM, ClusterN, 72>(p);
    case 80: return run_sm90_two_tile_width<In, Out, MnA, MnB, BM, ClusterM, ClusterN, 80>(p);
    case 88: return run_sm90_two_tile_width<In, Out, MnA, MnB, BM, ClusterM, ClusterN, 88>(p);
    case 96: return run_sm90_two_tile_width<In, Out, MnA, MnB, BM, ClusterM, ClusterN, 96>(p);
    case 104: return run_sm90_two_tile_width<In, Out, MnA, MnB, BM, ClusterM, ClusterN, 104>(p);
    default: return cudaErrorInvalidValue;
    }
}
template <class In, class Out, bool MnA, bool MnB, int BM>
cudaError_t run_sm90_two_tiles(const Problem& p, int bn) {
    if constexpr (sizeof(In) == 2 && !MnA && !MnB) {
        if (p.split.splits > 1) return cudaErrorInvalidValue;
        if constexpr (BM == 128)
            if (p.cluster_m == 4 && p.cluster_n == 2)
                return run_sm90_two_tiles_in<In, Out, MnA, MnB, BM, 4, 2>(p, bn);
        if (p.cluster_m != 1) return cudaErrorInvalidValue;
        if (p.cluster_n == 2) return run_sm90_two_tiles_in<In, Out, MnA, MnB, BM, 1, 2>(p, bn);
        if (p.cluster_n != 1) return cudaErrorInvalidValue;
        return run_sm90_two_tiles_in<In, Out, MnA, MnB, BM, 1, 1>(p, bn);
    } else {
        return cudaErrorInvalidValue;
    }
}

/// 64 x bn tiles of the few-row product run untransposed (few_rows_untransposed_width): A's
/// rows one M-tile, one wave of the weights' N-tiles (bn one of kFewRowsUntransposedWidths),
/// unpaired and unsplit, for 16-bit K-major operands only; anything else is refused. D's
/// column bias starts the accumulator (kAccBias), its row bias runs the linear kernel. One
/// kernel set per width of the list, the run-time width picking it (a fold over the list, so
/// the list in dispatch.h is the one place the widths are named).
template <class In, class Out, bool MnA, bool MnB, size_t... I>
cudaError_t run_sm90_untransposed_in(const Problem& p, int bn, std::index_sequence<I...>) {
    cudaError_t e = cudaErrorInvalidValue;
    (void)((bn == kFewRowsUntransposedWidths[I] &&
            (e = run_sm90_cfg<In, Out, MnA, MnB, kFewRowsUntransposedWidths[I], false, 1, 64>(p),
             true)) ||
           ...);
    return e;
}
template <class In, class Out, bool MnA, bool MnB>
cudaError_t run_sm90_untransposed(const Problem& p, int bn) {
    if constexpr (sizeof(In) == 2 && !MnA && !MnB) {
        if (p.cluster_m != 1 || p.cluster_n != 1 || p.split.splits > 1)
            return cudaErrorInvalidValue;
        return run_sm90_untransposed_in<In, Out, MnA, MnB>(
            p, bn, std::make_index_sequence<std::size(kFewRowsUntransposedWidths)>{});
    } else {
        return cudaErrorInvalidValue;
    }
}

template <class In, class Out, bool MnA, bool MnB>
cudaError_t run_sm90(const Problem& p, int bn) {
    if (p.block_m == 64)
        return p.cluster_m == 2 ? run_sm90_short<In, Out, MnA, MnB>(p, bn)
               : p.transposed   ? run_sm90_two_tiles<In, Out, MnA, MnB, 64>(p, bn)
                                : run_sm90_untransposed<In, Out, MnA, MnB>(p, bn);
    return bn == 256   ? run_sm90_act<In, Out, MnA, MnB, 256>(p)
           : bn == 192 ? run_sm90_fill<In, Out, MnA, MnB, 192>(p)
           : bn == 160 ? run_sm90_fill<In, Out, MnA, MnB, 160>(p)
           : bn == 144 ? run_sm90_fill<In, Out, MnA, MnB, 144>(p)
           : bn == 128 ? run_sm90_act<In, Out, MnA, MnB, 128>(p)
           : bn > 64   ? run_sm90_two_tiles<In, Out, MnA, MnB, 128>(p, bn)
           : bn == 64  ? run_sm90_narrow<In, Out, MnA, MnB, 64>(p)
                       : run_sm90_narrow<In, Out, MnA, MnB, 16>(p);
}

}  // namespace kiln::gemm::detail

// One translation unit per (IN, OUT); KILN_SM90_MAJOR = 0..3 (bit 1: A MN-major, bit 0: B
// MN-major) restricts it to one operand order, so bench/build_gemm.sh can build the four in
// parallel; without it the unit instantiates all four.
#define KILN_GEMM_SM90_INSTANTIATE_ONE(IN, OUT, MA, MB)                                         \
    template cudaError_t kiln::gemm::detail::run_sm90<IN, OUT, MA, MB>(const Problem&, int);
// 8-bit inputs: K-major A and B only (one operand order).
#define KILN_GEMM_SM90_INSTANTIATE_KMAJOR(IN, OUT)                                              \
    KILN_GEMM_SM90_INSTANTIATE_ONE(IN, OUT, false, false)
#if defined(KILN_SM90_MAJOR)
#define KILN_GEMM_SM90_INSTANTIATE(IN, OUT)                                                     \
    KILN_GEMM_SM90_INSTANTIATE_ONE(IN, OUT, bool(KILN_SM90_MAJOR & 2), bool(KILN_SM90_MAJOR & 1))
#else
#define KILN_GEMM_SM90_INSTANTIATE(IN, OUT)                                                     \
    KILN_GEMM_SM90_INSTANTIATE_ONE(IN, OUT, false, false)                                       \
    KILN_GEMM_SM90_INSTANTIATE_ONE(IN, OUT, false, true)                                        \
    KILN_GEMM_SM90_INSTANTIATE_ONE(IN, OUT, true, false)                                        \
    KILN_GEMM_SM90_INSTANTIATE_ONE(IN, OUT, true, true)
#endif
