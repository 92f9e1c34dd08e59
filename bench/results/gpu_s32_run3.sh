#!/usr/bin/env bash
# session 32, run 3 (H200): the library with the short product's final rule (an even count of
# 64-row M-tiles; 64 wide only up to K = 8192), carried as build-s32/libkiln_gemm.so.xz:
# gemm_check.py; skinny_ab.py's `short` set as built and with KILN_GEMM_SHORT_ROWS=0, plain /
# bias + ReLU / bias + GELU; one gemm_bench.py --only splitk,decode sample.
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s32/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s32b.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s32b.txt)"
grep -v "^PASS" $R/gemm_check_s32b.txt | head -20
echo "${SECONDS}s"
for act in plain relu gelu; do
  a=$act; [ $act = plain ] && a=
  for v in default SHORT_ROWS=0; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
    env "${e[@]}" timeout 100 python3 bench/skinny_ab.py "$v-$act" short $a 2>&1
  done
done | tee $R/skinny_ab_s32_short_final.txt | awk '{print $1, $2, $3, $4, $8, $9, $10, $11, $12}'
echo "${SECONDS}s"
timeout 200 python3 bench/gemm_bench.py --only splitk,decode --json $R/gemm_bench_s32_h200.json 2>&1 \
  | tee $R/gemm_bench_s32_h200.txt | grep "gemm\|decode" | awk '{print $1, $2, $3, $4, $5, $6, $(NF-8), $(NF-7), $(NF-6)}' | head -60
echo "${SECONDS}s"
