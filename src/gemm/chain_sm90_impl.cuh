// Internal: gemmEx with element-wise transforms on A, B and C (options.op_a / op_b / op_c) and
// row / column sums (options.row_sum / col_sum) on the sm90 kernel: the paper's Table 2 chain
// (e.g. D = relu((A + a)(B + b)^T + relu(C) + bias)) in one kernel. Affine A and B transforms
// fold into the epilogue when the caller gives a workspace (affine_fold.cuh: a row-sum prepass
// over A and B), others are applied in place in the shared-memory stage
// (operand_transform.cuh); C is transformed right after its load in the epilogue, D by the
// epilogue's alpha / bias / activation, then summed (reduce.cuh) and stored.
// Included by chain_sm90_<type>.cu, one translation unit per 16-bit type T (A, B and C of type
// T, K-major A and B: gemmEx(Op::N, Op::T, ...)); other layouts run on the generic kernel.
#pragma once
#include "sm90_impl.cuh"
#include "kiln/gemm/affine_fold.cuh"
#include "kiln/gemm/reduce.cuh"
#include "kiln/gemm/transform.cuh"

namespace kiln::gemm::detail {

inline sm90::Affine16 affine16(const ElementOp& op) { return {op.scale, op.shift, op.relu}; }

/// Affine A/B transforms (no ReLU) with a large enough workspace fold out of the mainloop
/// (affine_fold.cuh): launches the row-sum prepasses and points `fold` at their results.
/// False: no fold (the caller transforms in shared memory).
template <class T, class E>
bool launch_fold(const Problem& p, AffineFold<E>& fold) {
    const bool affine = !p.op_a.relu && !p.op_b.relu;
    const int64_t u_len = (int64_t(p.batch) * p.M + 1) / 2 * 2, v_stride = (p.N + 1) / 2 * 2;
    const int64_t bytes = 4 * (u_len + int64_t(p.batch) * v_stride);
    if (!affine || !p.workspace || p.workspace_bytes < bytes || p.batch > 65535) return false;
    float* u = static_cast<float*>(p.workspace);
    float* v = u + u_len;
    const ElementOp &a = p.op_a, &b = p.op_b;
    constexpr int Warps = 8;
    auto rows = [&](const void* x, int n, int64_t ld, int64_t bs, float mul, float add, float* out,
                    int64_t stride) {
        const dim3 grid((n + Warps - 1) / Warps, p.batch);
        fold_prepass<<<grid, 32 * Warps, 0, p.stream>>>(
            static_cast<const T*>(x), n, p.K, ld, p.batch > 1 ? bs : 0, mul, add, out, stride);
    };
    // u[i] = sa*cb*rA[i] + ca*cb*K, v[j] = ca*sb*rB[j] (B stored N x K: gemmEx's Op::T)
    rows(p.a, p.M, p.lda, p.sa, a.scale * b.shift, a.shift * b.shift * float(p.K), u, p.M);
    rows(p.b, p.N, p.ldb, p.sb, a.shift * b.scale, 0.f, v, v_stride);
    fold.scale = a.scale * b.scale;
    fold.u = u, fold.v = v, fold.u_stride = p.M, fold.v_stride = v_stride;
    return true;
}

/// BN = 256 only (one tile shape keeps the unit small; the heuristic's 128-wide tiles help
/// only problems too small to fill the SMs). Without A/B transforms, or with folded ones, the
/// kernel skips the shared-memory pass (C transformed, D summed in the epilogue).
/// The epilogue's inputs (C, the column bias, the fold's v) are staged in shared memory during
/// the mainloop (epilogue_stage.cuh); the 64 KiB they take leave room for 3 stages, not 4.
/// A C that TMA cannot read (ldc or pointer not 16-byte aligned) is loaded from global memory
/// by a kernel that stages only the column vectors.
template <class T>
cudaError_t run_chain_sm90(const Problem& p) {
    const bool operands = !p.op_a.identity() || !p.op_b.identity();
    return with_activation(p.act, [&](auto act) {
        using Linear = EpilogueLinear<T, act.value, false, transform::Affine>;
        WithReductions<AffineFold<Linear>> epi{
            {linear_epilogue<T, act.value, transform::Affine>(p)},
            {p.row_sum, p.col_sum, p.M, p.N}};
        epi.base.base.c_op = transform::Affine::make(p.op_c.scale, p.op_c.shift, p.op_c.relu);
        auto launch_staging = [&](auto stage, const auto& xf) {
            using Cfg = sm90::Config<T, T, 256, 3, sm90_default_cluster_m(256), false, false, 1,
                                     false, decltype(stage)::value>;
            return sm90::launch_views<Cfg>(p.va, p.vb, static_cast<T*>(p.c), p.vd, p.M, p.N, p.K,
                                           p.batch, epi, p.stream, 16, xf);
        };
        auto launch = [&](const auto& xf) {
            const cudaError_t e =
                launch_staging(std::integral_constant<int, stage_columns(2) | kStageC>{}, xf);
            if (e != cudaErrorInvalidValue || !epi.c_source().ptr) return e;
            return launch_staging(std::integral_constant<int, stage_columns(2)>{}, xf);
        };
        if (!operands || launch_fold<T>(p, epi.base)) return launch(sm90::NoOperandTransform{});
        return launch(sm90::OperandTransform<sm90::Affine16, sm90::Affine16>{affine16(p.op_a),
                                                                            affine16(p.op_b)});
    });
}

}  // namespace kiln::gemm::detail

#define KILN_GEMM_CHAIN_INSTANTIATE(T)                                                          \
    template cudaError_t kiln::gemm::detail::run_chain_sm90<T>(const Problem&);
