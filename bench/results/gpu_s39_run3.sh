#!/usr/bin/env bash
# session 39 (H200): few-row tile shapes in the harness (bench/sm90_kernel_ab.cu, built here into
# build-s39h/ and carried; see gpu_s39_commands.txt), the plain product as the transposed kernel
# sees it (M = the weights, N = the activations' rows, D stored column-major: KILN_AB_STORE_T=1,
# the peer cuBLAS on the same bytes), two rounds: the library's 128-row tiles against the 64-row
# tiles cuBLAS runs at few rows (nvjet tst_64x16_64x16_2x1 at 16 x 8192 x 8192, 4x1 at
# 16 x 5120 x 5120, tst_48x64 / 72x64 at 64 rows, tst_128x32_64x10_4x1 at 32 x 14336 x 4096:
# cublas_kernels_s39b.txt).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
B=build-s39h
export KILN_AB_STORE_T=1
SECONDS=0
for round in 1 2; do
  echo "# round $round"
  for bin in m128n16s8 m64n16s16 m64n16s16c2 m64n16s12; do
    ab_time $B/$bin 8192 16 8192
    ab_time $B/$bin 5120 16 5120
    ab_time $B/$bin 8192 1 8192
  done
  KILN_AB_SPLITS=3 ab_time $B/m128n16s8sp 5120 16 5120
  KILN_AB_SPLITS=2 ab_time $B/m128n16s8sp 8192 16 8192
  for bin in m128n64s8 m64n64s13 m64n64s13c2; do
    ab_time $B/$bin 4096 64 11008
    ab_time $B/$bin 8192 64 8192
  done
  KILN_AB_SPLITS=2 ab_time $B/m128n64s8sp 4096 64 11008
  for bin in m128n64s8 m128n32s10 m128n32s10c4; do
    ab_time $B/$bin 14336 32 4096
  done
  echo "${SECONDS}s"
done 2>&1 | tee $R/fewtiles_s39.txt
