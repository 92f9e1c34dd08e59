#!/usr/bin/env bash
# session 34, run 10 (H200): the two-tile product at 129-160 rows from 15/32 of a wave of weight
# tiles (62 CTAs) instead of half (run 9: unsplit at 64 CTAs +6-17% over 128-row tiles split in
# two), the library carried as build-s34/libkiln_gemm.so.xz: gemm_check.py; skinny_ab.py's
# `twotilelow` set against KILN_GEMM_TWO_TILES=0, plain twice, bias + ReLU once.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s34/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s34b.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s34b.txt)"
grep -v "^PASS" $R/gemm_check_s34b.txt | head -20
for run in "1 plain" "2 plain" "1 relu"; do
  read -r round act <<< "$run"
  a=(); [ $act = relu ] && a=(relu)
  for v in default TWO_TILES=0; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
    env "${e[@]}" timeout 100 python3 bench/skinny_ab.py "$v-$act-$round" twotilelow "${a[@]}" 2>&1
  done
done | tee $R/skinny_ab_s34_twotilelow.txt | cut -c1-150
echo "${SECONDS}s"
