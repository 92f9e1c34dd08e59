#!/usr/bin/env bash
# session 24, run 1: the library (built here, carried): gemm_check; the harness A/B of B's loads
# issued before A's (-DKILN_AB_B_FIRST, sm90_exp_s24_b_first.patch) at decode-ish and
# llama-down; one sample of the gemm rows with the order-swapping bench_pair
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s24.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s24.txt | tail -5; grep -c "^PASS" $R/gemm_check_s24.txt
G='^[a-z0-9]* [0-9x]* library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH'
D=build-ab24
timeout 200 bash bench/ab_pairs.sh $D "base128 bfirst128" "relu plainba" "c2,256,8192,8192" 3 > $R/b_first_decode_s24.txt 2>&1
grep -o "$G" $R/b_first_decode_s24.txt | paste - - - | sed 's/compact stages//'
timeout 100 bash bench/ab_pairs.sh $D "base bfirst" "relu" "c2,8192,4096,11008" 2 > $R/b_first_llama_down_s24.txt 2>&1
grep -o "$G" $R/b_first_llama_down_s24.txt | paste - - - | sed 's/compact stages//'
timeout 300 python3 bench/gemm_bench.py --only gemm --json $R/gemm_bench_s24_gemm.json > $R/gemm_bench_s24_gemm.txt 2>&1
grep -E "^gemm" $R/gemm_bench_s24_gemm.txt | awk '{print $1, $2, $7, $8, $9, $12, $13, $14, $15}'
for c in default "KILN_GEMM_CLUSTER=1" "KILN_GEMM_SPLITK=2" "KILN_GEMM_BN=256 KILN_GEMM_SPLITK=2"; do
  env $( [ "$c" = default ] || echo $c ) timeout 100 python3 bench/skinny_ab.py "${c// /,}" decode 2>&1
done | tee $R/skinny_ab_s24_decode.txt
