#pragma once
// Per-thread leaf statements on register fragments, and the per-thread copies between register
// fragments and shared memory: what attention's softmax, scores and finishing calls lower to.
//
// Register fragments: a per-thread REGISTER tensor of shape [2, n] (a thread's two rows of a
// wgmma tile, n values each) is an array whose element (h, c) sits at 4 * (c / 2) + 2 * h + c % 2:
// the wgmma accumulator order, so an accumulator and every fragment computed from it line up
// element for element; [2] is one value per row. Element-wise statements (fill, copy, scale, the
// unary and binary operations, a [2] operand broadcast along the rows, scalars), row reductions
// (rowmax, rowsum), and mask (coordinates through the fragment's `mirrors` chain) become unrolled
// loops over those arrays.
//
// Shared fragments: `mma(.., acc, THREAD)` fragments of SHARED tensors are written element for
// element (register -> shared copies, `copy(P, e)` into a swizzle128 wgmma operand); `mma(.., lhs,
// THREAD)` fragments are whole rows (the four lanes of a quad read the same rows). A whole-row
// read into a register tensor larger than kRowAliasLimit values is not copied: the register
// tensor becomes an alias of the rows in shared memory (plan.row_aliases), read where it is used;
// where the quad holds those rows in registers, row reductions of it become quad shuffles.
#include "codegen/code_writer.h"
#include "codegen/kernel_plan.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace kiln::codegen {

inline constexpr int64_t kRowAliasLimit = 32;

// The register tensors that alias rows of shared memory: register name -> the copy's source.
std::map<std::string, event::View> plan_row_aliases(const KernelPlan& plan);

// Fills plan.quad_rows and plan.elided. An alias of whole rows that an earlier copy of the loop
// stored from a register accumulator fragment R (same tensor piece, R unchanged since) holds
// values the thread's quad already has: the four lanes' fragments of a row are the row. Its row
// reductions become a reduction over R and a butterfly over the quad (__shfl_xor_sync 1, 2), as
// FlashAttention's row max. When no other op reads the tensor, its store and the alias's copy
// are dead (with the barriers that ordered them).
void plan_quad_rows(KernelPlan& plan);

// Fills plan.register_operands, plan.forwarded_stores and plan.dead_buffers: a leaf statement
// `copy(P, e)` storing a [2, n] register fragment into its accumulator fragment of a 16-bit
// SHARED tensor whose only reader is, later in the same iteration, the A operand of one wgmma on
// the same 64-row piece, with e unchanged in between: the wgmma reads e from registers (the RS
// form; the accumulator layout is the A-operand layout), the store and the buffer are dead.
void plan_register_operands(KernelPlan& plan);

// Emits one statement of `call` if it is a per-thread fragment statement this module lowers
// (returns false otherwise). `b` binds the leaf's tensor parameters to the call's views.
// `source_scale` (a C factor, or ""): a row reduction's source holds its values divided by it.
bool emit_fragment_statement(CodeWriter& w, const event::EventProgram& program,
                             const KernelPlan& plan, const event::Op& call,
                             const std::map<std::string, event::View>& b, const ir::LeafOp& stmt,
                             const std::string& source_scale = "");

// Emits `sub(D, X, Y)` followed by `exp(D, D)` as one statement, D = exp2(X * log2e - Y * log2e)
// (one FMA and the exp2 unit per element, as FlashAttention's softmax; `__expf` is exp2 of a
// product too) and returns true; false, emitting nothing, when the two statements are not that
// pair on register fragments. `x_scale` (or ""): X holds its values divided by it.
bool emit_fused_sub_exp(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                        const event::Op& call, const std::map<std::string, event::View>& b,
                        const ir::LeafOp& sub, const ir::LeafOp& exp,
                        const std::string& x_scale = "");

// Declares `float v0` as the reduction (fmaxf when `max`, else +) of `count` terms, term(c) for a
// C index expression c. Four independent partial chains, combined at the end: a single chain
// waits the FP pipe's latency at every term (ncu's "wait" stall). Fewer than 8 terms, or a count
// not a multiple of 4: one chain.
void emit_partial_reduction(CodeWriter& w, bool max, int64_t count,
                            const std::function<std::string(const std::string&)>& term);

// Emits a per-thread copy `copy S -> D` between a register fragment and a shared fragment.
void emit_fragment_copy(CodeWriter& w, const KernelPlan& plan, const event::Op& copy);

// The processors two compute ops of the kernel can exchange data between through memory: none
// (they share only per-thread registers), the threads of one warp (both touch the same instance
// of a tensor replicated per warp), of one warpgroup (both touch the same 64-row piece owned by
// the warpgroup), or all compute threads.
enum class SharingScope { None, Warp, Warpgroup, All };
SharingScope sharing_scope(const KernelPlan& plan, const event::Op& a, const event::Op& b);

// True when `v` (bound in a call) is an mma fragment of a SHARED tensor.
bool is_shared_fragment(const KernelPlan& plan, const event::View& v);

// C expression of a scalar leaf operand: a literal, or a leaf scalar parameter replaced by the
// call's argument.
std::string scalar_operand(const event::EventProgram& program, const event::Op& call,
                           const ir::Operand& o);

} // namespace kiln::codegen
