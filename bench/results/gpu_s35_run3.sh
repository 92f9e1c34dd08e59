#!/usr/bin/env bash
# session 35, run 3 (H200): where the one-consumer 64-row tiles of the weights (unpaired,
# group 1, two column tiles of A's rows) beat the 128-row two-tile kernels: 129-160 rows across
# K (2048-8192) and N (2048-4224); 161-208 rows on 64 x 88 / 96 / 104 tiles against t88 / t96 /
# t104. cuBLAS's TFLOP/s on the product as written (read from t80 / t104 as written).
cd "$(dirname "$0")/../.."
D=build-s35
SECONDS=0
ab() {  # ab BINARY M N K: kiln's TFLOP/s (ratio x peer) and the peer's
  echo -n "$1 $2x$3x$4 group=${KILN_AB_GROUP:-16}: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f TFLOP/s  %s\n", $2 * $5, $0 }'
}
export KILN_AB_GROUP=1
for r in 1 2; do
for shape in "160 4096 6144" "144 4096 6144" "136 4096 3072" "160 2048 8192" "144 2048 4096" \
             "160 2560 8192" "152 3584 8192" "144 4224 4096" "129 3072 8192"; do
  set -- $shape
  w=$([ $1 -le 144 ] && echo 72 || echo 80)
  KILN_AB_GROUP=16 ab t80 $1 $2 $3
  ab t$w $2 $1 $3
  ab m64n$w $2 $1 $3
done
for shape in "192 4096 4096" "176 3072 8192" "192 4096 8192" "184 4096 11008" "208 3072 8192" \
             "200 4096 2048" "168 4096 11008" "176 4096 4096" "200 2048 8192"; do
  set -- $shape
  w=$(( ($1 / 2 + 7) / 8 * 8 ))
  KILN_AB_GROUP=16 ab t104 $1 $2 $3
  ab t$w $2 $1 $3
  ab m64n$w $2 $1 $3
done
done 2>&1 | tee $OUT/m64_wide_s35.txt
echo "${SECONDS}s"
