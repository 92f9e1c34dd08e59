#!/usr/bin/env bash
# session 37, run 11 (H200): the weights evict-first on the clustered two tiles, in the library
# (fad8478's, carried as build-s37/libkiln_gemm.so.xz): skinny_ab.py twotilecluster as built
# (clustered launches load both operands normal) against KILN_GEMM_L2=first,normal (the
# transposed problem's A is the weights), plain, two samples each in alternation. The override
# applies to every launch of the process, the unpaired shapes of the set included.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
SECONDS=0
unpack_library build-s37/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
for sample in 1 2; do
  timeout 150 python3 bench/skinny_ab.py "built-$sample" twotilecluster 2>&1
  KILN_GEMM_L2=first,normal timeout 150 python3 bench/skinny_ab.py "first-$sample" twotilecluster 2>&1
done | tee $R/skinny_ab_s37c.txt | cut -c1-110
echo "${SECONDS}s"
