#!/usr/bin/env bash
# session 30, run 4: the producer's single-box path (-DKILN_SM90_SINGLE_BOXES=1: per k-block only
# the k coordinate; the general path's box loop and mode split made the thread's issue path
# ~90 instructions) and the wide consumer, each alone and together, against the old kernel;
# then ncu cycles of each 128x128 build and the peer at decode-ish
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-s30
SECONDS=0
{ bash $D/ab_pairs.sh $D "old wide fast both" "relu plainba" "c2,256,8192,8192" 3
  bash $D/ab_pairs.sh $D "old both" "gelu" "c2,256,8192,8192" 2
  bash $D/ab_pairs.sh $D "old wide fast both" "relu" "c2,256,6144,8192 c2,160,7168,8192" 2
  bash $D/n256/ab_pairs.sh $D/n256 "old fast" "relu" "c2,4096,4096,4096 c2,8192,8192,8192 c1,2048,2048,2048" 2; } 2>&1 \
  | tee $R/producer_path_s30.txt | grep -o "^[a-z0-9]* [0-9x]* .*library/peer [0-9.]*" | sed -E 's/library 128x128 c2 //; s/stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum
for b in old wide fast both; do
  echo "== $b"
  KILN_AB_ONCE=1 ncu --metrics $M -k regex:"gemm_kernel" -c 1 $D/c2_relu_$b 256 8192 8192 2>&1 | grep -E "gpu__|sm__"
done 2>&1 | tee $R/producer_path_ncu_s30.txt
echo "${SECONDS}s"
