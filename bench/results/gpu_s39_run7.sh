#!/usr/bin/env bash
# session 39 (H200): the final library (few-row 4-CTA clusters from 3/5 of the SMs' tiles;
# build-s39/libkiln_gemm.so.xz) as built: the launches (KILN_GEMM_DEBUG), skinny_ab.py
# fewclusterlow and fewcluster (plain and bias + ReLU), fewbias (bias + ReLU and + GELU).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s39e
SECONDS=0
unpack_library build-s39/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
KILN_GEMM_DEBUG=1 python3 - <<'PY' 2>&1 | tee $R/launches_$S.txt
import sys; sys.path.insert(0, "bench")
import torch, kiln_gemm as kg
for M, N, K in ((64, 8192, 8192), (32, 10240, 4096), (32, 14336, 4096), (48, 16384, 4096)):
    a = torch.randn(M, K, device="cuda").bfloat16(); w = torch.randn(N, K, device="cuda").bfloat16()
    c = torch.empty(M, N, device="cuda").bfloat16()
    print(M, N, K, kg.linear(a, w, c, 1.0, 0.0, "relu", torch.randn(N, device="cuda").bfloat16(), "col"))
    torch.cuda.synchronize()
PY
{
  for set in fewclusterlow fewcluster; do
    for act in "" relu; do timeout 100 python3 bench/skinny_ab.py "$S" $set $act 2>&1; done
  done
  timeout 200 python3 bench/skinny_ab.py "$S" fewbias relu 2>&1
  timeout 200 python3 bench/skinny_ab.py "$S" fewbias gelu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
