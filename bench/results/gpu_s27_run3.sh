#!/usr/bin/env bash
# session 27, run 3: sustained (2 s back to back, twice each, alternating) rate, SM clock and
# power of the library's paired 128x128 kernel and its peer at two one-wave shapes
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv,noheader
for s in "256 8192 8192" "256 6144 8192"; do
  for e in plainba relu; do
    KILN_AB_SUSTAIN=2 $D/c2_${e}_vb $s
  done
done 2>&1 | tee $R/sustain_s27.txt
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,temperature.memory --format=csv,noheader
