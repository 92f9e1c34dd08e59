// kiln::gemm layouts (GemmKernels §4.2.2): map a logical (row, col) of an operand to memory.
//
// A global layout is a small value type with
//   using value_type = ...;                        // what load() returns (fp32 for real types)
//   __device__ value_type load(int batch, int row, int col) const;   // zero out of bounds
// The generic kernel calls it once per element through the tiling API; layouts that need no
// memory (Diagonal off the diagonal, Zero) return without loading. Shared-memory layouts give
// the padded element offset used by the generic kernel's staging buffers.
#pragma once
#include <cstdint>
#include "kiln/gemm/numeric.cuh"
#include "kiln/gemm/types.cuh"

namespace kiln::gemm::layout {

/// Any strided 2-D (+batch) matrix: row-major is (ld, 1), column-major (1, ld). Transposition
/// is just swapped strides, so one layout covers N and T operands of every alignment.
template <class T>
struct Strided {
    using value_type = float;
    const T* p;
    int rows, cols;
    int64_t row_stride, col_stride, batch_stride;
    __device__ __forceinline__ float load(int b, int r, int c) const {
        if (r >= rows || c >= cols) return 0.f;
        return to_float(p[b * batch_stride + r * row_stride + c * col_stride]);
    }
};

/// A diagonal square matrix stored as its diagonal vector (length n): off-diagonal elements are
/// zero and cost no memory access.
template <class T>
struct Diagonal {
    using value_type = float;
    const T* diag;
    int n;
    int64_t batch_stride;
    __device__ __forceinline__ float load(int b, int r, int c) const {
        return (r == c && r < n) ? to_float(diag[b * batch_stride + r]) : 0.f;
    }
};

/// Interleaved complex storage (re, im, re, im, ...) as C/C++/Julia/PyTorch store complex.
template <class T>
struct InterleavedComplex {
    using value_type = Complex<float>;
    const T* p;  // points at the real part of element (0, 0)
    int rows, cols;
    int64_t row_stride, col_stride, batch_stride;  // in complex elements
    __device__ __forceinline__ Complex<float> load(int b, int r, int c) const {
        if (r >= rows || c >= cols) return {0.f, 0.f};
        const T* e = p + 2 * (b * batch_stride + r * row_stride + c * col_stride);
        return {to_float(e[0]), to_float(e[1])};
    }
};

/// Split complex storage: real and imaginary planes apart (what tensor cores want).
template <class T>
struct SplitComplex {
    using value_type = Complex<float>;
    const T* re;
    const T* im;
    int rows, cols;
    int64_t row_stride, col_stride, batch_stride;
    __device__ __forceinline__ Complex<float> load(int b, int r, int c) const {
        if (r >= rows || c >= cols) return {0.f, 0.f};
        int64_t i = b * batch_stride + r * row_stride + c * col_stride;
        return {to_float(re[i]), to_float(im[i])};
    }
};

/// Dual numbers stored interleaved (value, derivative).
template <class T>
struct InterleavedDual {
    using value_type = Dual<float>;
    const T* p;
    int rows, cols;
    int64_t row_stride, col_stride, batch_stride;
    __device__ __forceinline__ Dual<float> load(int b, int r, int c) const {
        if (r >= rows || c >= cols) return {0.f, 0.f};
        const T* e = p + 2 * (b * batch_stride + r * row_stride + c * col_stride);
        return {to_float(e[0]), to_float(e[1])};
    }
};

/// GETT operand (GemmKernels §5.5): a tensor viewed as a matrix by grouping its modes into a
/// row group and a column group; each group has up to 3 modes with sizes and strides, the first
/// mode fastest. No transposition kernel: the index arithmetic happens on load.
template <class T>
struct Tensor {
    using value_type = float;
    const T* p;
    int rows, cols;
    int row_sizes[3], col_sizes[3];
    int64_t row_strides[3], col_strides[3];
    __device__ __forceinline__ int64_t offset(int r, int c) const {
        int64_t o = 0;
#pragma unroll
        for (int i = 0; i < 3; ++i) {
            o += int64_t(r % row_sizes[i]) * row_strides[i];
            r /= row_sizes[i];
            o += int64_t(c % col_sizes[i]) * col_strides[i];
            c /= col_sizes[i];
        }
        return o;
    }
    __device__ __forceinline__ float load(int, int r, int c) const {
        if (r >= rows || c >= cols) return 0.f;
        return to_float(p[offset(r, c)]);
    }
};

/// Shared-memory row-major staging with `Pad` extra elements per row (bank-conflict padding).
template <int Rows, int Cols, int Pad>
struct PaddedRowMajor {
    static constexpr int ld = Cols + Pad;
    static constexpr int size = Rows * ld;  // elements to reserve
    __host__ __device__ static constexpr int offset(int r, int c) { return r * ld + c; }
};

}  // namespace kiln::gemm::layout
