"""Timing shared by the GEMM benchmarks."""
import torch
from triton.testing import do_bench


def bench(fn, iters=10):
    """Median ms per call of `fn` replayed from a CUDA graph of `iters` back-to-back calls:
    kernel time without Python/launch overhead, the same treatment for kiln and cuBLAS."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()  # warm-up outside capture (module load, handles, smem attributes)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    # Captured on the warm-up stream: kiln keeps its split-K buffers per stream and cannot
    # allocate them during a capture (torch's default capture stream would be a fresh one).
    with torch.cuda.graph(g, stream=s):
        for _ in range(iters):
            fn()
    return do_bench(g.replay, warmup=50, rep=300, return_mode="median") / iters
