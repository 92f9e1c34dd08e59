#!/usr/bin/env bash
# session 29, run 4: the final library (tail maps in the 128-wide split-K kernels; one empty
# arrive per consumer warpgroup and CTA in paired kernels, one per warp unpaired): gemm_check,
# compute-sanitizer memcheck / racecheck / synccheck on tests/gpu/gemm_small.py, the harness's
# paired 128x128 kernel as HEAD b49234a (base) against this tree (final), skinny_ab's pairs set
# (plain, bias + ReLU), gemm_bench.py --only gemm,decode
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib29/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
timeout 150 python3 bench/gemm_check.py > $R/gemm_check_s29b.txt 2>&1; echo "gemm_check rc=$? ${SECONDS}s"
grep -v "^PASS" $R/gemm_check_s29b.txt | tail -5; grep -c "^PASS" $R/gemm_check_s29b.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s29_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean ${SECONDS}s" || { echo "$tool FAILED rc=$? ${SECONDS}s"; tail -5 $R/sanitizer_s29_$tool.txt; }
done
D=build-ab29b
{ bash $D/ab_pairs.sh $D "base final" "plainba relu" "c2,256,8192,8192 c2,256,6144,8192" 3
  bash $D/ab_pairs.sh $D "base final" "relu" "c2,200,8000,4096 c2,160,7168,8192" 2; } 2>&1 \
  | tee $R/wg_release_s29b.txt | grep -o "^[a-z]* [0-9x]* .*library/peer [0-9.]*"
echo "${SECONDS}s"
{ timeout 60 python3 bench/skinny_ab.py s29 pairs 2>&1
  timeout 60 python3 bench/skinny_ab.py s29 pairs relu 2>&1; } | tee $R/skinny_ab_s29_pairs.txt
echo "${SECONDS}s"
timeout 260 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s29.json 2>&1 \
  | tee $R/gemm_bench_s29.txt | grep -v '^ *$' | tail -40
echo "${SECONDS}s"
