#!/usr/bin/env bash
# session 34, run 2 (H200): run 1 found 128 x 128 tiles split in two and paired (the harness's
# -DKILN_AB_CLUSTER=2 -DKILN_AB_SPLIT_ALL) at 0.94-0.96 of cuBLAS at 1024x1024x8192, where the
# library (unpaired split kernels, gemm.cu run_sm90_any) reads 0.86. The same split counts, paired
# (c128x128ps) against unpaired (c128x128s), copy and bias + ReLU (r*), alternating builds.
cd "$(dirname "$0")/../.."
D=build-s34
SECONDS=0
ab() {  # ab BINARY SPLITS M N K
  echo -n "$1 s$2 $3x$4x$5: "
  KILN_AB_SPLITS=$2 timeout 60 $D/$1 $3 $4 $5 2>&1 | tail -1 | grep -o "library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*"
}
for r in 1 2; do
for shape in "1024 1024 8192:2" "512 2048 8192:2" "2048 512 8192:2" "768 1024 8192:2" \
             "512 1024 8192:4" "1024 512 8192:4" "384 1024 8192:5" "1024 1024 4096:2" \
             "512 1024 4096:4" "640 1536 8192:2" "1024 1536 8192:2"; do
  s=${shape##*:}; sh=${shape%%:*}
  for b in c128x128s c128x128ps; do ab $b $s $sh; done
done
for shape in "1024 1024 8192:2" "512 2048 8192:2" "2048 512 8192:2" "512 1024 8192:4"; do
  s=${shape##*:}; sh=${shape%%:*}
  for b in r128x128s r128x128ps; do ab $b $s $sh; done
done
done 2>&1 | tee $OUT/split_pairs_s34.txt
echo "${SECONDS}s"
