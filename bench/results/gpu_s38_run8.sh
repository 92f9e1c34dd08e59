#!/usr/bin/env bash
# session 38, run 8 (H200): why EpilogueLinear loses the 4 x 2 clusters' gain (run 5). Nsight
# Compute on one launch each (clocks locked: no back-to-back launches, no PDL overlap) of the
# copy and the staged linear kernels, 1 x 2 and 4 x 2, at 7168 x 176 x 1024 and 2048; then the
# harness's back-to-back timing with programmatic dependent launch off (KILN_GEMM_PDL=0), two
# rounds. Harness builds as run 5 (build-s38h).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s38h
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_read.sum
export KILN_AB_GROUP=1 KILN_AB_STORE_T=1
{
for k in 1024 2048; do
  for c in t88cn2 t88c42 l88cn2 l88c42; do
    echo "=== $c 7168x176x$k"
    KILN_AB_ONCE=1 timeout 120 ncu --metrics $M -k regex:gemm_kernel -c 2 $D/$c 7168 176 $k 2>&1 \
      | grep -E "duration|cycles|tensor|sectors" | grep -v "==PROF==" | tail -4
  done
done
for r in 1 2; do
  echo "round $r, KILN_GEMM_PDL=0"
  for c in t88cn2 t88c42 l88cn2 l88c42; do KILN_GEMM_PDL=0 ab_time $D/$c 7168 176 1024; done
done
} 2>&1 | tee $OUT/cluster42_ncu_s38.txt
