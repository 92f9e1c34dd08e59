#!/usr/bin/env bash
# session 35, run 5 (H200): two consumer warpgroups on one 64-row tile, alternate k-blocks each
# (consumer 1 hands its partial sums to consumer 0 through shared memory before the epilogue),
# as cuBLAS's 384-thread tst_64x72 / tst_64x80 kernels might: m64n72k / m64n80k (an experiment
# on a copy of the headers, sm90_exp_s35_ksplit.patch, -DKILN_SM90_KSPLIT=1) against the
# one-consumer m64n72 / m64n80 and the 128-row t72 / t80, transposed, group 1. cuBLAS as
# written is read from t80's as-written line.
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
for shape in "129 4096 8192" "129 4224 8192" "144 4096 4096" "144 4096 8192" "136 3968 5120" \
             "160 2048 8192" "152 3584 8192" "160 2560 8192" "160 4096 2048" "160 4096 8192"; do
  set -- $shape
  w=$([ $1 -le 144 ] && echo 72 || echo 80)
  KILN_AB_GROUP=16 ab t80 $1 $2 $3
  ab t$w $2 $1 $3
  ab m64n$w $2 $1 $3
  ab m64n${w}k $2 $1 $3
done
done 2>&1 | tee $OUT/ksplit_s35.txt
echo "${SECONDS}s"
