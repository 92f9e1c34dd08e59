#!/usr/bin/env bash
# session 25, run 9: the library of run 7; the 16-wide few-row tiles' K splits: skinny_ab.py's
# fewsplit16 set as built and with 1 / 2 / 3 / 4 splits forced (KILN_GEMM_SPLITK)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for c in rule s1 s2 s3 s4; do
  env $( [ $c != rule ] && echo KILN_GEMM_SPLITK=${c#s} ) timeout 80 python3 bench/skinny_ab.py $c fewsplit16 2>&1
done | tee $R/skinny_ab_s25_fewsplit16.txt
