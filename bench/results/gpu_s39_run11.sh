#!/usr/bin/env bash
# session 39 (H200): the final library (few rows untransposed from 72 weight tiles of 128 rows;
# build-s39/libkiln_gemm.so.xz): gemm_check.py, then skinny_ab.py fewuntrans transposed
# (KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0) against as built, plain and bias + ReLU.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s39g
SECONDS=0
unpack_library build-s39/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_$S.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_$S.txt)"
grep -v "^PASS" $R/gemm_check_$S.txt | head
{
  for act in "" relu; do
    KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 timeout 100 python3 bench/skinny_ab.py "transposed" fewuntrans $act 2>&1
    timeout 100 python3 bench/skinny_ab.py "$S" fewuntrans $act 2>&1
  done
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
