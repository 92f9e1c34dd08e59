#include "passes/operand.h"

namespace kiln::passes {

OperandView view_operand(const ir::Operand &op,
                         const std::function<bool(const std::string &)> &names_tensor) {
    OperandView v;
    if (op.is_tensor()) {
        const auto &ref = op.tensor();
        v.is_tensor = !ref.indices.empty() || names_tensor(ref.name);
        if (v.is_tensor)
            v.tensor = ref;
        else
            v.scalar = ir::name_ref(ref.name, ref.loc);
        return v;
    }
    const auto &e = op.scalar();
    v.is_tensor = e->kind == ir::ExprKind::Name && names_tensor(e->name);
    if (v.is_tensor)
        v.tensor = ir::TensorRef{e->name, {}, e->loc};
    else
        v.scalar = e;
    return v;
}

std::string ref_text(const ir::TensorRef &ref) {
    if (ref.indices.empty())
        return ref.name;
    std::string out = ref.name + "[";
    for (std::size_t i = 0; i < ref.indices.size(); ++i)
        out += (i ? ", " : "") + ir::to_string(ref.indices[i]);
    return out + "]";
}

} // namespace kiln::passes
