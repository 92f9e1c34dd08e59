#!/usr/bin/env bash
# session 31, run 5 (H200): llama-down as written (pairs share the weight B) against its
# transpose 4096x8192x11008 (the same work; pairs share the activations), kiln's 128x256 pairs,
# bias + ReLU and plain, three alternated runs each: does the shared operand change the rate?
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-s31
SECONDS=0
for r in 1 2 3; do
  bash $D/ab_pairs.sh $D "base" "relu copy" "c2,8192,4096,11008 c2,4096,8192,11008" 1
done 2>&1 | tee $R/llama_down_transposed_s31.txt
echo "${SECONDS}s"
