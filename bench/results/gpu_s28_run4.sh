#!/usr/bin/env bash
# session 28, run 4: the same library: compute-sanitizer racecheck, gemm_bench.py --only
# gemm,decode, and skinny_ab's pairs set (paired 128 x 128 one-wave kernels) plain and bias + ReLU
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
[ -f build-gemm/libkiln_gemm.so ] || { mkdir -p build-gemm && gunzip -c build-lib28/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1; }
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 python3 tests/gpu/gemm_small.py \
  > $R/sanitizer_s28_racecheck.txt 2>&1 && echo "compute-sanitizer racecheck: clean ${SECONDS}s" || { echo "racecheck FAILED rc=$? ${SECONDS}s"; tail -5 $R/sanitizer_s28_racecheck.txt; }
timeout 300 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s28.json 2>&1 \
  | tee $R/gemm_bench_s28.txt | grep -v '^ *$' | tail -40
echo "${SECONDS}s"
{ timeout 60 python3 bench/skinny_ab.py tailwait pairs 2>&1
  timeout 60 python3 bench/skinny_ab.py tailwait pairs relu 2>&1; } | tee $R/skinny_ab_s28_pairs.txt
echo "${SECONDS}s"
