#!/usr/bin/env bash
# session 39 (H200): the library whose few-row products on 64-wide tiles run in 4-CTA clusters
# along M from three quarters of a wave of tiles (few_rows_cluster_m; built here and carried as
# build-s39/libkiln_gemm.so.xz): library_check (gemm_check.py, compute-sanitizer), the launches
# (KILN_GEMM_DEBUG), skinny_ab.py fewcluster unclustered (KILN_GEMM_FEW_ROWS_CLUSTER=1) against
# as built and clustered everywhere (=4), plain and bias + ReLU, then fewbias as in run 1.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s39c
SECONDS=0
unpack_library build-s39/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
library_check $R $S
echo "${SECONDS}s"
KILN_GEMM_DEBUG=1 python3 - <<'PY' 2>&1 | tee $R/launches_$S.txt
import sys; sys.path.insert(0, "bench")
import torch, kiln_gemm as kg
for M, N, K in ((32, 14336, 4096), (48, 16384, 4096), (24, 16896, 2048), (32, 12288, 4096)):
    a = torch.randn(M, K, device="cuda").bfloat16(); w = torch.randn(N, K, device="cuda").bfloat16()
    c = torch.empty(M, N, device="cuda").bfloat16()
    print(M, N, K, kg.linear(a, w, c, 1.0, 0.0, "relu", torch.randn(N, device="cuda").bfloat16(), "col"))
    torch.cuda.synchronize()
PY
{
  for act in "" relu; do
    KILN_GEMM_FEW_ROWS_CLUSTER=1 timeout 100 python3 bench/skinny_ab.py "nocluster" fewcluster $act 2>&1
    timeout 100 python3 bench/skinny_ab.py "$S" fewcluster $act 2>&1
    KILN_GEMM_FEW_ROWS_CLUSTER=4 timeout 100 python3 bench/skinny_ab.py "cluster4" fewcluster $act 2>&1
  done
  timeout 200 python3 bench/skinny_ab.py "$S" fewbias relu 2>&1
  timeout 200 python3 bench/skinny_ab.py "$S" fewbias gelu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
