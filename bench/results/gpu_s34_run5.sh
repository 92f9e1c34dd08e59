#!/usr/bin/env bash
# session 34, run 5 (H200): 161-208 rows transposed on 128 x 104 (t104) or 128 x 96 (t96) tiles,
# rasterization group 1 (a weight tile's two CTAs adjacent), against the library's path for
# them as written: 128 x 128 tiles, two M-tiles, unpaired, 6 stages (c128x128; the plain product
# runs unpaired). The ratios are each to cuBLAS on its own orientation; the cuBLAS TFLOP/s of
# the product as written is the common yardstick.
cd "$(dirname "$0")/../.."
D=build-s34
SECONDS=0
ab() {  # ab BINARY M N K
  echo -n "$1 $2x$3x$4 group=${KILN_AB_GROUP:-16}: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*"
}
for r in 1 2; do
for shape in "200 8000 4096" "200 8192 8192" "192 7168 8192" "208 5120 5120" "176 8192 4096" \
             "168 6144 8192" "184 7168 4096" "192 6144 6144" "200 4096 14336"; do
  set -- $shape
  ab c128x128 $1 $2 $3
  KILN_AB_GROUP=1 ab t104 $2 $1 $3
  [ $1 -le 192 ] && KILN_AB_GROUP=1 ab t96 $2 $1 $3
done
done 2>&1 | tee $OUT/t104_vs_128_s34.txt
echo "${SECONDS}s"
