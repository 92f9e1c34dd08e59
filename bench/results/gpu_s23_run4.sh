#!/usr/bin/env bash
# session 23, run 4: two more samples of the gemm rows on the library with the uniform
# warpgroup index (the same carried build as run 3)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for s in b c; do
  timeout 280 python3 bench/gemm_bench.py --only gemm > $R/gemm_bench_s23${s}_gemm.txt 2>&1
  grep -E "^gemm" $R/gemm_bench_s23${s}_gemm.txt | awk '{print $1, $2, $9, $10, $11, $12, $13}'
done
