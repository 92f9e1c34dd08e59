#!/usr/bin/env bash
# Builds build-gemm/libkiln_gemm.so (src/gemm + device/kiln headers) with nvcc, one process per
# translation unit in parallel. Needs nvcc only (no GPU). Usage: bench/build_gemm.sh [outdir]
# Incremental: a unit is rebuilt only when its key (its source, the headers, flags) changed, so a
# build directory made here and carried to a GPU machine is reused there as is.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build-gemm}
mkdir -p "$OUT"
NVCC=${NVCC:-nvcc}
# KILN_GEMM_NVCC_FLAGS: extra flags for every unit (part of each unit's key), e.g.
# -DKILN_SM90_DEFER_STORE=0 for a library without the deferred store (kernel_sm90.cuh).
FLAGS=(-std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -Idevice -Iinclude
       -Xptxas -v ${KILN_GEMM_NVCC_FLAGS:-})
# Each sm90 unit is built once per operand order (KILN_SM90_MAJOR: 0 = A,B K-major, 1 = B
# MN-major, 2 = A MN-major, 3 = both), as <unit>_m<order>.o, so the heavy units run in parallel.
# 8-bit units take K-major operands only: built once.
SM90=(sm90_bf16_bf16 sm90_bf16_f16 sm90_bf16_f32 sm90_f16_bf16 sm90_f16_f16 sm90_f16_f32
      complex_sm90_bf16 complex_sm90_f16)
TUS=(gemm scratch occupancy special generic complex chain_sm90_bf16 chain_sm90_f16 sm90_e4m3_bf16 sm90_e4m3_f16
     sm90_e4m3_f32 sm90_e5m2_bf16 sm90_e5m2_f16 sm90_e5m2_f32)
for tu in "${SM90[@]}"; do for m in 0 1 2 3; do TUS+=("${tu}_m$m"); done; done
# Headers every unit may see; src/gemm/*.cuh count only for the units that include them.
headers=$(cat $(find device/kiln include/kiln src/gemm -name '*.h' -o -name '*.inc' -o -name '*.cuh' \
                | grep -v '^src/gemm/.*\.cuh$' | sort) | sha256sum | cut -c1-64)
unit_key() {  # the unit's source, its -D, its own src/gemm headers, the headers and the flags
    local src=$1 def=${2:-}
    local own=$(grep -o '#include "[a-z0-9_]*\.cuh"' "src/gemm/$src.cu" | cut -d'"' -f2 | sed 's|^|src/gemm/|')
    echo "$headers ${FLAGS[*]} $def $(cat "src/gemm/$src.cu" $own | sha256sum)" | sha256sum | cut -c1-64
}
split_unit() {  # <unit>_m<order> -> source name and -D
    if [[ $1 == *_m? ]]; then echo "${1%_m?} -DKILN_SM90_MAJOR=${1: -1}"; else echo "$1"; fi
}
lib_key=$(for tu in "${TUS[@]}"; do unit_key $(split_unit "$tu"); done | sha256sum | cut -c1-64)
# The library alone (no objects) is enough when every unit is unchanged: what travels to a GPU.
if [ -f "$OUT/libkiln_gemm.so" ] && [ "$(cat "$OUT/lib.key" 2>/dev/null)" = "$lib_key" ]; then
    echo "build_gemm: $OUT/libkiln_gemm.so (up to date)"; exit 0
fi
running=0; built=0; rc=0
JOBS=${JOBS:-$(nproc)}
for tu in "${TUS[@]}"; do
    read -r src def < <(split_unit "$tu")
    def=(${def:-})
    key=$(unit_key "$src" "${def[*]:-}")
    if [ -f "$OUT/$tu.o" ] && [ "$(cat "$OUT/$tu.key" 2>/dev/null)" = "$key" ]; then continue; fi
    rm -f "$OUT/$tu.key"
    ( "$NVCC" "${FLAGS[@]}" "${def[@]}" -c "src/gemm/$src.cu" -o "$OUT/$tu.o" >"$OUT/$tu.ptxas.log" 2>&1 \
      && echo "$key" > "$OUT/$tu.key" ) &
    built=$((built + 1))
    # at most JOBS compiles at a time (default: one per core)
    running=$((running + 1))
    if [ $running -ge "$JOBS" ]; then wait -n || rc=1; running=$((running - 1)); fi
done
while [ $running -gt 0 ]; do wait -n || rc=1; running=$((running - 1)); done
if [ $rc -ne 0 ]; then cat "$OUT"/*.ptxas.log | grep -v "^ptxas info" | head -50; exit 1; fi
objs=(); for tu in "${TUS[@]}"; do objs+=("$OUT/$tu.o"); done
"$NVCC" -shared -o "$OUT/libkiln_gemm.so" "${objs[@]}" -lcudart
echo "$lib_key" > "$OUT/lib.key"
# (grep -c, not -q: under pipefail an early exit of the second grep failed the pipeline)
spilling=$(grep -h "spill" "$OUT"/*.ptxas.log | grep -cv " 0 bytes spill stores, 0 bytes spill loads" || true)
if [ "$spilling" -gt 0 ]; then
    echo "build_gemm: local-memory spills:"; grep -h "spill" "$OUT"/*.ptxas.log | sort | uniq -c
fi
echo "build_gemm: $OUT/libkiln_gemm.so ($built of ${#TUS[@]} units rebuilt)"
