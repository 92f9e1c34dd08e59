#!/usr/bin/env bash
# session 36, run 9 (H200): the library with 129-160 rows past K = 8192 on the two tiles (run 8:
# the 128-row path's split tiles ran 0.76-0.80 of cuBLAS there, the harness's 64-row two tiles
# 0.95-1.06): gemm_check.py; skinny_ab.py twotilelongk against KILN_GEMM_TWO_TILES=0 (the
# 128-row path there), plain and bias + ReLU.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s36/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 240 python3 bench/gemm_check.py > $R/gemm_check_s36d.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s36d.txt)"
grep -v "^PASS" $R/gemm_check_s36d.txt | head -20
for act in plain relu; do
  a=(); [ $act = relu ] && a=(relu)
  KILN_GEMM_TWO_TILES=0 timeout 150 python3 bench/skinny_ab.py "128row-$act" twotilelongk "${a[@]}" 2>&1
  timeout 150 python3 bench/skinny_ab.py "twotile-$act" twotilelongk "${a[@]}" 2>&1
done | tee $R/skinny_ab_s36d.txt | cut -c1-150
echo "${SECONDS}s"
