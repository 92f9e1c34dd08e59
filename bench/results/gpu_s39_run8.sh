#!/usr/bin/env bash
# session 39 (H200), the lead of v43: the few-row product *untransposed* on 64-row M-tiles (the
# activations' rows, one consumer warpgroup) against 80-96-wide weight tiles (cuBLAS's tst_80x64
# / 72x64 shape at 64 x 8192 x 8192), unpaired or in 1 x 2 clusters sharing the activations'
# tile, next to the library's transposed 128 x 64 tiles in 4-CTA clusters (m128n64s8c4, D
# column-major, KILN_AB_STORE_T=1) and unclustered (m128n64s8); harness, two rounds.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
B=build-s39h
SECONDS=0
for round in 1 2; do
  echo "# round $round"
  for s in "32 10240 4096 80" "32 11264 4096 88" "32 12288 4096 96" "64 12288 4096 96" "64 10240 8192 80"; do
    set -- $s
    ab_time $B/u64n$4s$([ $4 = 96 ] && echo 10 || echo 11) $1 $2 $3
    ab_time $B/u64n$4s$([ $4 = 96 ] && echo 10 || echo 11)cn2 $1 $2 $3
    KILN_AB_STORE_T=1 ab_time $B/m128n64s8 $2 $1 $3
    KILN_AB_STORE_T=1 ab_time $B/m128n64s8c4 $2 $1 $3
  done
  echo "${SECONDS}s"
done 2>&1 | tee $R/fewuntrans_s39.txt
