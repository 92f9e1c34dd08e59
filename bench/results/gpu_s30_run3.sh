#!/usr/bin/env bash
# session 30, run 3: wide consumer (-DKILN_SM90_WIDE=1) and the producer's expect-tx after its
# loads (-DKILN_SM90_TX_AFTER=1, as nvjet's producer), alternating rounds at decode-ish, then
# Nsight Compute cycles of each build and of the peer
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-s30
SECONDS=0
{ bash $D/ab_pairs.sh $D "base tx wide widetx" "relu" "c2,256,8192,8192" 3
  bash $D/ab_pairs.sh $D "base wide widetx" "plainba" "c2,256,8192,8192" 2
  bash $D/ab_pairs.sh $D "base wide" "gelu" "c2,256,8192,8192" 2; } 2>&1 \
  | tee $R/wide_consumer_s30b.txt | grep -o "^[a-z0-9]* [0-9x]* .*library/peer [0-9.]*" | sed -E 's/library 128x128 c2 //; s/stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,sm__inst_executed.sum,smsp__cycles_active.avg
for b in base wide widetx tx; do
  echo "== $b"
  KILN_AB_ONCE=1 ncu --metrics $M -k regex:"gemm_kernel" -c 1 $D/c2_relu_$b 256 8192 8192 2>&1 | grep -E "gpu__|sm__|dram__|smsp__"
done
echo "== nvjet"
KILN_AB_ONCE=1 ncu --metrics $M -k regex:"nvjet" -c 1 $D/c2_relu_base 256 8192 8192 2>&1 | grep -E "gpu__|sm__|dram__|smsp__"
echo "${SECONDS}s"
