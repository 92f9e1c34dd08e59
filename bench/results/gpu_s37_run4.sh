#!/usr/bin/env bash
# session 37, runs 4-6 (H200): the library with the transposed products' D^T stored in row pairs
# (store_direct_column_major; built here: JOBS=2 bash bench/build_gemm.sh build-gemm; xz -T2 -6
# -c build-gemm/libkiln_gemm.so > build-s37/libkiln_gemm.so.xz). PART=check: gemm_check.py, and
# compute-sanitizer memcheck / racecheck on tests/gpu/gemm_small.py; PART=time: skinny_ab.py
# colstore with KILN_GEMM_COLUMN_PAIRS=0 (element by element, as before) against the pairs,
# plain twice, bias + ReLU once, plain with cold weights once; PART=shortk: skinny_ab.py
# twotileshortk2 (161-208 rows at K = 1024-2560) on the 128-row path as built against the
# clustered 128-row two tiles (KILN_GEMM_TWO_TILE_CLUSTER_MIN_K=8), plain and bias + ReLU.
# S: the results' suffix (s37b: the final library, run 7).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
SECONDS=0
unpack_library build-s37/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
if [ "${PART:-check}" = check ]; then
  library_check $R ${S:-s37}
  echo "${SECONDS}s"
elif [ "$PART" = time ]; then
  for sample in 1 2 relu cold; do
    a=(); [ $sample = relu ] && a=(relu); [ $sample = cold ] && a=(--cold)
    KILN_GEMM_COLUMN_PAIRS=0 timeout 150 python3 bench/skinny_ab.py "elements-$sample" colstore "${a[@]}" 2>&1
    timeout 150 python3 bench/skinny_ab.py "pairs-$sample" colstore "${a[@]}" 2>&1
  done | tee $R/skinny_ab_${S:-s37}.txt | cut -c1-150
  echo "${SECONDS}s"
else
  for act in plain relu; do
    a=(); [ $act = relu ] && a=(relu)
    timeout 150 python3 bench/skinny_ab.py "128row-$act" twotileshortk2 "${a[@]}" 2>&1
    KILN_GEMM_TWO_TILE_CLUSTER_MIN_K=8 timeout 150 python3 bench/skinny_ab.py "twotile-$act" twotileshortk2 "${a[@]}" 2>&1
  done | tee $R/skinny_ab_${S:-s37}b.txt | cut -c1-150
  echo "${SECONDS}s"
fi
