#!/usr/bin/env bash
# session 24, run 8: the decode set on the library whose few-row rule stops at one wave of tiles
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 90 python3 bench/skinny_ab.py one-wave decode 2>&1 | tee $R/skinny_ab_s24_few_rows_wave.txt
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s24_final.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s24_final.txt | tail -3; grep -c "^PASS" $R/gemm_check_s24_final.txt
