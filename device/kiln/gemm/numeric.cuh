// kiln::gemm numeric helpers: conversions between storage types and fp32.
#pragma once
#include <cstdint>
#include <type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

namespace kiln::gemm {

__host__ __device__ __forceinline__ float to_float(float x) { return x; }
__host__ __device__ __forceinline__ float to_float(double x) { return static_cast<float>(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_fp8_e4m3 x) { return static_cast<float>(x); }
__device__ __forceinline__ float to_float(__nv_fp8_e5m2 x) { return static_cast<float>(x); }

template <class T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
    return __float2bfloat16_rn(x);
}
template <>
__device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }

/// Two fp32 values as one register of a 16-bit type (round to nearest even), a in the low half.
/// Relu: max(x, 0) of each, NaN kept, in the same instruction (cvt.rn.relu): a ReLU epilogue
/// that leaves its activation to the pack (relu_in_pack, epilogue.cuh) issues none of its own.
template <class T, bool Relu = false>
__device__ __forceinline__ uint32_t pack_pair(float a, float b) {
    static_assert(sizeof(T) == 2, "pack_pair: 16-bit types");
    if constexpr (Relu) {
        static_assert(std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>,
                      "pack_pair<Relu>: bf16 or f16");
        uint32_t d;
        if constexpr (std::is_same_v<T, __nv_bfloat16>)
            asm("cvt.rn.relu.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(b), "f"(a));
        else
            asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(b), "f"(a));
        return d;
    } else {
        T v[2] = {from_float<T>(a), from_float<T>(b)};
        return *reinterpret_cast<uint32_t*>(v);
    }
}

/// The inverse of pack_pair (without ReLU): one register of two 16-bit values as fp32, the low
/// half in x.
template <class T>
__device__ __forceinline__ float2 unpack_pair(uint32_t bits) {
    static_assert(std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>,
                  "unpack_pair: bf16 or f16");
    if constexpr (std::is_same_v<T, __nv_bfloat16>)
        return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&bits));
    else
        return __half22float2(*reinterpret_cast<const __half2*>(&bits));
}

/// Stores two adjacent elements (one 4- or 8-byte store when the address is aligned for it).
template <class T>
__device__ __forceinline__ void store_pair(T* p, float a, float b) {
    if constexpr (sizeof(T) == 2) {
        *reinterpret_cast<uint32_t*>(p) = pack_pair<T>(a, b);
    } else {
        *reinterpret_cast<float2*>(p) = make_float2(a, b);
    }
}

}  // namespace kiln::gemm
