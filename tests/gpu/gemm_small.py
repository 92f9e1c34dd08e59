"""Small GEMMs through every path, for compute-sanitizer (memcheck/racecheck/synccheck):
python3 tests/gpu/gemm_small.py  (needs KILN_GEMM_LIB)."""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/bench")
import kiln_gemm as kg  # noqa: E402

torch.manual_seed(3)
for (M, N, K) in [(128, 256, 64), (129, 257, 72), (70, 130, 40)]:
    for path in ("tma", "generic"):
        a = torch.randn(M, K, device="cuda").bfloat16()
        w = torch.randn(N, K, device="cuda").bfloat16()
        c = torch.randn(M, N, device="cuda").bfloat16()
        bias = torch.randn(N, device="cuda")
        st, taken = kg.linear(a, w, c, 1.0, 0.5, "gelu", bias, "col", path)
        torch.cuda.synchronize()
        print(M, N, K, path, st, taken)
        assert st == "success"
print("gemm_small: done")
