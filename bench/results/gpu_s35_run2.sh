#!/usr/bin/env bash
# session 35, run 2 (H200): cuBLAS runs 129-160 rows as 64 x 72 / 64 x 80 tiles of the weights
# (384 threads, 128 CTAs; run 1). Kiln's one-consumer 64-row kernel on the same tiles,
# transposed: unpaired with group 1 (the two CTAs of a weight tile on one TPC) and in pairs
# (two weight tiles sharing the activation tile), against the 128 x 72 / 128 x 80 two-tile
# kernels (t72, t80, group 1). cuBLAS's TFLOP/s on the product as written (read from t80).
cd "$(dirname "$0")/../.."
D=build-s35
SECONDS=0
ab() {  # ab BINARY M N K: kiln's TFLOP/s (ratio x peer) and the peer's
  echo -n "$1 $2x$3x$4 group=${KILN_AB_GROUP:-16}: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f TFLOP/s  %s\n", $2 * $5, $0 }'
}
for r in 1 2; do
for shape in "129 4096 8192" "129 4224 8192" "144 4096 4096" "136 3968 5120" "144 4096 8192"; do
  set -- $shape
  ab t80 $1 $2 $3
  KILN_AB_GROUP=1 ab t72 $2 $1 $3
  KILN_AB_GROUP=1 ab m64n72 $2 $1 $3
  ab m64n72 $2 $1 $3
  ab m64n72c2 $2 $1 $3
done
for shape in "160 4096 2048" "160 4096 8192" "150 4096 4096" "160 3072 8192"; do
  set -- $shape
  ab t80 $1 $2 $3
  KILN_AB_GROUP=1 ab t80 $2 $1 $3
  KILN_AB_GROUP=1 ab m64n80 $2 $1 $3
  ab m64n80c2 $2 $1 $3
done
done 2>&1 | tee $OUT/m64_s35.txt
echo "${SECONDS}s"
