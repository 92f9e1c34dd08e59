#!/usr/bin/env bash
# session 28, run 6: the producer's L2 policies and unit count read before the grid wait (hoist)
# against HEAD's kernel (early), and the hoisted kernel's probe timeline
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab28
SECONDS=0
{ echo "=== hoistprobe 256x8192x8192"; KILN_AB_PROBE=1 $D/c2_relu_hoistprobe 256 8192 8192; } 2>&1 | tee $R/hoist_probe_s28.txt
bash $D/ab_pairs.sh $D "early hoist" "plainba relu" "c2,256,8192,8192" 3 2>&1 | tee $R/hoist_s28.txt
bash $D/ab_pairs.sh $D "early256 hoist256" "copy relu" "c2,2048,2048,2048" 2 2>&1 | tee -a $R/hoist_s28.txt
echo "elapsed $SECONDS s"
