#!/usr/bin/env bash
# session 41 (H200): harness (bias + ReLU against cuBLASLt), warm and cold (KILN_AB_COLD=4), the
# untransposed few-row tiles at the library's widths: the operands' L2 hints forced
# (KILN_GEMM_L2=A,B): normal,first (the library before session 41), normal,normal (B that fits
# the L2 since), last,normal and last,first (A, which every CTA reads, kept over B's stream).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
{
  for cold in "" 4; do
    if [ -n "$cold" ]; then export KILN_AB_COLD=$cold; else unset KILN_AB_COLD; fi
    for l2 in normal,first normal,normal last,normal last,first; do
      echo "== KILN_GEMM_L2=$l2 KILN_AB_COLD=${cold:-(warm)}"
      export KILN_GEMM_L2=$l2
      ab_time build-s41h/u64n32s16 32 4096 4096
      ab_time build-s41h/u64n32s16 64 4096 4096
      ab_time build-s41h/u64n32s16 64 4096 2048
      ab_time build-s41h/u64n40s16 64 5120 4096
      ab_time build-s41h/u64n48s15 64 6144 4096
      ab_time build-s41h/u64n64s13 64 8192 8192
    done
  done
} 2>&1 | tee $R/l2last_s41.txt
