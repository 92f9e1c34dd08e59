#!/usr/bin/env bash
# session 23, run 8: the other sections of gemm_bench (--quick) on the library with the uniform
# warpgroup index, to compare with gemm_bench_s17_quick.json (the kernels these sections run
# changed too: complex planes, fp8, the chain, GETT, sums, transposed orders)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 280 python3 bench/gemm_bench.py --quick --only chain,sums,trans,diag,gett,complex,fp8 \
  --json $R/gemm_bench_s23_quick.json > $R/gemm_bench_s23_quick.txt 2>&1; echo rc=$?
grep -vE "^\s*$" $R/gemm_bench_s23_quick.txt | tail -40
