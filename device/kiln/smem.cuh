// kiln::dev::smem — shared-memory addresses, loads and stores through the 32-bit shared window.
//
// Why: an access through a generic pointer costs a 64-bit address register pair; where a loop
// hoists the addresses of many accesses (the deferred store's panels, stored inside the wgmma
// loop; the epilogue's staged bias, read per column group) those pairs crowd out accumulators.
// The kernels align their dynamic shared memory by integer arithmetic, after which the compiler
// no longer knows a pointer is shared and emits generic accesses: these take the window address.
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

/// Two consecutive floats at a shared-window address (8-byte aligned).
__device__ __forceinline__ float2 load_f32x2(uint32_t addr) {
    float2 v;
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "r"(addr) : "memory");
    return v;
}

/// One 32-bit word at a shared-window address (4-byte aligned).
__device__ __forceinline__ uint32_t load_u32(uint32_t addr) {
    uint32_t v;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

/// stmatrix .x4: four 8 x 8 matrices of 16-bit elements, one instruction per warp. Lane l gives
/// the address of row l % 8 of matrix l / 8 (16 contiguous bytes) and holds, in r[i], the pair
/// (row l / 4, columns 2 (l % 4), +1) of matrix i: the layout of a wgmma accumulator's 8-column
/// group, so a fragment goes to shared memory in a quarter of the 32-bit stores.
__device__ __forceinline__ void store_matrix_x4(uint32_t addr, uint32_t r0, uint32_t r1,
                                                uint32_t r2, uint32_t r3) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
                 "r"(r0), "r"(r1), "r"(r2), "r"(r3)
                 : "memory");
}

}  // namespace kiln::dev::smem
