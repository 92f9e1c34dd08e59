// kiln::dev::grid — programmatic dependent launch between the kernels of one program (sm_90).
//
// Why: a split-K GEMM is three kernels (zero the workspace, the GEMM, convert the sum) and a
// GEMM + row sum two; each launch boundary costs the next kernel's launch latency, a few
// microseconds against a ~10 us GEMM. Launched with programmatic stream serialization, a
// kernel may start while its predecessor still runs; it must call wait_previous() before it
// touches memory the predecessor writes, which returns once the predecessor grid has completed
// and its writes are visible. launch_dependents() lets the next kernel be scheduled as soon as
// every CTA of this one has called it (or exited) — it never weakens the next kernel's wait.
#pragma once

namespace kiln::dev::grid {

/// Blocks until the grids this one depends on have completed and their memory is visible (a
/// no-op when the kernel was not launched as a programmatic dependent).
__device__ __forceinline__ void wait_previous() {
    asm volatile("griddepcontrol.wait;" ::: "memory");
}

/// Allows the dependent grid to launch once every CTA of this grid has called this or exited.
__device__ __forceinline__ void launch_dependents() {
    asm volatile("griddepcontrol.launch_dependents;" :::);
}

}  // namespace kiln::dev::grid
