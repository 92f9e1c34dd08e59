#!/usr/bin/env bash
# session 37, run 9 (H200): the clustered 128-row two tiles' L2 hints (KILN_GEMM_L2=A,B: the
# weights, the activations), harness, products as given (KILN_AB_STORE_T=1), against the
# library's normal,normal: where cuBLASLt runs the same 1 x 2 clusters 3% faster (176 x 8192 x
# 8192, run 8). Two rounds.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s37
export KILN_AB_GROUP=1 KILN_AB_STORE_T=1
for r in 1 2; do
  echo "round $r"
  for l2 in normal,normal first,normal normal,last first,last; do
    for s in "t88cn2 8192 176 8192" "t104cn2 8192 208 8192" "t80cn2 8192 160 8192"; do
      set -- $s
      echo -n "$l2 "; KILN_GEMM_L2=$l2 ab_time $D/$1 $2 $3 $4
    done
  done
done 2>&1 | tee $OUT/l2_twotile_s37.txt
