"""The generated GEMM (kiln compile --emit=cuda, built as a shared object) next to the GEMM
library and cuBLAS, in one process, on the same tensors, with the same timing (gemm_bench_util:
CUDA-graph medians of 10 back-to-back calls). It separates what the kernels do from what the two
harnesses measure (tests/gpu/codegen_gemm.cu and bench/gemm_bench.py time differently).

  python3 bench/gen_vs_lib.py [--json OUT] [--once] NAME.so ...

Each NAME.so exports kiln_launch_gemm(C, A, B, M, N, K, stream) for the sizes it was compiled for
(C[M,N] = A[M,K] . B[K,N], row-major); the sizes are read from its sibling NAME.cu. The library
runs the same product as gemmEx NN (B stored K x N, as the generated kernel reads it) and as NT
(B stored N x K, the layout of bench/gemm_bench.py's rows); cuBLAS both ways (torch.matmul).
--once runs each kernel twice and times nothing (for Nsight Compute: ncu --launch-skip 3 ...)."""
import argparse
import ctypes
import json
import re
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import kiln_gemm as kg  # noqa: E402
from gemm_bench_util import bench  # noqa: E402


def compiled_sizes(so_path):
    src = open(so_path[:-3] + ".cu").read()
    m = re.search(r"if \(M != (\d+) \|\| N != (\d+) \|\| K != (\d+)\) return 1;", src)
    if not m:
        sys.exit(f"{so_path[:-3]}.cu: no size check in its launcher (not a generated GEMM?)")
    return tuple(int(x) for x in m.groups())


def generated_launcher(so_path):
    f = ctypes.CDLL(so_path).kiln_launch_gemm
    p, i = ctypes.c_void_p, ctypes.c_int
    f.argtypes = [p, p, p, i, i, i, p]
    f.restype = i
    return f


def rel_err(c, ref):
    return ((c.float() - ref).norm() / ref.norm()).item()


def measure(so_path, once=False):
    M, N, K = compiled_sizes(so_path)
    launch = generated_launcher(so_path)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b_kn = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    b_nk = b_kn.t().contiguous()
    ref = a.float() @ b_kn.float()
    c_gen = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    c_nn = torch.empty_like(c_gen)
    c_nt = torch.empty_like(c_gen)

    def gen():
        rc = launch(c_gen.data_ptr(), a.data_ptr(), b_kn.data_ptr(), M, N, K,
                    torch.cuda.current_stream().cuda_stream)
        assert rc == 0, f"{so_path}: kiln_launch_gemm returned {rc}"

    def lib(tb, b, c):
        def run():
            st, path = kg.gemm_raw("N", tb, M, N, K, 1.0, a, K, b, N if tb == "N" else K, 0.0,
                                   c, N)
            assert st == "success" and path == "tma", (st, path)
        return run

    lib_nn, lib_nt = lib("N", b_kn, c_nn), lib("T", b_nk, c_nt)
    for _ in range(2 if once else 1):
        for fn in (gen, lib_nn, lib_nt):
            fn()
    torch.cuda.synchronize()
    if once:
        return None
    row = dict(so=so_path, M=M, N=N, K=K, err_generated=rel_err(c_gen, ref),
               err_lib_nn=rel_err(c_nn, ref), err_lib_nt=rel_err(c_nt, ref))
    times = dict(generated=bench(gen), lib_nn=bench(lib_nn), lib_nt=bench(lib_nt),
                 cublas_nn=bench(lambda: torch.matmul(a, b_kn)),
                 cublas_nt=bench(lambda: torch.matmul(a, b_nk.t())))
    flop = 2.0 * M * N * K
    row.update({f"tflops_{k}": flop / v / 1e9 for k, v in times.items()})
    row["generated_vs_cublas_nn"] = times["cublas_nn"] / times["generated"]
    row["lib_nn_vs_cublas_nn"] = times["cublas_nn"] / times["lib_nn"]
    row["lib_nt_vs_cublas_nt"] = times["cublas_nt"] / times["lib_nt"]
    ok = max(row["err_generated"], row["err_lib_nn"], row["err_lib_nt"]) < 1e-2
    row["correct"] = ok
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("so", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--once", action="store_true")
    args = ap.parse_args()
    if args.once:
        for so in args.so:
            measure(so, once=True)
        return
    torch.manual_seed(0)
    rows = []
    print(f"{'kernel':36} {'MxNxK':>16} {'gen':>6} {'libNN':>6} {'cuNN':>6} {'libNT':>6} "
          f"{'cuNT':>6} | gen/cuNN libNN/cuNN libNT/cuNT ok")
    for so in args.so:
        r = measure(so)
        rows.append(r)
        print(f"{so.rsplit('/', 1)[-1]:36} {r['M']:>5}x{r['N']:>5}x{r['K']:>4} "
              f"{r['tflops_generated']:6.0f} {r['tflops_lib_nn']:6.0f} "
              f"{r['tflops_cublas_nn']:6.0f} "
              f"{r['tflops_lib_nt']:6.0f} {r['tflops_cublas_nt']:6.0f} | "
              f"{r['generated_vs_cublas_nn']:.3f} {r['lib_nn_vs_cublas_nn']:.3f} "
              f"{r['lib_nt_vs_cublas_nt']:.3f} {r['correct']}", flush=True)
    if args.json:
        json.dump(dict(gpu=torch.cuda.get_device_name(), command=" ".join(sys.argv), rows=rows),
                  open(args.json, "w"), indent=1)
    sys.exit(0 if all(r["correct"] for r in rows) else 1)


if __name__ == "__main__":
    main()
