#!/usr/bin/env bash
# session 27, run 14: 128 x 64 tiles with 8 stages (cuBLAS's 128x64x8 at 256x4096x4096), unpaired
# and in pairs, against unsplit 128 x 128 tiles, at two-M-tile outputs of 4096 columns
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27d
bash $D/ab_pairs.sh $D "base n64" "copy relu" \
  "c1,256,4096,4096 c2,256,4096,4096 c1,256,4096,11008 c2,256,4096,11008 c2,200,4096,4096" 2 2>&1 | tee $R/bn64_two_mtiles_s27.txt
