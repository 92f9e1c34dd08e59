#!/usr/bin/env bash
# session 33, run 7 (H200): the library with the one-consumer kernels' constant consumer index
# (kernel_sm90.cuh), carried as build-s33/libkiln_gemm.so.xz: gemm_check.py; compute-sanitizer
# memcheck / racecheck on tests/gpu/gemm_small.py; skinny_ab.py's short / shortsplit / ksweep /
# decode sets with warm and cold weights (--cold), plain, and short with bias + ReLU cold;
# gemm_bench.py --only splitk,decode,cold.
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s33/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s33.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s33.txt)"
grep -v "^PASS" $R/gemm_check_s33.txt | head -20
echo "${SECONDS}s"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_s33_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" \
    || { echo "compute-sanitizer $tool: FAILED"; tail -20 $R/sanitizer_s33_$tool.txt; }
done
echo "${SECONDS}s"
for set in ksweep short shortsplit decode; do
  timeout 100 python3 bench/skinny_ab.py s33 $set 2>&1
  timeout 100 python3 bench/skinny_ab.py s33 $set --cold 2>&1
done | tee $R/skinny_ab_s33_cold.txt | cut -c1-150
timeout 100 python3 bench/skinny_ab.py s33 short relu --cold 2>&1 | tee $R/skinny_ab_s33_cold_relu.txt | cut -c1-150
echo "${SECONDS}s"
timeout 300 python3 bench/gemm_bench.py --only splitk,decode,cold --json $R/gemm_bench_s33_h200.json 2>&1 \
  | tee $R/gemm_bench_s33_h200.txt | grep "gemm" | awk '{print $1, $2, $3, $4, $5, $6, $(NF-8), $(NF-7), $(NF-6)}' | head -60
echo "${SECONDS}s"
