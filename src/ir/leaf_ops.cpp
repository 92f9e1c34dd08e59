#include "ir/leaf_ops.h"

namespace kiln::ir {

const std::vector<LeafOpInfo>& leaf_ops() {
    using U = OperandUse;
    using K = LeafKind;
    static const std::vector<LeafOpInfo> ops = [] {
        std::vector<LeafOpInfo> v = {
            {"mma", K::Mma, {U::Accumulate, U::Read, U::Read}},
            {"mma_bt", K::MmaBT, {U::Accumulate, U::Read, U::Read}},
            {"copy", K::Copy, {U::Write, U::Read}},
            {"accumulate", K::AddInto, {U::Accumulate, U::Read}},
            {"fill", K::Fill, {U::Write, U::Scalar}},
            {"scale", K::Scale, {U::Write, U::Read, U::Scalar}},
            // mask(S, row0, col0, ncols, causal)
            {"mask", K::Mask, {U::Accumulate, U::Scalar, U::Scalar, U::Scalar, U::Scalar}},
            {"call_external", K::External, {}},
        };
        for (auto n : {"exp", "exp2", "log", "neg", "abs", "sqrt", "recip", "relu", "sigmoid",
                       "silu", "gelu", "tanh"})
            v.push_back({n, K::Unary, {U::Write, U::Read}});
        for (auto n : {"add", "sub", "mul", "div", "max", "min"})
            v.push_back({n, K::Binary, {U::Write, U::ReadOrScalar, U::ReadOrScalar}});
        for (auto n : {"rowsum", "rowmax"})
            v.push_back({n, K::RowReduce, {U::Accumulate, U::Read}});
        for (auto n : {"colsum", "colmax"})
            v.push_back({n, K::ColReduce, {U::Accumulate, U::Read}});
        return v;
    }();
    return ops;
}

const LeafOpInfo* find_leaf_op(std::string_view name) {
    for (const auto& op : leaf_ops())
        if (op.name == name)
            return &op;
    return nullptr;
}

} // namespace kiln::ir
