// kiln::dev::regs — setmaxnreg (sm_90a): move registers between warpgroups.
//
// Takes effect only when the kernel has a register cap at entry (__launch_bounds__(T, 1) or
// -maxrregcount) and each warpgroup's role is one branch of an if/else; otherwise ptxas ignores
// it and warns (C7508). All warps of a warpgroup must execute the same setmaxnreg.
#pragma once

namespace kiln::dev::regs {

template <int N>
__device__ __forceinline__ void increase() {
    static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg count must be in [24,256], %8");
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
}

template <int N>
__device__ __forceinline__ void decrease() {
    static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg count must be in [24,256], %8");
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
}

}  // namespace kiln::dev::regs
