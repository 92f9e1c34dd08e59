#!/usr/bin/env bash
# session 29, run 6: the final library (tail maps in the 128-wide split-K kernels; one empty
# arrive per consumer warpgroup and CTA in pairs, lane 0 of warps 0 / 1; one per warp unpaired):
# gemm_check, compute-sanitizer memcheck / racecheck / synccheck on tests/gpu/gemm_small.py,
# skinny_ab's pairs set (plain, bias + ReLU), gemm_bench.py --only gemm,decode twice
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib29/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
timeout 150 python3 bench/gemm_check.py > $R/gemm_check_s29c.txt 2>&1; echo "gemm_check rc=$? ${SECONDS}s"
grep -v "^PASS" $R/gemm_check_s29c.txt | tail -5; grep -c "^PASS" $R/gemm_check_s29c.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s29c_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean ${SECONDS}s" || { echo "$tool FAILED rc=$? ${SECONDS}s"; tail -5 $R/sanitizer_s29c_$tool.txt; }
done
{ timeout 60 python3 bench/skinny_ab.py s29 pairs 2>&1
  timeout 60 python3 bench/skinny_ab.py s29 pairs relu 2>&1; } | tee $R/skinny_ab_s29_pairs.txt
echo "${SECONDS}s"
for s in "" b; do
  timeout 200 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s29$s.json 2>&1 \
    | tee $R/gemm_bench_s29$s.txt | grep -v '^ *$' | grep "gemm\b\|gemm+" | head -27 | awk '{print $1, $2, $9}'
  echo "${SECONDS}s"
done
