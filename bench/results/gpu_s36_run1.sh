#!/usr/bin/env bash
# session 36, run 1 (H200): the two-tile product's two column tiles in a 2-CTA cluster along N
# that shares the weight tile by multicast (Config ClusterN = 2, cuBLAS's `tst_64x72_64x12_1x2`)
# against the unclustered pair of consecutive CTAs (the library's), both in rasterization
# group 1. Harness, transposed problem (M = weights, N = A's rows), kiln's TFLOP/s; the copy
# epilogue, and bias + ReLU for four shapes. Two rounds.
cd "$(dirname "$0")/../.."
D=build-s36
SECONDS=0
ab() {  # ab BINARY M N K: kiln's TFLOP/s (ratio x peer)
  echo -n "$1 $2x$3x$4: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f TFLOP/s\n", $2 * $5 }'
}
both() {  # both KERNEL M N K: the kernel unclustered, then with the cluster along N
  ab $1 $2 $3 $4
  ab ${1/relu/}cn2${1#${1/relu/}} $2 $3 $4
}
export KILN_AB_GROUP=1
for r in 1 2; do
  echo "round $r"
  for s in "4096 129 8192" "4224 129 8192" "3072 129 8192" "4096 144 8192" "4096 144 4096" \
           "4096 136 3072"; do both m64n72 $s; done
  for s in "4096 160 8192" "3072 160 8192" "2048 160 8192" "4096 150 4096" "4096 160 2048"; do
    both m64n80 $s
  done
  for s in "4096 192 4096" "4096 192 8192" "4096 184 11008" "3072 176 8192"; do both m64n96 $s; done
  for s in "4096 129 8192" "4224 129 8192" "6144 140 6144"; do both t72 $s; done
  for s in "4096 160 8192" "2048 160 8192" "7168 152 8192"; do both t80 $s; done
  for s in "4096 129 8192" "4096 144 4096"; do both m64n72relu $s; done
  for s in "4096 160 8192" "4096 150 4096"; do both m64n80relu $s; done
done 2>&1 | tee $OUT/cluster_n_s36.txt
echo "${SECONDS}s"
