#!/usr/bin/env bash
# session 35, run 4 (H200): the library with the two-tile product on the weights' 64-row tiles
# (one wave of them) and the 72 / 88 widths (src/gemm/short_rows.cuh), carried as
# build-s35/libkiln_gemm.so.xz: gemm_check.py; compute-sanitizer memcheck / racecheck on
# tests/gpu/gemm_small.py; skinny_ab.py's `twotile64` set as built and with
# KILN_GEMM_TWO_TILES=128 (128-row two tiles only), `twotilewidth` as built, plain and bias + ReLU
# (RUNS="1 plain,1 relu" by default; SKIP_CHECKS=1 skips the checks).
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s35/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
if [ -z "${SKIP_CHECKS:-}" ]; then
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s35.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s35.txt)"
grep -v "^PASS" $R/gemm_check_s35.txt | head -20
echo "${SECONDS}s"
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s35_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" \
    || { echo "compute-sanitizer $tool: FAILED"; tail -20 $R/sanitizer_s35_$tool.txt; }
done
echo "${SECONDS}s"
fi
IFS=, read -ra runs <<< "${RUNS:-1 plain,1 relu}"
for run in "${runs[@]}"; do
  read -r round act <<< "$run"
  a=(); [ $act = relu ] && a=(relu); [ $act = cold ] && a=(--cold)
  # twotilewidth's shapes run the same plan either way (the width is not switchable): as built
  # only, against session 34's library figures (skinny_ab_s34_twotile*.txt)
  for v in default TWO_TILES=128; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
    env "${e[@]}" timeout 200 python3 bench/skinny_ab.py "$v-$act-$round" twotile64 "${a[@]}" 2>&1
  done
  timeout 100 python3 bench/skinny_ab.py "default-$act-$round" twotilewidth "${a[@]}" 2>&1
done | tee -a $R/skinny_ab_s35.txt | cut -c1-150
echo "${SECONDS}s"
