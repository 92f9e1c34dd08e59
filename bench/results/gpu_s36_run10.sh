#!/usr/bin/env bash
# session 36, run 10 (H200): 161-208 rows at K = 3072-4096 on the clustered 128-row two tiles
# (the unpaired ones ran level or 2% slower than the 128-row path at K = 4096, v38; clustered
# +2-14% over unpaired there in the harness, v40): the library with the clustered two tiles'
# K bound at 48 k-blocks, skinny_ab.py twotileshortk against KILN_GEMM_TWO_TILES=0 (the 128-row
# path), plain and bias + ReLU; gemm_check.py.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s36/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for act in plain relu; do
  a=(); [ $act = relu ] && a=(relu)
  KILN_GEMM_TWO_TILES=0 timeout 100 python3 bench/skinny_ab.py "128row-$act" twotileshortk "${a[@]}" 2>&1
  timeout 100 python3 bench/skinny_ab.py "twotile-$act" twotileshortk "${a[@]}" 2>&1
done | tee $R/skinny_ab_s36e.txt | cut -c1-150
timeout 100 python3 bench/gemm_check.py > $R/gemm_check_s36e.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s36e.txt)"
grep -v "^PASS" $R/gemm_check_s36e.txt | head -20
echo "${SECONDS}s"
