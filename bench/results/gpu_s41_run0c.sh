#!/usr/bin/env bash
# session 41 (H200): harness (bias + ReLU against cuBLASLt), warm and cold (KILN_AB_COLD=4):
# the untransposed few-row tiles at the library's width (its tiles fill one wave of 132) against
# twice that width (half the CTAs: at most one per TPC) -- run 0b found 64 x 64 tiles (64 CTAs)
# faster than 64 x 32 ones (128 CTAs) at 32 / 64 rows against 4096 weights, 40-56 wide slower.
#   ab_build build-s41h/u64n{W}s{S} relu -DKILN_AB_BM=64 -DKILN_AB_BN=W -DKILN_AB_STAGES=S
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
{
  for cold in "" 4; do
    echo "== KILN_AB_COLD=${cold:-(warm)}"
    if [ -n "$cold" ]; then export KILN_AB_COLD=$cold; else unset KILN_AB_COLD; fi
    for run in "64 8192 8192:64s13 128s8" "32 8192 4096:64s13 128s8" "64 6144 4096:48s15 96s10" \
               "64 4096 11008:32s16 64s13" "16 5120 5120:40s16 80s11" \
               "32 5120 5120:40s16 80s11" "64 13312 8192:104s10 208s6" \
               "64 5120 4096:40s16 80s11"; do
      for b in ${run#*:}; do ab_time build-s41h/u64n$b ${run%%:*}; done
    done
  done
} 2>&1 | tee $R/tpcwidth_s41.txt
