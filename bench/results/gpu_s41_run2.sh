#!/usr/bin/env bash
# session 41 (H200): the same library as run 1 (carry build-s41) on the plain product of the
# l2fit set (as built against KILN_GEMM_L2=normal,first); the few16 set's bias + ReLU as built
# (transposed) against KILN_GEMM_FEW_ROWS_UNTRANSPOSED=1 (untransposed).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s41b
SECONDS=0
unpack_library build-s41/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
{
  timeout 100 python3 bench/skinny_ab.py "$S" l2fit 2>&1
  KILN_GEMM_L2=normal,first timeout 100 python3 bench/skinny_ab.py "$S-first" l2fit 2>&1
  timeout 100 python3 bench/skinny_ab.py "$S" few16 relu 2>&1
  KILN_GEMM_FEW_ROWS_UNTRANSPOSED=1 timeout 100 python3 bench/skinny_ab.py "$S-untr" few16 relu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
