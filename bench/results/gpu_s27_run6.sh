#!/usr/bin/env bash
# session 27, run 6: Nsight Compute durations of kiln's paired 128x128 kernel and the peer at
# 256 x 8192 x K for K = 1024 ... 16384: a fixed cost per launch and a cost per k-block
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
M=gpu__time_duration.sum,sm__cycles_active.avg,gpc__cycles_elapsed.max,dram__bytes_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
for e in plainba relu; do
  for k in 1024 2048 4096 8192 16384; do
    echo "=== $e K=$k"
    KILN_AB_ONCE=1 ncu --metrics $M -k regex:"gemm_kernel|nvjet" -c 4 $D/c2_${e}_vb 256 8192 $k 2>&1 \
      | grep -E "gemm_kernel|nvjet|duration|cycles|dram|tensor" | grep -v "==PROF=="
  done
done 2>&1 | tee $R/ncu_ksweep_s27.txt
