#!/usr/bin/env bash
# session 39 (H200): the library whose few-row products of 17-64 rows against 80+ weight tiles
# that fit one wave of 72-96-wide tiles run untransposed on 64-row M-tiles
# (few_rows_untransposed_width; build-s39/libkiln_gemm.so.xz): library_check, the launches, then
# skinny_ab.py fewclusterlow transposed (KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0, run 7's library) against
# as built, plain and bias + ReLU.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s39f
SECONDS=0
unpack_library build-s39/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
library_check $R $S
echo "${SECONDS}s"
KILN_GEMM_DEBUG=1 python3 - <<'PY' 2>&1 | tee $R/launches_$S.txt
import sys; sys.path.insert(0, "bench")
import torch, kiln_gemm as kg
for M, N, K in ((32, 10240, 4096), (64, 11776, 4096), (64, 8192, 8192)):
    a = torch.randn(M, K, device="cuda").bfloat16(); w = torch.randn(N, K, device="cuda").bfloat16()
    c = torch.empty(M, N, device="cuda").bfloat16()
    print(M, N, K, kg.linear(a, w, c, 1.0, 0.0, "relu", torch.randn(N, device="cuda").bfloat16(), "col"))
    torch.cuda.synchronize()
PY
{
  for act in "" relu gelu; do
    KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 timeout 100 python3 bench/skinny_ab.py "transposed" fewclusterlow $act 2>&1
    timeout 100 python3 bench/skinny_ab.py "$S" fewclusterlow $act 2>&1
  done
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
