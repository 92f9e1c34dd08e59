"""A few kiln-vs-cuBLAS timings for A/B runs of build or environment switches (one process per
setting): python3 bench/quick_ab.py [label]. Same timing as gemm_bench.py (CUDA-graph medians)."""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import kiln_gemm as kg  # noqa: E402
from gemm_bench_util import bench  # noqa: E402

label = sys.argv[1] if len(sys.argv) > 1 else ""
torch.manual_seed(0)
out = []
for ta, tb, n in (("N", "T", 2048), ("N", "T", 4096), ("T", "N", 2048), ("T", "N", 4096),
                  ("T", "N", 8192), ("N", "N", 4096)):
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)  # stored as op says (square)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
    av = a if ta == "N" else a.t()
    bv = b if tb == "N" else b.t()
    st, path = kg.gemm_raw(ta, tb, n, n, n, 1.0, a, n, b, n, 0.0, c, n)
    assert st == "success" and path == "tma", (st, path)
    err = ((c.float() - av.float() @ bv.float()).norm() / (av.float() @ bv.float()).norm()).item()
    tk = bench(lambda: kg.gemm_raw(ta, tb, n, n, n, 1.0, a, n, b, n, 0.0, c, n))
    tc = bench(lambda: torch.matmul(av, bv))
    flop = 2 * n**3
    out.append(f"{ta}{tb} {n}: kiln {flop / tk / 1e9:6.1f} TF/s cuBLAS {flop / tc / 1e9:6.1f} "
               f"ratio {tc / tk:.3f} err {err:.1e}")
ext = dict(a=64, b=32, c=2048, d=2048)
A = torch.randn(32, 2048, 64, device="cuda", dtype=torch.bfloat16)
B = torch.randn(2048, 2048, device="cuda", dtype=torch.bfloat16)
D = torch.empty(64, 32, 2048, device="cuda", dtype=torch.bfloat16)
st, path = kg.contract("abc = bda * dc", ext, A, B, D, with_path=True)
ref = torch.einsum("bda,dc->abc", A.float(), B.float())
err = ((D.float() - ref).norm() / ref.norm()).item()
tk = bench(lambda: kg.contract("abc = bda * dc", ext, A, B, D))
tc = bench(lambda: torch.einsum("bda,dc->abc", A, B))
out.append(f"GETT abc=bda*dc ({path}): kiln {2 * 2048**3 / tk / 1e9:6.1f} TF/s einsum "
           f"{2 * 2048**3 / tc / 1e9:6.1f} ratio {tc / tk:.3f} err {err:.1e}")
for line in out:
    print(f"[{label}] {line}")
