#!/usr/bin/env bash
# session 30, run 6a: an early sample of the library of bb8f1bc (the single-box producer path in
# every kernel, also the 256-wide split-K ones, which spilled): skinny_ab's pairs set and
# gemm_bench.py --only gemm,decode once
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib30/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
{ timeout 60 python3 bench/skinny_ab.py s30 pairs 2>&1
  timeout 60 python3 bench/skinny_ab.py s30 pairs relu 2>&1; } > $R/skinny_ab_s30a_pairs.txt; cat $R/skinny_ab_s30a_pairs.txt | cut -c1-150
echo "${SECONDS}s"
timeout 200 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s30a.json 2>&1 \
  | tee $R/gemm_bench_s30a.txt | grep -v '^ *$' | head -45 | cut -c1-130
echo "${SECONDS}s"
