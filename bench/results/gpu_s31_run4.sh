#!/usr/bin/env bash
# session 31, run 4 (H200): two more gemm_bench.py --only gemm,decode samples of the library
# (a933137's code, as run 3), for medians of three with run 3's
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib31/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
for s in b c; do
  timeout 200 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s31_h200$s.json 2>&1 \
    | tee $R/gemm_bench_s31_h200$s.txt | grep "gemm" | awk '{print $1, $2, $(NF-6)}' | head -40
  echo "${SECONDS}s"
done
