// kiln::gemm — BLAS-like host API over the kiln GEMM template library (device/kiln/gemm/).
//
// Conventions: ROW-MAJOR storage (as C++ and PyTorch), FP32 accumulation.
//   C(MxN) = act( alpha * op(A)(MxK) * op(B)(KxN) + beta * C + bias )
//   op(A) = A      (transA == Op::N): A stored M x K, lda >= K
//         = A^T    (transA == Op::T): A stored K x M, lda >= M
//   op(B) = B      (transB == Op::N): B stored K x N, ldb >= N
//         = B^T    (transB == Op::T): B stored N x K, ldb >= K   (torch.nn.Linear weights)
//   C stored M x N, ldc >= N. C is read only when beta != 0.
// Element-wise transforms (GemmKernels' "transform after every load"): options.op_a / op_b /
// op_c rewrite every element of A, B, C as it is loaded, x -> relu?(scale * x + shift):
//   C = act( alpha * opA(op(A)) * opB(op(B)) + beta * opC(C) + bias )
// Row / column sums of the result (options.row_sum / col_sum) come out of the same epilogue.
// On Sm90Tma (16-bit A, B and C of one type, A with Op::N, B with Op::T) an affine A/B transform
// (relu = false on both) with options.workspace is folded: the kernel computes sa*sb*A*B^T plus
// rank-1 corrections from the row sums of A and B (a prepass), in fp32 — the transformed
// operands are never rounded; any other A/B transform is applied in shared memory in the
// operand's 16-bit type (one fused multiply-add, rounded once: with scale = 1 the same value as
// rounding the fp32 sum). On the generic kernel the transforms run in fp32.
// Strided batches: options.batch > 1 with element strides stride_a / stride_b / stride_c.
//
// Paths (options.path_taken reports which one ran):
//   Sm90Tma — warp-specialized persistent TMA + wgmma kernel; needs A, B in {bf16, f16, f8e4m3,
//             f8e5m2} (same type), 16-byte aligned A/B, lda, ldb (and batch strides) multiples
//             of 16 bytes (8 16-bit / 16 8-bit elements). 16-bit inputs: any transA/transB —
//             K-major operands (A with Op::N, B with Op::T) and MN-major ones (A with Op::T, B
//             with Op::N) are both read by TMA and fed to wgmma directly. 8-bit inputs: K-major
//             only (Op::N, Op::T: wgmma cannot transpose 8-bit operands); other orders run on
//             Generic (or return PathUnavailable when options.path forces Sm90Tma).
//             fp8 per-tensor scales: pass alpha = scale_a * scale_b (D = alpha * A*B + ...).
//             Problems whose tiles leave half the SMs idle split K (gemmEx and contract without
//             transforms); the partial sums go to device buffers the library keeps per device
//             and stream, allocated by the first such call on a stream. During a stream capture
//             they cannot be allocated: a captured call on a stream without them runs unsplit
//             (same result), so make one call on the capture stream before capturing.
//   Generic — FPU kernel with no alignment/stride rules; all dtypes and transpositions.
// Auto picks Sm90Tma when its rules hold, else Generic (e.g. misaligned pointers).
#pragma once
#include <cstdint>

namespace kiln::gemm {

enum class Op : int { N = 0, T = 1 };
enum class DataType : int { F16 = 0, BF16 = 1, F32 = 2, F8E4M3 = 3, F8E5M2 = 4 };
#ifndef KILN_GEMM_ENUMS_DEFINED  // same definitions as device/kiln/gemm/epilogue.cuh
#define KILN_GEMM_ENUMS_DEFINED
enum class Activation : int { None = 0, ReLU = 1, GELU = 2, SiLU = 3 };
// Row: bias[row] (length M); Col: bias[col] (length N)
enum class BiasMode : int { None = 0, Row = 1, Col = 2 };
#endif
enum class Path : int { Auto = 0, Sm90Tma = 1, Generic = 2 };

enum class Status : int {
    Success = 0,
    InvalidValue,          // negative sizes, null pointers, batch < 1
    BadLeadingDimension,   // lda/ldb/ldc smaller than the stored row length
    UnsupportedDataType,   // dtype combination not provided (e.g. A and B differ, fp8 output)
    PathUnavailable,       // options.path forced a path whose rules the arguments break
    CudaError,             // a CUDA call failed; see cudaGetLastError()
};

/// x -> relu ? max(scale * x + shift, 0) : scale * x + shift. The default is the identity.
struct ElementOp {
    float scale = 1.f, shift = 0.f;
    bool relu = false;
    bool identity() const { return scale == 1.f && shift == 0.f && !relu; }
};

struct Options {
    DataType a_type = DataType::BF16;
    DataType b_type = DataType::BF16;
    DataType c_type = DataType::BF16;  // C and the result share C's buffer and type
    Activation activation = Activation::None;
    const void* bias = nullptr;
    DataType bias_type = DataType::F32;  // F32, BF16 or F16
    BiasMode bias_mode = BiasMode::None;
    int batch = 1;
    int64_t stride_a = 0, stride_b = 0, stride_c = 0, stride_bias = 0;  // elements
    void* stream = nullptr;  // cudaStream_t
    Path path = Path::Auto;
    Path* path_taken = nullptr;  // out: which path ran
    ElementOp op_a{}, op_b{}, op_c{};  // gemmEx only: transforms of A, B, C after their load
    // gemmEx only: row sums row_sum[b*M + i] += sum_j C[b][i,j] and column sums
    // col_sum[b*N + j] += sum_i C[b][i,j] of the result (fp32, before rounding to c_type),
    // added atomically: the caller zeroes them. null: not computed.
    float* row_sum = nullptr;
    float* col_sum = nullptr;
    // gemmEx only: device scratch for folding affine A/B transforms (no ReLU) out of the
    // mainloop (see gemm_fold_workspace_bytes); null or too small: the transforms run in shared
    // memory instead (the general path, slower).
    void* workspace = nullptr;
    int64_t workspace_bytes = 0;
};

/// Workspace gemmEx needs to fold affine A/B transforms: fp32 row sums of A and B per batch.
inline int64_t gemm_fold_workspace_bytes(int M, int N, int batch) {
    return 4 * (int64_t(batch) * (M + 1) + int64_t(batch) * (N + 1) + 2);
}

Status gemmEx(Op transA, Op transB, int M, int N, int K, float alpha, const void* A, int64_t lda,
              const void* B, int64_t ldb, float beta, void* C, int64_t ldc,
              const Options& options = {});

/// Human-readable name of a status ("bad leading dimension", ...).
const char* status_string(Status s);

}  // namespace kiln::gemm

namespace kiln::gemm {

/// C(n x N) = diag(d) * B(n x N): A is diagonal, stored as its diagonal d (length n, a_type).
/// B row-major (ldb >= N), C row-major (ldc >= N). Uses the Diagonal layout and the DiagonalA
/// predicate (k-slices off the diagonal are skipped: O(n*N) work instead of O(n*n*N)).
Status gemm_diagonal_a(int n, int N, const void* d, const void* B, int64_t ldb, void* C,
                       int64_t ldc, const Options& options = {});

/// Complex GEMM, fp32 parts interleaved (std::complex<float> / cuComplex / torch.complex64):
/// C = op(A) * op(B), row-major like gemmEx (Op::T is a plain transpose, no conjugate).
Status cgemm(Op transA, Op transB, int M, int N, int K, const void* A, int64_t lda,
             const void* B, int64_t ldb, void* C, int64_t ldc, const Options& options = {});

/// A split-complex (planar) operand: real and imaginary parts as two matrices of the same shape
/// and leading dimension (GemmKernels' SplitComplex layout: what the tensor cores want).
struct ComplexPlanes {
    const void* re = nullptr;
    const void* im = nullptr;
};

/// Where a complex result goes: im == nullptr: interleaved (re, im) pairs at re (c_type F32 is
/// std::complex<float> / cuComplex / torch.complex64); otherwise split planes.
struct ComplexOutput {
    void* re = nullptr;
    void* im = nullptr;
};

/// Complex GEMM on the tensor cores: C = op(A) * op(B), A and B split-complex planes of
/// options.a_type (= b_type) in {BF16, F16}, fp32 accumulation (per k-step four real wgmma
/// products: Re += Ar*Br - Ai*Bi, Im += Ar*Bi + Ai*Br), C of options.c_type in {F32, BF16, F16}.
/// Row-major and Op as gemmEx (Op::T: plain transpose, no conjugate); lda/ldb count elements of
/// one plane, ldc complex elements (of C's planes, or pairs when interleaved). Batches:
/// options.batch with stride_a / stride_b (each plane) and stride_c (complex elements).
/// Paths: Sm90Tma when each plane meets TMA's rules (as gemmEx), else Generic. Errors as gemmEx;
/// UnsupportedDataType for other input/output types.
Status cgemm_planar(Op transA, Op transB, int M, int N, int K, ComplexPlanes A, int64_t lda,
                    ComplexPlanes B, int64_t ldb, ComplexOutput C, int64_t ldc,
                    const Options& options = {});

/// Dual-number GEMM (a + b*eps, eps^2 = 0), fp32 parts interleaved: forward-mode derivative of
/// a matrix product in one pass. Same conventions as cgemm.
Status dual_gemm(Op transA, Op transB, int M, int N, int K, const void* A, int64_t lda,
                 const void* B, int64_t ldb, void* C, int64_t ldc, const Options& options = {});

/// GETT tensor contraction D = A * B in Einstein notation, e.g. "abc = bda * dc": every mode
/// of D appears in exactly one of A, B; contracted modes appear in A and B only. Tensors are
/// dense row-major in the order their modes are written; `extent(mode)` gives sizes through
/// `extents` ('a' -> extents[0], ..., 'z' -> extents[25]). Up to 3 modes per group (free-A,
/// free-B, contracted). dtype: options.a_type for A and B, options.c_type for D.
/// 16-bit inputs run on the Sm90Tma path: the tensors are read in place through TMA views
/// when each mode group folds to at most two (extent, stride) pairs, a two-mode group's inner
/// extent is a multiple of 64, the 16-byte rules hold and D's contiguous mode is the inner
/// free mode of its operand. Otherwise the operand at fault (or both, whichever copies fewer
/// elements) is first copied into a K-major order, its free modes as in D and its contracted
/// modes as in the other operand, into a per-stream buffer the library keeps (as for split-K;
/// during a stream capture that buffer cannot grow, and the call reads the tensors in place if
/// it can). The generic kernel takes what neither form can run. options.path /
/// options.path_taken as for gemmEx.
Status contract(const char* spec, const int* extents, const void* A, const void* B, void* D,
                const Options& options = {});

}  // namespace kiln::gemm
