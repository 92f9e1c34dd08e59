#!/usr/bin/env bash
# session 38, runs 3-4 (H200): the library with 4 x 2 clusters on the clustered 128-row two tiles
# up to K = 4096 (built here: JOBS=2 bash bench/build_gemm.sh build-gemm; xz -T2 -6 -c
# build-gemm/libkiln_gemm.so > build-s38/libkiln_gemm.so.xz). PART=check: gemm_check.py,
# compute-sanitizer memcheck / racecheck on tests/gpu/gemm_small.py, the launches of a few
# shapes (KILN_GEMM_DEBUG); PART=time: skinny_ab.py twotilequad with
# KILN_GEMM_TWO_TILE_QUAD_MAX_K=0 (1 x 2, as before) against =128 (4 x 2 wherever resident, K =
# 8192 too), plain and bias + ReLU (SAMPLES: "1 relu" by default; "2" a second plain sample).
# S: the results' suffix.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=${S:-s38}
SECONDS=0
unpack_library build-s38/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
if [ "${PART:-check}" = check ]; then
  library_check $R $S
  echo "${SECONDS}s"
  for s in 176x7168x2048 176x8192x2048 144x7168x1024 200x6144x4096 176x7168x8192; do
    KILN_GEMM_DEBUG=1 python3 bench/ncu_one.py ${s//x/ } 2>&1 | grep -m1 "kiln sm90" | sed "s/^/$s: /"
  done | tee $R/launches_$S.txt | cut -c1-200
else
  for sample in ${SAMPLES:-1 relu}; do
    a=(); [ $sample = relu ] && a=(relu)
    KILN_GEMM_TWO_TILE_QUAD_MAX_K=0 timeout 200 python3 bench/skinny_ab.py "1x2-$sample" twotilequad "${a[@]}" 2>&1
    KILN_GEMM_TWO_TILE_QUAD_MAX_K=128 timeout 200 python3 bench/skinny_ab.py "4x2-$sample" twotilequad "${a[@]}" 2>&1
  done | tee -a $R/skinny_ab_$S.txt | cut -c1-150
  echo "${SECONDS}s"
fi
