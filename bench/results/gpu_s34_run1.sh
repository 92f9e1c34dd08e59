#!/usr/bin/env bash
# session 34, run 1 (H200): two consumer warpgroups on a 64-wide tile. nvjet runs
# 1024x1024x8192 and 512x2048x8192 as tst_128x64_64x8_1x2_h (384 threads, a 128 x 64 tile of
# its column-major view, in pairs); kiln runs 128 x 128 tiles split in two there (library 0.86).
# Harness against cuBLAS, the copy epilogue: 128 x 64 tiles in pairs (two consumers, m64n64
# each), unpaired, 64 x 128 pairs (one consumer), and 128 x 128 pairs split in two; bias + ReLU
# (r*) against cuBLASLt on the first and the last.
cd "$(dirname "$0")/../.."
D=build-s34
SECONDS=0
ab() {  # ab BINARY SPLITS M N K
  echo -n "$1 s$2 $3x$4x$5: "
  KILN_AB_SPLITS=$2 timeout 60 $D/$1 $3 $4 $5 2>&1 | tail -1 | grep -o "library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*"
}
for r in 1 2; do
for shape in "1024 1024 8192" "512 2048 8192" "2048 512 8192" "1024 2048 8192" "768 1024 8192" \
             "4096 128 8192" "8192 128 8192" "4096 256 4096" "5120 96 5120"; do
  ab c128x128ps 2 $shape
  ab c128x64p 1 $shape
  ab c128x64 1 $shape
  ab c64x128p 1 $shape
done
for shape in "1024 1024 8192" "512 2048 8192" "2048 512 8192"; do
  ab r128x128ps 2 $shape
  ab r128x64p 1 $shape
done
done 2>&1 | tee $OUT/bn64_pairs_s34.txt
echo "${SECONDS}s"
