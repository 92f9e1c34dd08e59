#!/usr/bin/env bash
# session 24, run 3: the producer skips the TMA boxes that hold no row of the result (A's rows
# past M, B's past N; this working tree's kernel_sm90.cuh) against the stock kernel, harness
# builds in build-ab24c; then a third sample of the gemm rows (run-1 library)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
G='^[a-z0-9]* [0-9x]* library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH'
D=build-ab24c
timeout 150 bash bench/ab_pairs.sh $D "base64 skip64" "copy" "c1,16,8192,8192 c1,64,8192,8192 c1,96,8192,8192 c1,128,8192,8192" 2 > $R/skip_oob_bn64_s24.txt 2>&1
grep -o "$G" $R/skip_oob_bn64_s24.txt | paste - - - | sed 's/ stages//'
timeout 150 bash bench/ab_pairs.sh $D "base128 skip128" "relu" "c2,256,8192,8192 c2,200,8000,4096 c2,160,7168,8192" 2 > $R/skip_oob_pairs_s24.txt 2>&1
grep -o "$G" $R/skip_oob_pairs_s24.txt | paste - - - | sed 's/ stages//'
timeout 120 bash bench/ab_pairs.sh $D "base skip" "relu" "c2,8192,4096,11008 c2,4000,4000,4000" 2 > $R/skip_oob_large_s24.txt 2>&1
grep -o "$G" $R/skip_oob_large_s24.txt | paste - - - | sed 's/ stages//'
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 280 python3 bench/gemm_bench.py --only gemm --json $R/gemm_bench_s24c_gemm.json > $R/gemm_bench_s24c_gemm.txt 2>&1
grep -E "^gemm" $R/gemm_bench_s24c_gemm.txt | awk '{print $1, $2, $7, $8, $9, $12, $13, $14, $15}'
