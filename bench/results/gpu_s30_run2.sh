#!/usr/bin/env bash
# session 30, run 2: one consumer warpgroup owning the whole 128x128 tile (two accumulators,
# -DKILN_SM90_WIDE=1, as cuBLAS's nvjet decode-ish kernel) against two consumers of 64 rows
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-s30
SECONDS=0
{ bash $D/ab_pairs.sh $D "base wide" "plainba relu" "c2,256,8192,8192" 3
  bash $D/ab_pairs.sh $D "base wide" "relu" "c2,256,6144,8192 c2,160,7168,8192 c1,2048,2048,4096" 2; } 2>&1 \
  | tee $R/wide_consumer_s30.txt | grep -o "^[a-z0-9]* [0-9x]* .*library/peer [0-9.]*" | sed -E 's/library 128x128 c2 //; s/stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
echo "${SECONDS}s"
