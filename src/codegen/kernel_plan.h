#pragma once
// What the lowered event IR implies for one CUDA kernel: the grid (the BLOCK pfor), the roles
// and their warpgroups, the register tensors of the compute role, the staged shared-memory
// buffers (offsets from alloc-smem) and the pipelined loop with its DMA copies and compute calls.
//
// Requires: the output of the whole pass pipeline (docs/compiler.md) for a warp-specialized
// program: entry parameters, blocks partitions, one BLOCK pfor with register budgets, and in its
// body compute calls over (WARPGROUP G, WARP 4, THREAD 32) around one pipelined `for` whose DMA
// copies fill staged SHARED buffers. The block may also hold unstaged SHARED buffers (written
// once per tile by a DMA copy before the loop, or by the compute threads: per-thread copies
// between register fragments and shared memory, inside the loop or around it), and the loop
// several compute calls and such copies (attention). Before and after, BLOCK pfors of element-wise BLOCK
// calls on GLOBAL pieces (a reduction's zeroing before, a split-K conversion after) become small
// kernels launched before / after it. Top-level GLOBAL tensors that are not entry parameters
// are workspaces the launcher allocates (a split-K partial sum). Guarantees: a plan whose
// pointers point into `program`, or one Diagnostic naming the first op the code generator cannot
// lower and why.
#include "codegen/piece.h"
#include "ir/diagnostic.h"
#include "ir/event.h"
#include "passes/pass_context.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kiln::codegen {

struct KernelPlan {
    std::string name;
    const event::EventProgram* program = nullptr;
    // Entry parameters in declaration order, then workspaces (top-level GLOBAL tensors the
    // program creates: TensorDecl::param false), which every kernel takes as pointers too.
    std::vector<const event::TensorDecl*> params;
    const event::Op* grid = nullptr; // the warp-specialized BLOCK pfor
    // BLOCK pfors of element-wise calls on GLOBAL pieces (elementwise_kernel.h): one kernel
    // each, launched before / after `grid`'s on the same stream, which orders them (so
    // references between the kernels need no barrier).
    std::vector<const event::Op*> pre_grids, post_grids;
    std::vector<event::ProcDim> compute_dims; // (g: WARPGROUP G, w: WARP 4, t: THREAD 32)
    int64_t compute_warpgroups = 0;
    const event::Op* loop = nullptr; // the pipelined for
    int64_t stages = 1;
    std::vector<const event::Op*> before_loop; // compute calls, textual (a valid SSA) order
    std::vector<const event::Op*> after_loop;  // calls and reducing copies (copy add)
    std::vector<const event::Op*> dma_copies;  // in the loop
    std::vector<const event::Op*> loop_calls;  // compute calls in the loop
    // Compute calls and per-thread copies of the loop body in program order (loop_calls and
    // the copies between them).
    std::vector<const event::Op*> loop_body;
    std::vector<const event::Op*> once_copies; // DMA copies before the loop: once per tile
    std::vector<const event::TensorDecl*> registers;
    std::vector<const event::TensorDecl*> staged;
    std::vector<const event::TensorDecl*> shared; // unstaged SHARED buffers of the block
    // Processor dimensions a SHARED buffer is replicated over (one instance per (g, w), say).
    std::map<std::string, std::vector<event::ProcDim>> shared_over;
    // Register tensors standing for whole rows of an f32 SHARED tensor (fragment_ops.h).
    std::map<std::string, event::View> row_aliases;
    // Row aliases whose rows the quad already holds: alias -> the register fragment the rows were
    // stored from (their row reductions become quad shuffles), and the copies made dead by that
    // (the store of the fragment and the alias's copy), by result name (fragment_ops.h).
    std::map<std::string, std::string> quad_rows;
    std::set<std::string> elided;
    std::set<std::string> dead_buffers; // SHARED buffers only elided copies touched
    // wgmma A operands kept in registers: SHARED tensor -> the register fragment stored into it,
    // and the stores made dead by that ("<call result>/<statement index>"; fragment_ops.h).
    std::map<std::string, std::string> register_operands;
    std::set<std::string> forwarded_stores;
    int64_t smem_bytes = 0; // end of the last staged buffer (all stages)
    Scope scope;

    const std::string& loop_var() const { return loop->loop.vars[0]; }
    // True for a GEMM-shaped loop: one compute call (the wgmma batch) and nothing else.
    bool single_call_loop() const { return loop_body.size() == 1; }
    int64_t threads() const { return 128 * (1 + compute_warpgroups); }
};

Result<KernelPlan> plan_kernel(const event::EventProgram& program);

// The SHARED tensors of `program` (before alloc-smem) that the generated kernel keeps in
// registers instead: rows read back as quad shuffles, wgmma A operands taken from registers
// (plan_quad_rows, plan_register_operands). Empty for a program this generator does not make.
// Installed as passes::PassContext::shared_in_registers, so alloc-smem does not place them.
std::set<std::string> shared_kept_in_registers(const event::EventProgram& program);
// The pass context of a program compiled to CUDA: the machine's, with shared_kept_in_registers
// as alloc-smem's shared_in_registers.
passes::PassContext codegen_pass_context();

// Declarations of a BLOCK pfor's variables from the linear index `linear` (`tile`,
// `blockIdx.x`), the last variable fastest, in variable order: "const int i = tile / 2 % 2;".
// The variables in `descending` run from their last value down.
std::vector<std::string> grid_index_decls(const event::Loop& loop, const std::string& linear,
                                          const std::set<std::string>& descending = {});

// The Diagnostic every lowering step raises for an op shape it does not support.
[[noreturn]] void unsupported(const event::Op& op, const std::string& why);
// How messages name an op: "call %e27 (gemm_thread)".
std::string op_name(const event::Op& op);

} // namespace kiln::codegen
