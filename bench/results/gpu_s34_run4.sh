#!/usr/bin/env bash
# session 34, run 4 (H200): 200-row products transposed on 128 x 104 tiles. cuBLAS runs
# 200x8000x4096 as tst_128x104_64x7_1x2_h (the weights on wgmma's M side, the 200 rows in two
# 104-wide tiles: 126 CTAs, 4% of the MMA wasted); kiln runs 64 x 128 pairs (252 CTAs, 1.9
# waves of pairs; 0.87 of cuBLAS). Harness builds against headers with m64n104 / m64n112 added
# (t104, t112: the copy epilogue), unpaired, 7 stages, rasterization
# group 16 (default) and 1 (a weight tile's two CTAs adjacent: one TPC), against the library's
# 64 x 128 pairs on the product as written (c64x128p).
cd "$(dirname "$0")/../.."
D=build-s34
SECONDS=0
ab() {  # ab BINARY M N K
  echo -n "$1 $2x$3x$4 group=${KILN_AB_GROUP:-16}: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*"
}
for r in 1 2; do
for shape in "200 8000 4096" "200 4096 14336" "200 8192 8192" "192 7168 8192" "208 5120 5120" "180 4096 4096"; do
  set -- $shape
  ab c64x128p $1 $2 $3
  for b in t104 t112; do
    ab $b $2 $1 $3
    KILN_AB_GROUP=1 ab $b $2 $1 $3
  done
done
done 2>&1 | tee $OUT/t104_s34.txt
echo "${SECONDS}s"
