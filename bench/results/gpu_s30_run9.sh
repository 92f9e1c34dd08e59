#!/usr/bin/env bash
# session 30, run 9: llama-down (8192x4096x11008), the one fused row under 1.0: the library as
# built against unpaired 128x256 tiles (KILN_GEMM_CLUSTER=1) and other rasterization groups
# (KILN_GEMM_GROUP_M), in turn, twice
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib30/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
for r in 1 2; do
  for v in default CLUSTER=1 GROUP_M=4 GROUP_M=32; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
    env "${e[@]}" timeout 60 python3 bench/gemm_bench.py --only gemm --shapes llama-down 2>&1 \
      | grep "llama-down" | sed "s/^/$v /" | cut -c1-150
  done
done | tee $R/llama_down_s30.txt
echo "${SECONDS}s"
