#!/usr/bin/env bash
# session 26, run 5: the final library (B evict-first where one cluster's M-tiles cover M, A
# normal): gemm_check, compute-sanitizer memcheck; skinny_ab's skinny, midrows, decode and
# fewsplit16 sets as built and with the hints off (KILN_GEMM_L2=normal,normal)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s26_final.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s26_final.txt | tail -5; grep -c "^PASS" $R/gemm_check_s26_final.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 python3 tests/gpu/gemm_small.py \
  > $R/sanitizer_s26_final_memcheck.txt 2>&1 && echo "compute-sanitizer memcheck: clean" || { echo "memcheck FAILED"; tail -5 $R/sanitizer_s26_final_memcheck.txt; }
for s in skinny midrows decode fewsplit16; do
  timeout 100 python3 bench/skinny_ab.py final $s 2>&1
  KILN_GEMM_L2=normal,normal timeout 100 python3 bench/skinny_ab.py off $s 2>&1
done | tee $R/skinny_ab_s26_final.txt
