#pragma once
// A BLOCK pfor of element-wise BLOCK calls on pieces of GLOBAL tensors (KernelPlan::pre_grids /
// post_grids) as a kernel of its own: a reduction's zeroing before the warp-specialized kernel
// adds into it (`fill(P, 0.0)`), or a conversion of a split-K partial sum after it (`copy(C, P)`:
// f32 → bf16/f16). One CTA per pfor iteration, its threads striding over each piece, every
// element predicated on the tensors' bounds (padded edge pieces); the kernels are launched in
// program order on one stream, which is what orders them.
#include "codegen/code_writer.h"
#include "codegen/kernel_plan.h"
#include "codegen/launch_spec.h"

namespace kiln::codegen {

// Emits the kernel for `pfor` (one of plan.pre_grids / post_grids) and returns its launch;
// pointer arguments index plan.params (the spec's parameter order).
KernelLaunch emit_elementwise_kernel(CodeWriter& w, const event::EventProgram& program,
                                     const KernelPlan& plan, const event::Op& pfor);

} // namespace kiln::codegen
