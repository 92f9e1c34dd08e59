// kiln::dev::math — special functions on the SFU without the IEEE edge handling.
//
// exp2f rounds as ex2.approx does, but unless the whole translation unit is built with -ftz it
// wraps the instruction in a range test and two multiplies that keep subnormal results: three of
// the four instructions an attention softmax spends per element on its exponent. Flushing
// results below 2^-126 to zero changes nothing a softmax can see (they vanish next to its
// row maximum's term, which is 1).
#pragma once

namespace kiln::dev::math {

/// 2^x (MUFU.EX2, max relative error 2^-22); results below 2^-126 flush to +0, -inf gives +0.
__device__ __forceinline__ float fast_exp2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

}  // namespace kiln::dev::math
