#!/usr/bin/env bash
# session 33, run 2 (H200): Nsight Compute of kiln's 64-row tiles and cuBLAS's nvjet kernel of the
# same tile and cluster (64 x 64 in 1 x 2 at 127 x 4096 x 4096; 64 x 128 in 1 x 2 at
# 1024 x 1024 x 8192), where kiln runs 20% slower: what saturates, where its warps stall.
cd "$(dirname "$0")/.."
D=build-s33
SECONDS=0
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section ComputeWorkloadAnalysis"
M=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum,smsp__cycles_active.avg,gpu__time_duration.sum
for run in "m64n64c2 127 4096 4096" "m64n128c2 1024 1024 8192"; do
  read -r b m n k <<< "$run"
  echo "=== $b $m $n $k"
  KILN_AB_ONCE=1 KILN_AB_SPLITS=1 ncu $S --metrics $M -k regex:"nvjet" -c 1 $D/$b $m $n $k > $OUT/ncu_nvjet_$b.txt 2>&1
  grep -E "gemm_kernel|nvjet|Duration|Throughput|Busy|Stall|Warp Cycles|Issued|Active|pipe_tensor|sectors|hit_rate|bytes|cycles_active|Registers|Shared Memory Config|Eligible|No Eligible" $OUT/ncu_nvjet_$b.txt | grep -v "^==PROF" | cut -c1-150
done
echo "${SECONDS}s"
