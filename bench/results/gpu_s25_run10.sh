#!/usr/bin/env bash
# session 25, run 10: the library of run 7: skinny_ab.py's shortk set (16-wide tiles now at 16 rows)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 60 python3 bench/skinny_ab.py final shortk 2>&1 | tee $R/skinny_ab_s25_shortk_final2.txt
