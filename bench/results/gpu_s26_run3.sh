#!/usr/bin/env bash
# session 26, run 3: the library of run 2, gemm_bench.py's gemm section as built (B evict-first
# at decode-ish only) and with A evict-last, B normal forced (KILN_GEMM_L2=last,normal)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 280 python3 bench/gemm_bench.py --only gemm --json $R/gemm_bench_s26.json 2>&1 \
  | tee $R/gemm_bench_s26.txt | grep -v '^ *$' | tail -30
KILN_GEMM_L2=last,normal timeout 280 python3 bench/gemm_bench.py --only gemm --json $R/gemm_bench_s26_alast.json 2>&1 \
  | tee $R/gemm_bench_s26_alast.txt | grep -v '^ *$' | tail -30
