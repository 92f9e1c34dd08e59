#!/usr/bin/env bash
# session 35, run 6 (H200): the library as committed (run 4's with the rules narrowed: 64-row
# two tiles at half a wave or under only up to K = 6144, 193-208 rows to the pairs first, no
# 64 x 104 kernels), carried as build-s35/libkiln_gemm.so.xz: gemm_check.py; compute-sanitizer
# memcheck / racecheck on tests/gpu/gemm_small.py; the launch each changed shape takes
# (KILN_GEMM_DEBUG); skinny_ab.py on the shapes whose path changed against run 4 and two
# controls, plain and bias + ReLU.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s35/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s35b.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s35b.txt)"
grep -v "^PASS" $R/gemm_check_s35b.txt | head -20
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s35b_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" \
    || { echo "compute-sanitizer $tool: FAILED"; tail -20 $R/sanitizer_s35b_$tool.txt; }
done
echo "${SECONDS}s"
for s in 160x2048x8192 200x4096x2048 208x3072x8192 200x2048x8192 150x4096x4096 192x4096x8192 \
         129x4096x8192; do
  KILN_GEMM_DEBUG=1 python3 bench/ncu_one.py ${s//x/ } 2>&1 | grep -m1 "kiln sm90" | sed "s/^/$s: /"
done | tee $R/launches_s35.txt
for act in plain relu; do
  a=(); [ $act = relu ] && a=(relu)
  timeout 150 python3 bench/skinny_ab.py "default-$act" twotilekept "${a[@]}" 2>&1
done | tee $R/skinny_ab_s35b.txt | cut -c1-150
echo "${SECONDS}s"
