#!/usr/bin/env bash
# session 41 (H200): the library whose weights load evict-first only where they outgrow the L2
# (launch_sm90.cuh streaming_hint; build-s41/libkiln_gemm.so.xz): gemm_check.py and
# compute-sanitizer (library_check), then skinny_ab.py l2fit, bias + ReLU, warm and cold, as
# built against KILN_GEMM_L2=normal,first (the weights evict-first as before: A is normal on
# every l2fit shape either way).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s41a
SECONDS=0
unpack_library build-s41/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
library_check $R $S
echo "${SECONDS}s"
{
  timeout 100 python3 bench/skinny_ab.py "$S" l2fit relu 2>&1
  KILN_GEMM_L2=normal,first timeout 100 python3 bench/skinny_ab.py "$S-first" l2fit relu 2>&1
  timeout 100 python3 bench/skinny_ab.py "$S" l2fit relu --cold 2>&1
  KILN_GEMM_L2=normal,first timeout 100 python3 bench/skinny_ab.py "$S-first" l2fit relu --cold 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
