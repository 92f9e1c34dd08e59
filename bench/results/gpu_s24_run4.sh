#!/usr/bin/env bash
# session 24, run 4: the tile width and K-split switches swept over the few-row shapes
# (skinny_ab.py sweep, one process per setting) on the run-1 library;

cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 100 python3 bench/skinny_ab.py default sweep > $R/sweep_default_s24.txt 2>&1
for c in "KILN_GEMM_SPLITK=1" "KILN_GEMM_SPLITK=2" "KILN_GEMM_SPLITK=3" "KILN_GEMM_BN=256" "KILN_GEMM_BN=256 KILN_GEMM_SPLITK=2" "KILN_GEMM_BN=256 KILN_GEMM_SPLITK=3"; do
  env $c timeout 100 python3 bench/skinny_ab.py "${c// /,}" sweep 2>&1
done > $R/sweep_s24.txt
cat $R/sweep_default_s24.txt $R/sweep_s24.txt | grep "^\[" | awk '{print $1, $2, $11}' | sed 's/KILN_GEMM_//g'
