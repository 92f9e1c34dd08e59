#!/usr/bin/env bash
# session 27, run 1: the epilogue's staging in the ring (one panel per consumer in its own A
# rows of stages 0) and a 7th stage, paired 128x128 one-wave launches
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
bash $D/ab_pairs.sh $D "base ring6 ring7" "plainba relu" \
  "c2,256,8192,8192 c2,256,6144,8192 c2,200,8000,4096 c2,256,8192,4096" 3 2>&1 | tee $R/ring_staging_s27.txt
