#!/usr/bin/env bash
# session 31, run 3 (H200): the decode row 16x4096x4096 (0.88-0.90 of cuBLAS in most samples):
# the peer's kernels with grid and block; the library (a933137's code, the same SASS as
# b0ffe78's) on the few-row split shapes as built and with 2 / 3 / 8 K splits forced, and on the
# default path; then one gemm_bench.py --only gemm,decode sample
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib31/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
python3 bench/cublas_kernels.py 16x4096x4096 1x4096x4096 16x8192x8192 16x4096x14336 2>&1 \
  | grep -v Warn | grep -v _warn | tee $R/cublas_kernels_decode_s31.txt | cut -c1-220
echo "${SECONDS}s"
for v in default SPLITK=2 SPLITK=3 SPLITK=8 FEW_ROWS=0; do
  if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
  env "${e[@]}" timeout 90 python3 bench/skinny_ab.py $v fewsplit16 2>&1
done | tee $R/skinny_ab_s31_fewsplit16.txt | cut -c1-150
echo "${SECONDS}s"
timeout 200 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s31_h200.json 2>&1 \
  | tee $R/gemm_bench_s31_h200.txt | grep "gemm" | awk '{print $1, $2, $3, $4, $5, $6, $(NF-8), $(NF-7), $(NF-6)}' | head -40
echo "${SECONDS}s"
