#!/usr/bin/env bash
# session 27, run 15: the library with fill widths 144, 160 and 192 (params.h fill_tile_n: 128 x BN
# tiles for one full wave): gemm_check, compute-sanitizer memcheck, and skinny_ab's fill set
# plain and bias + ReLU, as built and with the old widths (KILN_GEMM_BN=256) in the same run
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
timeout 220 python3 bench/gemm_check.py > $R/gemm_check_s27b.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s27b.txt | tail -5; grep -c "^PASS" $R/gemm_check_s27b.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 python3 tests/gpu/gemm_small.py \
  > $R/sanitizer_s27b_memcheck.txt 2>&1 && echo "compute-sanitizer memcheck: clean" || { echo "memcheck FAILED"; tail -5 $R/sanitizer_s27b_memcheck.txt; }
{
  timeout 80 python3 bench/skinny_ab.py fill fill 2>&1
  KILN_GEMM_BN=256 timeout 80 python3 bench/skinny_ab.py bn256 fill 2>&1
  timeout 80 python3 bench/skinny_ab.py fill fill relu 2>&1
  KILN_GEMM_BN=256 timeout 80 python3 bench/skinny_ab.py bn256 fill relu 2>&1
} | tee $R/skinny_ab_s27b_fill.txt
