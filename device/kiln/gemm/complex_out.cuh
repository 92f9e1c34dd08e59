// kiln::gemm::ComplexOut — where a complex GEMM result goes: interleaved (re, im) pairs, as
// std::complex / cuComplex / torch.complex64 store them, or split planes (GemmKernels §5.3).
//
// Requires: `ld` and `batch_stride` count complex elements; for interleaved output `im` is null
// and element (r, c) of batch b is the pair at re + 2 * (b * batch_stride + r * ld + c).
// `wide` (set by the host, see wide_stores_ok) says the wgmma fragment's (col, col + 1) pairs
// may be written with one vector store: 2 complex values = 16 bytes of fp32 or 8 bytes of
// 16-bit parts interleaved, or 2 elements per plane.
// Guarantees: both kernels write every (r < M, c < N) element once and nothing else — the
// generic kernel one element at a time (store), the sm90 kernel a whole accumulator fragment
// (store_fragment, the layout of kiln/wgmma.cuh).
#pragma once
#include "kiln/gemm/numeric.cuh"
#include "kiln/gemm/types.cuh"
#include <cstdint>

namespace kiln::gemm {

template <class T> struct ComplexOut {
    T* re = nullptr;
    T* im = nullptr; // null: interleaved pairs at re
    int64_t ld = 0, batch_stride = 0;
    bool wide = false;

    /// True when every fragment pair store is aligned: even ld / batch stride (in complex
    /// elements) and bases aligned to one vector of two complex values.
    static bool wide_stores_ok(const T* re, const T* im, int64_t ld, int64_t batch_stride) {
        const uintptr_t v = im ? 2 * sizeof(T) : 4 * sizeof(T);
        return ld % 2 == 0 && batch_stride % 2 == 0 && reinterpret_cast<uintptr_t>(re) % v == 0 &&
               reinterpret_cast<uintptr_t>(im) % v == 0;
    }

    __device__ __forceinline__ void store(int b, int r, int c, Complex<float> v) const {
        store_at(b * batch_stride + int64_t(r) * ld + c, v.re, v.im);
    }

    /// Stores the real and imaginary accumulator fragments of one consumer warpgroup: acc[4j+e]
    /// is element (row0 + 8*(e/2), col0 + 8j + e%2).
    template <int NAcc>
    __device__ __forceinline__ void store_fragment(const float (&acc_re)[NAcc],
                                                   const float (&acc_im)[NAcc], int row0, int col0,
                                                   int b, int M, int N) const {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + 8 * h;
            if (row >= M)
                continue;
            const int64_t base = b * batch_stride + int64_t(row) * ld;
#pragma unroll
            for (int j = 0; j < NAcc / 4; ++j) {
                const int col = col0 + 8 * j;
                const float r0 = acc_re[4 * j + 2 * h], r1 = acc_re[4 * j + 2 * h + 1];
                const float i0 = acc_im[4 * j + 2 * h], i1 = acc_im[4 * j + 2 * h + 1];
                if (col + 1 < N && wide) {
                    store_two(base + col, r0, i0, r1, i1);
                } else {
                    if (col < N)
                        store_at(base + col, r0, i0);
                    if (col + 1 < N)
                        store_at(base + col + 1, r1, i1);
                }
            }
        }
    }

private:
    __device__ __forceinline__ void store_at(int64_t i, float r, float m) const {
        if (im) {
            re[i] = from_float<T>(r), im[i] = from_float<T>(m);
        } else {
            re[2 * i] = from_float<T>(r), re[2 * i + 1] = from_float<T>(m);
        }
    }

    /// Elements i and i + 1 with one vector store per plane (interleaved: one 16-byte store of
    /// fp32 parts, one 8-byte store of 16-bit parts).
    __device__ __forceinline__ void store_two(int64_t i, float r0, float i0, float r1,
                                              float i1) const {
        if (im) {
            store_pair(re + i, r0, r1);
            store_pair(im + i, i0, i1);
        } else if constexpr (sizeof(T) == 4) {
            *reinterpret_cast<float4*>(re + 2 * i) = make_float4(r0, i0, r1, i1);
        } else {
            T v[4] = {from_float<T>(r0), from_float<T>(i0), from_float<T>(r1), from_float<T>(i1)};
            *reinterpret_cast<uint2*>(re + 2 * i) = *reinterpret_cast<const uint2*>(v);
        }
    }
};

} // namespace kiln::gemm
