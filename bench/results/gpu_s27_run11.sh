#!/usr/bin/env bash
# session 27, run 11: one partial wave of 128 x 256 tiles against 128 x 192 (more CTAs) and
# 128 x 144 (a full wave: wgmma n144, direct stores), unpaired, at compute-bound shapes
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27c
bash $D/ab_pairs.sh $D "base n192 n144" "copy relu" \
  "c1,1024,2304,4096 c1,768,3072,4096 c1,512,4608,4096 c1,1024,2304,8192" 2 2>&1 | tee $R/fill_width_s27.txt
