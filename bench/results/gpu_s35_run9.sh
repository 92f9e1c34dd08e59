#!/usr/bin/env bash
# session 35, run 9 (H200): the library with the two-tile product's weights read once
# (evict-first) where they outgrow the L2 (OperandView::read_once, short_rows.cuh
# two_tile_weights_read_once; run 8's harness lead), carried as build-s35/libkiln_gemm.so.xz:
# gemm_check.py; skinny_ab.py's twotile64 and twotilewidth sets as built and with
# KILN_GEMM_L2=normal,normal (the hints before), plain; twotilewidth with bias + ReLU.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s35/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s35c.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s35c.txt)"
grep -v "^PASS" $R/gemm_check_s35c.txt | head -20
for run in "twotilewidth plain" "twotile64 plain" "twotilewidth relu"; do
  read -r set act <<< "$run"
  a=(); [ $act = relu ] && a=(relu)
  for v in default L2=normal,normal; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
    env "${e[@]}" timeout 200 python3 bench/skinny_ab.py "$v-$act" $set "${a[@]}" 2>&1
  done
done | tee $R/skinny_ab_s35c.txt | cut -c1-150
echo "${SECONDS}s"
