#!/usr/bin/env bash
# session 24, run 10: gemm_bench.py's new decode section (run-8 library)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 150 python3 bench/gemm_bench.py --only decode --json $R/gemm_bench_s24_decode.json > $R/gemm_bench_s24_decode.txt 2>&1; echo rc=$?
grep "^gemm\|Error\|assert" $R/gemm_bench_s24_decode.txt
