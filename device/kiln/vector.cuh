// kiln::dev::vec — four-element global loads and stores with conversion (element-wise kernels).
//
// Why: a block striding over a tile one 4-byte element per thread and iteration keeps one load
// in flight per thread and is latency-bound (a 128x64 fp32 → bf16 conversion took ~17 us that
// way on an H100); 16-byte loads and 8/16-byte stores move four elements per instruction.
// Callers guarantee 4-element alignment (they fall back to scalar accesses otherwise).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kiln/cstdint.cuh"

namespace kiln::dev::vec {

__device__ __forceinline__ float4 load4(const float* p) {
    return *reinterpret_cast<const float4*>(p);
}

__device__ __forceinline__ void store4(float* p, float4 v) {
    *reinterpret_cast<float4*>(p) = v;
}

__device__ __forceinline__ void store4(__nv_bfloat16* p, float4 v) {
    __nv_bfloat162 lo = __floats2bfloat162_rn(v.x, v.y), hi = __floats2bfloat162_rn(v.z, v.w);
    uint2 bits;
    bits.x = *reinterpret_cast<uint32_t*>(&lo);
    bits.y = *reinterpret_cast<uint32_t*>(&hi);
    *reinterpret_cast<uint2*>(p) = bits;
}

__device__ __forceinline__ void store4(__half* p, float4 v) {
    __half2 lo = __floats2half2_rn(v.x, v.y), hi = __floats2half2_rn(v.z, v.w);
    uint2 bits;
    bits.x = *reinterpret_cast<uint32_t*>(&lo);
    bits.y = *reinterpret_cast<uint32_t*>(&hi);
    *reinterpret_cast<uint2*>(p) = bits;
}

}  // namespace kiln::dev::vec
