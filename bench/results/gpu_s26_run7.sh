#!/usr/bin/env bash
# session 26, run 7: the library of run 5; skinny_ab's skinny set as built against 128 x 128
# tiles forced (KILN_GEMM_BN=128: the wave-spill rule's 128 x 256 tiles off, so that the tail
# split takes a second partial wave), in alternating processes, two rounds
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for r in 1 2; do
  timeout 100 python3 bench/skinny_ab.py default skinny 2>&1
  KILN_GEMM_BN=128 timeout 100 python3 bench/skinny_ab.py bn128 skinny 2>&1
done | tee $R/skinny_ab_s26_bn128.txt
for s in 1024,2304,4096 256,11008,4096; do
  for bn in 256 128; do
    KILN_GEMM_DEBUG=1 KILN_GEMM_BN=$bn python3 - $s <<'PY' 2>&1 | grep "kiln sm90" | sed "s/^/$s BN=$bn: /"
import sys, torch
sys.path.insert(0, "bench")
import kiln_gemm as kg
M, N, K = map(int, sys.argv[1].split(","))
a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
out = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
kg.linear(a, w, out); torch.cuda.synchronize()
PY
  done
done | tee -a $R/skinny_ab_s26_bn128.txt
