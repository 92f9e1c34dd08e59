#!/usr/bin/env bash
# session 28, run 15: the library's launch at the ragged fill and pair shapes (KILN_GEMM_DEBUG=1)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
[ -f build-gemm/libkiln_gemm.so ] || { mkdir -p build-gemm && gunzip -c build-lib28/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1; }
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so
KILN_GEMM_DEBUG=1 python3 - <<'PY' 2>&1 | tee $R/tailmap_launch_s28.txt
import sys, torch
sys.path.insert(0, "bench")
import kiln_gemm as kg
for M, N, K in ((768, 3072, 4096), (640, 4096, 4096), (160, 7168, 8192), (200, 8000, 4096)):
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    print(f"== {M}x{N}x{K}", flush=True)
    kg.linear(a, w, out)
    torch.cuda.synchronize()
PY
