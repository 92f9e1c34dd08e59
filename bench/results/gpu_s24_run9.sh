#!/usr/bin/env bash
# session 24, run 9: compute-sanitizer on tests/gpu/gemm_small.py whose bias + activation loop
# now takes the two few-row shapes through all three epilogue kernels (run-8 library)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for t in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s24_$t.txt 2>&1 && echo "compute-sanitizer $t: clean" || { echo "$t FAILED"; tail -5 $R/sanitizer_s24_$t.txt; }
done
grep "few\|16 8192\|5 8200" $R/sanitizer_s24_memcheck.txt | head
