#!/usr/bin/env bash
# session 29, run 1: one empty-barrier arrive per consumer warpgroup and destination CTA (wgrel,
# as CUTLASS's consumer release) against one per consumer warp (base = HEAD b49234a), paired
# 128x128 6 stages (decode-ish shapes), 128x256 4 stages paired and unpaired (large shapes)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab29
SECONDS=0
bash $D/ab_pairs.sh $D "base wgrel" "plainba relu" "c2,256,8192,8192" 3 2>&1 | tee $R/wg_release_s29.txt
echo "elapsed $SECONDS s" | tee -a $R/wg_release_s29.txt
bash $D/ab_pairs.sh $D "base wgrel" "relu" "c2,256,6144,8192 c2,200,8000,4096" 2 2>&1 | tee -a $R/wg_release_s29.txt
echo "elapsed $SECONDS s" | tee -a $R/wg_release_s29.txt
bash $D/ab_pairs.sh $D "base256 wgrel256" "copy relu" "c2,8192,4096,4096 c2,8192,8192,8192" 2 2>&1 | tee -a $R/wg_release_s29.txt
echo "elapsed $SECONDS s" | tee -a $R/wg_release_s29.txt
bash $D/ab_pairs.sh $D "base256 wgrel256" "copy" "c1,2048,2048,2048 c1,4096,4096,4096" 2 2>&1 | tee -a $R/wg_release_s29.txt
echo "elapsed $SECONDS s" | tee -a $R/wg_release_s29.txt
