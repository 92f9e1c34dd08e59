#!/usr/bin/env bash
# One entry point for the GEMM library on a fresh GPU machine: build, SASS checks, device-library
# unit tests, GEMM correctness (float64 reference), compute-sanitizer at small sizes, then the
# kiln-vs-cuBLAS ratio table. Usage: bench/gpu.sh [--quick]   (results: $OUT or bench/results)
set -uo pipefail
cd "$(dirname "$0")/.."
QUICK=${1:-}
RES=${OUT:-bench/results}
mkdir -p "$RES"
export PYTHONUNBUFFERED=1 KILN_GEMM_LIB=build-gemm/libkiln_gemm.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv
t0=$(date +%s)
bench/build_gemm.sh build-gemm || exit 1
nvcc -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Idevice tests/gpu/test_device_lib.cu \
    -o build-gemm/test_device_lib || exit 1
echo "build: $(( $(date +%s) - t0 )) s"
for o in sm90_bf16_bf16_m0 sm90_bf16_bf16_m3 sm90_f16_f32_m0; do
    cuobjdump -sass build-gemm/$o.o > build-gemm/$o.sass
    echo "SASS $o: HGMMA=$(grep -c HGMMA build-gemm/$o.sass) LDL/STL=$(grep -cE '\b(LDL|STL)\b' build-gemm/$o.sass)"
done
fail=0
timeout 60 build-gemm/test_device_lib || fail=1
timeout 300 python3 bench/gemm_check.py $QUICK > "$RES/gemm_check.log" 2>&1 || fail=1
grep -v "^PASS" "$RES/gemm_check.log"
if [ -z "$QUICK" ]; then
    timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 python3 tests/gpu/gemm_small.py \
        > "$RES/sanitizer.log" 2>&1 && echo "compute-sanitizer memcheck: clean" \
        || { echo "compute-sanitizer memcheck: FAILED"; tail -20 "$RES/sanitizer.log"; fail=1; }
fi
timeout 400 python3 bench/gemm_bench.py $QUICK --json "$RES/gemm_bench.json"
exit $fail
