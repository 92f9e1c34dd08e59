#include "ir/event.h"

namespace kiln::event {

int64_t TensorDecl::bytes() const {
    int64_t n = int64_t{ir::dtype_bytes(dtype)} * stages;
    for (int64_t d : shape)
        n *= d;
    return n;
}

const LeafDef* EventProgram::find_leaf(const std::string& n) const {
    for (const auto& l : leaves)
        if (l.name == n)
            return &l;
    return nullptr;
}

std::string_view spelling(OpKind k) {
    switch (k) {
    case OpKind::Alloc: return "alloc";
    case OpKind::Part: return "part";
    case OpKind::Copy: return "copy";
    case OpKind::Call: return "call";
    case OpKind::Join: return "join";
    case OpKind::For: return "for";
    case OpKind::PFor: return "pfor";
    }
    return "?";
}

std::string_view spelling(Role r) {
    switch (r) {
    case Role::Any: return "any";
    case Role::Dma: return "dma";
    case Role::Compute: return "compute";
    }
    return "?";
}

bool is_loop(const Op& op) { return op.kind == OpKind::For || op.kind == OpKind::PFor; }

void walk(const Block& b, const std::function<void(const Op&)>& f) {
    for (const auto& op : b.ops) {
        f(op);
        if (is_loop(op))
            walk(op.loop.body, f);
    }
}

void walk(Block& b, const std::function<void(Op&)>& f) {
    for (auto& op : b.ops) {
        f(op);
        if (is_loop(op))
            walk(op.loop.body, f);
    }
}

std::vector<ProcDim> event_dims(const Op& op) {
    std::vector<ProcDim> dims = op.over;
    if (op.kind == OpKind::PFor)
        for (std::size_t i = 0; i < op.loop.vars.size(); ++i)
            dims.push_back({op.loop.vars[i], op.loop.level, op.loop.extents[i]});
    return dims;
}

} // namespace kiln::event
