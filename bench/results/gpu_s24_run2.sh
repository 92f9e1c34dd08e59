#!/usr/bin/env bash
# session 24, run 2: the harness's 128 x 64 tiles (unpaired, 6 and 8 stages, no split) on
# few-row products against cuBLAS; a second sample of the gemm rows (run-1 library)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
G='^[a-z0-9]* [0-9x]* library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH'
timeout 240 bash bench/ab_pairs.sh build-ab24b "bn64s6 bn64s8" "copy" "c1,16,8192,8192 c1,64,8192,8192 c1,128,8192,8192 c1,64,8192,28672" 2 > $R/bn64_decode_s24.txt 2>&1
grep -o "$G" $R/bn64_decode_s24.txt | paste - - - | sed 's/ stages//'
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 100 python3 bench/skinny_ab.py default decode 2>&1 | head -3
timeout 280 python3 bench/gemm_bench.py --only gemm --json $R/gemm_bench_s24b_gemm.json > $R/gemm_bench_s24b_gemm.txt 2>&1
grep -E "^gemm" $R/gemm_bench_s24b_gemm.txt | awk '{print $1, $2, $7, $8, $9, $12, $13, $14, $15}'
