#!/usr/bin/env bash
# session 38, runs 6-8 (H200): the final library (4 x 2 clusters for the plain product only;
# built here and carried as build-s38/libkiln_gemm.so.xz). PART=check: gemm_check.py,
# compute-sanitizer memcheck / racecheck on tests/gpu/gemm_small.py, the launches of plain and
# bias + ReLU products (KILN_GEMM_DEBUG); PART=time: skinny_ab.py twotilequad, plain and
# bias + ReLU, KILN_GEMM_TWO_TILE_QUAD_MAX_K=0 (1 x 2) against the library as built;
# PART=cold: the same, plain, with cold weights (skinny_ab.py --cold);
# PART=bench: one gemm_bench.py --only gemm,decode sample (the issue's table). S: the suffix.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=${S:-s38c}
SECONDS=0
unpack_library build-s38/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
case ${PART:-check} in
check)
  library_check $R $S
  for s in "176 7168 2048" "176 7168 2048 relu" "144 7168 1024" "144 7168 1024 gelu" \
           "176 8192 2048" "200 6144 4096" "176 7168 8192"; do
    KILN_GEMM_DEBUG=1 python3 bench/ncu_one.py $s 2>&1 | grep -m1 "kiln sm90" | sed "s/^/$s: /"
  done | tee $R/launches_$S.txt | cut -c1-200 ;;
time)
  for act in plain relu; do
    a=(); [ $act = relu ] && a=(relu)
    KILN_GEMM_TWO_TILE_QUAD_MAX_K=0 timeout 200 python3 bench/skinny_ab.py "1x2-$act" twotilequad "${a[@]}" 2>&1
    timeout 200 python3 bench/skinny_ab.py "built-$act" twotilequad "${a[@]}" 2>&1
  done | tee $R/skinny_ab_$S.txt | cut -c1-150 ;;
cold)
  KILN_GEMM_TWO_TILE_QUAD_MAX_K=0 timeout 200 python3 bench/skinny_ab.py "1x2-plain" twotilequad --cold 2>&1 \
    | tee $R/skinny_ab_${S}_cold.txt | cut -c1-150
  timeout 200 python3 bench/skinny_ab.py "built-plain" twotilequad --cold 2>&1 \
    | tee -a $R/skinny_ab_${S}_cold.txt | cut -c1-150 ;;
bench)
  timeout 500 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_${S}_h200.json 2>&1 \
    | tee $R/gemm_bench_${S}_h200.txt | grep "gemm" | awk '{print $1, $2, $(NF-6)}' | head -40 ;;
esac
echo "${SECONDS}s"
