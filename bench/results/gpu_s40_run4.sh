#!/usr/bin/env bash
# session 40 (H200): run 3's library (build-s40/libkiln_gemm.so.xz), continued: skinny_ab.py
# fewwidth plain with the untransposed path off (KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0) against as
# built, bias + GELU as built, the decode and fewbias sets (bias + ReLU) as built; cuBLAS's
# kernels at seven of the shapes (cublas_kernels.py); 65-128 rows untransposed in the harness.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s40c
SECONDS=0
unpack_library build-s40/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
{
  KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 timeout 150 python3 bench/skinny_ab.py "transposed" fewwidth 2>&1
  timeout 150 python3 bench/skinny_ab.py "$S" fewwidth 2>&1
  timeout 150 python3 bench/skinny_ab.py "$S" fewwidth gelu 2>&1
  timeout 150 python3 bench/skinny_ab.py "$S" decode relu 2>&1
  timeout 150 python3 bench/skinny_ab.py "$S" fewbias relu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
timeout 100 python3 bench/cublas_kernels.py 32x4096x4096 64x4096x4096 64x22016x4096 \
  64x28672x8192 32x28672x4096 16x6144x4096 16x14336x4096 2>&1 | grep -v Warn | tee $R/cublas_kernels_s40.txt | cut -c1-150
# 65-128 rows untransposed on one 128-row M-tile against one wave of narrow weight tiles
# (harness, build-s40h/m128nWsS, bias + ReLU), next to the library's short products (pairs of
# 64-row tiles) on the same shapes
{
  for round in 1 2; do
    for s in "96 8192 8192 64s8" "128 8192 8192 64s8" "100 8192 4096 64s8" "127 4096 4096 32s10" \
             "128 4096 4096 32s10" "96 5120 5120 40s10"; do
      set -- $s
      ab_time build-s40h/m128n$4 $1 $2 $3
    done
  done
  timeout 150 python3 bench/skinny_ab.py "$S" short relu 2>&1
} | tee $R/shortuntrans_s40.txt | cut -c1-150
echo "${SECONDS}s"
