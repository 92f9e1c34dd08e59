#!/usr/bin/env bash
# session 40 (H200): the library with the untransposed few-row product at every width of
# kFewRowsUntransposedWidths (build-s40/libkiln_gemm.so.xz): gemm_check.py and compute-sanitizer
# (library_check), the launches of a few shapes (KILN_GEMM_DEBUG), then skinny_ab.py fewwidth
# relu with the untransposed path off (KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0: the transposed tiles,
# no longer clustered, or the default path past one wave of them) against as built.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s40b
SECONDS=0
unpack_library build-s40/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
library_check $R $S
echo "${SECONDS}s"
KILN_GEMM_DEBUG=1 python3 - <<'PY' 2>&1 | tee $R/launches_$S.txt
import sys; sys.path.insert(0, "bench")
import torch, kiln_gemm as kg
for M, N, K in ((64, 4096, 11008), (16, 5120, 5120), (16, 8192, 8192), (32, 14336, 4096),
                (64, 28672, 8192), (33, 33792, 1024), (17, 33793, 1024)):
    a = torch.randn(M, K, device="cuda").bfloat16(); w = torch.randn(N, K, device="cuda").bfloat16()
    c = torch.empty(M, N, device="cuda").bfloat16()
    print(M, N, K, kg.linear(a, w, c, 1.0, 0.0, "relu", torch.randn(N, device="cuda").bfloat16(), "col"))
    torch.cuda.synchronize()
PY
{
  KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 timeout 200 python3 bench/skinny_ab.py "transposed" fewwidth relu 2>&1
  timeout 200 python3 bench/skinny_ab.py "$S" fewwidth relu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
