#!/usr/bin/env bash
# session 34, run 7 (H200): the library with the transposed two-tile product (129-208 rows of A
# in two 80/96/104-wide tiles against the weights on 128-row tiles, src/gemm/short_rows.cuh),
# carried as build-s34/libkiln_gemm.so.xz: gemm_check.py; compute-sanitizer memcheck /
# racecheck on tests/gpu/gemm_small.py; skinny_ab.py's `twotile` set as built and with
# KILN_GEMM_TWO_TILES=0 (64 x 160 pairs up to 160 rows, the 128-row path past it), plain twice
# (run 8: bias + ReLU once, plain with cold weights once: RUNS="1 relu,1 cold" SKIP_CHECKS=1).
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s34/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
if [ -z "${SKIP_CHECKS:-}" ]; then
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s34.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s34.txt)"
grep -v "^PASS" $R/gemm_check_s34.txt | head -20
echo "${SECONDS}s"
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s34_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" \
    || { echo "compute-sanitizer $tool: FAILED"; tail -20 $R/sanitizer_s34_$tool.txt; }
done
echo "${SECONDS}s"
fi
IFS=, read -ra runs <<< "${RUNS:-1 plain,2 plain}"
for run in "${runs[@]}"; do
  read -r round act <<< "$run"
  a=(); [ $act = relu ] && a=(relu); [ $act = cold ] && a=(--cold)
  for v in default TWO_TILES=0; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
    env "${e[@]}" timeout 150 python3 bench/skinny_ab.py "$v-$act-$round" twotile "${a[@]}" 2>&1
  done
done | tee -a $R/skinny_ab_s34_twotile.txt | cut -c1-150
echo "${SECONDS}s"
