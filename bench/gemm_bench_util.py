"""Timing (and the GPU's clocks) shared by the benchmarks."""
import statistics
import subprocess
from typing import NamedTuple

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


class PairTiming(NamedTuple):
    """bench_pair's result: the medians over the rounds, the sorted per-round peer/kiln ratios
    (their median is a row's ratio, their range its spread), and those ratios split by which
    side the round timed first: a gap between the two medians is an order bias."""
    peer_ms: float
    kiln_ms: float
    ratios: list
    peer_first: list
    kiln_first: list


def bench_pair(peer, kiln, iters=10, rounds=8):
    """`bench` of two functions in alternation: `rounds` short medians of each, so that both see
    the same clock and thermal drift (one measurement of one version moved by up to 10% between
    runs at 4096^3, bench/NOTES.md "v13"). The order swaps every round (peer, kiln | kiln, peer
    | ...): with the peer always first, a drift within a round at the power cap would favour
    one side in every round."""
    gp, gk = _graph(peer, iters), _graph(kiln, iters)
    tp, tk, peer_first = [], [], []
    for r in range(rounds):
        first = r % 2 == 0
        for graph, times in ((gp, tp), (gk, tk)) if first else ((gk, tk), (gp, tp)):
            times.append(do_bench(graph.replay, warmup=25, rep=100, return_mode="median") / iters)
        peer_first.append(first)
    ratios = [p / k for p, k in zip(tp, tk)]
    return PairTiming(statistics.median(tp), statistics.median(tk), sorted(ratios),
                      sorted(x for x, f in zip(ratios, peer_first) if f),
                      sorted(x for x, f in zip(ratios, peer_first) if not f))


def pair_fields(t):
    """A result row's ratio fields from a PairTiming."""
    return dict(ratio=statistics.median(t.ratios), ratio_range=[t.ratios[0], t.ratios[-1]],
                ratio_peer_first=statistics.median(t.peer_first),
                ratio_kiln_first=statistics.median(t.kiln_first))


def smi(query):
    """One nvidia-smi query (e.g. "clocks.sm,clocks.mem") as CSV text, "n/a" without nvidia-smi."""
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader"],
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return "n/a"


def cold_copies(w):
    """w and copies of it that together hold more than twice the L2, for timing with cold
    weights: a graph's calls that take them in turn (Turns) each stream their weights from DRAM,
    as a model's layers do, where calls on one tensor find most of it in L2 from the call
    before once it fits there (32 MiB at 4096 x 4096; bench/NOTES.md v37)."""
    l2 = torch.cuda.get_device_properties(w.device).L2_cache_size
    return [w] + [w.clone() for _ in range(max(1, -(-2 * l2 // w.nbytes)) - 1)]


class Turns:
    """The items in turn, one per call: a CUDA graph captured from calls of a function that takes
    its operand from a Turns launches each with the next one."""

    def __init__(self, items):
        self.items, self.calls = items, 0

    def __call__(self):
        item = self.items[self.calls % len(self.items)]
        self.calls += 1
        return item

