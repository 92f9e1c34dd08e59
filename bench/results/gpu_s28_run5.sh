#!/usr/bin/env bash
# session 28, run 5: one full wave of 128 x 256 tiles, unpaired as the heuristic runs them
# against paired (KILN_GEMM_CLUSTER=2), now that pairs leave without a closing cluster barrier;
# two passes each, in turn, plain and bias + ReLU
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
[ -f build-gemm/libkiln_gemm.so ] || { mkdir -p build-gemm && gunzip -c build-lib28/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1; }
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
for pass in 1 2; do for act in "" relu; do
  timeout 60 python3 bench/skinny_ab.py unpaired onewave $act 2>&1
  KILN_GEMM_CLUSTER=2 timeout 60 python3 bench/skinny_ab.py paired onewave $act 2>&1
done; done | tee $R/onewave_pairs_s28.txt
echo "${SECONDS}s"
