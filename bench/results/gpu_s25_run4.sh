#!/usr/bin/env bash
# session 25, run 4: the few-row rule unsplit from 64 tiles on (few_rows_splits): gemm_check,
# skinny_ab.py's shortk set, then gemm_bench.py's gemm and decode sections
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s25_final.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s25_final.txt | tail -5; grep -c "^PASS" $R/gemm_check_s25_final.txt
timeout 60 python3 bench/skinny_ab.py final shortk 2>&1 | tee $R/skinny_ab_s25_shortk_final.txt
timeout 330 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s25.json 2>&1 \
  | tee $R/gemm_bench_s25.txt | grep -v '^ *$' | tail -40
