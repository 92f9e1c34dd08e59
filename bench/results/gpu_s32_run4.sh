#!/usr/bin/env bash
# session 32, run 4 (H200): the library with short products under half a wave of pairs split
# along K (64 wide), carried as build-s32/libkiln_gemm.so.xz: gemm_check.py; compute-sanitizer
# on tests/gpu/gemm_small.py; skinny_ab.py's `shortsplit` set as built and with
# KILN_GEMM_SHORT_ROWS=0, plain / bias + ReLU, twice; the `short` set plain once.
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s32/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s32c.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s32c.txt)"
grep -v "^PASS" $R/gemm_check_s32c.txt | head -20
grep "^PASS linear \(80x2048x2056\|128x1024x4096\|100x1000x2100\|256x1024x2048\)" $R/gemm_check_s32c.txt
echo "${SECONDS}s"
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s32c_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" \
    || { echo "compute-sanitizer $tool: FAILED"; tail -20 $R/sanitizer_s32c_$tool.txt; }
done
echo "${SECONDS}s"
for round in 1 2; do
  for act in plain relu; do
    a=$act; [ $act = plain ] && a=
    for v in default SHORT_ROWS=0; do
      if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
      env "${e[@]}" timeout 100 python3 bench/skinny_ab.py "$v-$act" shortsplit $a 2>&1
    done
  done
done | tee $R/skinny_ab_s32_shortsplit.txt | cut -c1-150
echo "${SECONDS}s"
timeout 100 python3 bench/skinny_ab.py default-plain short 2>&1 | tee $R/skinny_ab_s32_short_run4.txt | cut -c1-150
echo "${SECONDS}s"
