#!/usr/bin/env bash
# session 35, run 7 (H200): Nsight Compute of kiln's 64 x 72 / 64 x 80 two tiles (128 CTAs,
# group 1, the transposed problem) and cuBLAS's kernels at 129 and 160 x 4096 x 8192, where the
# weights (64 MiB) stream from DRAM and kiln stays 12-20% behind at 129 rows: DRAM throughput,
# L2 hit rate and sectors, SM active cycles of one cold launch each.
cd "$(dirname "$0")/../.."
D=build-s35
SECONDS=0
M=sm__cycles_active.avg,lts__t_sectors.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum,gpu__time_duration.sum
S="--section SpeedOfLight --section LaunchStats"
export KILN_AB_ONCE=1
KILN_AB_GROUP=1 ncu $S --metrics $M -k regex:gemm_kernel -c 1 $D/m64n72 4096 129 8192 > $OUT/ncu_m64n72_129_s35.txt 2>&1
KILN_AB_GROUP=1 ncu $S --metrics $M -k regex:gemm_kernel -c 1 $D/m64n80 4096 160 8192 > $OUT/ncu_m64n80_160_s35.txt 2>&1
ncu $S --metrics $M -k regex:nvjet -c 1 $D/t80 160 4096 8192 > $OUT/ncu_nvjet_160_s35.txt 2>&1
for f in $OUT/ncu_m64n72_129_s35.txt $OUT/ncu_m64n80_160_s35.txt $OUT/ncu_nvjet_160_s35.txt; do
  echo "== $f"; grep -E "nvjet|gemm_kernel|Duration|DRAM Throughput|L2 Cache Throughput|sectors|hit_rate|bytes|cycles_active|SM Frequency|Grid Size" $f | grep -v "^==PROF" | cut -c1-120
done
echo "${SECONDS}s"
