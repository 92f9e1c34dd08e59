#!/usr/bin/env bash
# session 40 (H200): the untransposed few-row product's widths between 128 and 256 in steps of
# 16 (and 168, cuBLAS's at 64 x 22016 x 4096): does filling the wave from 87-90% to 95-100% pay
# there too? Harness (build-s40w/u64nWsS), bias + ReLU against cuBLASLt, two rounds; each shape
# at the present rule's width (kFewRowsUntransposedWidths without 144, 176, 208, 240) and the
# narrower ones that fit one wave.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
B=build-s40w
SECONDS=0
for round in 1 2; do
  echo "# round $round"
  while read -r m n k ws; do
    for w in $ws; do ab_time $(ls $B/u64n${w}s*) $m $n $k; done
  done <<'SHAPES'
64 22016 4096 192 176 168
48 17000 4096 160 144
64 17408 8192 160 144
32 27000 4096 224 208
64 30000 4096 256 240
SHAPES
  echo "${SECONDS}s"
done 2>&1 | tee $R/fewwide_s40.txt
