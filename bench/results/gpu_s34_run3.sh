#!/usr/bin/env bash
# session 34, run 3 (H200): run 2 again on the shapes with even M-tiles, three alternations of
# the two builds each, warm and with cold weights (KILN_AB_COLD=8): paired split 128 x 128 tiles
# (c128x128ps) against unpaired (c128x128s), copy and bias + ReLU (r*).
cd "$(dirname "$0")/../.."
D=build-s34
SECONDS=0
ab() {  # ab BINARY SPLITS M N K
  echo -n "$1 s$2 $3x$4x$5 cold=${KILN_AB_COLD:-0}: "
  KILN_AB_SPLITS=$2 timeout 60 $D/$1 $3 $4 $5 2>&1 | tail -1 | grep -o "library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*"
}
for cold in 0 8; do
export KILN_AB_COLD=$cold
[ $cold = 0 ] && unset KILN_AB_COLD
for r in 1 2 3; do
for shape in "1024 1024 8192:2" "512 2048 8192:2" "2048 512 8192:2" "768 1024 8192:2" \
             "512 1024 8192:4" "1024 512 8192:4" "1024 1024 4096:2" "512 1024 4096:4"; do
  s=${shape##*:}; sh=${shape%%:*}
  for b in c128x128s c128x128ps; do ab $b $s $sh; done
done
for shape in "1024 1024 8192:2" "512 1024 8192:4"; do
  s=${shape##*:}; sh=${shape%%:*}
  for b in r128x128s r128x128ps; do ab $b $s $sh; done
done
done
done 2>&1 | tee $OUT/split_pairs_s34b.txt
echo "${SECONDS}s"
