#!/usr/bin/env bash
# session 31, run 1: does cuBLASLt escape the last wave's quantization at llama-down? kiln's
# 128x256 pairs and cuBLAS(Lt) across M (7.52 / 7.76 / 8.0 / 8.24 waves of 66 pairs) at
# K = 11008 and 4096; then the peer's kernels with grid and block at those shapes
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-s31
SECONDS=0
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv,noheader
bash $D/ab_pairs.sh $D "base" "relu copy" "c2,7936,4096,11008 c2,8192,4096,11008 c2,8448,4096,11008 c2,8704,4096,11008 c2,8192,4096,4096 c2,8448,4096,4096" 2 2>&1 | tee $R/waves_s31.txt
echo "${SECONDS}s"
python3 bench/cublas_kernels.py 7936x4096x11008 8192x4096x11008 8448x4096x11008 8192x4096x4096 2>&1 | tee $R/cublas_kernels_s31.txt
echo "${SECONDS}s"
