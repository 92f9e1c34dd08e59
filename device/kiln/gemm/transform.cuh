// kiln::gemm transforms (GemmKernels §4.2.3): elementwise functors applied right after every
// load (A, B, C) and right before every store (D). Any callable T -> T works; these are the
// common ones. Compose with Then<F, G> (f first).
#pragma once

namespace kiln::gemm::transform {

struct Identity {
    template <class T>
    __host__ __device__ constexpr T operator()(T x) const { return x; }
};
struct Scale {
    float s;
    __host__ __device__ constexpr float operator()(float x) const { return s * x; }
};
struct Add {
    float c;
    __host__ __device__ constexpr float operator()(float x) const { return x + c; }
};
struct ReLU {
    __host__ __device__ constexpr float operator()(float x) const { return x > 0.f ? x : 0.f; }
};
/// x -> relu?(scale * x + shift) with run-time constants (the host API's ElementOp), branch-free:
/// max(scale * x + shift, lo) with lo = 0 for ReLU, NaN otherwise (fmaxf returns its other
/// operand). A bool select here made the generic kernel spill 12 bytes at its register budget.
struct Affine {
    float scale = 1.f, shift = 0.f, lo = __builtin_nanf("");
    static constexpr Affine make(float scale, float shift, bool relu) {
        return {scale, shift, relu ? 0.f : __builtin_nanf("")};
    }
    __host__ __device__ float operator()(float x) const { return fmaxf(fmaf(scale, x, shift), lo); }
};
template <class F, class G>
struct Then {
    F f;
    G g;
    template <class T>
    __host__ __device__ constexpr T operator()(T x) const { return g(f(x)); }
};

}  // namespace kiln::gemm::transform
