#include "passes/tensor_access.h"

namespace kiln::passes {

using event::Op;
using event::OpKind;

TensorAccess::TensorAccess(const event::EventProgram& program) {
    event::walk(program.body, [&](const Op& op) {
        if (op.kind == OpKind::Alloc)
            allocs_[op.alloc.name] = &op;
        if (op.kind == OpKind::Part)
            partition_sources_[op.part.name] = op.part.source;
    });
    for (const Op& op : program.body.ops)
        collect(op, program);
}

const TensorUse& TensorAccess::collect(const Op& op, const event::EventProgram& program) {
    TensorUse& use = uses_[&op];
    switch (op.kind) {
    case OpKind::Copy:
        add(tensor_of(op.src), true, false, use);
        add(tensor_of(op.dst), op.mode != event::CopyMode::Assign, true, use);
        break;
    case OpKind::Call:
        if (const auto* leaf = program.find_leaf(op.callee)) {
            std::size_t arg = 0;
            for (const auto& param : leaf->params) {
                if (!param.is_tensor || arg >= op.args.size())
                    continue;
                bool reduces = ir::privilege_reduces(param.privilege);
                add(tensor_of(op.args[arg++]), reduces || ir::privilege_reads(param.privilege),
                    reduces || ir::privilege_writes(param.privilege), use);
            }
        }
        break;
    case OpKind::For:
    case OpKind::PFor:
        for (const Op& inner : op.loop.body.ops) {
            const TensorUse& u = collect(inner, program);
            use.reads.insert(u.reads.begin(), u.reads.end());
            use.writes.insert(u.writes.begin(), u.writes.end());
        }
        return use;
    default:
        break;
    }
    for (const auto& t : use.reads)
        accesses_[t].push_back(&op);
    for (const auto& t : use.writes)
        if (!use.reads.count(t))
            accesses_[t].push_back(&op);
    return use;
}

void TensorAccess::add(const std::string& tensor, bool reads, bool writes, TensorUse& use) const {
    if (reads)
        use.reads.insert(tensor);
    if (writes)
        use.writes.insert(tensor);
}

const Op* TensorAccess::alloc_of(const std::string& name) const {
    auto it = allocs_.find(name);
    return it == allocs_.end() ? nullptr : it->second;
}

std::string TensorAccess::tensor_of(const event::View& v) const {
    std::string name = v.name;
    // A partition of a piece of another partition chains back to a tensor; the bound guards
    // against a malformed cycle.
    for (std::size_t hops = 0; hops <= partition_sources_.size(); ++hops) {
        auto it = partition_sources_.find(name);
        if (it == partition_sources_.end())
            break;
        name = it->second.name;
    }
    return name;
}

const TensorUse& TensorAccess::use(const Op& op) const {
    static const TensorUse none;
    auto it = uses_.find(&op);
    return it == uses_.end() ? none : it->second;
}

const std::vector<const Op*>& TensorAccess::accesses(const std::string& name) const {
    static const std::vector<const Op*> none;
    auto it = accesses_.find(name);
    return it == accesses_.end() ? none : it->second;
}

} // namespace kiln::passes
