"""cuBLAS entry points torch does not expose, called through ctypes on the libcublas torch has
loaded: complex GEMMs for the kiln complex benchmark (row-major, C = A @ B, contiguous).
  cgemm3m(a, b, out)                  cublasCgemm3m (Gauss 3-multiplication, fp32 complex)
  gemm_ex_c32(a, b, out, compute)     cublasGemmEx on CUDA_C_32F with a compute type, e.g.
                                      COMPUTE_32F_FAST_16BF (tensor cores on bf16-rounded inputs)
  gemm_ex_c16(a16, b16, out, dtype)   cublasGemmEx with CUDA_C_16BF / CUDA_C_16F inputs (fp32
                                      compute, complex64 out); returns the cuBLAS status, which
                                      says whether cuBLAS offers 16-bit complex inputs at all
  complex_4m(ar, ai, br, bi, re, im)  four real cublasGemmEx (16-bit in, fp32 out) on the planes
a16/b16: (..., 2) interleaved 16-bit tensors. Every call returns the cublasStatus_t (0 = ok)."""
import ctypes

import torch

CUDA_C_32F, CUDA_C_16F, CUDA_C_16BF = 4, 6, 15
COMPUTE_32F, COMPUTE_32F_FAST_16F, COMPUTE_32F_FAST_16BF, COMPUTE_32F_FAST_TF32 = 68, 74, 75, 77
GEMM_DEFAULT = -1

_state = {}


def _lib():
    if "lib" not in _state:
        x = torch.ones(8, 8, device="cuda")
        torch.matmul(x, x)  # makes torch load libcublas
        torch.cuda.synchronize()
        with open("/proc/self/maps") as f:
            paths = sorted({ln.split()[-1] for ln in f if "/libcublas.so" in ln})
        lib = ctypes.CDLL(paths[0])
        h = ctypes.c_void_p()
        assert lib.cublasCreate_v2(ctypes.byref(h)) == 0
        # a workspace of our own, so that calls can be captured in CUDA graphs
        ws = torch.empty(64 << 20, dtype=torch.uint8, device="cuda")
        assert lib.cublasSetWorkspace_v2(h, ctypes.c_void_p(ws.data_ptr()),
                                         ctypes.c_size_t(ws.numel())) == 0
        _state.update(lib=lib, handle=h, ws=ws, one=(ctypes.c_float * 2)(1.0, 0.0),
                      zero=(ctypes.c_float * 2)(0.0, 0.0))
    return _state["lib"], _state["handle"]


def _on_stream():
    lib, h = _lib()
    lib.cublasSetStream_v2(h, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    return lib, h


def _ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def _mnk(a, b):
    return a.shape[0], b.shape[1], a.shape[1]


# Row-major C = A @ B is column-major C^T = B^T A^T: pass B first with m = N, n = M.
def cgemm3m(a, b, out):
    lib, h = _on_stream()
    M, N, K = _mnk(a, b)
    return lib.cublasCgemm3m(h, 0, 0, N, M, K, _state["one"], _ptr(b), N, _ptr(a), K,
                             _state["zero"], _ptr(out), N)


def gemm_ex_c32(a, b, out, compute):
    lib, h = _on_stream()
    M, N, K = _mnk(a, b)
    return lib.cublasGemmEx(h, 0, 0, N, M, K, _state["one"], _ptr(b), CUDA_C_32F, N, _ptr(a),
                            CUDA_C_32F, K, _state["zero"], _ptr(out), CUDA_C_32F, N, compute,
                            GEMM_DEFAULT)


def gemm_ex_c16(a16, b16, out, dtype):
    lib, h = _on_stream()
    M, K, N = a16.shape[0], a16.shape[1], b16.shape[1]
    return lib.cublasGemmEx(h, 0, 0, N, M, K, _state["one"], _ptr(b16), dtype, N, _ptr(a16),
                            dtype, K, _state["zero"], _ptr(out), CUDA_C_32F, N, COMPUTE_32F,
                            GEMM_DEFAULT)


CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF = 0, 2, 14


def gemm_ex_real(a, b, out, alpha=1.0, beta=0.0):
    """Row-major out (fp32) = alpha * a @ b + beta * out; a, b bf16 or f16, fp32 compute."""
    lib, h = _on_stream()
    M, K, N = a.shape[0], a.shape[1], b.shape[1]
    dt = CUDA_R_16BF if a.dtype == torch.bfloat16 else CUDA_R_16F
    al, be = ctypes.c_float(alpha), ctypes.c_float(beta)
    return lib.cublasGemmEx(h, 0, 0, N, M, K, ctypes.byref(al), _ptr(b), dt, N, _ptr(a), dt, K,
                            ctypes.byref(be), _ptr(out), CUDA_R_32F, N, COMPUTE_32F, GEMM_DEFAULT)


def complex_4m(ar, ai, br, bi, out_re, out_im):
    """The complex product as four real cuBLAS GEMMs on the 16-bit planes (the 4M method, the
    same arithmetic as kiln's complex kernel): Re = Ar Br - Ai Bi, Im = Ar Bi + Ai Br, fp32
    accumulation and split fp32 output planes (the second product of each accumulates, beta = 1)."""
    for a, b, out, alpha, beta in ((ar, br, out_re, 1.0, 0.0), (ai, bi, out_re, -1.0, 1.0),
                                   (ar, bi, out_im, 1.0, 0.0), (ai, br, out_im, 1.0, 1.0)):
        st = gemm_ex_real(a, b, out, alpha, beta)
        if st:
            return st
    return 0
