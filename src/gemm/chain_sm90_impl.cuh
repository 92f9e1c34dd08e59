// Internal: gemmEx with element-wise transforms on A, B and C (options.op_a / op_b / op_c) and
// row / column sums (options.row_sum / col_sum) on the sm90 kernel: the paper's Table 2 chain
// (e.g. D = relu((A + a)(B + b)^T + relu(C) + bias)) in one kernel. A and B are transformed in
// place in the shared-memory stage (operand_transform.cuh), C right after its load in the
// epilogue, D by the epilogue's alpha / bias / activation, then summed (reduce.cuh) and stored.
// Included by chain_sm90_<type>.cu, one translation unit per 16-bit type T (A, B and C of type
// T, K-major A and B: gemmEx(Op::N, Op::T, ...)); other layouts run on the generic kernel.
#pragma once
#include "sm90_impl.cuh"
#include "kiln/gemm/reduce.cuh"
#include "kiln/gemm/transform.cuh"

namespace kiln::gemm::detail {

inline sm90::Affine16 affine16(const ElementOp& op) { return {op.scale, op.shift, op.relu}; }

/// BN = 256 only (one tile shape keeps the unit small; the heuristic's 128-wide tiles help
/// only problems too small to fill the SMs). With an identity op_a and op_b the kernel skips
/// the shared-memory pass (only C is transformed and / or D summed).
template <class T>
cudaError_t run_chain_sm90(const Problem& p) {
    const bool operands = !p.op_a.identity() || !p.op_b.identity();
    return with_activation(p.act, [&](auto act) {
        using Cfg = Sm90Config<T, T, 256, false, false>;
        WithReductions<EpilogueLinear<T, act.value, false, transform::Affine>> epi{
            linear_epilogue<T, act.value, transform::Affine>(p),
            {p.row_sum, p.col_sum, p.M, p.N}};
        epi.base.c_op = {p.op_c.scale, p.op_c.shift, p.op_c.relu};
        auto launch = [&](const auto& xf) {
            return sm90::launch_views<Cfg>(p.va, p.vb, static_cast<T*>(p.c), p.vd, p.M, p.N, p.K,
                                           p.batch, epi, p.stream, 16, xf);
        };
        if (!operands) return launch(sm90::NoOperandTransform{});
        return launch(sm90::OperandTransform<sm90::Affine16, sm90::Affine16>{affine16(p.op_a),
                                                                            affine16(p.op_b)});
    });
}

}  // namespace kiln::gemm::detail

#define KILN_GEMM_CHAIN_INSTANTIATE(T)                                                          \
    template cudaError_t kiln::gemm::detail::run_chain_sm90<T>(const Problem&);
