#!/usr/bin/env bash
# session 27, run 17: the head's library (fill widths 144, 160, 192): compute-sanitizer racecheck
# and synccheck on tests/gpu/gemm_small.py (which runs each fill width)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for tool in racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s27b_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" || { echo "$tool FAILED rc=$?"; tail -5 $R/sanitizer_s27b_$tool.txt; }
done
