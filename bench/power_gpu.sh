#!/usr/bin/env bash
# Where the gap to cuBLAS / cuBLASLt goes when both run at the board's power limit:
#   bench/power_gpu.sh sustain [SHAPES]   each kernel of bench/sm90_kernel_ab.cu and its peer back
#                                         to back (KILN_AB_SUSTAIN seconds, default 1.5, twice,
#                                         alternating) with the SM clock and board power from NVML;
#                                         TFLOP/s per GHz is the work per clock
#   bench/power_gpu.sh ncu [SHAPES]       Nsight Compute at the base clock (--clock-control base,
#                                         the same clock for both): duration, cycles, instructions
#                                         and L2 / DRAM bytes of each kernel and its peer
# SHAPES: "cC,EPI,M,N,K ..." (C: 1 or 2 CTAs per cluster; EPI: copy, relu or gelu). The binaries
# go to build-power (rebuilt when the sources change). Results: $OUT or bench/results.
set -uo pipefail
cd "$(dirname "$0")/.."
RES=${OUT:-bench/results}
mkdir -p "$RES" build-power
mode=${1:?usage: bench/power_gpu.sh sustain|ncu [SHAPES]}
shapes=${2:-"c1,copy,2048,2048,2048 c2,copy,2048,2048,2048 c1,relu,2048,2048,2048 c1,gelu,2048,2048,2048 c2,copy,8192,8192,8192 c2,relu,8192,8192,8192 c2,gelu,6144,6144,6144"}

key=$(cat bench/sm90_kernel_ab.cu bench/clock_sampler.h bench/ab_build.sh tests/gpu/cuda_check.h \
      $(find device include -type f | sort) | sha256sum)
# shellcheck source=bench/ab_build.sh
source bench/ab_build.sh
if [ "$(cat build-power/key 2>/dev/null)" != "$key" ]; then
    rm -f build-power/key build-power/failed build-power/c?_*
    for c in 1 2; do
        for e in copy relu gelu; do ab_build "build-power/c${c}_$e" $e -DKILN_AB_CLUSTER=$c & done
    done
    wait
    [ -e build-power/failed ] && exit 1
    echo "$key" > build-power/key
fi

nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv,noheader
for s in $shapes; do
    IFS=, read -r c e M N K <<< "$s"
    bin=build-power/${c}_$e
    case $mode in
    sustain)
        KILN_AB_SUSTAIN=${KILN_AB_SUSTAIN:-1.5} "$bin" "$M" "$N" "$K" \
            | tee -a "$RES/power_sustain.txt" ;;
    ncu)
        echo "== $c $e ${M}x${N}x${K}" | tee -a "$RES/power_ncu.txt"
        KILN_AB_ONCE=1 ncu --clock-control base -k regex:"gemm_kernel|nvjet|sm90" \
            --section SpeedOfLight --section LaunchStats \
            --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,lts__t_bytes.sum,dram__bytes.sum \
            "$bin" "$M" "$N" "$K" 2>&1 | tee -a "$RES/power_ncu.txt" \
            | grep -E "^  [a-z_]|gemm_kernel|nvjet|Duration|Elapsed Cycles|SM Frequency|inst_executed|bytes|Registers|Shared Memory Config|Grid Size|Cluster|ERROR|MISMATCH" ;;
    *) echo "unknown mode: $mode"; exit 2 ;;
    esac
done
