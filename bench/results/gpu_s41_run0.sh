#!/usr/bin/env bash
# session 41 (H200): harness (bench/sm90_kernel_ab.cu, bias + ReLU against cuBLASLt) on the
# untransposed few-row tiles (64 x W, one consumer) at shapes whose weights fit the L2: B's hint
# as built (launch_sm90.cuh streaming_hint: normal where B fits the L2) against
# KILN_GEMM_L2=normal,first (evict-first, as before), warm (one B) and cold (KILN_AB_COLD=4).
# Binaries built here into the git-ignored build-s41h/ (carried):
#   ab_build build-s41h/u64n{W}s{S} relu -DKILN_AB_BM=64 -DKILN_AB_BN=W -DKILN_AB_STAGES=S
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
{
  for cold in "" 4; do
    for l2 in "" normal,first; do
      echo "== KILN_GEMM_L2=${l2:-(as built)} KILN_AB_COLD=${cold:-(warm)}"
      export KILN_GEMM_L2=$l2 KILN_AB_COLD=$cold
      [ -z "$l2" ] && unset KILN_GEMM_L2
      [ -z "$cold" ] && unset KILN_AB_COLD
      ab_time build-s41h/u64n32s16 32 4096 4096
      ab_time build-s41h/u64n32s16 64 4096 4096
      ab_time build-s41h/u64n32s16 64 4096 2048
      ab_time build-s41h/u64n40s16 16 5120 5120
      ab_time build-s41h/u64n40s16 32 5120 5120
      ab_time build-s41h/u64n48s15 64 6144 4096
    done
  done
} 2>&1 | tee $R/l2hint_s41.txt
