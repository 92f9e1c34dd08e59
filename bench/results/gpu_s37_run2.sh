#!/usr/bin/env bash
# session 37, run 2 (H200): the harness's kernels of the library's transposed two-tile
# products against cuBLAS on the products as given (KILN_AB_STORE_T=1: D^T stored column-major,
# as the library stores it, the peer timed on B . A^T), so that harness and library ratios can
# be compared shape by shape (skinny_ab.py colstore, run 4): D^T's rows in pairs, then element by
# element (KILN_GEMM_COLUMN_PAIRS=0). Harness problem: M = weights, N = A's rows.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s37
SECONDS=0
two() {  # two L2 BINARY M N K
  export KILN_GEMM_L2=$1
  echo -n "pairs    "; ab_time $D/$2 $3 $4 $5
  echo -n "elements "; KILN_GEMM_COLUMN_PAIRS=0 ab_time $D/$2 $3 $4 $5
}
export KILN_AB_GROUP=1 KILN_AB_STORE_T=1
for r in 1 2; do
  echo "round $r"
  two normal,normal m64n72cn2 4096 129 8192
  two normal,normal m64n72cn2 4096 144 8192
  two first,normal m64n80 4096 160 8192
  two normal,normal m64n80cn2 4096 160 8192
  two normal,normal t80cn2 8192 160 8192
  two normal,normal t88cn2 8192 176 8192
  two normal,normal t104cn2 8192 208 8192
  two normal,normal t104 8192 208 8192
  two normal,normal t96cn2 5120 192 11008
  two normal,normal t80 4352 150 4096
done 2>&1 | tee $OUT/column_store_s37b.txt
echo "${SECONDS}s"
