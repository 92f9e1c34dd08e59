#!/usr/bin/env bash
# session 32, run 2 (H200): the library with the short product (src/gemm/short_rows.cuh),
# carried as build-s32/libkiln_gemm.so.xz: gemm_check.py (every case against a float64
# reference), compute-sanitizer on tests/gpu/gemm_small.py, then skinny_ab.py's `short` set as
# built and with KILN_GEMM_SHORT_ROWS=0 (the 128-row path), plain / bias + ReLU / bias + GELU.
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s32/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s32.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s32.txt)"
grep -v "^PASS" $R/gemm_check_s32.txt | head -20
grep "^PASS linear \(127x4096x512\|65x4224\|96x2100\|96x5120x520\|100x8192x264\|192x4096\|200x4000\)" $R/gemm_check_s32.txt
echo "${SECONDS}s"
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s32_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" \
    || { echo "compute-sanitizer $tool: FAILED"; tail -20 $R/sanitizer_s32_$tool.txt; }
done
echo "${SECONDS}s"
for act in plain relu gelu; do
  a=$act; [ $act = plain ] && a=
  for v in default SHORT_ROWS=0; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
    env "${e[@]}" timeout 100 python3 bench/skinny_ab.py "$v-$act" short $a 2>&1
  done
done | tee $R/skinny_ab_s32_short.txt | cut -c1-150
echo "${SECONDS}s"
