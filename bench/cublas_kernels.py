"""Which kernels cuBLAS / cuBLASLt run for the GEMM benchmark's shapes (bf16 in, fp32 accumulate,
bf16 out): the kernel names (tile, cluster and warpgroup shapes are spelled in them) from the
torch profiler, for comparing kiln's configuration with the peer's.
Usage: python3 bench/cublas_kernels.py [MxNxK ...] (default: the GEMM benchmark's shapes)"""
import sys

import torch
from torch.profiler import ProfilerActivity, profile

shapes = [(2048, 2048, 2048), (4096, 4096, 4096), (6144, 6144, 6144), (8192, 8192, 8192),
          (8192, 12288, 4096), (8192, 4096, 4096), (8192, 11008, 4096), (8192, 4096, 11008),
          (256, 8192, 8192)]
if len(sys.argv) > 1:
    shapes = [tuple(int(x) for x in arg.split("x")) for arg in sys.argv[1:]]


def kernels_of(fn):
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return sorted({e.name for e in prof.events() if e.device_type.name == "CUDA"})


for M, N, K in shapes:
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
    bias = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    for what, fn in (("matmul", lambda: torch.matmul(a, w.t())),
                     ("bias+relu", lambda: torch._addmm_activation(bias, a, w.t())),
                     ("bias+gelu", lambda: torch._addmm_activation(bias, a, w.t(), use_gelu=True))):
        print(f"{M}x{N}x{K} {what}: {' | '.join(kernels_of(fn))}")
