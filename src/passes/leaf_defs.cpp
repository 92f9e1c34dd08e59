#include "passes/leaf_defs.h"

#include "passes/substitute.h"

#include <algorithm>
#include <limits>

namespace kiln::passes {
namespace {

bool same_params(const std::vector<event::LeafParam>& a, const std::vector<event::LeafParam>& b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].name != b[i].name || a[i].is_tensor != b[i].is_tensor ||
            a[i].privilege != b[i].privilege || a[i].dtype != b[i].dtype ||
            a[i].shape != b[i].shape)
            return false;
    return true;
}

std::vector<event::LeafParam> leaf_params(const TaskNode& leaf, const ir::Task& task) {
    std::vector<event::LeafParam> params;
    for (const auto& p : task.params) {
        if (!p.is_tensor) {
            params.push_back({p.name, false, ir::Privilege::Read, p.dtype, {}});
            continue;
        }
        const TensorArg* t = leaf.find_tensor(p.name);
        params.push_back({p.name, true, p.privilege, p.dtype, t ? t->shape : ir::Shape{}});
    }
    for (const auto& c : leaf.created)
        params.push_back({c.name, true, ir::Privilege::Write, c.dtype, c.shape});
    return params;
}

// The leaf's operations with its shape symbols replaced by their values; scalar parameters stay
// names, bound per call.
Result<std::vector<ir::LeafOp>> leaf_body(const TaskNode& leaf) {
    Bindings names;
    for (const auto& [n, v] : leaf.symbols)
        names[n] = ir::int_lit(v);
    for (const auto& s : leaf.scalars)
        names[s.param] = ir::name_ref(s.param);
    std::vector<ir::LeafOp> body;
    for (const auto& stmt : leaf.variant_ir->body) {
        const auto* op = std::get_if<ir::LeafOp>(&stmt.node);
        if (!op)
            continue;
        ir::LeafOp out = *op;
        for (auto& operand : out.operands) {
            if (operand.is_tensor())
                continue;
            auto e = substitute(operand.scalar(), names, nullptr);
            if (!e)
                return Diagnostic{op->loc, "leaf variant " + leaf.variant + ": " +
                                               e.errors().front().message};
            operand.value = *e;
        }
        body.push_back(std::move(out));
    }
    return body;
}

} // namespace

std::string LeafDefs::add(event::LeafDef def, const std::string& key, const std::string& base) {
    for (std::size_t i = 0; i < defs_.size(); ++i)
        if (keys_[i] == key && same_params(defs_[i].params, def.params))
            return defs_[i].name;
    std::string name = base;
    for (int k = 1; taken_.count(name); ++k)
        name = base + "_" + std::to_string(k);
    def.name = name;
    taken_.insert(name);
    defs_.push_back(std::move(def));
    keys_.push_back(key);
    return name;
}

const event::LeafDef* LeafDefs::find(const std::string& name) const {
    for (const auto& d : defs_)
        if (d.name == name)
            return &d;
    return nullptr;
}

Result<std::string> LeafDefs::use(const TaskNode& leaf, const ir::Program& program) {
    const ir::Task* task = program.find_task(leaf.task);
    if (!task)
        return Diagnostic{leaf.variant_ir->loc,
                          "leaf variant " + leaf.variant + " is of unknown task " + leaf.task};
    auto body = leaf_body(leaf);
    if (!body)
        return body.errors();
    return add(event::LeafDef{"", leaf_params(leaf, *task), std::move(*body)}, leaf.variant,
               leaf.variant);
}

std::string LeafDefs::fill_for_reduce(ir::DType dtype, const ir::Shape& shape,
                                      ir::Privilege reduce) {
    bool max = reduce == ir::Privilege::ReduceMax;
    double identity = max ? -std::numeric_limits<double>::infinity() : 0.0;
    ir::LeafOp fill{"fill", "", {{ir::TensorRef{"r", {}, {}}}, {ir::float_lit(identity)}}, {}};
    event::LeafDef def{"", {{"r", true, ir::Privilege::Write, dtype, shape}}, {fill}};
    const std::string key = max ? "lowest" : "zero";
    const auto count = std::count(keys_.begin(), keys_.end(), key);
    return add(std::move(def), key, key + "_" + std::to_string(count));
}

} // namespace kiln::passes
