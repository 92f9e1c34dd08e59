#!/usr/bin/env bash
# session 28, run 10: a second sample of gemm_bench.py --only gemm on run 3's library (a fresh
# machine), for the closing note's spread
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
[ -f build-gemm/libkiln_gemm.so ] || { mkdir -p build-gemm && gunzip -c build-lib28/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1; }
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 280 python3 bench/gemm_bench.py --only gemm --json $R/gemm_bench_s28b.json 2>&1 \
  | tee $R/gemm_bench_s28b.txt | grep -v '^ *$' | tail -30
