#!/usr/bin/env bash
# session 41 (H200): harness (bias + ReLU against cuBLASLt) at 32 / 64 rows against 4096 x 4096
# and 4096 x 2048 weights (which fit the L2), warm (one B) and cold (KILN_AB_COLD=4): the
# untransposed few-row tile's width 32-64 (128-64 CTAs), and 1 x 2 clusters sharing the
# activations' tile (-DKILN_AB_CLUSTER_N=2, suffix c2) -- whether fewer reads of A from L2 pay.
#   ab_build build-s41h/u64n{W}s{S}[c2] relu -DKILN_AB_BM=64 -DKILN_AB_BN=W -DKILN_AB_STAGES=S
#            [-DKILN_AB_CLUSTER_N=2]
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
{
  for cold in "" 4; do
    echo "== KILN_AB_COLD=${cold:-(warm)}"
    if [ -n "$cold" ]; then export KILN_AB_COLD=$cold; else unset KILN_AB_COLD; fi
    for shape in "32 4096 4096" "64 4096 4096" "64 4096 2048"; do
      for b in u64n32s16 u64n40s16 u64n48s15 u64n56s14 u64n64s13 u64n32s16c2 u64n48s15c2 \
               u64n64s13c2; do
        ab_time build-s41h/$b $shape
      done
    done
  done
} 2>&1 | tee $R/l2width_s41.txt
