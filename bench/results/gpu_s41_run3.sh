#!/usr/bin/env bash
# session 41 (H200): run 1's library with 1-16 rows untransposed from 40 wide where the
# transposed tiles do not fill 9/10 of the SMs (few_rows_untransposed_width; the gemm unit
# rebuilt, carry build-s41): gemm_check.py (every few-row case through the new rule), then
# skinny_ab.py few16 and fewwidth, bias + ReLU, as built.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s41c
SECONDS=0
unpack_library build-s41/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
timeout 200 python3 bench/gemm_check.py > "$R/gemm_check_$S.txt" 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' "$R/gemm_check_$S.txt")"
grep -v "^PASS" "$R/gemm_check_$S.txt" | head -20
{
  timeout 100 python3 bench/skinny_ab.py "$S" few16 relu 2>&1
  timeout 200 python3 bench/skinny_ab.py "$S" fewwidth relu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
