#!/usr/bin/env bash
# session 28, run 2: a %globaltimer timeline of every CTA (KILN_SM90_PROBE) on the producer-tail
# kernel, with six more points in the producer between its grid wait and its first loads
# (8: thread 0 past the grid wait, 9: past setmaxnreg, 10: before the bias slot's wait,
# 11: bias load issued, 12: first empty wait passed, 13: first A load issued; 2: first B load
# issued; 7: the producer's tail wait done)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab28
for s in "probe 256 8192 8192" "probe 256 8192 1024" "probe256 2048 2048 2048"; do
  set -- $s
  echo "=== $1 $2x$3x$4"; KILN_AB_PROBE=1 $D/c2_relu_$1 $2 $3 $4
done 2>&1 | tee $R/probe_producer_s28.txt
