#!/usr/bin/env bash
# session 39 (H200): the few-row products' bias + activation, before and after their D column
# bias starts the accumulator as the transposed problem's row bias (kAccRowBias, split kernels
# too). LIB: the library, built here and carried xz-compressed (run 1: session 38's,
# build-s38/libkiln_gemm.so.xz; run 2: this session's, build-s39/libkiln_gemm.so.xz); S: the
# results' suffix; CHECK=1 first runs gemm_check.py and compute-sanitizer (library_check).
# skinny_ab.py fewbias: bias + ReLU, bias + GELU (ratio to cuBLASLt) and the plain product (to
# cuBLAS: the control, the same kernels in both libraries).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
SECONDS=0
unpack_library "$LIB" || exit 1
export PYTHONUNBUFFERED=1
if [ "${CHECK:-0}" = 1 ]; then library_check $R $S; echo "${SECONDS}s"; fi
{
  timeout 200 python3 bench/skinny_ab.py "$S" fewbias relu 2>&1
  timeout 200 python3 bench/skinny_ab.py "$S" fewbias gelu 2>&1
  timeout 200 python3 bench/skinny_ab.py "$S" fewbias 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
