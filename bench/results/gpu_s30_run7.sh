#!/usr/bin/env bash
# session 30, run 7: the same library, the issue's other benchmark rows (gemm_bench.py --quick:
# the Table 2 chain, row/column sums, transposed orders, diagonal, complex, GETT, fp8) and the
# skinny products' mid-rows, fill and short-K sets
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib30/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
timeout 300 python3 bench/gemm_bench.py --quick --only chain,sums,trans,diag,complex,gett,fp8 \
  --json $R/gemm_bench_s30_quick.json 2>&1 | tee $R/gemm_bench_s30_quick.txt | grep -v '^ *$' | awk '{print $1, $2, $3, $9}' | head -60
echo "${SECONDS}s"
{ timeout 90 python3 bench/skinny_ab.py s30 midrows 2>&1
  timeout 90 python3 bench/skinny_ab.py s30 fill 2>&1
  timeout 60 python3 bench/skinny_ab.py s30 shortk 2>&1; } > $R/skinny_ab_s30_sets.txt; cut -c1-120 $R/skinny_ab_s30_sets.txt
echo "${SECONDS}s"
