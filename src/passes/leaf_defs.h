#pragma once
// The leaf variants an event program calls (event::LeafDef), collected while the dependence
// analysis lowers leaf launches: one definition per leaf variant and concrete parameter shapes,
// plus the synthesized fills that start a reduce argument's fresh allocation.
//
// A leaf's parameters are its task's, in signature order, followed by the tensors the leaf
// variant creates (`let t = tensor`): those become allocations of the event program (in the
// memory the instance maps them to) passed as trailing `write` parameters, so every tensor the
// leaf touches is visible to the later passes.
#include "ir/event.h"
#include "passes/task_tree.h"

#include <set>
#include <string>
#include <vector>

namespace kiln::passes {

class LeafDefs {
public:
    // The definition a call of leaf node `leaf` uses (created on first use). Shape symbols in
    // the leaf's scalar operands are replaced by their values.
    Result<std::string> use(const TaskNode& leaf, const ir::Program& program);
    // `leaf zero_<k>(r: write DTYPE[shape]) { fill(r, 0.0) }`; `lowest_<k>`, filling -inf, for
    // reduce(max).
    std::string fill_for_reduce(ir::DType dtype, const ir::Shape& shape, ir::Privilege reduce);

    const event::LeafDef* find(const std::string& name) const;
    std::vector<event::LeafDef> take() { return std::move(defs_); }

private:
    // The definition made for `key` (a leaf variant, or a fill) with def's parameters, added
    // under `base` (made unique) if there is none.
    std::string add(event::LeafDef def, const std::string& key, const std::string& base);
    std::vector<event::LeafDef> defs_;
    std::vector<std::string> keys_;
    std::set<std::string> taken_;
};

} // namespace kiln::passes
