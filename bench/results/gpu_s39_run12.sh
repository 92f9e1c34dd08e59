#!/usr/bin/env bash
# session 39 (H200): the final library (build-s39/libkiln_gemm.so.xz, commit ee97d94's kernels and
# plans) on skinny_ab.py's decode set and fewbias set, bias + ReLU: the record of where the
# decode shapes stand.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s39h
SECONDS=0
unpack_library build-s39/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
{
  timeout 150 python3 bench/skinny_ab.py "$S" decode relu 2>&1
  timeout 150 python3 bench/skinny_ab.py "$S" fewbias relu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
