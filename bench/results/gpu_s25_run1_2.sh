#!/usr/bin/env bash
# session 25: the library whose few-row kernel (128 x 64, transposed) can split K
# (few_rows.cuh few_rows_splits). Usage: run_s25a.sh [check] [SETTING...]
#   check: gemm_check as built, and with the transposed path forced on for every product it can
#          run (KILN_GEMM_FEW_ROWS=1)
#   SETTING: skinny_ab.py's fewsplit set under default | fill (forced on, the fill-the-SMs
#          split) | s1 / s2 / s4 (forced on, 1 / 2 / 4 splits), appended to skinny_ab_s25_fewsplit.txt
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
for c in "$@"; do
  case $c in
  check)
    timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s25.txt 2>&1; echo "gemm_check rc=$?"
    grep -v "^PASS" $R/gemm_check_s25.txt | tail -5; grep -c "^PASS" $R/gemm_check_s25.txt
    KILN_GEMM_FEW_ROWS=1 timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s25_forced.txt 2>&1
    echo "gemm_check forced rc=$?"
    grep -v "^PASS" $R/gemm_check_s25_forced.txt | tail -5; grep -c "^PASS" $R/gemm_check_s25_forced.txt
    continue ;;
  default) e=() ;;
  fill) e=(KILN_GEMM_FEW_ROWS=1) ;;
  s[0-9]) e=(KILN_GEMM_FEW_ROWS=1 KILN_GEMM_SPLITK=${c#s}) ;;
  esac
  env "${e[@]}" timeout 150 python3 bench/skinny_ab.py $c fewsplit 2>&1 | tee -a $R/skinny_ab_s25_fewsplit.txt
done
