"""Which kernels cuBLAS / cuBLASLt run for the GEMM benchmark's shapes (bf16 in, fp32 accumulate,
bf16 out): the kernel names (tile, cluster and warpgroup shapes are spelled in them) from the
torch profiler, with each launch's grid and block, for comparing kiln's configuration and
scheduling with the peer's (a persistent kernel launches one wave of CTAs; a separate launch or a
memset around it shows a tail or fix-up phase).
Usage: python3 bench/cublas_kernels.py [MxNxK ...] (default: the GEMM benchmark's shapes)"""
import json
import sys
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile

shapes = [(2048, 2048, 2048), (4096, 4096, 4096), (6144, 6144, 6144), (8192, 8192, 8192),
          (8192, 12288, 4096), (8192, 4096, 4096), (8192, 11008, 4096), (8192, 4096, 11008),
          (256, 8192, 8192)]
if len(sys.argv) > 1:
    shapes = [tuple(int(x) for x in arg.split("x")) for arg in sys.argv[1:]]


def kernels_of(fn):
    """The GPU work of one call, in launch order: name, then grid and block where it is a kernel."""
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        prof.export_chrome_trace(f.name)
        with open(f.name) as exported:
            trace = json.load(exported)
    gpu = [e for e in trace.get("traceEvents", [])
           if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memset", "gpu_memcpy")]
    gpu.sort(key=lambda e: e["ts"])
    out = []
    for e in gpu:
        args = e.get("args", {})
        launch = f" grid={args['grid']} block={args['block']}" if "grid" in args else ""
        out.append(f"{e['name']}{launch}")
    return out


for M, N, K in shapes:
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
    bias = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    for what, fn in (("matmul", lambda: torch.matmul(a, w.t())),
                     ("bias+relu", lambda: torch._addmm_activation(bias, a, w.t())),
                     ("bias+gelu", lambda: torch._addmm_activation(bias, a, w.t(), use_gelu=True))):
        print(f"{M}x{N}x{K} {what}: {' | '.join(kernels_of(fn))}")
