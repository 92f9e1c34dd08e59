#!/usr/bin/env bash
# session 30, run 8: the final library (a933137) again: skinny_ab's pairs set (plain, bias +
# ReLU) and a third gemm_bench.py --only gemm,decode sample
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib30/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
{ timeout 60 python3 bench/skinny_ab.py s30 pairs 2>&1
  timeout 60 python3 bench/skinny_ab.py s30 pairs relu 2>&1; } > $R/skinny_ab_s30_pairs.txt; cut -c1-120 $R/skinny_ab_s30_pairs.txt
echo "${SECONDS}s"
timeout 200 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s30c.json 2>&1 \
  | tee $R/gemm_bench_s30c.txt | grep -v '^ *$' | grep "gemm\b\|gemm+" | head -27 | awk '{print $1, $2, $9}'
echo "${SECONDS}s"
