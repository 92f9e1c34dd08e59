#!/usr/bin/env bash
# Compile-only check of the CUDA the code generator emits (no GPU needed): `kiln compile
# --emit=cuda` for the GEMM family (GEMM, split-K GEMM, batched, dual, GEMM + row sum) and the
# attention examples at tile-multiple and ragged sizes,
# with the TMA-store epilogue (default) and direct stores, and GEMM in 2-CTA clusters, each built for sm_90a with
# -Xptxas -v; fails on generator or compile errors, local-memory spills, stack frames, and ptxas
# warnings that setmaxnreg was ignored or wgmma serialized.
# Usage: tests/cuda/codegen_check.sh KILN_BINARY
set -uo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tests/cuda/ptxas_verdict.sh
source tests/cuda/ptxas_verdict.sh
KILN=${1:?usage: codegen_check.sh KILN_BINARY}
NVCC=${NVCC:-nvcc}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FLAGS=(-std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -Idevice -Xptxas -v)
# name:example:size overrides (comma separated):kiln compile flags
CASES=(gemm:gemm: gemm_ragged:gemm:M=200,N=300,K=100 batched_gemm:batched_gemm: dual_gemm:dual_gemm:
       gemm_rowsum:gemm_rowsum: gemm_rowsum_ragged:gemm_rowsum:M=200,N=300,K=100
       gemm_direct:gemm:M=200,N=296,K=104:--epilogue=direct
       gemm_cluster:gemm:M=4096,N=4096,K=4096:--cluster=2 gemm_cluster_ragged:gemm:M=328,N=300,K=100:--cluster=2
       gemm_splitk:gemm_splitk:M=127,N=4096,K=4096 gemm_splitk_ragged:gemm_splitk:M=200,N=300,K=1000:--tunable=KC=256
       gemm_splitk_cluster:gemm_splitk:M=127,N=4096,K=4096:--cluster=2
       attention_d64:attention_d64: attention_d64_causal_ragged:attention_d64_causal:Z=3,N=1000
       attention_d128:attention_d128: attention_d128_causal:attention_d128_causal:
       attention_d64_bn64:attention_d64::--tunable=BN=64 attention_d128_f16:attention_d128::--dtype=bf16=f16)
fail=0
pids=()
for c in "${CASES[@]}"; do
    IFS=: read -r name example sizes flags <<<"$c"
    args=()
    for s in ${sizes//,/ }; do args+=(--size "$s"); done
    log="$TMP/$name.log"
    # shellcheck disable=SC2086  # flags are words
    ( "$KILN" compile "examples/$example.kiln" "${args[@]}" --emit=cuda $flags -o "$TMP/$name.cu" >"$log" 2>&1 &&
      "$NVCC" "${FLAGS[@]}" -c "$TMP/$name.cu" -o "$TMP/$name.o" >>"$log" 2>&1 ||
      echo COMPILE_FAILED >>"$log" ) &
    pids+=($!)
    if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
wait
for c in "${CASES[@]}"; do
    name=${c%%:*}
    log="$TMP/$name.log"
    verdict "$name" "$log" || fail=1
done
exit $fail
