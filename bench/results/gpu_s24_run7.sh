#!/usr/bin/env bash
# session 24, run 7: the library with the few-row path (src/gemm/few_rows.cuh), built here:
# which kernel a few-row call launches, gemm_check, compute-sanitizer on the small GEMMs, then
# the decode set with the path on (default) and off (KILN_GEMM_FEW_ROWS=0) in turn
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
KILN_GEMM_DEBUG=1 python3 -c "
import sys, torch; sys.path.insert(0, 'bench'); import kiln_gemm as kg
a = torch.randn(16, 8192, device='cuda').bfloat16(); w = torch.randn(8192, 8192, device='cuda').bfloat16()
c = torch.empty(16, 8192, device='cuda').bfloat16(); print(kg.linear(a, w, c))
print('err', ((c.float() - a.float() @ w.float().t()).norm() / (a.float() @ w.float().t()).norm()).item())" 2>&1 | tee $R/few_rows_launch_s24.txt
timeout 220 python3 bench/gemm_check.py > $R/gemm_check_s24_few_rows.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s24_few_rows.txt | tail -5; grep -c "^PASS" $R/gemm_check_s24_few_rows.txt
for t in memcheck racecheck; do
  timeout 110 compute-sanitizer --tool $t --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s24_$t.txt 2>&1 && echo "compute-sanitizer $t: clean" || { echo "$t FAILED"; tail -5 $R/sanitizer_s24_$t.txt; }
done
for c in on off; do
  env $( [ $c = off ] && echo KILN_GEMM_FEW_ROWS=0 ) timeout 90 python3 bench/skinny_ab.py $c decode 2>&1
done | tee $R/skinny_ab_s24_few_rows.txt
