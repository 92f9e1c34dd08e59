#!/usr/bin/env bash
# Builds build-gemm/libkiln_gemm.so (src/gemm + device/kiln headers) with nvcc, one process per
# translation unit in parallel. Needs nvcc only (no GPU). Usage: bench/build_gemm.sh [outdir]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build-gemm}
mkdir -p "$OUT"
NVCC=${NVCC:-nvcc}
FLAGS=(-std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -Idevice -Iinclude
       -Xptxas -v)
pids=()
# Each sm90 unit is built once per operand order (KILN_SM90_MAJOR: 0 = A,B K-major, 1 = B
# MN-major, 2 = A MN-major, 3 = both), as <unit>_m<order>.o, so the 24 heavy units run in parallel.
SM90=(sm90_bf16_bf16 sm90_bf16_f16 sm90_bf16_f32 sm90_f16_bf16 sm90_f16_f16 sm90_f16_f32)
TUS=(gemm special generic)
for tu in "${SM90[@]}"; do for m in 0 1 2 3; do TUS+=("${tu}_m$m"); done; done
for tu in "${TUS[@]}"; do
    src=$tu; def=()
    if [[ $tu == *_m? ]]; then src=${tu%_m?}; def=(-DKILN_SM90_MAJOR=${tu: -1}); fi
    "$NVCC" "${FLAGS[@]}" "${def[@]}" -c "src/gemm/$src.cu" -o "$OUT/$tu.o" >"$OUT/$tu.ptxas.log" 2>&1 &
    pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
if [ $rc -ne 0 ]; then cat "$OUT"/*.ptxas.log | grep -v "^ptxas info" | head -50; exit 1; fi
objs=(); for tu in "${TUS[@]}"; do objs+=("$OUT/$tu.o"); done
"$NVCC" -shared -o "$OUT/libkiln_gemm.so" "${objs[@]}" -lcudart
if grep -h "spill" "$OUT"/*.ptxas.log | grep -qv " 0 bytes spill stores, 0 bytes spill loads"; then
    echo "build_gemm: local-memory spills:"; grep -h "spill" "$OUT"/*.ptxas.log | sort | uniq -c
fi
echo "build_gemm: $OUT/libkiln_gemm.so"
