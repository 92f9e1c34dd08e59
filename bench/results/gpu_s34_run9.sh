#!/usr/bin/env bash
# session 34, run 9 (H200): the two-tile product with K split, for 129-208 rows against fewer
# weight tiles than half a wave (33 or fewer: N up to 4224), where the library runs 128 x 128
# tiles split in two (c128x128s as written) or, at 129-160 rows from 33 tiles, the two-tile
# product unsplit (t80). t80s / t96s / t104s: the split-capable two-tile kernels, transposed,
# group 1; p64x160: the 64 x 160 pairs transposed.
cd "$(dirname "$0")/../.."
D=build-s34b
SECONDS=0
ab() {  # ab BINARY SPLITS M N K
  echo -n "$1 s$2 $3x$4x$5 group=${KILN_AB_GROUP:-16}: "
  KILN_AB_SPLITS=$2 timeout 60 $D/$1 $3 $4 $5 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*"
}
for r in 1 2; do
  ab c128x128s 1 129 4224 8192
  KILN_AB_GROUP=1 ab t80 1 4224 129 8192
  KILN_AB_GROUP=1 ab t80s 2 4224 129 8192
  ab p64x160 1 4224 129 8192
  for shape in "160 4096 8192" "144 4096 4096" "160 3072 8192"; do
    set -- $shape
    ab c128x128s 2 $1 $2 $3
    KILN_AB_GROUP=1 ab t80 1 $2 $1 $3
    KILN_AB_GROUP=1 ab t80s 2 $2 $1 $3
  done
  for shape in "192 4096 8192" "176 3072 8192" "192 4096 4096" "184 4096 11008"; do
    set -- $shape
    ab c128x128s 2 $1 $2 $3
    KILN_AB_GROUP=1 ab t96s 2 $2 $1 $3
  done
  ab c128x128s 2 208 3072 8192
  KILN_AB_GROUP=1 ab t104s 2 3072 208 8192
done 2>&1 | tee $OUT/twotile_split_s34.txt
echo "${SECONDS}s"
