#!/usr/bin/env bash
# session 33, run 10 (H200): the library with the transposed short product (129-160 rows: the
# weights on paired 64-row tiles, A's rows one 160-wide tile), carried as
# build-s33/libkiln_gemm.so.xz: gemm_check.py; compute-sanitizer memcheck / racecheck on
# tests/gpu/gemm_small.py; skinny_ab.py's `shorttrans` set as built and with
# KILN_GEMM_SHORT_ROWS=0, plain twice and bias + ReLU once.
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s33/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s33b.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s33b.txt)"
grep -v "^PASS" $R/gemm_check_s33b.txt | head -20
echo "${SECONDS}s"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s33b_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" \
    || { echo "compute-sanitizer $tool: FAILED"; tail -20 $R/sanitizer_s33b_$tool.txt; }
done
echo "${SECONDS}s"
for run in "1 plain" "2 plain" "1 relu"; do
  read -r round act <<< "$run"
  a=$act; [ $act = plain ] && a=
  for v in default SHORT_ROWS=0; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
    env "${e[@]}" timeout 100 python3 bench/skinny_ab.py "$v-$act-$round" shorttrans $a 2>&1
  done
done | tee $R/skinny_ab_s33_shorttrans.txt | cut -c1-150
echo "${SECONDS}s"
