#!/usr/bin/env bash
# session 27, run 9: what cuBLAS runs at the shapes kiln serves under 0.9 of it, next to the
# library's launch configuration for them (KILN_GEMM_DEBUG=1)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
S="256x6144x8192 256x4096x4096 160x7168x8192 96x5120x5120 127x4096x4096 1024x2304x4096 16x2048x8192 16x8192x2048 128x6144x8192 256x8192x8192"
{
  python3 build-ab27b/cublas_kernels.py $S 2>&1 | grep -v Warn | grep -v warn
  for s in $S; do echo "kiln $s: $(KILN_GEMM_DEBUG=1 python3 bench/ncu_one.py ${s//x/ } 2>&1 | sort -u | tr '\n' ' ')"; done
} | tee $R/underfill_kernels_s27.txt
