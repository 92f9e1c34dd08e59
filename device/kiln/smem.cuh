// kiln::dev::smem — shared-memory addresses and stores through the 32-bit shared window.
//
// Why: a store through a generic pointer costs a 64-bit address register pair; where a loop
// hoists the addresses of many stores (the deferred store's panels, stored inside the wgmma
// loop) those pairs crowd out accumulators. st.shared takes 32-bit addresses.
#pragma once
#include "kiln/cstdint.cuh"

namespace kiln::dev::smem {

/// The 32-bit shared-window address of a pointer into shared memory.
__device__ __forceinline__ uint32_t address(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/// `x`, which the compiler cannot see through: addresses derived from it are computed where it
/// is, not hoisted out of the loop around it into registers held for the whole loop.
__device__ __forceinline__ uint32_t opaque(uint32_t x) {
    asm volatile("mov.b32 %0, %0;" : "+r"(x));
    return x;
}

__device__ __forceinline__ void store_u32(uint32_t addr, uint32_t v) {
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

}  // namespace kiln::dev::smem
