#!/usr/bin/env bash
# session 30, run 6: the library of a933137 (the producer's single-box path, not in the 256-wide
# split-K kernels): gemm_check, compute-sanitizer memcheck / racecheck / synccheck on
# tests/gpu/gemm_small.py, gemm_bench.py --only gemm,decode twice
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib30/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
timeout 150 python3 bench/gemm_check.py > $R/gemm_check_s30.txt 2>&1; echo "gemm_check rc=$? ${SECONDS}s"
grep -v "^PASS" $R/gemm_check_s30.txt | tail -5; grep -c "^PASS" $R/gemm_check_s30.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s30_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean ${SECONDS}s" || { echo "$tool FAILED rc=$? ${SECONDS}s"; tail -5 $R/sanitizer_s30_$tool.txt; }
done
for s in "" b; do
  timeout 200 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s30$s.json 2>&1 \
    | tee $R/gemm_bench_s30$s.txt | grep -v '^ *$' | grep "gemm\b\|gemm+" | head -27 | awk '{print $1, $2, $9}'
  echo "${SECONDS}s"
done
