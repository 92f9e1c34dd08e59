#!/usr/bin/env bash
# session 36, run 2 (H200): the cluster along N (run 1's +10-21% where the weights outgrow the
# L2) on top of the library's evict-first weights (KILN_GEMM_L2=first,normal on both sides), on
# the 64-row and the 128-row two-tile kernels at weights of 56-128 MiB; the peer's TFLOP/s
# beside kiln's. Harness, transposed problem (M = weights, N = A's rows), group 1; two rounds.
cd "$(dirname "$0")/../.."
D=build-s36
SECONDS=0
ab() {  # ab BINARY M N K: kiln's and the peer's TFLOP/s
  echo -n "$1 $2x$3x$4 l2=${KILN_GEMM_L2:-default}: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f peer %6.1f TFLOP/s\n", $2 * $5, $2 }'
}
both() {  # both KERNEL M N K: the kernel unclustered, then with the cluster along N
  ab $1 $2 $3 $4
  ab ${1/relu/}cn2${1#${1/relu/}} $2 $3 $4
}
export KILN_AB_GROUP=1
for r in 1 2; do
  echo "round $r"
  export KILN_GEMM_L2=first,normal
  for s in "4096 129 8192" "4224 129 8192" "4096 144 8192" "4096 136 8192"; do both m64n72 $s; done
  for s in "4096 160 8192" "4096 152 8192" "4224 160 8192"; do both m64n80 $s; done
  for s in "4096 192 8192" "4096 184 11008" "4096 176 11008"; do both m64n96 $s; done
  for s in "6144 140 6144" "8192 144 4096" "7168 129 8192"; do both t72 $s; done
  for s in "7168 152 8192" "8192 160 8192" "5120 160 8192"; do both t80 $s; done
  for s in "7168 192 8192" "5120 192 11008" "8192 176 8192"; do both t96 $s; done
  for s in "6144 200 8192" "8192 208 8192"; do both t104 $s; done
  both m64n72relu 4096 129 8192
  both m64n80relu 4096 160 8192
  both m64n96relu 4096 192 8192
  both t80relu 7168 152 8192
  export KILN_GEMM_L2=normal,normal
  both m64n72 4096 129 8192
  both t80 7168 152 8192
done 2>&1 | tee $OUT/cluster_n_s36b.txt
echo "${SECONDS}s"
