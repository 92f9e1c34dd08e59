#!/usr/bin/env bash
# session 35, run 1 (H200): (a) which kernels cuBLAS runs at the shapes still under 0.9;
# (b) Nsight Compute of cuBLAS's kernel at 129 x 4096 x 8192 and of kiln's two-tile kernel (t80,
# the transposed problem, group 1): what bounds each; (c) the two-tile product's width at its
# padding: 72 against 80 at 129-144 rows, 88 against 96 at 161-176 rows (harness, transposed
# problem, group 1; cuBLAS's TFLOP/s on the product as written, read from t96 as written).
cd "$(dirname "$0")/../.."
D=build-s35
SECONDS=0
python3 bench/cublas_kernels.py 129x4096x8192 129x4224x8192 160x4096x2048 168x6144x8192 \
  144x4096x4096 136x5120x5120 176x5120x8192 2>&1 | grep -v warn | tee $OUT/cublas_kernels_s35.txt
ab() {  # ab BINARY M N K: kiln's TFLOP/s (ratio x peer) and the peer's
  echo -n "$1 $2x$3x$4 group=${KILN_AB_GROUP:-16}: "
  timeout 60 $D/$1 $2 $3 $4 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f TFLOP/s  %s\n", $2 * $5, $0 }'
}
for r in 1 2; do
for shape in "129 4096 8192" "129 4224 8192" "136 3968 5120" "136 5120 5120" "144 4096 4096" \
             "140 6144 6144" "144 4096 8192"; do
  set -- $shape
  ab t96 $1 $2 $3
  KILN_AB_GROUP=1 ab t80 $2 $1 $3
  KILN_AB_GROUP=1 ab t72 $2 $1 $3
done
for shape in "168 6144 8192" "176 5120 8192" "170 5120 8192" "176 7168 8192" "168 4096 11008"; do
  set -- $shape
  ab t96 $1 $2 $3
  KILN_AB_GROUP=1 ab t96 $2 $1 $3
  KILN_AB_GROUP=1 ab t88 $2 $1 $3
done
done 2>&1 | tee $OUT/t72_t88_s35.txt
M=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,lts__t_sectors.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum,gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
S="--section SpeedOfLight --section LaunchStats --section Occupancy"
KILN_AB_ONCE=1 ncu $S --metrics $M -k regex:nvjet -c 1 $D/t96 129 4096 8192 > $OUT/ncu_nvjet_129_s35.txt 2>&1
KILN_AB_ONCE=1 KILN_AB_GROUP=1 ncu $S --metrics $M -k regex:gemm_kernel -c 1 $D/t80 4096 129 8192 \
  > $OUT/ncu_t80_129_s35.txt 2>&1
KILN_AB_ONCE=1 KILN_AB_GROUP=1 ncu $S --metrics $M -k regex:gemm_kernel -c 1 $D/t72 4096 129 8192 \
  > $OUT/ncu_t72_129_s35.txt 2>&1
for f in $OUT/ncu_*_s35.txt; do
  echo "== $f"; grep -E "nvjet|gemm_kernel|Duration|Throughput|sectors|hit_rate|bytes|cycles_active|gmma|Frequency|Grid Size|Block Size|Registers|Shared Memory" $f | grep -v "^==PROF" | cut -c1-120
done
echo "${SECONDS}s"
