#!/usr/bin/env bash
# session 41 (H200): run 3's library (carry build-s41) on the fewfloor set, bias + ReLU, warm and
# cold: as built (transposed) against KILN_GEMM_FEW_ROWS_UNTRANSPOSED=1 (untransposed 32-wide
# tiles under 3/4 of a wave).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s41d
unpack_library build-s41/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
{
  timeout 60 python3 bench/skinny_ab.py "$S" fewfloor relu 2>&1
  KILN_GEMM_FEW_ROWS_UNTRANSPOSED=1 timeout 60 python3 bench/skinny_ab.py "$S-untr" fewfloor relu 2>&1
  timeout 60 python3 bench/skinny_ab.py "$S" fewfloor relu --cold 2>&1
  KILN_GEMM_FEW_ROWS_UNTRANSPOSED=1 timeout 60 python3 bench/skinny_ab.py "$S-untr" fewfloor relu --cold 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
