#!/usr/bin/env bash
# session 36, runs 5 and 8 (H200): the library's two-tile clusters against
# KILN_GEMM_TWO_TILE_CLUSTER=0 (unpaired two tiles, the weights evict-first where they outgrow
# the L2, and 64 x 160 pairs past three quarters of a wave: session 35's paths), skinny_ab.py's
# `twotilecluster` set, plain and bias + ReLU, one process per setting. Run 8 (the rules
# narrowed after runs 5-6): S=s36c, the results' suffix.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
[ -f build-gemm/libkiln_gemm.so ] || python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s36/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for act in plain relu; do
  a=(); [ $act = relu ] && a=(relu)
  KILN_GEMM_TWO_TILE_CLUSTER=0 timeout 200 python3 bench/skinny_ab.py "unpaired-$act" twotilecluster "${a[@]}" 2>&1
  timeout 200 python3 bench/skinny_ab.py "cluster-$act" twotilecluster "${a[@]}" 2>&1
done | tee $R/skinny_ab_${S:-s36}.txt | cut -c1-150
echo "${SECONDS}s"
