#!/usr/bin/env bash
# session 40 (H200): the untransposed few-row product at the width that fills one wave (the
# narrowest W of 16-256 whose ceil(N / W) 64-row-high tiles fit the 132 SMs) and the next
# wider one, harness (build-s40h/u64nWsS), bias + ReLU against cuBLASLt, two rounds; then the
# library as built (session 39's, carried as build-s39/libkiln_gemm.so.xz) on the same shapes
# (skinny_ab.py fewwidth relu), for the rule: which shapes gain over the transposed tiles.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
B=build-s40h
SECONDS=0
for round in 1 2; do
  echo "# round $round"
  while read -r m n k w1 w2; do
    for w in $w1 $w2; do ab_time $(ls $B/u64n${w}s* | grep -v log) $m $n $k; done
  done <<'SHAPES'
1 5120 5120 40 48
1 8192 8192 64 72
8 5120 5120 40 48
8 8192 28672 64 72
16 2048 8192 16 32
16 4096 4096 32 40
16 4096 14336 32 40
16 5120 5120 40 48
16 6144 4096 48 56
16 8192 8192 64 72
16 14336 4096 112 128
24 16896 2048 128 144
32 4096 4096 32 40
32 5120 5120 40 48
32 8192 4096 64 72
32 14336 4096 112 128
32 28672 4096 224 256
48 16384 4096 128 144
64 4096 4096 32 40
64 4096 11008 32 40
64 6144 4096 48 56
64 8192 8192 64 72
64 13312 8192 104 112
64 14336 4096 112 128
64 22016 4096 192 224
64 28672 8192 224 256
SHAPES
  echo "${SECONDS}s"
done 2>&1 | tee $R/fewwidth_s40.txt
unpack_library build-s39/libkiln_gemm.so.xz
python3 bench/skinny_ab.py s39lib fewwidth relu 2>&1 | tee $R/skinny_ab_s40a.txt
echo "${SECONDS}s"
