#!/usr/bin/env bash
# Compile-only check of the GEMM/device library for sm_90a (no GPU needed): builds each variant
# translation unit with -Xptxas -v and fails on compile errors, on local-memory spills or stack
# frames in any kernel, and on ptxas warnings that setmaxnreg was ignored or wgmma serialized.
# Usage: tests/cuda/compile_check.sh [--all]   (default: one representative per variant family —
# 16-bit real (K-major and both MN-major), fp8, split complex (K-major bf16, MN-major f16), the
# bf16 element-wise chain (A/B transforms in shared memory), the host units, device-library
# tests, the compile-time layout and dispatch checks (gemm_*_check.cu), the kernel A/B harness
# (plain, and against cuBLASLt with bias + ReLU / GELU), the MUFU-rate bench, the SM placement
# and L2 merge probes, examples — a few minutes on 2 cores; --all builds every instantiation unit)
set -uo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tests/cuda/ptxas_verdict.sh
source tests/cuda/ptxas_verdict.sh
NVCC=${NVCC:-nvcc}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FLAGS=(-std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -Idevice -Iinclude
       -Xptxas -v)
# An entry FILE:M builds FILE with -DKILN_SM90_MAJOR=M (one operand order of the sm90 kernel:
# 0 = A, B K-major, 1 = B MN-major, 2 = A MN-major, 3 = both MN-major); FILE+D1,D2 builds it
# with -DD1 -DD2 (a harness variant).
AB_LT=bench/sm90_kernel_ab.cu+KILN_AB_CUBLAS,KILN_AB_BIAS_ACT,KILN_AB_EPISTAGE=8,KILN_AB_GELU
# Bias + ReLU: the held-tile kernel whose 16-bit pack applies the activation (cvt.rn.relu).
AB_RELU=bench/sm90_kernel_ab.cu+KILN_AB_CUBLAS,KILN_AB_BIAS_ACT,KILN_AB_EPISTAGE=8
if [ "${1:-}" = "--all" ]; then
    TUS=()
    # 16-bit real and split-complex units: one build per operand order; 8-bit ones: K-major only
    for f in src/gemm/sm90_{bf16,f16}_*.cu src/gemm/complex_sm90_*.cu; do
        for m in 0 1 2 3; do TUS+=("$f:$m"); done
    done
    TUS+=(src/gemm/sm90_e4m3_*.cu src/gemm/sm90_e5m2_*.cu src/gemm/chain_sm90_*.cu
          src/gemm/generic.cu src/gemm/special.cu src/gemm/gemm.cu src/gemm/scratch.cu
          src/gemm/occupancy.cu src/gemm/complex.cu tests/gpu/test_device_lib.cu
          tests/gpu/permute_check.cu tests/cuda/gemm_layout_check.cu
          tests/cuda/gemm_dispatch_check.cu bench/sm90_kernel_ab.cu "$AB_LT" bench/mufu_rate.cu
          "$AB_RELU" bench/sm_placement_probe.cu bench/l2_merge_probe.cu examples/gemm/*.cu)
else
    TUS=(src/gemm/sm90_bf16_bf16.cu:0 src/gemm/sm90_bf16_bf16.cu:3 src/gemm/sm90_e4m3_bf16.cu
         src/gemm/complex_sm90_bf16.cu:0 src/gemm/complex_sm90_f16.cu:3
         src/gemm/chain_sm90_bf16.cu src/gemm/generic.cu
         src/gemm/special.cu src/gemm/gemm.cu src/gemm/scratch.cu src/gemm/occupancy.cu
         src/gemm/complex.cu tests/gpu/test_device_lib.cu tests/gpu/permute_check.cu tests/cuda/gemm_layout_check.cu
         tests/cuda/gemm_dispatch_check.cu bench/sm90_kernel_ab.cu "$AB_LT" bench/mufu_rate.cu
         examples/gemm/custom_epilogue.cu examples/gemm/linear_bias_gelu.cu
         examples/gemm/gett_contract.cu examples/gemm/complex_planar.cu
         examples/gemm/elementwise_chain.cu "$AB_RELU" bench/sm_placement_probe.cu
         bench/l2_merge_probe.cu)
fi
fail=0
pids=()
for tu in "${TUS[@]}"; do
    log="$TMP/$(basename "$tu").log"
    src=${tu%%[:+]*}; def=()
    case "$tu" in
        *:*) def=(-DKILN_SM90_MAJOR=${tu##*:}) ;;
        *+*) IFS=, read -ra ds <<< "${tu##*+}"; for d in "${ds[@]}"; do def+=("-D$d"); done ;;
    esac
    ( "$NVCC" "${FLAGS[@]}" "${def[@]}" -c "$src" -o "$TMP/$(basename "$tu").o" >"$log" 2>&1 || echo COMPILE_FAILED >>"$log" ) &
    pids+=($!)
    # at most 2 concurrent compiles (CI boxes are small)
    if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
wait
for tu in "${TUS[@]}"; do
    log="$TMP/$(basename "$tu").log"
    verdict "$tu" "$log" || fail=1
done
exit $fail
