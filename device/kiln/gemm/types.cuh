// kiln::gemm value types beyond IEEE reals: complex and dual numbers (fp32 parts).
// They carry the arithmetic the FPU operator needs, so one generic kernel serves them all.
#pragma once

namespace kiln::gemm {

template <class T>
struct Complex {
    T re, im;
    __host__ __device__ friend constexpr Complex operator+(Complex a, Complex b) {
        return {a.re + b.re, a.im + b.im};
    }
    __host__ __device__ friend constexpr Complex operator*(Complex a, Complex b) {
        return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    }
};

/// a + b*eps with eps^2 = 0: forward-mode derivatives through a GEMM.
template <class T>
struct Dual {
    T val, eps;
    __host__ __device__ friend constexpr Dual operator+(Dual a, Dual b) {
        return {a.val + b.val, a.eps + b.eps};
    }
    __host__ __device__ friend constexpr Dual operator*(Dual a, Dual b) {
        return {a.val * b.val, a.val * b.eps + a.eps * b.val};
    }
};

}  // namespace kiln::gemm
