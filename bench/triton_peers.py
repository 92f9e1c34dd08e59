"""Triton peers of kiln's GEMM-family kernels, timed beside the torch (cuBLAS) sequences.

For each case: random bf16 inputs, the Triton kernel (bench/triton_peers_kernels.py; autotuned
on the first launch), a check against a float32 reference from the same bf16 inputs (a case whose
result is wrong is reported and never timed), then times of the Triton kernel and of the torch
sequence (gemm: torch.matmul; dual: two matmuls + F.silu * mul; rowsum: matmul + sum).

  kinds   gemm:M,N,K    C = A·B
          dual:M,N,K    O = silu(A·B1) * (A·B2)
          rowsum:M,N,K  C = A·B, r[i] = Σj of the fp32 accumulator row
  usage   python3 bench/triton_peers.py --case gemm:4096,4096,4096 --case dual:4096,11008,4096
                                        [--cases FILE.json] [--json OUT.json]
          FILE.json: a list of "kind:M,N,K" strings or {"kind", "M", "N", "K"} objects.

Timing: `*_ms` is the median (triton.testing.do_bench, L2 flushed between reps) of CUDA-graph
replays of 10 back-to-back calls, divided by 10 — bench/gemm_bench_util.py's method, the one
kiln's main column uses; `*_eager_ms` times single eager calls (host overhead included). The
rowsum timings include zeroing r, which the Triton kernel needs before its atomic adds.
Writes JSON {gpu, clocks, versions, command, cases: [...]} and prints a table. Exit status 1 if
any case was wrong or failed, 0 otherwise; cases TMA cannot address are reported as skipped.
--help and importing this module need neither torch nor a GPU."""
import argparse
import json
import os
import sys

KINDS = ("gemm", "dual", "rowsum")
FLOPS_PER_MNK = {"gemm": 2, "dual": 4, "rowsum": 2}
# Normwise: max |out - ref| / max |ref|. bf16 outputs carry 2^-9 rounding; r stays fp32.
TOLERANCE = {"bf16": 2e-2, "f32": 1e-3}
GRAPH_CALLS = 10


def parse_case(text):
    """'kind:M,N,K' -> {'kind', 'M', 'N', 'K'}; raises ValueError naming the bad case."""
    kind, sep, dims = text.partition(":")
    parts = dims.split(",")
    if kind not in KINDS or not sep or len(parts) != 3:
        raise ValueError(f"case '{text}': expected KIND:M,N,K with KIND one of {', '.join(KINDS)}")
    try:
        M, N, K = (int(p) for p in parts)
    except ValueError:
        raise ValueError(f"case '{text}': M, N, K must be integers") from None
    if min(M, N, K) <= 0:
        raise ValueError(f"case '{text}': M, N, K must be positive")
    return {"kind": kind, "M": M, "N": N, "K": K}


def cases_from_file(path):
    with open(path) as f:
        items = json.load(f)
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a JSON list of cases")
    return [parse_case(it if isinstance(it, str) else f"{it['kind']}:{it['M']},{it['N']},{it['K']}")
            for it in items]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="kinds: " + ", ".join(KINDS))
    p.add_argument("--case", action="append", default=[], metavar="KIND:M,N,K",
                   help="one case (repeatable)")
    p.add_argument("--cases", metavar="FILE", help="JSON list of cases, after the --case ones")
    p.add_argument("--json", metavar="OUT", help="write the results here")
    args = p.parse_args(argv)
    try:
        args.cases = [parse_case(c) for c in args.case] + (
            cases_from_file(args.cases) if args.cases else [])
    except (OSError, ValueError, KeyError, TypeError) as e:
        p.error(str(e))
    if not args.cases:
        p.error("no cases: give --case KIND:M,N,K or --cases FILE")
    return args


class Runner:
    """Builds each case's tensors and its Triton, reference and torch callables. Imports torch,
    Triton and the kernels, so it is only built once a GPU run is under way."""

    def __init__(self):
        import torch
        import torch.nn.functional as F

        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import triton_peers_kernels as tk
        from gemm_bench_util import bench
        from triton.testing import do_bench

        torch.backends.cuda.matmul.allow_tf32 = False  # the reference is true fp32
        self.torch, self.F, self.tk, self.bench, self.do_bench = torch, F, tk, bench, do_bench

    def tensors(self, kind, M, N, K):
        torch = self.torch
        dev, bf16 = "cuda", torch.bfloat16
        # B scaled by K^-1/2 keeps A·B near unit size, where silu is not just a ReLU.
        t = {"a": torch.randn(M, K, device=dev, dtype=bf16),
             "b": (torch.randn(K, N, device=dev) * K ** -0.5).to(bf16),
             "c": torch.empty(M, N, device=dev, dtype=bf16)}
        if kind == "dual":
            t["b2"] = (torch.randn(K, N, device=dev) * K ** -0.5).to(bf16)
        if kind == "rowsum":
            t["r"] = torch.empty(M, device=dev, dtype=torch.float32)
        return t

    def triton_call(self, kind, t):
        tk = self.tk
        if kind == "gemm":
            return lambda: tk.gemm(t["a"], t["b"], t["c"])
        if kind == "dual":
            return lambda: tk.dual_gemm(t["a"], t["b"], t["b2"], t["c"])
        return lambda: tk.gemm_rowsum(t["a"], t["b"], t["c"], t["r"])

    def torch_call(self, kind, t):
        torch, F = self.torch, self.F
        if kind == "gemm":
            return lambda: torch.matmul(t["a"], t["b"])
        if kind == "dual":
            return lambda: F.silu(torch.matmul(t["a"], t["b"])) * torch.matmul(t["a"], t["b2"])
        return lambda: torch.matmul(t["a"], t["b"]).sum(1, dtype=torch.float32)

    def max_rel_err(self, kind, t):
        """Largest normwise error of the Triton outputs against the fp32 reference, and whether
        each output is within its tolerance."""
        a, b = t["a"].float(), t["b"].float()
        acc = a @ b
        if kind == "dual":
            checks = [(t["c"], self.F.silu(acc) * (a @ t["b2"].float()), "bf16")]
        else:
            checks = [(t["c"], acc, "bf16")]
        if kind == "rowsum":
            checks.append((t["r"], acc.sum(1), "f32"))
        errs = [((out.float() - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()
                for out, ref, _ in checks]
        ok = all(e <= TOLERANCE[prec] for e, (_, _, prec) in zip(errs, checks))
        return max(errs), ok

    def graph_ms(self, fn):
        return self.bench(fn, iters=GRAPH_CALLS)

    def eager_ms(self, fn):
        return self.do_bench(fn, warmup=25, rep=200, return_mode="median")


def run_case(runner, case):
    kind, M, N, K = case["kind"], case["M"], case["N"], case["K"]
    row = dict(case)
    if not runner.tk.tma_compatible(M, N, K):
        row.update(status="skipped", reason="TMA needs 16-byte-aligned rows (K, N multiples of 8)")
        return row
    t = runner.tensors(kind, M, N, K)
    tri, ref = runner.triton_call(kind, t), runner.torch_call(kind, t)
    tri()  # autotunes on the first launch
    runner.torch.cuda.synchronize()
    tri()  # the checked result comes from the chosen config alone (rowsum's r re-zeroed)
    err, ok = runner.max_rel_err(kind, t)
    row.update(config=runner.tk.chosen_config(kind), max_rel_err=err)
    if not ok:
        row.update(status="wrong", reason=f"max_rel_err {err:.3g} above tolerance")
        return row
    flop = FLOPS_PER_MNK[kind] * M * N * K
    row.update(status="ok", triton_ms=runner.graph_ms(tri), torch_ms=runner.graph_ms(ref),
               triton_eager_ms=runner.eager_ms(tri), torch_eager_ms=runner.eager_ms(ref))
    row.update(triton_tflops=flop / row["triton_ms"] / 1e9,
               torch_tflops=flop / row["torch_ms"] / 1e9,
               torch_over_triton=row["torch_ms"] / row["triton_ms"])
    return row


def run_case_guarded(runner, case):
    """A case that fails to compile or launch is reported, and the rest still run."""
    try:
        return run_case(runner, case)
    except Exception as e:  # noqa: BLE001 — any failure of one case is that case's result
        return dict(case, status="error", reason=f"{type(e).__name__}: {e}"[:500])
    finally:
        runner.torch.cuda.empty_cache()


def print_table(rows):
    head = ("kind", "M", "N", "K", "triton ms", "TFLOP/s", "torch ms", "TFLOP/s", "torch/triton",
            "max_rel_err", "config / status")
    print(" | ".join(head))
    for r in rows:
        if r["status"] != "ok":
            print(" | ".join([r["kind"], str(r["M"]), str(r["N"]), str(r["K"])] + ["-"] * 6 +
                             [f"{r['status']}: {r['reason']}"]))
            continue
        print(f"{r['kind']} | {r['M']} | {r['N']} | {r['K']} | {r['triton_ms']:.4f} | "
              f"{r['triton_tflops']:.1f} | {r['torch_ms']:.4f} | {r['torch_tflops']:.1f} | "
              f"{r['torch_over_triton']:.3f} | {r['max_rel_err']:.2e} | {r['config']}")


def main(argv):
    args = parse_args(argv)
    runner = Runner()
    torch = runner.torch
    if not torch.cuda.is_available():
        print("triton_peers: no CUDA device", file=sys.stderr)
        return 2
    import triton
    from gemm_bench_util import smi

    torch.manual_seed(0)
    report = {
        "gpu": torch.cuda.get_device_name(),
        "sm_count": torch.cuda.get_device_properties(0).multi_processor_count,
        "torch": torch.__version__, "triton": triton.__version__,
        "timing": f"median of do_bench over CUDA-graph replays of {GRAPH_CALLS} calls "
                  "(per call); *_eager_ms: do_bench of single calls",
        "command": "python3 bench/triton_peers.py " + " ".join(argv),
        "cases": [],
    }
    rows = report["cases"]
    for case in args.cases:
        rows.append(run_case_guarded(runner, case))
        print(json.dumps(rows[-1]), flush=True)
        report["clocks_sm_mem_mhz_at_end"] = smi("clocks.sm,clocks.mem")
        if args.json:  # after every case, so a run cut short keeps what it measured
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
    print_table(rows)
    return 0 if all(r["status"] in ("ok", "skipped") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
