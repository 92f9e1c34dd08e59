#!/usr/bin/env bash
# session 28, run 12: does a ragged last N-tile slow a one-wave launch? the same grid of tiles at
# N a multiple of the tile width and at ragged N (kiln's rate alone and against the peer)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab28
{
  for n in 3168 3160 3100 3072 3030; do $D/c1_copy_f144 768 $n 4096; done
  for n in 3168 3072; do $D/c2_copy_f144 768 $n 4096; done
  for n in 3072 3000 2900; do $D/c1_copy_f192 1024 $n 4096; done
  for n in 4096 4000; do $D/c2_copy_early256 4096 $n 4096; done
  for n in 2048 2000; do $D/c2_copy_early256 2048 $n 2048; done
} 2>&1 | sed 's/staging=[0-9]* tail=0\/0 splits=0 defer=[01] band=0//; s/reference max|diff| [0-9.]* of [0-9]*//g' | tee $R/ragged_n_s28.txt
