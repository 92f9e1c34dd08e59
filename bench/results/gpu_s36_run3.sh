#!/usr/bin/env bash
# session 36, run 3 (H200): where to take the cluster along N. (a) the 128-row two-tile kernels
# where the weights fit the L2 (K = 4096, 40-56 MiB), both sides with the library's hints
# (normal); (b) the 64-row kernels where the weights outgrow the L2: unclustered with the
# weights evict-first (the library's) against the cluster with normal hints (run 2: the
# cluster lost 4% with evict-first at 144-160 rows), 72- to 96-wide; (c) 129-144 rows at
# K > 6144, where the library keeps 128-row tiles: those (evict-first) against the clustered
# 64-row tiles. Harness, transposed problem, group 1, kiln's TFLOP/s; two rounds.
cd "$(dirname "$0")/../.."
D=build-s36
SECONDS=0
ab() {  # ab L2 BINARY M N K: kiln's and the peer's TFLOP/s with KILN_GEMM_L2=L2
  echo -n "$2 $3x$4x$5 l2=$1: "
  KILN_GEMM_L2=$1 timeout 60 $D/$2 $3 $4 $5 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f peer %6.1f TFLOP/s\n", $2 * $5, $2 }'
}
export KILN_AB_GROUP=1
for r in 1 2; do
  echo "round $r"
  for k in t72:6144:144 t72:5120:136 t80:5120:160 t80:6144:150 t88:5120:176 t96:5120:192 \
           t96:6144:184 t104:5120:200; do
    IFS=: read b m n <<< "$k"
    ab normal,normal $b $m $n 4096; ab normal,normal ${b}cn2 $m $n 4096
  done
  for k in m64n72:4096:129:11008 m64n72:4096:144:6144 m64n80:4096:160:11008 \
           m64n80:3072:160:11008 m64n88:4096:176:8192 m64n88:4096:168:11008 \
           m64n96:4096:192:8192 m64n72:4096:144:8192 m64n80:4096:160:8192; do
    IFS=: read b m n kk <<< "$k"
    ab first,normal $b $m $n $kk; ab normal,normal ${b}cn2 $m $n $kk
  done
  for k in 4096:129:8192 4096:136:8192 4224:144:8192 4096:129:11008; do
    IFS=: read m n kk <<< "$k"
    ab first,normal t72 $m $n $kk; ab normal,normal m64n72cn2 $m $n $kk
  done
done 2>&1 | tee $OUT/cluster_n_s36c.txt
echo "${SECONDS}s"
