#!/usr/bin/env bash
# session 30, run 5: with the single-box producer path, does the wide consumer still add?
# bias + GELU paired at decode-ish, bias + ReLU unpaired 128x128 at 2048x2048x4096
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-s30
{ bash $D/ab_pairs.sh $D "old fast both" "gelu" "c2,256,8192,8192" 2
  bash $D/ab_pairs.sh $D "old fast both" "relu" "c1,2048,2048,4096 c1,1024,2048,8192" 2; } 2>&1 \
  | tee $R/producer_path_s30b.txt | grep -o "^[a-z0-9]* [0-9x]* .*library/peer [0-9.]*" | sed -E 's/library 128x128 c2 //; s/stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
