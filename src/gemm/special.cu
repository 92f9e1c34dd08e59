// The GemmKernels §5 variants on the generic kernel: diagonal operands (layout + predicate),
// complex and dual numbers (value types + interleaved layouts), GETT (tensor layouts).
#include <algorithm>
#include <cstring>
#include <string>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "dispatch.h"
#include "kiln/gemm.h"
#include "kiln/gemm/kernel_generic.cuh"
#include "kiln/gemm/params.h"
#include "kiln/gemm/permute.cuh"

namespace kiln::gemm {
namespace {

Status launched() {
    return cudaGetLastError() == cudaSuccess ? Status::Success : Status::CudaError;
}

/// The diagonal operator specialized all the way down: with A = diag(d), every output element
/// is one product, D[r][c] = d[r] * B[r][c], so the GEMM is a bandwidth-bound row scaling.
/// 8 elements (16 bytes of bf16) per thread when rows are 16-byte aligned, else scalar.
template <class In, class Out, int V>
__global__ void diag_scale_kernel(const In* __restrict__ d, const In* __restrict__ b, int64_t ldb,
                                  Out* __restrict__ c, int64_t ldc, int n, int N) {
    const int vec_per_row = (N + V - 1) / V;
    const int64_t total = int64_t(n) * vec_per_row;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
         i += int64_t(gridDim.x) * blockDim.x) {
        const int r = int(i / vec_per_row), c0 = int(i % vec_per_row) * V;
        const float s = to_float(d[r]);
        if constexpr (V == 8 && sizeof(In) == 2 && sizeof(Out) == 2) {
            if (c0 + V <= N) {
                uint4 raw = *reinterpret_cast<const uint4*>(b + r * ldb + c0);
                const In* x = reinterpret_cast<const In*>(&raw);
                Out y[8];
#pragma unroll
                for (int k = 0; k < 8; ++k) y[k] = from_float<Out>(s * to_float(x[k]));
                *reinterpret_cast<uint4*>(c + r * ldc + c0) = *reinterpret_cast<const uint4*>(y);
                continue;
            }
        }
        for (int k = 0; k < V && c0 + k < N; ++k)
            c[r * ldc + c0 + k] = from_float<Out>(s * to_float(b[r * ldb + c0 + k]));
    }
}

template <class In, class Out>
Status diag_scale(int n, int N, const void* d, const void* B, int64_t ldb, void* C, int64_t ldc,
                  cudaStream_t stream) {
    const bool vec = sizeof(In) == 2 && sizeof(Out) == 2 && ldb % 8 == 0 && ldc % 8 == 0 &&
                     reinterpret_cast<uintptr_t>(B) % 16 == 0 &&
                     reinterpret_cast<uintptr_t>(C) % 16 == 0;
    const int64_t work = int64_t(n) * ((N + 7) / 8);
    const int blocks = int(std::min<int64_t>((work + 255) / 256, 132 * 16));
    const auto* dv = static_cast<const In*>(d);
    const auto* bv = static_cast<const In*>(B);
    auto* cv = static_cast<Out*>(C);
    if (vec)
        diag_scale_kernel<In, Out, 8><<<blocks, 256, 0, stream>>>(dv, bv, ldb, cv, ldc, n, N);
    else
        diag_scale_kernel<In, Out, 1><<<blocks * 8, 256, 0, stream>>>(dv, bv, ldb, cv, ldc, n, N);
    return launched();
}

template <class In, class Out>
Status diag_typed(int n, int N, const void* d, const void* B, int64_t ldb, void* C, int64_t ldc,
                  const Options& o) {
    if (o.batch == 1 && o.path != Path::Generic)  // the specialized operator (see above)
        return diag_scale<In, Out>(n, N, d, B, ldb, C, ldc, static_cast<cudaStream_t>(o.stream));
    // Generic form: Diagonal layout + DiagonalA predicate on the tiled FPU kernel.
    layout::Diagonal<In> la{static_cast<const In*>(d), n, o.stride_a};
    layout::Strided<In> lb{static_cast<const In*>(B), n, N, ldb, 1, o.stride_b};
    generic::StridedOut<Out> out{static_cast<Out*>(C), ldc, 1, o.stride_c};
    generic::gemm_kernel<<<generic::grid(n, N, o.batch), generic::Threads, 0,
                           static_cast<cudaStream_t>(o.stream)>>>(
        la, lb, transform::Identity{}, transform::Identity{}, generic::FpuOp{},
        predicate::DiagonalA{}, EpilogueCopy{}, out, n, N, n);
    return launched();
}

template <class V, template <class> class L>
Status complex_like(Op ta, Op tb, int M, int N, int K, const void* A, int64_t lda, const void* B,
                    int64_t ldb, void* C, int64_t ldc, const Options& o) {
    if (M < 0 || N < 0 || K < 0 || o.batch < 1 || !A || !B || !C) return Status::InvalidValue;
    if (lda < (ta == Op::N ? K : M) || ldb < (tb == Op::N ? N : K) || ldc < N)
        return Status::BadLeadingDimension;
    if (o.a_type != DataType::F32 || o.c_type != DataType::F32) return Status::UnsupportedDataType;
    L<float> la{static_cast<const float*>(A), M, K, ta == Op::N ? lda : 1, ta == Op::N ? 1 : lda,
                o.stride_a};
    L<float> lb{static_cast<const float*>(B), K, N, tb == Op::N ? ldb : 1, tb == Op::N ? 1 : ldb,
                o.stride_b};
    generic::InterleavedOut<V> out{static_cast<float*>(C), ldc, 1, o.stride_c};
    generic::gemm_kernel<<<generic::grid(M, N, o.batch), generic::Threads, 0,
                           static_cast<cudaStream_t>(o.stream)>>>(
        la, lb, transform::Identity{}, transform::Identity{}, generic::FpuOp{},
        predicate::Always{}, EpilogueCopy{}, out, M, N, K);
    return launched();
}

/// Output store through a GETT tensor view (rows = free-A modes, cols = free-B modes).
template <class T>
struct TensorOut {
    layout::Tensor<T> view;
    __device__ void store(int, int r, int c, float v) const {
        const_cast<T*>(view.p)[view.offset(r, c)] = from_float<T>(v);
    }
};

struct Group {
    int sizes[3] = {1, 1, 1};
    int64_t strides[3] = {0, 0, 0};
    int n = 0;
    int extent = 1;
};

// Adds `mode` of tensor `t` (row-major over its modes, with extents) to group g.
bool add_mode(Group& g, const std::string& t, char mode, const int* ext) {
    if (g.n == 3) return false;
    int64_t stride = 1;
    for (size_t i = t.find(mode) + 1; i < t.size(); ++i) stride *= ext[t[i] - 'a'];
    // first mode of a group varies fastest: keep the tensor's own order, innermost first
    g.sizes[g.n] = ext[mode - 'a'];
    g.strides[g.n] = stride;
    g.extent *= ext[mode - 'a'];
    ++g.n;
    return true;
}

template <class In, class Out>
Status contract_typed(const std::string& d, const std::string& a, const std::string& b,
                      const int* ext, const void* A, const void* B, void* D, const Options& o) {
    // Groups: M = modes of D from A, N = modes of D from B, K = modes of A and B not in D.
    // Modes are taken innermost-first (reverse order in the tensor) so the fastest-varying
    // index of each group is contiguous where possible.
    Group am, ak, bk, bn, dm, dn;
    for (int i = int(d.size()) - 1; i >= 0; --i) {
        char m = d[i];
        bool in_a = a.find(m) != std::string::npos, in_b = b.find(m) != std::string::npos;
        if (in_a == in_b) return Status::InvalidValue;
        if (in_a && !(add_mode(am, a, m, ext) && add_mode(dm, d, m, ext)))
            return Status::InvalidValue;
        if (in_b && !(add_mode(bn, b, m, ext) && add_mode(dn, d, m, ext)))
            return Status::InvalidValue;
    }
    for (int i = int(a.size()) - 1; i >= 0; --i) {
        char m = a[i];
        if (d.find(m) != std::string::npos) continue;
        if (b.find(m) == std::string::npos) return Status::InvalidValue;  // no lone reductions
        if (!(add_mode(ak, a, m, ext) && add_mode(bk, b, m, ext))) return Status::InvalidValue;
    }
    const int M = am.extent, N = bn.extent, K = ak.extent;
    auto view = [](const void* p, const Group& r, const Group& c, int rows, int cols) {
        layout::Tensor<In> t{static_cast<const In*>(p), rows, cols, {}, {}, {}, {}};
        for (int i = 0; i < 3; ++i) {
            t.row_sizes[i] = r.sizes[i], t.row_strides[i] = r.strides[i];
            t.col_sizes[i] = c.sizes[i], t.col_strides[i] = c.strides[i];
        }
        return t;
    };
    layout::Tensor<In> la = view(A, am, ak, M, K);
    layout::Tensor<In> lb = view(B, bk, bn, K, N);
    layout::Tensor<Out> ld{static_cast<const Out*>(D), M, N, {}, {}, {}, {}};
    for (int i = 0; i < 3; ++i) {
        ld.row_sizes[i] = dm.sizes[i], ld.row_strides[i] = dm.strides[i];
        ld.col_sizes[i] = dn.sizes[i], ld.col_strides[i] = dn.strides[i];
    }
    generic::gemm_kernel<<<generic::grid(M, N, 1), generic::Threads, 0,
                           static_cast<cudaStream_t>(o.stream)>>>(
        la, lb, transform::Identity{}, transform::Identity{}, generic::FpuOp{},
        predicate::Always{}, EpilogueCopy{}, TensorOut<Out>{ld}, M, N, K);
    return launched();
}

// ---- GETT on the TMA + wgmma kernel ----
// The tensors stay where they are: each operand becomes a TMA view (up to two row modes and two
// K modes: a rank 3-5 tensor map) and the output an OutView, so the contraction runs as one GEMM
// with no transposes. Where that view cannot work, or would scatter D's stores, one operand
// (rarely both) is first copied into a K-major mode order (contract_plan.h).

/// Copies the operands the plan reorders into the stream's scratch buffer; A and B then point
/// at the copies. False (nothing launched) when the copy kernels cannot take an operand (more
/// than permute::kMaxModes modes) or no buffer can be had (growing it during a graph capture).
template <class T>
bool copy_operands(const gett::ContractPlan& plan, const std::string& a, const std::string& b,
                   const int* ext, const void*& A, const void*& B, cudaStream_t stream,
                   cudaError_t* err) {
    permute::Modes m;
    if ((plan.copy_a && !permute::make_modes(a, plan.a, ext, m)) ||
        (plan.copy_b && !permute::make_modes(b, plan.b, ext, m)))
        return false;
    const int64_t na = plan.copy_a ? gett::elements(a, ext) : 0;
    const int64_t nb = plan.copy_b ? gett::elements(b, ext) : 0;
    const int64_t b_offset = (na * int64_t(sizeof(T)) + 255) / 256 * 256;  // TMA: aligned bases
    auto* scratch = static_cast<char*>(detail::stream_scratch(
        detail::Scratch::ContractOperands, b_offset + nb * int64_t(sizeof(T)), stream));
    if (!scratch) return false;
    *err = cudaSuccess;
    if (plan.copy_a) {
        T* to = reinterpret_cast<T*>(scratch);
        *err = permute::permute_tensor(static_cast<const T*>(A), a, to, plan.a, ext, stream);
        A = to;
    }
    if (plan.copy_b && *err == cudaSuccess) {
        T* to = reinterpret_cast<T*>(scratch + b_offset);
        *err = permute::permute_tensor(static_cast<const T*>(B), b, to, plan.b, ext, stream);
        B = to;
    }
    return true;
}

/// Plans and launches the contraction on the sm90 kernel. Returns false (nothing launched) when
/// no layout fits its views; the caller then uses the generic kernel.
bool contract_sm90(const std::string& d, const std::string& a, const std::string& b,
                   const int* ext, const void* A, const void* B, void* D, const Options& o,
                   cudaError_t* err) {
    gett::ContractPlan plan = gett::plan_contraction(d, a, b, ext, 2);
    const auto stream = static_cast<cudaStream_t>(o.stream);
    // The copies move 16-bit elements: both input types copy as raw halves. Where no copy can be
    // made, the tensors are read as they are, if they can be.
    if ((plan.copy_a || plan.copy_b) &&
        !copy_operands<uint16_t>(plan, a, b, ext, A, B, stream, err))
        plan = {a, b, false, false, gett::view_as_gemm(d, a, b, ext, 2)};
    else if (*err != cudaSuccess)
        return true;
    if (!plan.ok()) return false;
    const gett::GemmView& g = plan.view;
    detail::Problem p{};
    p.ta = p.tb = Op::N;
    p.batch = 1;
    p.alpha = 1.f, p.beta = 0.f;
    p.c = D;
    p.bias = nullptr;
    p.bias_mode = BiasMode::None;
    p.act = Activation::None;
    p.a_type = o.a_type, p.c_type = o.c_type;
    p.stream = stream;
    p.va = g.va, p.vb = g.vb, p.vd = g.vd;
    p.va.ptr = g.swapped ? B : A;
    p.vb.ptr = g.swapped ? A : B;
    p.M = g.M, p.N = g.N, p.K = g.K;
    const int sms = detail::device_sms();
    Params prm = default_params(p.M, p.N, p.K, 1, 2, sms, p.vb.one_box());
    if (gett::pair_tiles(g) && prm.block_n == 256 && prm.split_k == 1) prm.cluster_m = 2;
    const cudaError_t r = detail::run_sm90_any(p, prm);
    if (r == cudaErrorInvalidValue) return false;  // the generic kernel reads the originals
    *err = r;
    return true;
}

template <class In>
Status contract_in(const std::string& d, const std::string& a, const std::string& b,
                   const int* ext, const void* A, const void* B, void* D, const Options& o) {
    switch (o.c_type) {
    case DataType::BF16: return contract_typed<In, __nv_bfloat16>(d, a, b, ext, A, B, D, o);
    case DataType::F16: return contract_typed<In, __half>(d, a, b, ext, A, B, D, o);
    case DataType::F32: return contract_typed<In, float>(d, a, b, ext, A, B, D, o);
    default: return Status::UnsupportedDataType;
    }
}

}  // namespace

Status gemm_diagonal_a(int n, int N, const void* d, const void* B, int64_t ldb, void* C,
                       int64_t ldc, const Options& o) {
    if (n < 0 || N < 0 || o.batch < 1 || !d || !B || !C) return Status::InvalidValue;
    if (ldb < N || ldc < N) return Status::BadLeadingDimension;
    if (o.a_type != o.b_type) return Status::UnsupportedDataType;
#define KILN_DIAG(IN, OUT) return diag_typed<IN, OUT>(n, N, d, B, ldb, C, ldc, o)
    if (o.a_type == DataType::BF16 && o.c_type == DataType::BF16)
        KILN_DIAG(__nv_bfloat16, __nv_bfloat16);
    if (o.a_type == DataType::BF16 && o.c_type == DataType::F32) KILN_DIAG(__nv_bfloat16, float);
    if (o.a_type == DataType::F16 && o.c_type == DataType::F16) KILN_DIAG(__half, __half);
    if (o.a_type == DataType::F32 && o.c_type == DataType::F32) KILN_DIAG(float, float);
#undef KILN_DIAG
    return Status::UnsupportedDataType;
}

Status cgemm(Op ta, Op tb, int M, int N, int K, const void* A, int64_t lda, const void* B,
             int64_t ldb, void* C, int64_t ldc, const Options& o) {
    return complex_like<Complex<float>, layout::InterleavedComplex>(ta, tb, M, N, K, A, lda, B,
                                                                   ldb, C, ldc, o);
}

Status dual_gemm(Op ta, Op tb, int M, int N, int K, const void* A, int64_t lda, const void* B,
                 int64_t ldb, void* C, int64_t ldc, const Options& o) {
    return complex_like<Dual<float>, layout::InterleavedDual>(ta, tb, M, N, K, A, lda, B, ldb,
                                                             C, ldc, o);
}

Status contract(const char* spec, const int* extents, const void* A, const void* B, void* D,
                const Options& o) {
    if (!spec || !extents || !A || !B || !D) return Status::InvalidValue;
    std::string s;
    for (const char* c = spec; *c; ++c)
        if (*c != ' ') s += *c;
    size_t eq = s.find('='), star = s.find('*');
    if (eq == std::string::npos || star == std::string::npos || star < eq)
        return Status::InvalidValue;
    std::string d = s.substr(0, eq), a = s.substr(eq + 1, star - eq - 1), b = s.substr(star + 1);
    for (const std::string* t : {&d, &a, &b})
        for (char c : *t)
            if (c < 'a' || c > 'z') return Status::InvalidValue;
    if (o.a_type != o.b_type) return Status::UnsupportedDataType;
    const bool out_ok =
        o.c_type == DataType::BF16 || o.c_type == DataType::F16 || o.c_type == DataType::F32;
    const bool tma = o.path != Path::Generic && detail::is16(o.a_type) && out_ok;
    if (tma && gett::contract_valid(d, a, b)) {
        cudaError_t err = cudaSuccess;
        if (contract_sm90(d, a, b, extents, A, B, D, o, &err)) {
            if (o.path_taken) *o.path_taken = Path::Sm90Tma;
            return err == cudaSuccess ? Status::Success : Status::CudaError;
        }
    }
    if (o.path == Path::Sm90Tma) return Status::PathUnavailable;
    if (o.path_taken) *o.path_taken = Path::Generic;
    switch (o.a_type) {
    case DataType::BF16: return contract_in<__nv_bfloat16>(d, a, b, extents, A, B, D, o);
    case DataType::F16: return contract_in<__half>(d, a, b, extents, A, B, D, o);
    case DataType::F32: return contract_in<float>(d, a, b, extents, A, B, D, o);
    default: return Status::UnsupportedDataType;
    }
}

}  // namespace kiln::gemm

// C entry points (ctypes). kind: 0 = diagonal A, 1 = complex, 2 = dual, 3 = diagonal A (generic).
extern "C" int kiln_gemm_special(int kind, int ta, int tb, int M, int N, int K, const void* A,
                                 int64_t lda, const void* B, int64_t ldb, void* C, int64_t ldc,
                                 int a_type, int c_type, void* stream) {
    using namespace kiln::gemm;
    Options o;
    o.a_type = o.b_type = static_cast<DataType>(a_type);
    o.c_type = static_cast<DataType>(c_type);
    o.stream = stream;
    if (kind == 3) o.path = Path::Generic;  // diagonal A through the generic tiled kernel
    const Op opa = static_cast<Op>(ta), opb = static_cast<Op>(tb);
    Status s = (kind == 0 || kind == 3) ? gemm_diagonal_a(M, N, A, B, ldb, C, ldc, o)
               : kind == 1 ? cgemm(opa, opb, M, N, K, A, lda, B, ldb, C, ldc, o)
                           : dual_gemm(opa, opb, M, N, K, A, lda, B, ldb, C, ldc, o);
    return static_cast<int>(s);
}

extern "C" int kiln_contract(const char* spec, const int* extents, const void* A, const void* B,
                             void* D, int a_type, int c_type, void* stream, int path,
                             int* path_taken) {
    using namespace kiln::gemm;
    Options o;
    o.path = static_cast<Path>(path);
    Path taken = Path::Auto;
    o.path_taken = &taken;
    o.a_type = o.b_type = static_cast<DataType>(a_type);
    o.c_type = static_cast<DataType>(c_type);
    o.stream = stream;
    const int st = static_cast<int>(contract(spec, extents, A, B, D, o));
    if (path_taken) *path_taken = static_cast<int>(taken);
    return st;
}
