#!/usr/bin/env bash
# session 26, run 8: the head's library (B evict-first only on tiles at most 128 wide):
# gemm_check, compute-sanitizer memcheck; skinny_ab's decode set as built and with the hints off
# (KILN_GEMM_L2=normal,normal), its midrows and pairs sets as built
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s26_head.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s26_head.txt | tail -5; grep -c "^PASS" $R/gemm_check_s26_head.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 python3 tests/gpu/gemm_small.py \
  > $R/sanitizer_s26_head_memcheck.txt 2>&1 && echo "compute-sanitizer memcheck: clean" || { echo "memcheck FAILED"; tail -5 $R/sanitizer_s26_head_memcheck.txt; }
{
  timeout 100 python3 bench/skinny_ab.py head decode 2>&1
  KILN_GEMM_L2=normal,normal timeout 100 python3 bench/skinny_ab.py off decode 2>&1
  timeout 100 python3 bench/skinny_ab.py head midrows 2>&1
  timeout 100 python3 bench/skinny_ab.py head pairs 2>&1
} | tee $R/skinny_ab_s26_head.txt
