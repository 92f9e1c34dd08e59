// kiln::gemm::sm90 programmatic dependent launch (PDL) — lets a kernel's prologue overlap the
// end of the kernel before it in the stream.
//
// With the launch attribute (launch_sm90.cuh sets it unless KILN_GEMM_PDL=0), the next kernel
// launched with it may start once every CTA of this one has called allow_next() or exited; it then
// runs its prologue (barrier init, descriptor prefetch, cluster sync) beside this kernel's last
// tiles and blocks in wait() until this kernel has finished and its writes are visible. Without
// the attribute both are no-ops. Rule: no global memory access before wait().
#pragma once

namespace kiln::gemm::sm90::dependent_launch {

/// Blocks until the previous kernel in the stream has completed and flushed its writes.
__device__ __forceinline__ void wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

/// This CTA no longer holds the next kernel back (it still owns its SM until it exits).
__device__ __forceinline__ void allow_next() {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

}  // namespace kiln::gemm::sm90::dependent_launch
