#!/usr/bin/env bash
# session 35, run 8 (H200): does an L2 hint speed the weights' streaming where kiln's two-tile
# layouts cap at ~2.3 TB/s (129 and 160 x 4096 x 8192)? KILN_GEMM_L2=A,B on the transposed
# problem (A: the weights, read by a weight tile's two CTAs on one TPC; B: A's rows, read by
# every CTA): normal,normal (the library's), first,normal, first,last, normal,last; 64 x 72 /
# 64 x 80 and 128 x 72 / 128 x 80 tiles, group 1.
cd "$(dirname "$0")/../.."
D=build-s35
SECONDS=0
ab() {  # ab BINARY M N K: kiln's TFLOP/s (ratio x peer)
  echo -n "$1 $2x$3x$4 l2=${KILN_GEMM_L2:-default}: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f TFLOP/s\n", $2 * $5 }'
}
export KILN_AB_GROUP=1
for r in 1 2; do
  for l2 in normal,normal first,normal first,last normal,last; do
    export KILN_GEMM_L2=$l2
    ab m64n72 4096 129 8192
    ab t72 4096 129 8192
    ab m64n80 4096 160 8192
    ab t80 4096 160 8192
  done
done 2>&1 | tee $OUT/l2_twotile_s35.txt
echo "${SECONDS}s"
