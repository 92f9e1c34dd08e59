"""ctypes binding of libkiln_gemm.so (src/gemm) for tests and benchmarks: torch tensors in,
kiln::gemm::gemmEx underneath. Row-major convention as in include/kiln/gemm.h."""
import ctypes
import os

import torch

DT = {torch.float16: 0, torch.bfloat16: 1, torch.float32: 2,
      torch.float8_e4m3fn: 3, torch.float8_e5m2: 4}
ACT = {None: 0, "relu": 1, "gelu": 2, "silu": 3}
BIAS = {None: 0, "row": 1, "col": 2}
PATH = {"auto": 0, "tma": 1, "generic": 2}
STATUS = ["success", "invalid value", "bad leading dimension", "unsupported data type",
          "path unavailable", "CUDA error"]

_lib = None


def lib():
    global _lib
    if _lib is None:
        _lib = ctypes.CDLL(os.environ.get("KILN_GEMM_LIB", "build-gemm/libkiln_gemm.so"))
        f = _lib.kiln_gemm_ex
        i, i64, fl, p = ctypes.c_int, ctypes.c_int64, ctypes.c_float, ctypes.c_void_p
        f.argtypes = [i, i, i, i, i, fl, p, i64, p, i64, fl, p, i64, i, i, i, p, i, i, i,
                      i64, i64, i64, i64, p, i, ctypes.POINTER(i)]
        f.restype = i
        g = _lib.kiln_gemm_ex_ops
        g.argtypes = f.argtypes + [ctypes.POINTER(fl), p, p, p, i64]
        g.restype = i
    return _lib


def element_ops(op_a=None, op_b=None, op_c=None):
    """(scale, shift, relu) per operand (None: identity) as the 9 floats kiln_gemm_ex_ops takes."""
    vals = []
    for op in (op_a, op_b, op_c):
        scale, shift, relu = op or (1.0, 0.0, False)
        vals += [scale, shift, float(bool(relu))]
    return (ctypes.c_float * 9)(*vals)


def gemm_raw(ta, tb, M, N, K, alpha, a, lda, b, ldb, beta, c, ldc, act=None, bias=None,
             bias_mode=None, batch=1, sa=0, sb=0, sc=0, path="auto", a_dtype=None, sbias=0,
             ops=None, row_sum=None, col_sum=None, workspace=None):
    """ops: None or element_ops(...) (transforms of A, B, C after their load); row_sum /
    col_sum: fp32 tensors of batch*M / batch*N that the row / column sums of C are added to;
    workspace: a device tensor that lets affine A/B transforms fold out of the mainloop
    (fold_workspace(M, N, batch) makes one)."""
    taken = ctypes.c_int(-1)
    st = lib().kiln_gemm_ex_ops(
        int(ta == "T"), int(tb == "T"), M, N, K, alpha, a.data_ptr(), lda, b.data_ptr(), ldb,
        beta, c.data_ptr(), ldc, DT[a_dtype or a.dtype], DT[c.dtype], ACT[act],
        bias.data_ptr() if bias is not None else None,
        DT[bias.dtype] if bias is not None else 2, BIAS[bias_mode], batch, sa, sb, sc, sbias,
        torch.cuda.current_stream().cuda_stream, PATH[path], ctypes.byref(taken), ops,
        row_sum.data_ptr() if row_sum is not None else None,
        col_sum.data_ptr() if col_sum is not None else None,
        workspace.data_ptr() if workspace is not None else None,
        workspace.numel() * workspace.element_size() if workspace is not None else 0)
    return STATUS[st], ["auto", "tma", "generic"][taken.value] if taken.value >= 0 else None


def fold_workspace(M, N, batch=1):
    """Workspace for folding affine A/B transforms (gemm_fold_workspace_bytes in gemm.h)."""
    return torch.empty(batch * (M + 1) + batch * (N + 1) + 2, device="cuda", dtype=torch.float32)


def linear(a, w, out, alpha=1.0, beta=0.0, act=None, bias=None, bias_mode="col", path="auto",
           ops=None, row_sum=None, col_sum=None, workspace=None):
    """out(MxN) = act(alpha * opA(a)(MxK) @ opB(w)(NxK)^T + beta * opC(out) + bias); contiguous
    2-D or 3-D (batched) tensors; ops: None or element_ops(op_a, op_b, op_c); row_sum /
    col_sum: fp32 vectors the row / column sums of out are added to."""
    if a.dim() == 3:
        B, M, K = a.shape
        N = w.shape[-2]
        return gemm_raw("N", "T", M, N, K, alpha, a, a.stride(1), w, w.stride(-2), beta, out,
                        out.stride(1), act, bias, bias_mode if bias is not None else None, B,
                        a.stride(0), w.stride(0) if w.dim() == 3 else 0, out.stride(0), path,
                        sbias=bias.stride(0) if bias is not None and bias.dim() == 2 else 0,
                        ops=ops, row_sum=row_sum, col_sum=col_sum, workspace=workspace)
    M, K = a.shape
    N = w.shape[0]
    return gemm_raw("N", "T", M, N, K, alpha, a, a.stride(0), w, w.stride(0), beta, out,
                    out.stride(0), act, bias, bias_mode if bias is not None else None,
                    path=path, ops=ops, row_sum=row_sum, col_sum=col_sum,
                    workspace=workspace)


def _special(kind, ta, tb, M, N, K, a, lda, b, ldb, c, ldc, a_dtype):
    f = lib().kiln_gemm_special
    i, i64, p = ctypes.c_int, ctypes.c_int64, ctypes.c_void_p
    f.argtypes = [i, i, i, i, i, i, p, i64, p, i64, p, i64, i, i, p]
    f.restype = i
    st = f(kind, int(ta == "T"), int(tb == "T"), M, N, K, a.data_ptr(), lda, b.data_ptr(), ldb,
           c.data_ptr(), ldc, DT[a_dtype], DT[c.dtype], torch.cuda.current_stream().cuda_stream)
    return STATUS[st]


def diag_a(d, b, out, generic=False):
    """out(n x N) = diag(d) @ b(n x N). generic=True: Diagonal layout + predicate on the tiled
    kernel instead of the specialized diagonal operator."""
    n, N = b.shape
    return _special(3 if generic else 0, "N", "N", n, N, n, d, 1, b, b.stride(0), out,
                    out.stride(0), d.dtype)


def cgemm(a, b, out):
    """complex64 out = a @ b (row-major, contiguous)."""
    M, K = a.shape
    N = b.shape[1]
    return _special(1, "N", "N", M, N, K, torch.view_as_real(a), K, torch.view_as_real(b), N,
                    torch.view_as_real(out), N, torch.float32)


def dual_gemm(a, b, out):
    """Dual numbers as (..., 2) float32 tensors (value, derivative): out = a @ b."""
    M, K = a.shape[:2]
    N = b.shape[1]
    return _special(2, "N", "N", M, N, K, a, K, b, N, out, N, torch.float32)


def contract(spec, extents, a, b, out, path="auto", with_path=False):
    """GETT: out = einsum(spec) on row-major contiguous tensors. with_path: also return the
    path taken ("tma" or "generic")."""
    f = lib().kiln_contract
    p = ctypes.c_void_p
    f.argtypes = [ctypes.c_char_p, p, p, p, p, ctypes.c_int, ctypes.c_int, p, ctypes.c_int,
                  ctypes.POINTER(ctypes.c_int)]
    f.restype = ctypes.c_int
    ext = (ctypes.c_int * 26)(*[extents.get(chr(ord("a") + i), 1) for i in range(26)])
    taken = ctypes.c_int(-1)
    st = f(spec.encode(), ctypes.cast(ext, p), a.data_ptr(), b.data_ptr(), out.data_ptr(),
           DT[a.dtype], DT[out.dtype], torch.cuda.current_stream().cuda_stream, PATH[path],
           ctypes.byref(taken))
    if with_path:
        return STATUS[st], ["auto", "tma", "generic"][taken.value] if taken.value >= 0 else None
    return STATUS[st]


def cgemm_planar(ta, tb, M, N, K, a_re, a_im, lda, b_re, b_im, ldb, out, ldc, batch=1, sa=0,
                 sb=0, sc=0, path="auto"):
    """Split-complex GEMM (kiln::gemm::cgemm_planar): A and B as bf16/f16 planes (stored as op
    says, like gemm_raw), out = a complex64 tensor (interleaved fp32), a (..., 2) 16-bit tensor
    (interleaved 16-bit parts) or a (re, im) pair of real tensors (split planes). ldc and sc in
    complex elements. Returns (status, path taken)."""
    f = lib().kiln_cgemm_planar
    i, i64, p = ctypes.c_int, ctypes.c_int64, ctypes.c_void_p
    f.argtypes = [i, i, i, i, i, p, p, i64, p, p, i64, p, p, i64, i, i, i, i64, i64, i64, p, i,
                  ctypes.POINTER(i)]
    f.restype = i
    if isinstance(out, tuple):
        c_re, c_im = out
        c_type, c_im_ptr = DT[c_re.dtype], c_im.data_ptr()
    else:
        c_re, c_im_ptr = out, None
        c_type = DT[torch.float32] if out.dtype == torch.complex64 else DT[out.dtype]
    taken = ctypes.c_int(-1)
    st = f(int(ta == "T"), int(tb == "T"), M, N, K, a_re.data_ptr(), a_im.data_ptr(), lda,
           b_re.data_ptr(), b_im.data_ptr(), ldb, c_re.data_ptr(), c_im_ptr, ldc,
           DT[a_re.dtype], c_type, batch, sa, sb, sc, torch.cuda.current_stream().cuda_stream,
           PATH[path], ctypes.byref(taken))
    return STATUS[st], ["auto", "tma", "generic"][taken.value] if taken.value >= 0 else None
