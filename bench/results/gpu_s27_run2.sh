#!/usr/bin/env bash
# session 27, run 2: the harness's first (library-alone) measurement against its alternated
# rounds: each round's rates, and each side alone before and after (KILN_AB_ROUNDS=1)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
for s in "256 8192 8192" "256 6144 8192"; do
  for e in plainba relu; do
    KILN_AB_ROUNDS=1 $D/c2_${e}_vb $s
  done
done 2>&1 | tee $R/rounds_s27.txt
