#!/usr/bin/env bash
# session 30, run 1: Nsight Compute source counters (SASS + stall samples per instruction) of
# kiln's paired 128x128 bias+ReLU kernel and cuBLASLt's nvjet kernel at 256x8192x8192
cd "$(dirname "$0")/.."
D=build-s30
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
KILN_AB_ONCE=1 ncu --section SourceCounters --section WarpStateStats --section SpeedOfLight \
  -k regex:"gemm_kernel|nvjet" -c 2 -f -o $OUT/decode_relu $D/c2_relu 256 8192 8192 2>&1 | tail -5
ncu -i $OUT/decode_relu.ncu-rep --page details 2>&1 > $OUT/details.txt
ncu -i $OUT/decode_relu.ncu-rep --page source --print-source sass --csv > $OUT/source.csv 2> $OUT/source.err
ls -la $OUT; wc -l $OUT/source.csv; head -c 600 $OUT/source.csv; cat $OUT/source.err | head
grep -n "Stall\|Warp Cycles\|Duration" $OUT/details.txt | head -40
