#!/usr/bin/env bash
# session 27, run 10: 128 x 96 tiles in pairs (N = 6144: 64 pairs, one full wave, where 128-wide
# tiles leave 48 pairs on 66 slots) with 6, 7 and 8 stages, direct stores, against stock 128 x 128
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
bash $D/ab_pairs.sh $D "base bn96s6 bn96s7 bn96s8" "plainba relu" \
  "c2,256,6144,8192 c2,256,6000,8192 c2,200,6144,4096" 2 2>&1 | tee $R/bn96_pairs_s27.txt
