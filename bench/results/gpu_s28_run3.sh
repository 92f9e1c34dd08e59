#!/usr/bin/env bash
# session 28, run 3: the library with the producer's tail wait (no closing cluster barrier in
# paired kernels): gemm_check, compute-sanitizer memcheck and synccheck on tests/gpu/gemm_small.py
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib28/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
SECONDS=0
timeout 230 python3 bench/gemm_check.py > $R/gemm_check_s28.txt 2>&1; echo "gemm_check rc=$? ${SECONDS}s"
grep -v "^PASS" $R/gemm_check_s28.txt | tail -5; grep -c "^PASS" $R/gemm_check_s28.txt
for tool in memcheck synccheck; do
  timeout 170 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s28_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean ${SECONDS}s" || { echo "$tool FAILED rc=$? ${SECONDS}s"; tail -5 $R/sanitizer_s28_$tool.txt; }
done
