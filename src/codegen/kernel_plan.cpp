#include "codegen/kernel_plan.h"

#include "codegen/fragment_ops.h"

#include <algorithm>

namespace kiln::codegen {

std::string op_name(const event::Op& op) {
    std::string name(event::spelling(op.kind));
    if (op.kind == event::OpKind::Alloc)
        name += " " + op.alloc.name;
    else if (op.kind == event::OpKind::Part)
        name += " " + op.part.name;
    else
        name += " %" + op.result;
    return op.note.empty() ? name : name + " (" + op.note + ")";
}

void unsupported(const event::Op& op, const std::string& why) {
    throw DiagnosticError(Diagnostic{op.loc, "codegen: cannot lower " + op_name(op) + ": " + why});
}

namespace {

// Names the generated kernel declares itself; an IR variable with one of them would be shadowed.
bool reserved(const std::string& var) {
    static const char* names[] = {
        "tile",        "st",         "held",    "smem",         "smem_raw",
        "full",        "empty",      "p",       "ks",           "e",
        "h",           "n8",         "row",     "col",          "row0",
        "col0",        "out",        "v0",      "v1",           "da0",
        "db0",         "da1",        "db1",     "wg_thread",    "in_plane",
        "group_first", "group_rows", "staging", "staging_smem", "staging_barrier",
        "srow",        "scol",       "round",   "reg",          "c",
        "panel",       "at",         "pair",    "cta_rank"};
    for (const char* n : names)
        if (var == n)
            return true;
    return false;
}

void check_vars(const event::Op& op, const std::vector<std::string>& vars) {
    for (const auto& v : vars)
        if (reserved(v))
            unsupported(op, "variable '" + v + "' collides with a name of the generated kernel");
}

bool is_thread_grid(const std::vector<event::ProcDim>& over) {
    return over.size() == 3 && over[0].level == ir::Level::Warpgroup &&
           over[1].level == ir::Level::Warp && over[1].extent == 4 &&
           over[2].level == ir::Level::Thread && over[2].extent == 32;
}

class Planner {
public:
    // `placed`: alloc-smem has run, so every SHARED buffer but those the generator keeps in
    // registers has its offset.
    Planner(const event::EventProgram& p, bool placed) : placed_(placed) { plan_.name = p.name; }

    KernelPlan run(const event::EventProgram& p) {
        for (const auto& op : p.body.ops)
            top_level(op);
        if (!plan_.grid)
            throw DiagnosticError(
                Diagnostic{{}, "codegen: program '" + p.name + "' has no BLOCK pfor (no kernel)"});
        plan_.params.insert(plan_.params.end(), workspaces_.begin(), workspaces_.end());
        return std::move(plan_);
    }

private:
    void top_level(const event::Op& op) {
        switch (op.kind) {
        case event::OpKind::Alloc:
            if (op.alloc.memory != ir::Memory::Global)
                unsupported(op, "top-level tensors must be GLOBAL (entry parameters or "
                                "workspaces), not " +
                                    std::string(ir::spelling(op.alloc.memory)));
            plan_.scope.add(op);
            (op.alloc.param ? plan_.params : workspaces_)
                .push_back(&plan_.scope.tensors.at(op.alloc.name));
            return;
        case event::OpKind::Part:
            plan_.scope.add(op);
            return;
        case event::OpKind::PFor:
            if (op.loop.controls.warpspecialize)
                return grid(op);
            return elementwise_grid(op);
        default:
            unsupported(op, "only entry tensors, partitions and BLOCK pfors at top level");
        }
    }

    bool is_kernel(const std::string& id) const {
        auto named = [&](const event::Op* g) { return g->result == id; };
        return std::any_of(plan_.pre_grids.begin(), plan_.pre_grids.end(), named) ||
               std::any_of(plan_.post_grids.begin(), plan_.post_grids.end(), named) ||
               (plan_.grid && named(plan_.grid));
    }

    // A pfor of BLOCK-level element-wise calls on GLOBAL pieces, waiting on nothing but earlier
    // kernels: a reduction's zeroing before the blocks add into it, or a conversion of their
    // sum after.
    void elementwise_grid(const event::Op& op) {
        if (op.loop.level != ir::Level::Block)
            unsupported(op, "a top-level pfor must be at BLOCK level");
        check_vars(op, op.loop.vars);
        for (const auto& inner : op.loop.body.ops) {
            if (inner.kind == event::OpKind::Part) {
                plan_.scope.add(inner);
                continue;
            }
            if (inner.kind != event::OpKind::Call || inner.level != ir::Level::Block ||
                !inner.over.empty())
                unsupported(op, "the generator emits warp-specialized kernels, and BLOCK pfors "
                                "of element-wise calls on global tensors; " +
                                    op_name(inner) +
                                    " is neither (map the block instance with `warpspecialize`)");
            for (const auto& r : inner.after)
                if (!is_kernel(r.id))
                    unsupported(inner,
                                "an element-wise kernel's call may wait only on earlier kernels");
        }
        (plan_.grid ? plan_.post_grids : plan_.pre_grids).push_back(&op);
    }

    void grid(const event::Op& op) {
        const auto& c = op.loop.controls;
        if (plan_.grid)
            unsupported(op, "a second BLOCK pfor (one kernel per program)");
        if (op.loop.level != ir::Level::Block)
            unsupported(op, "a top-level pfor must be at BLOCK level");
        if (!c.warpspecialize || c.dma_registers == 0 || c.compute_registers == 0)
            unsupported(op, "the generator emits warp-specialized kernels only (map the block "
                            "instance with `warpspecialize`)");
        plan_.grid = &op;
        check_vars(op, op.loop.vars);
        for (const auto& inner : op.loop.body.ops)
            block_body(inner);
        if (!plan_.loop)
            unsupported(op, "no pipelined loop in the block body");
    }

    void compute_call(const event::Op& op) {
        if (op.role != event::Role::Compute || !is_thread_grid(op.over))
            unsupported(op, "compute ops must run @THREAD over (WARPGROUP G, WARP 4, THREAD 32)");
        check_vars(op, {op.over[0].var, op.over[1].var, op.over[2].var});
        if (plan_.compute_dims.empty()) {
            plan_.compute_dims = op.over;
            plan_.compute_warpgroups = op.over[0].extent;
        } else if (op.over[0].extent != plan_.compute_warpgroups ||
                   op.over[0].var != plan_.compute_dims[0].var ||
                   op.over[1].var != plan_.compute_dims[1].var ||
                   op.over[2].var != plan_.compute_dims[2].var) {
            unsupported(op, "compute calls disagree on their processor dimensions");
        }
    }

    void register_fragment(const event::Op& op) {
        if (!is_thread_grid(op.over))
            unsupported(op, "REGISTER tensors must be per-thread fragments over (WARPGROUP G, "
                            "WARP 4, THREAD 32)");
        plan_.scope.add(op);
        plan_.registers.push_back(&plan_.scope.tensors.at(op.alloc.name));
    }

    // An unstaged SHARED buffer of the block (alloc-smem placed it), one instance per tile or
    // per (warpgroup, warp) when allocated over compute processors.
    void shared_buffer(const event::Op& op) {
        for (const auto& d : op.over)
            if (d.level != ir::Level::Warpgroup && d.level != ir::Level::Warp)
                unsupported(op, "a SHARED buffer may be replicated over warpgroups and warps only");
        plan_.scope.add(op);
        plan_.shared.push_back(&plan_.scope.tensors.at(op.alloc.name));
        plan_.shared_over[op.alloc.name] = op.over;
        int64_t instances = 1;
        for (const auto& d : op.over)
            instances *= d.extent;
        if (op.alloc.offset >= 0)
            plan_.smem_bytes =
                std::max(plan_.smem_bytes, op.alloc.offset + instances * op.alloc.bytes());
    }

    // A per-thread copy between a register fragment and shared memory (or a reducing copy after
    // the loop).
    void thread_copy(const event::Op& op, std::vector<const event::Op*>& into) {
        if (op.role != event::Role::Compute)
            unsupported(op, "copies of the compute threads only here (DMA copies fill buffers)");
        compute_call(op);
        into.push_back(&op);
    }

    void block_body(const event::Op& op) {
        switch (op.kind) {
        case event::OpKind::Alloc:
            if (op.alloc.memory == ir::Memory::Register)
                return register_fragment(op);
            if (op.alloc.memory == ir::Memory::Shared && !plan_.loop)
                return shared_buffer(op);
            unsupported(op, "block-level tensors must be per-thread REGISTER fragments or SHARED "
                            "buffers allocated before the pipelined loop");
        case event::OpKind::Part:
            plan_.scope.add(op);
            return;
        case event::OpKind::Call:
            compute_call(op);
            (plan_.loop ? plan_.after_loop : plan_.before_loop).push_back(&op);
            return;
        case event::OpKind::Copy:
            if (op.role == event::Role::Dma) {
                if (plan_.loop || op.mode != event::CopyMode::Assign)
                    unsupported(op, "a DMA copy outside the pipelined loop must be a plain copy "
                                    "before it (loaded once per tile)");
                plan_.once_copies.push_back(&op);
                return;
            }
            return thread_copy(op, plan_.loop ? plan_.after_loop : plan_.before_loop);
        case event::OpKind::Join:
            return; // references to it are lowered (or refused) where they are made
        case event::OpKind::For:
            return pipelined_loop(op);
        default:
            unsupported(op, "only register tensors, partitions, compute calls, reducing copies "
                            "and one pipelined for inside the block");
        }
    }

    void pipelined_loop(const event::Op& op) {
        if (plan_.loop)
            unsupported(op, "a second loop in the block (one pipelined loop per kernel)");
        if (op.loop.vars.size() != 1 || op.loop.controls.pipeline < 1)
            unsupported(op, "the block's loop must be a pipelined single-variable for");
        plan_.loop = &op;
        check_vars(op, op.loop.vars);
        plan_.stages = op.loop.controls.pipeline;
        for (const auto& inner : op.loop.body.ops)
            loop_body(inner);
        if (plan_.dma_copies.empty() || plan_.loop_calls.empty())
            unsupported(op, "the pipelined loop needs DMA copies and compute calls");
        if (!plan_.once_copies.empty() && plan_.single_call_loop())
            unsupported(*plan_.once_copies[0], "a copy loaded once per tile needs a loop of "
                                               "several calls (attention's form)");
    }

    void loop_body(const event::Op& op) {
        switch (op.kind) {
        case event::OpKind::Alloc:
            if (op.alloc.memory == ir::Memory::Register)
                return register_fragment(op);
            return staged_buffer(op);
        case event::OpKind::Part:
            plan_.scope.add(op);
            return;
        case event::OpKind::Copy:
            if (op.mode != event::CopyMode::Assign)
                unsupported(op, "copies in the pipelined loop must be plain copies");
            if (op.role != event::Role::Dma)
                return thread_copy(op, plan_.loop_body);
            plan_.dma_copies.push_back(&op);
            return;
        case event::OpKind::Call:
            compute_call(op);
            plan_.loop_calls.push_back(&op);
            plan_.loop_body.push_back(&op);
            return;
        default:
            unsupported(op, "only staged buffers, register fragments, partitions, copies and "
                            "compute calls inside the pipelined loop");
        }
    }

    void staged_buffer(const event::Op& op) {
        const auto& a = op.alloc;
        if (a.memory != ir::Memory::Shared || (placed_ && a.offset < 0))
            unsupported(op, "loop tensors must be allocated SHARED buffers (run alloc-smem)");
        if (a.stages != plan_.stages || a.stage_var != plan_.loop_var())
            unsupported(op, "a shared buffer not staged by the loop's pipeline depth");
        plan_.scope.add(op);
        plan_.staged.push_back(&plan_.scope.tensors.at(a.name));
        plan_.smem_bytes = std::max(plan_.smem_bytes, a.offset + a.bytes());
    }

    KernelPlan plan_;
    std::vector<const event::TensorDecl*> workspaces_;
    bool placed_ = true;
};

// The plan with the analyses that decide what stays in registers (row aliases, quad rows,
// register operands).
KernelPlan analyzed_plan(const event::EventProgram& program, bool placed) {
    KernelPlan plan = Planner(program, placed).run(program);
    plan.program = &program;
    plan.row_aliases = plan_row_aliases(plan);
    plan_quad_rows(plan);
    plan_register_operands(plan);
    return plan;
}

} // namespace

std::vector<std::string> grid_index_decls(const event::Loop& loop, const std::string& linear,
                                          const std::set<std::string>& descending) {
    std::vector<std::string> decls(loop.vars.size());
    int64_t div = 1;
    for (size_t d = loop.vars.size(); d-- > 0;) {
        const std::string quotient = div == 1 ? linear : linear + " / " + std::to_string(div);
        const std::string extent = std::to_string(loop.extents[d]);
        decls[d] = "const int " + loop.vars[d] + " = " +
                   (descending.count(loop.vars[d])
                        ? extent + " - 1 - " + quotient + " % " + extent + ";  // last first"
                        : quotient + " % " + extent + ";");
        div *= loop.extents[d];
    }
    return decls;
}

Result<KernelPlan> plan_kernel(const event::EventProgram& program) {
    try {
        KernelPlan plan = analyzed_plan(program, true);
        for (const auto* b : plan.shared)
            if (b->offset < 0 && !plan.dead_buffers.count(b->name))
                unsupported(*plan.grid, "SHARED buffer " + b->name +
                                            " has no offset: run alloc-smem (it leaves only "
                                            "the buffers the generator keeps in registers)");
        return plan;
    } catch (const DiagnosticError& e) {
        return e.diag;
    }
}

passes::PassContext codegen_pass_context() {
    passes::PassContext ctx;
    ctx.shared_in_registers = shared_kept_in_registers;
    return ctx;
}

std::set<std::string> shared_kept_in_registers(const event::EventProgram& program) {
    try {
        return analyzed_plan(program, false).dead_buffers;
    } catch (const DiagnosticError&) {
        return {}; // not a kernel this generator makes: alloc-smem places everything
    }
}

} // namespace kiln::codegen
