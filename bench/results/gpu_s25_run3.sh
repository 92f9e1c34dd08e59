#!/usr/bin/env bash
# session 25, run 3: the few-row rule with K splits (few_rows.cuh few_rows_shape /
# few_rows_splits) as built: gemm_check, compute-sanitizer on the small GEMMs, skinny_ab.py's
# fewsplit and decode sets, and its shortk set as built and forced unsplit (KILN_GEMM_SPLITK=1)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s25_rule.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s25_rule.txt | tail -5; grep -c "^PASS" $R/gemm_check_s25_rule.txt
for t in memcheck racecheck synccheck; do
  timeout 110 compute-sanitizer --tool $t --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s25_$t.txt 2>&1 && echo "compute-sanitizer $t: clean" || { echo "$t FAILED"; tail -5 $R/sanitizer_s25_$t.txt; }
done
for s in fewsplit decode; do timeout 150 python3 bench/skinny_ab.py rule $s 2>&1; done | tee $R/skinny_ab_s25_rule.txt
for c in rule s1; do
  env $( [ $c = s1 ] && echo KILN_GEMM_SPLITK=1 ) timeout 60 python3 bench/skinny_ab.py $c shortk 2>&1
done | tee $R/skinny_ab_s25_shortk.txt
