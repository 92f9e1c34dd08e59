#!/usr/bin/env bash
# session 37, run 3 (H200): D^T's rows in pairs (one 4-byte store per lane and 8 x 8 block,
# store_direct_column_major) against quads (an experiment: two shuffles per column group more,
# one 8-byte store per lane: a warp's store writes whole 32-byte sectors of 8 columns; binaries
# q_*, built with -DEXP_QUAD against a scratch copy of device/ that adds that path), harness,
# products as given (KILN_AB_STORE_T=1: the peer timed on B . A^T). Two rounds.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s37
SECONDS=0
two() {  # two L2 BINARY M N K
  export KILN_GEMM_L2=$1
  echo -n "pairs "; ab_time $D/$2 $3 $4 $5
  echo -n "quads "; ab_time $D/q_$2 $3 $4 $5
}
export KILN_AB_GROUP=1 KILN_AB_STORE_T=1
for r in 1 2; do
  echo "round $r"
  two normal,normal m64n72cn2 4096 129 8192
  two normal,normal m64n72cn2 4096 144 8192
  two first,normal m64n80 4096 160 8192
  two normal,normal t88cn2 8192 176 8192
  two normal,normal t104cn2 8192 208 8192
  two normal,normal t104 8192 208 8192
  two normal,normal t96cn2 5120 192 11008
  two normal,normal t80 4352 150 4096
done 2>&1 | tee $OUT/column_store_s37c.txt
echo "${SECONDS}s"
