#include "passes/warp_specialize.h"

#include "passes/add_ref.h"
#include "passes/tensor_access.h"

#include <algorithm>
#include <map>
#include <optional>

namespace kiln::passes {

using event::Op;
using event::OpKind;
using event::Role;

namespace {

constexpr int64_t kWarpgroupThreads = 128;
// setmaxnreg takes multiples of 8 in [24, 256].
constexpr int64_t kRegisterGranule = 8;
// The DMA warpgroup only issues TMA copies and waits on barriers: 40 registers per thread as in
// CUTLASS's producer warpgroup, 24 (the minimum) when three compute warpgroups need the rest.
constexpr int64_t kDmaRegisters = 40;
constexpr int64_t kDmaRegistersTight = 24;

bool global_to_shared(const Op& op, const TensorAccess& access) {
    auto memory = [&](const event::View& v) {
        const Op* alloc = access.alloc_of(access.tensor_of(v));
        return alloc ? alloc->alloc.memory : ir::Memory::None;
    };
    return op.kind == OpKind::Copy && op.mode == event::CopyMode::Assign &&
           memory(op.src) == ir::Memory::Global && memory(op.dst) == ir::Memory::Shared;
}

class RoleAssigner {
public:
    explicit RoleAssigner(const TensorAccess& access) : access_(access) {}

    // Assigns the roles of a block's operations, in textual order (a join's inputs come first).
    std::optional<Role> assign(event::Block& block) {
        std::optional<Role> common;
        for (Op& op : block.ops) {
            if (op.kind == OpKind::Alloc || op.kind == OpKind::Part)
                continue;
            op.role = role_of(op);
            roles_[op.result] = signal_role(op);
            common = !common || *common == op.role ? op.role : Role::Any;
        }
        return common;
    }

    // The role that signals event `id` (signal_role); nullopt for an event from outside the
    // block (it completed before the block started, so waiting on it needs no barrier).
    std::optional<Role> role(const std::string& id) const {
        auto it = roles_.find(id);
        return it == roles_.end() ? std::nullopt : std::optional<Role>(it->second);
    }

private:
    Role role_of(Op& op) {
        switch (op.kind) {
        case OpKind::Copy:
            return global_to_shared(op, access_) ? Role::Dma : Role::Compute;
        case OpKind::Join:
            return join_role(op);
        case OpKind::For:
        case OpKind::PFor:
            return assign(op.loop.body).value_or(Role::Compute);
        default:
            return Role::Compute;
        }
    }

    Role join_role(const Op& join) const {
        std::optional<Role> common;
        for (const auto& ref : join.after) {
            Role r = role(ref.id).value_or(Role::Compute);
            common = !common || *common == r ? r : Role::Compute;
        }
        return common && *common != Role::Any ? *common : Role::Compute;
    }

    const TensorAccess& access_;
    std::map<std::string, Role> roles_;
};

// Marks the references between roles; a loop both roles run hands each of its own to the first
// operations of its body in the other role (add_wait).
void mark_cross(event::Block& block, const RoleAssigner& roles) {
    event::walk(block, [&](Op& op) {
        std::vector<event::EventRef> refs = std::move(op.after);
        op.after.clear();
        for (auto& ref : refs) {
            if (auto producer = roles.role(ref.id))
                add_wait(op, std::move(ref), *producer);
            else
                op.after.push_back(std::move(ref));
        }
    });
}

int64_t compute_warpgroups(const event::Block& body) {
    int64_t n = 1;
    event::walk(body, [&](const Op& op) {
        for (const auto& d : op.over)
            if (d.level == ir::Level::Warpgroup)
                n = std::max(n, d.extent);
    });
    return n;
}

// Splits the register file between one DMA warpgroup and `compute` compute warpgroups.
Result<std::pair<int64_t, int64_t>> register_budgets(const Op& pfor, int64_t compute,
                                                     const mapping::Machine& machine) {
    int64_t fits = machine.info(ir::Level::Warpgroup).count;
    if (fits > 0 && compute + 1 > fits)
        return Diagnostic{
            pfor.loc, "warp specialization of pfor %" + pfor.result + " needs " +
                          std::to_string(compute + 1) + " warpgroups (" + std::to_string(compute) +
                          " compute + 1 DMA) but a block holds at most " + std::to_string(fits)};
    int64_t per_thread = machine.registers_per_sm / kWarpgroupThreads;
    int64_t dma = compute >= 3 ? kDmaRegistersTight : kDmaRegisters;
    int64_t cap = machine.max_registers_per_thread / kRegisterGranule * kRegisterGranule;
    int64_t share = (per_thread - dma) / compute / kRegisterGranule * kRegisterGranule;
    return std::pair{dma, std::min(share, cap)};
}

Result<bool> specialize(Op& pfor, const TensorAccess& access, const mapping::Machine& machine) {
    auto budgets = register_budgets(pfor, compute_warpgroups(pfor.loop.body), machine);
    if (!budgets)
        return budgets.errors();
    RoleAssigner roles(access);
    roles.assign(pfor.loop.body);
    mark_cross(pfor.loop.body, roles);
    pfor.loop.controls.dma_registers = budgets->first;
    pfor.loop.controls.compute_registers = budgets->second;
    return true;
}

} // namespace

Result<event::EventProgram> warp_specialize(event::EventProgram program, const PassContext& ctx) {
    TensorAccess access(program);
    std::vector<Diagnostic> errors;
    event::walk(program.body, [&](Op& op) {
        if (op.kind != OpKind::PFor || op.loop.level != ir::Level::Block ||
            !op.loop.controls.warpspecialize)
            return;
        auto done = specialize(op, access, ctx.machine);
        if (!done)
            errors.insert(errors.end(), done.errors().begin(), done.errors().end());
    });
    if (!errors.empty())
        return errors;
    return program;
}

} // namespace kiln::passes
