"""One kiln GEMM launch (after a warm-up) for Nsight Compute: python3 bench/ncu_one.py M N K
[relu|gelu] (with an activation: D's column bias and that activation, as skinny_ab.py's)."""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import kiln_gemm as kg  # noqa: E402

M, N, K = (int(x) for x in sys.argv[1:4])
act = sys.argv[4] if len(sys.argv) > 4 else None
assert act in (None, "relu", "gelu"), act
a = torch.randn(M, K, device="cuda").bfloat16()
w = torch.randn(N, K, device="cuda").bfloat16()
out = torch.empty(M, N, device="cuda").bfloat16()
bias = torch.randn(N, device="cuda").bfloat16() if act else None
for _ in range(2):
    kg.linear(a, w, out, act=act, bias=bias)
torch.cuda.synchronize()
