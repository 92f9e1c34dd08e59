#!/usr/bin/env bash
# session 39 (H200), after gpu_s39_run1.sh in the same call (the library it unpacked): the few-row
# shapes under 1.0 of cuBLASLt (skinny_ab.py fewlow) with bias + ReLU at 1-4 K splits
# (KILN_GEMM_SPLITK), and the kernels cuBLAS / cuBLASLt run for them (cublas_kernels.py).
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
S=${S:?}
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
for s in 1 2 3 4; do
  KILN_GEMM_SPLITK=$s timeout 100 python3 bench/skinny_ab.py "split$s" fewlow relu 2>&1
done | tee $R/skinny_ab_${S}_splits.txt | cut -c1-150
timeout 100 python3 bench/cublas_kernels.py 16x8192x8192 32x14336x4096 64x4096x11008 \
  16x5120x5120 1x8192x8192 64x8192x8192 2>&1 | tee $R/cublas_kernels_${S}.txt
echo "${SECONDS}s"
