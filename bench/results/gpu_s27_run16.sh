#!/usr/bin/env bash
# session 27, run 16: 128 x 160 against 128 x 192 (and 144) tiles where both fill one wave
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27e
bash $D/ab_pairs.sh $D "n160 n192" "copy relu" "c1,640,4096,4096 c1,512,5120,4096" 2 2>&1 | tee $R/fill160_s27.txt
bash $D/ab_pairs.sh $D "n144 n160 n192" "copy" "c1,1024,2304,4096" 1 2>&1 | tee -a $R/fill160_s27.txt
