#!/usr/bin/env bash
# session 31, run 2: the lopsided tail split (tail_split.h: where the last wave is over half
# full, each tail tile's long split on one worker, the short ones packed onto the idle ones) in
# the harness: whole tiles only (notail) against the tail split as planned with any saving
# (lop, KILN_AB_TAIL_MIN=1), each against cuBLAS(Lt) in alternation
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-s31
SECONDS=0
{ bash $D/ab_pairs.sh $D "notail lop" "relu copy" "c2,8192,4096,11008 c2,8192,8192,8192 c2,6144,6144,6144" 2
  bash $D/ab_pairs.sh $D "notail lop" "relu" "c2,8192,4096,4096 c2,4096,4096,4096 c2,8192,11008,4096" 2; } 2>&1 | tee $R/lopsided_s31.txt
echo "${SECONDS}s"
