"""cuBLAS entry points torch does not expose, called through ctypes on the libcublas torch has
loaded: complex GEMMs for the kiln complex benchmark (row-major, C = A @ B, contiguous).
  cgemm3m(a, b, out)                  cublasCgemm3m (Gauss 3-multiplication, fp32 complex)
  gemm_ex_c32(a, b, out, compute)     cublasGemmEx on CUDA_C_32F with a compute type, e.g.
                                      COMPUTE_32F_FAST_16BF (tensor cores on bf16-rounded inputs)
  gemm_ex_c16(a16, b16, out, dtype)   cublasGemmEx with CUDA_C_16BF / CUDA_C_16F inputs (fp32
                                      compute, complex64 out); returns the cuBLAS status, which
                                      says whether cuBLAS offers 16-bit complex inputs at all
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
