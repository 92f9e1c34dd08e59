"""Rasterization-group sweep for the sm90 kernel (KILN_GEMM_GROUP_M), graph-timed, one process
per setting so the launcher reads the variable fresh: python3 bench/tune_group.py"""
import os
import subprocess
import sys

if len(sys.argv) > 1:  # child: time a few shapes with the current environment
    import torch
    sys.path.insert(0, os.path.dirname(__file__))
    import kiln_gemm as kg
    from triton.testing import do_bench

    def bench(fn, iters=10):  # same graph timing as gemm_bench.py
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            fn()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(iters):
                fn()
        return do_bench(g.replay, warmup=50, rep=300, return_mode="median") / iters
    for M, N, K in ((4096, 4096, 4096), (8192, 8192, 8192), (8192, 11008, 4096)):
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        out = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        t = bench(lambda: kg.linear(a, w, out))
        tc = bench(lambda: torch.matmul(a, w.t()))
        print(f"group_m={os.environ.get('KILN_GEMM_GROUP_M')} {M}x{N}x{K} kiln "
              f"{2*M*N*K/t/1e9:.1f} cuBLAS {2*M*N*K/tc/1e9:.1f} ratio {tc/t:.3f}", flush=True)
    sys.exit(0)
for g in (4, 8, 16, 32, 64):
    subprocess.run([sys.executable, __file__, "child"],
                   env=dict(os.environ, KILN_GEMM_GROUP_M=str(g)))
