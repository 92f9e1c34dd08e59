#!/usr/bin/env bash
# session 37, run 1 (H200): what the transposed products' column-major store of D^T costs, and
# whether pairing its rows by movmatrix (store_direct_column_major) recovers it. Harness,
# transposed problem (M = weights, N = A's rows), kiln's TFLOP/s in three forms per kernel:
# D row-major (the harness's default), column-major element by element (KILN_AB_STORE_T=1
# KILN_GEMM_COLUMN_PAIRS=0: the library's store before this session), column-major in row pairs
# (KILN_AB_STORE_T=1). The peer's numbers are for the row-major problem as given. Two rounds.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s37
SECONDS=0
three() {  # three L2 BINARY M N K
  export KILN_GEMM_L2=$1
  echo -n "row  "; ab_time $D/$2 $3 $4 $5
  echo -n "col1 "; KILN_AB_STORE_T=1 KILN_GEMM_COLUMN_PAIRS=0 ab_time $D/$2 $3 $4 $5
  echo -n "col2 "; KILN_AB_STORE_T=1 ab_time $D/$2 $3 $4 $5
}
export KILN_AB_GROUP=1
for r in 1 2; do
  echo "round $r"
  three normal,normal m64n72cn2 4096 129 8192
  three normal,normal m64n72cn2 4096 144 8192
  three first,normal m64n72 4096 136 3072
  three first,normal m64n80 4096 160 8192
  three normal,normal m64n80cn2 4096 160 8192
  three normal,normal m64n88cn2 4096 176 8192
  three normal,normal t80cn2 8192 160 8192
  three normal,normal t104 8192 208 8192
done 2>&1 | tee $OUT/column_store_s37.txt
echo "${SECONDS}s"
