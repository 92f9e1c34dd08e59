#!/usr/bin/env bash
# session 40 (H200): the final library (the untransposed few-row product at every multiple of 8
# from 32 to 256 wide; start_from_row_bias decoding 16-bit pairs with unpack_pair;
# build-s40/libkiln_gemm.so.xz): gemm_check.py and compute-sanitizer (library_check), then
# skinny_ab.py fewwide (plain and bias + ReLU), fewwidth (bias + ReLU), fewwarm warm and cold
# (bias + ReLU) as built, and the transposed two-tile and few-row sets whose row-bias start the
# unpack_pair change touches (twotilewidth, fewsplit16: bias + ReLU).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s40d
SECONDS=0
unpack_library build-s40/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
library_check $R $S
echo "${SECONDS}s"
{
  timeout 100 python3 bench/skinny_ab.py "$S" fewwide 2>&1
  timeout 100 python3 bench/skinny_ab.py "$S" fewwide relu 2>&1
  timeout 200 python3 bench/skinny_ab.py "$S" fewwidth relu 2>&1
  timeout 100 python3 bench/skinny_ab.py "$S" fewwarm relu 2>&1
  timeout 100 python3 bench/skinny_ab.py "$S" fewwarm relu --cold 2>&1
  timeout 100 python3 bench/skinny_ab.py "$S" twotilewidth relu 2>&1
  timeout 100 python3 bench/skinny_ab.py "$S" fewsplit16 relu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
