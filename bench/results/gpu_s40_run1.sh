#!/usr/bin/env bash
# session 40 (H200): narrower and wider weight tiles for the untransposed few-row product (the
# activations' rows one 64-row M-tile, one consumer warpgroup; gen_wgmma.py now emits m64n40,
# 48, 56 and 224), bias + ReLU against cuBLASLt's fused epilogue; harness builds in build-s40h/
# (u64nWsS: BM 64, BN W, S stages; m128nWsS: BM 128), two rounds.
#   64 x 4096 x 11008 (library 0.92: transposed 128 x 64 tiles split in two; cuBLASLt runs
#     tst_48x64 on 88 CTAs): W = 40 .. 72
#   16 x 5120 x 5120 (library 0.88) and 16 x 8192 x 8192 (0.97): W = 40 .. 72
#   64 x 13312 x 8192 (library 0.96, transposed in 4-CTA clusters): W = 104, 128
#   64 x 28672 x 8192 (library 0.89 on 128 x 256 tiles, 112 CTAs): W = 224, 256 at 64 rows, and
#     128-row 224 / 256 (the library's)
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
B=build-s40h
SECONDS=0
for round in 1 2; do
  echo "# round $round"
  for w in 40s16 48s15 56s14 64s13 72s12; do
    ab_time $B/u64n$w 64 4096 11008
    ab_time $B/u64n$w 16 5120 5120
    ab_time $B/u64n$w 16 8192 8192
    ab_time $B/u64n$w 32 5120 5120
  done
  for w in 104s10 128s8; do ab_time $B/u64n$w 64 13312 8192; done
  for b in u64n224s6 u64n256s5 m128n224s5 m128n256s4; do ab_time $B/$b 64 28672 8192; done
  echo "${SECONDS}s"
done 2>&1 | tee $R/fewnarrow_s40.txt
