#pragma once
// Lowers the leaf calls of the compute role to CUDA statements:
//  - mma(C, A, B) over wgmma fragments (A, B: lhs / rhs fragments of staged swizzle128 buffers,
//    C: the per-thread register accumulator) → one wgmma m64nNk16 per 16-deep K slice on smem
//    descriptors (A K-major, B MN-major), then commit and wait<1>: at most this batch in flight;
//  - fill(C, v) on a register fragment → a per-thread loop over the fragment;
//  - copy(D, S) — or call_external(F, D, S1, S2) with F a known per-element epilogue function
//    (kiln_swiglu) — from register accumulators to a GLOBAL piece's accumulator fragment →
//    converting stores at the wgmma accumulator coordinates, predicated on the tensor's bounds so
//    ragged edge tiles write nothing outside it;
//  - rowsum(r, S) of an accumulator into the thread's two row partials, and the reducing copy
//    `copy add R -> P[t]` of those partials into a GLOBAL vector's mma row fragment → a quad
//    butterfly (__shfl_xor_sync) and one atomicAdd per row from lane 0 of each quad.
// Any other leaf statement or operand shape is a Diagnostic naming the call.
#include "codegen/code_writer.h"
#include "codegen/deferred_scale.h"
#include "codegen/kernel_plan.h"
#include "codegen/tma_store.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kiln::codegen {

// True when the call's leaf issues wgmma (its body is made of mma statements).
bool is_wgmma_call(const event::EventProgram& program, const event::Op& call);

// Emits the wgmma batch of `call` reading stage `stage` of its staged operands.
void emit_wgmma_call(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                     const event::Op& call, const std::string& stage);

// A store of accumulator registers (or a per-element function F of several) into a 64 x N
// accumulator tile of a GLOBAL tensor: copy(D, S) and call_external(F, D, S1, S2, ...).
struct AccumulatorStore {
    const event::Op* call = nullptr;
    const event::TensorDecl* global = nullptr; // the destination tensor
    Piece piece;                               // the warpgroup's 64 x N tile of it
    std::vector<const event::TensorDecl*> sources;
    std::string fn;            // empty: copy
    std::string warpgroup_var; // the compute role's WARPGROUP variable
    std::string divisor;       // div(D, S, r): a [2] register tensor dividing each row
    // The value stored for accumulator register `idx` (a C expression).
    std::string value(const std::string& idx) const;
    std::string describe() const; // "copy(C, C5)", "kiln_swiglu(O, C15, C25)"
    int64_t columns() const;      // N of the tile
};
// Resolves a store's destination view `dv` (the accumulator fragment of a GLOBAL piece), or a
// Diagnostic naming `call`.
AccumulatorStore resolve_accumulator_store(const KernelPlan& plan, const event::Op& call,
                                           const event::View& dv,
                                           std::vector<const event::TensorDecl*> sources,
                                           const std::string& fn);

// The stores after the pipelined loop that go through the TMA (tma_store.h) when `enabled`:
// those tma_storable, into a tensor no TMA load reads.
TmaStores plan_tma_stores(const event::EventProgram& program, const KernelPlan& plan,
                          const std::set<std::string>& loaded, bool enabled);

// The leaf `call` calls, or a Diagnostic naming the call.
const event::LeafDef& leaf_of(const event::EventProgram& program, const event::Op& call);
// The call's view for each tensor parameter of its leaf.
std::map<std::string, event::View> bind_tensors(const event::LeafDef& leaf, const event::Op& call);
// The view bound (by bind_tensors) to operand i of a leaf statement, which must name a whole
// tensor parameter of the leaf; a Diagnostic naming the call otherwise.
const event::View& operand_view(const event::Op& call, const std::map<std::string, event::View>& b,
                                const ir::LeafOp& stmt, size_t i);

// A per-thread f32 REGISTER tensor named whole by `v`, or a Diagnostic naming `op`.
const event::TensorDecl& register_tensor(const KernelPlan& plan, const event::Op& op,
                                         const event::View& v);
// The value of a leaf's scalar literal operand (`0.125`, `2`, `-inf`), or nullopt.
std::optional<double> literal_value(const ir::Operand& o);
// The C float literal of a leaf's scalar literal operand (`0.0f`; infinities as bit patterns).
std::string float_literal(const event::Op& call, const ir::Operand& o);
// `v` (a float expression) converted for a store into an element of type `t`.
std::string store_value(const event::Op& call, ir::DType t, const std::string& v);

// Emits one op of a loop of several calls (attention): a call's statements in order, each run of
// mma statements one wgmma batch drained before the next statement (wait<0>), the others per
// thread (fragment_ops.h); a per-thread copy between registers and shared memory.
// The iteration's last call may end with a wgmma batch (P.V) whose issue is deferred: the next
// iteration issues it right behind its own first batch (the scores) and waits for that one only
// (wait<1>), so the deferred batch runs on the tensor cores under the statements that follow
// (FlashAttention-3's overlap of the softmax with P.V inside a warpgroup). Its register A
// operands are packed where the call ends, so the fragments they come from are free at once;
// until a wait<0> retires it, no statement may touch its accumulators.
struct PendingBatch {
    bool active = false;                // a deferred batch is owed or in flight
    bool issued = false;                // issued in this iteration, behind its first batch
    std::set<std::string> accumulators; // what the batch writes
    std::set<std::string> packed;       // the packed A registers it reads (`<fragment>_packed`)
    std::vector<std::string> issue;     // fences and wgmmas; no commit
    std::vector<std::string> retire;    // once it completed: operand fences, stage releases
};
// The pending batch of a call that ends with a wgmma batch, issued at `stage`; nullopt otherwise.
std::optional<PendingBatch> final_batch(const event::EventProgram& program, const KernelPlan& plan,
                                        const event::Op& call, const std::string& stage);
// Issues `pending` if it is owed and not issued yet, then waits for it and runs its retire lines.
void retire_pending(CodeWriter& w, PendingBatch& pending, const std::string& why);
// With `deferral`, a call ending with a wgmma batch leaves it to the next iteration (pending
// becomes *deferral) and returns true.
// `scales`: the iteration's deferred scales (deferred_scale.h).
bool emit_loop_call(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                    const event::Op& call, const std::string& stage, const TmaStores& tma_stores,
                    PendingBatch& pending, const PendingBatch* deferral, DeferredScales& scales);

// Emits a per-thread call (fill, converting store, row sum, the fragment statements of
// fragment_ops.h), a reducing copy, or a per-thread copy between registers and shared memory.
// The kernel names the thread's index inside its warpgroup `wg_thread`.
void emit_thread_call(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                      const event::Op& call, const TmaStores& tma_stores);

// Device definitions of the epilogue functions the program's leaves call (before the kernel).
std::vector<std::string> epilogue_definitions(const event::EventProgram& program);

} // namespace kiln::codegen
