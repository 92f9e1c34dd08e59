#!/usr/bin/env bash
# session 28, run 1: the producer's tail wait instead of the closing cluster barrier (early)
# against HEAD 6f01edb (base), paired kernels: 128x128 6 stages (decode-ish shapes) and
# 128x256 4 stages (large shapes)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab28
SECONDS=0
bash $D/ab_pairs.sh $D "base early" "plainba relu" "c2,256,8192,8192" 3 2>&1 | tee $R/tail_wait_s28.txt
echo "elapsed $SECONDS s" | tee -a $R/tail_wait_s28.txt
bash $D/ab_pairs.sh $D "base early" "relu" "c2,256,6144,8192" 2 2>&1 | tee -a $R/tail_wait_s28.txt
echo "elapsed $SECONDS s" | tee -a $R/tail_wait_s28.txt
bash $D/ab_pairs.sh $D "base256 early256" "copy relu" "c2,2048,2048,2048 c2,8192,4096,4096" 2 2>&1 | tee -a $R/tail_wait_s28.txt
echo "elapsed $SECONDS s" | tee -a $R/tail_wait_s28.txt
