#pragma once
// A BLOCK pfor whose calls only fill pieces of GLOBAL tensors (KernelPlan::fill_grids: a
// reduction's zeroing before the blocks add into it) as a kernel of its own: one CTA per pfor
// iteration, its threads striding over each filled piece, every element predicated on the
// tensor's bounds (padded edge pieces), launched before the warp-specialized kernel on the same
// stream, which is what orders them.
#include "codegen/code_writer.h"
#include "codegen/kernel_plan.h"
#include "codegen/launch_spec.h"

namespace kiln::codegen {

// Emits the kernel for `pfor` (one of plan.fill_grids) and returns its launch; pointer
// arguments index plan.params (the spec's parameter order).
KernelLaunch emit_fill_kernel(CodeWriter& w, const event::EventProgram& program,
                              const KernelPlan& plan, const event::Op& pfor);

} // namespace kiln::codegen
