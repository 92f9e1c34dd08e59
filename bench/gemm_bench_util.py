"""Timing (and the GPU's clocks) shared by the benchmarks."""
import statistics
import subprocess

import torch
from triton.testing import do_bench


def _graph(fn, iters):
    """A CUDA graph of `iters` back-to-back calls of `fn`, after one warm-up call."""
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
    return g


def bench(fn, iters=10):
    """Median ms per call of `fn` replayed from a CUDA graph of `iters` back-to-back calls:
    kernel time without Python/launch overhead, the same treatment for kiln and cuBLAS."""
    return do_bench(_graph(fn, iters).replay, warmup=50, rep=300, return_mode="median") / iters


def bench_pair(peer, kiln, iters=10, rounds=7):
    """`bench` of two functions in alternation: `rounds` short medians of each, taken peer,
    kiln, peer, kiln, ... so that both see the same clock and thermal drift (one measurement of
    one version moved by up to 10% between runs at 4096^3, bench/NOTES.md "v13").
    Returns (peer ms, kiln ms, ratios): the medians over the rounds and the sorted per-round
    peer/kiln ratios, whose median is the row's ratio and whose range is its spread."""
    gp, gk = _graph(peer, iters), _graph(kiln, iters)
    tp, tk = [], []
    for _ in range(rounds):
        tp.append(do_bench(gp.replay, warmup=25, rep=100, return_mode="median") / iters)
        tk.append(do_bench(gk.replay, warmup=25, rep=100, return_mode="median") / iters)
    ratios = sorted(p / k for p, k in zip(tp, tk))
    return statistics.median(tp), statistics.median(tk), ratios


def smi(query):
    """One nvidia-smi query (e.g. "clocks.sm,clocks.mem") as CSV text, "n/a" without nvidia-smi."""
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader"],
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return "n/a"
