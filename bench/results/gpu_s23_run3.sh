#!/usr/bin/env bash
# session 23, run 3: the library with the uniform warpgroup index (built here, carried):
# device-library tests, gemm_check, the gemm rows, decode-ish twice, the `pairs` skinny set,
# compute-sanitizer on the small GEMMs, then the generated kernels with and without the
# broadcast (build-cg23, built here) side by side
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvcc -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Idevice tests/gpu/test_device_lib.cu -o /tmp/tdl && /tmp/tdl > $R/test_device_lib_s23.txt 2>&1; echo "test_device_lib rc=$?"; tail -3 $R/test_device_lib_s23.txt
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s23.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s23.txt | tail -5; grep -c "^PASS" $R/gemm_check_s23.txt
timeout 240 python3 bench/gemm_bench.py --only gemm > $R/gemm_bench_s23_gemm.txt 2>&1
grep -E "^gemm" $R/gemm_bench_s23_gemm.txt | awk '{print $1, $2, $9, $10, $11, $12, $13}'
for i in 1 2; do timeout 90 python3 bench/gemm_bench.py --only gemm --shapes decode-ish 2>&1 | grep decode-ish; done | tee $R/gemm_bench_s23_decode.txt
timeout 120 python3 bench/skinny_ab.py uniform pairs 2>&1 | tee $R/skinny_ab_s23_pairs.txt
for t in racecheck memcheck synccheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s23_$t.txt 2>&1 && echo "compute-sanitizer $t: clean" || { echo "$t FAILED"; tail -5 $R/sanitizer_s23_$t.txt; }
done
for n in gemm_127x4096x4096_t64x64_c2 gemm_8192 dual_4096x11008x4096 splitk_1024x1024x16384; do
  for v in old new old new; do echo "== $n $v"; timeout 60 build-cg23/bin/${n}_$v 2>&1 | tail -4; done
done > $R/codegen_uniform_s23.txt 2>&1
grep -v "^$" $R/codegen_uniform_s23.txt | head -120
