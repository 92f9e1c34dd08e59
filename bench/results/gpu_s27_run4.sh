#!/usr/bin/env bash
# session 27, run 4: Nsight Compute, kiln's paired 128x128 kernel against cuBLAS / cuBLASLt at
# decode-ish (256x8192x8192), clocks locked by ncu (about the 700 W cap's clock)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
M=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__inst_executed.sum,gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed_pipe_uniform.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,lts__t_sectors_srcunit_tex_aperture_device_lookup_miss.sum
for e in plainba relu; do
  KILN_AB_ONCE=1 ncu --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --metrics $M -k regex:"gemm_kernel|nvjet" -c 4 $D/c2_${e}_vb 256 8192 8192
done 2>&1 | tee $R/ncu_decode_s27.txt | grep -v "^    ---" | head -400
