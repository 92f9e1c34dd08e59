#!/usr/bin/env bash
# session 27, run 8: the producer's grid wait moved to just before its first load
# (KILN_SM90_LATE_WAIT): its timeline, then A/B against stock in alternation
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
for e in plainba relu; do echo "=== late $e"; KILN_AB_PROBE=1 $D/c2_${e}_lateprobe 256 8192 8192 | grep -v "^256x"; done 2>&1 | tee $R/probe_late_s27.txt
bash $D/ab_pairs.sh $D "base late" "plainba relu" \
  "c2,256,8192,8192 c2,200,8000,4096 c2,256,8192,4096" 3 2>&1 | tee $R/late_wait_s27.txt
