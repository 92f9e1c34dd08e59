#!/usr/bin/env bash
# session 28, run 14: the library with tail maps (the box that overhangs a K-major operand's rows
# loads only those rows): gemm_check, compute-sanitizer memcheck / racecheck / synccheck on
# tests/gpu/gemm_small.py, skinny_ab's pairs, fill and midrows sets (plain; pairs also bias +
# ReLU), gemm_bench.py --only gemm,decode
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib28/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
timeout 120 python3 bench/gemm_check.py > $R/gemm_check_s28c.txt 2>&1; echo "gemm_check rc=$? ${SECONDS}s"
grep -v "^PASS" $R/gemm_check_s28c.txt | tail -5; grep -c "^PASS" $R/gemm_check_s28c.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s28c_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean ${SECONDS}s" || { echo "$tool FAILED rc=$? ${SECONDS}s"; tail -5 $R/sanitizer_s28c_$tool.txt; }
done
{ timeout 60 python3 bench/skinny_ab.py tailmap pairs 2>&1
  timeout 60 python3 bench/skinny_ab.py tailmap pairs relu 2>&1
  timeout 60 python3 bench/skinny_ab.py tailmap fill 2>&1
  timeout 60 python3 bench/skinny_ab.py tailmap midrows 2>&1; } | tee $R/skinny_ab_s28_tailmap.txt
echo "${SECONDS}s"
timeout 200 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s28c.json 2>&1 \
  | tee $R/gemm_bench_s28c.txt | grep -v '^ *$' | tail -40
echo "${SECONDS}s"
