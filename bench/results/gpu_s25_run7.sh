#!/usr/bin/env bash
# session 25, run 7: default_params splits one M-tile only as far as 64 CTAs (params.h
# kStreamingCtas); few rows up to 16 run on 128 x 16 tiles (few_rows_tile_n); a row bias takes
# the transposed path: gemm_check, compute-sanitizer memcheck / racecheck / synccheck;
# skinny_ab.py's midrows set as built and with the old splits forced (KILN_GEMM_SPLITK=2 / 4),
# its decode set (run 8: run_s25e.sh, the gemm rows)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s25_mid.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s25_mid.txt | tail -5; grep -c "^PASS" $R/gemm_check_s25_mid.txt
for t in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s25_final_$t.txt 2>&1 && echo "compute-sanitizer $t: clean" || { echo "$t FAILED"; tail -5 $R/sanitizer_s25_final_$t.txt; }
done
for c in rule s2 s4; do
  env $( [ $c != rule ] && echo KILN_GEMM_SPLITK=${c#s} ) timeout 80 python3 bench/skinny_ab.py $c midrows 2>&1
done | tee $R/skinny_ab_s25_midrows.txt
timeout 80 python3 bench/skinny_ab.py final decode 2>&1 | tee $R/skinny_ab_s25_decode_final.txt
