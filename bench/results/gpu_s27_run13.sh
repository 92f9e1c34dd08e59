#!/usr/bin/env bash
# session 27, run 13: the head's library (fill widths): gemm_bench.py --only gemm,decode
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s27.json 2>&1 \
  | tee $R/gemm_bench_s27.txt | grep -v '^ *$' | tail -40
