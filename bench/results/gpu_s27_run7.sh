#!/usr/bin/env bash
# session 27, run 7: a %globaltimer timeline of every CTA's unit in kiln's paired 128x128
# kernel (KILN_SM90_PROBE): entry, after the grid wait, first load issued, first stage landed,
# mainloop done, epilogue issued, stores drained, after the closing cluster barrier
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
for k in 8192 1024; do for e in plainba relu; do
  echo "=== $e 256x8192x$k"; KILN_AB_PROBE=1 $D/c2_${e}_probe 256 8192 $k
done; done 2>&1 | tee $R/probe_timeline_s27.txt
