#!/usr/bin/env bash
# session 23, run 1: decode-ish rows (plain, bias + ReLU, bias + GELU) on the default launch
# (128x128 pairs) against 128x256 tiles split 2 ways (128 CTAs, one wave), in turn, twice
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv
for i in 1 2; do
  for cfg in "default" "KILN_GEMM_BN=256 KILN_GEMM_SPLITK=2" "KILN_GEMM_BN=128 KILN_GEMM_SPLITK=2"; do
    echo "== $cfg (sample $i)" | tee -a $R/decode_split_s23.txt
    env $( [ "$cfg" = default ] || echo $cfg ) KILN_GEMM_DEBUG=1 timeout 100 python3 bench/gemm_bench.py --only gemm --shapes decode-ish 2>&1 \
      | grep -E "decode-ish|grid|cluster" | sort | uniq -c | head -12 | tee -a $R/decode_split_s23.txt
  done
done
