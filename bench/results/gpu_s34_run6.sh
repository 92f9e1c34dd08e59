#!/usr/bin/env bash
# session 34, run 6 (H200): (a) 129-160 rows: the library's transposed 64 x 160 pairs (p64x160)
# against 128 x 80 tiles transposed, group 1 (t80: the 160 rows in two tiles, as cuBLAS's
# tst_128x80 at 160x7168x8192); (b) more 161-208-row shapes, the library's 128 x 128 tiles as
# written (c128x128) against 128 x 96 (t96, 7 stages; t96s8, 8) and 128 x 104 (t104) tiles
# transposed, group 1. cuBLAS's TFLOP/s on the product as written is the yardstick.
cd "$(dirname "$0")/../.."
D=build-s34
SECONDS=0
ab() {  # ab BINARY M N K
  echo -n "$1 $2x$3x$4 group=${KILN_AB_GROUP:-16}: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*"
}
for r in 1 2; do
for shape in "160 7168 8192" "144 8192 4096" "136 5120 5120" "160 8192 8192" "150 4352 4096" \
             "129 4224 8192" "160 6144 6144"; do
  set -- $shape
  ab c128x128 $1 $2 $3
  ab p64x160 $2 $1 $3
  KILN_AB_GROUP=1 ab t80 $2 $1 $3
done
for shape in "192 4096 8192" "200 6144 8192" "176 5120 8192" "208 8192 5120" "192 8192 4096" \
             "200 3072 8192" "192 7168 8192" "168 6144 8192" "192 5120 11008"; do
  set -- $shape
  ab c128x128 $1 $2 $3
  KILN_AB_GROUP=1 ab t104 $2 $1 $3
  if [ $1 -le 192 ]; then
    KILN_AB_GROUP=1 ab t96 $2 $1 $3
    KILN_AB_GROUP=1 ab t96s8 $2 $1 $3
  fi
done
done 2>&1 | tee $OUT/t80_t96_s34.txt
echo "${SECONDS}s"
