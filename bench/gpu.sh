#!/usr/bin/env bash
# One entry point on a fresh GPU machine. The GEMM library: build, SASS checks, device-library
# unit tests, the GETT operand copy (tests/gpu/permute_check.cu), GEMM correctness (float64
# reference), compute-sanitizer memcheck / racecheck / synccheck at small sizes, then the kiln-vs-cuBLAS ratio table. Then the compiler's generated
# kernels (bench/codegen_gpu.sh: correctness, sanitizers, ratios to cuBLAS and Triton with the
# issue's targets).
# Usage: bench/gpu.sh [--quick] [--only SECTIONS] [--part library|compiler|all]
# (results: $OUT or bench/results; SECTIONS: gemm_bench.py's, e.g. complex,fp8). The build goes to
# $KILN_GEMM_BUILD (default build-gemm); one made elsewhere by bench/build_gemm.sh (the library
# and lib.key suffice) is reused when its sources are unchanged.
set -uo pipefail
cd "$(dirname "$0")/.."
QUICK=""; ONLY=(); PART=all
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=--quick ;;
    --only) ONLY=(--only "$2"); shift ;;
    --part) PART=$2; shift ;;
    *) echo "usage: bench/gpu.sh [--quick] [--only SECTIONS] [--part library|compiler|all]"; exit 2 ;;
    esac
    shift
done
RES=${OUT:-bench/results}
mkdir -p "$RES"
if [ "$PART" = compiler ]; then exec bench/codegen_gpu.sh $QUICK; fi
B=${KILN_GEMM_BUILD:-build-gemm}
export PYTHONUNBUFFERED=1 KILN_GEMM_LIB=$B/libkiln_gemm.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv
t0=$(date +%s)
bench/build_gemm.sh "$B" || exit 1
key=$(cat tests/gpu/test_device_lib.cu tests/gpu/cuda_check.h device/kiln/*.cuh device/kiln/*.inc device/kiln/gemm/numeric.cuh | sha256sum)
if [ "$(cat "$B/test_device_lib.key" 2>/dev/null)" != "$key" ]; then
    nvcc -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Idevice tests/gpu/test_device_lib.cu \
        -o "$B/test_device_lib" || exit 1
    echo "$key" > "$B/test_device_lib.key"
fi
nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Idevice tests/gpu/permute_check.cu \
    -o "$B/permute_check" || exit 1
echo "build: $(( $(date +%s) - t0 )) s"
# Per kernel: tensor-core instructions (HGMMA: 16-bit, QGMMA: 8-bit) and local memory. One
# cuobjdump per object file, in parallel: over the whole library at once it ran past 5 minutes
# (sessions 13 and 15). A library built elsewhere (no objects here) is read whole.
sass=$(mktemp -d)
objs=("$B"/*.o)
if [ -e "${objs[0]}" ]; then
    printf '%s\n' "${objs[@]}" | timeout 300 xargs -P "$(nproc)" -I{} \
        sh -c 'cuobjdump -sass "$1" > "$2/$(basename "$1").sass"' _ {} "$sass"
else
    timeout 300 cuobjdump -sass "$B/libkiln_gemm.so" > "$sass/lib.sass"
fi
cat "$sass"/*.sass | awk '
    /Function :/ { fn = $3; n++ }
    /HGMMA/ { h[fn] = 1 } /QGMMA/ { q[fn] = 1 } /[^A-Z](LDL|STL)[ .]/ { l[fn] = 1 }
    END { for (f in h) nh++; for (f in q) nq++; for (f in l) { nl++; if (nl <= 3) ex = ex " " f }
          printf "SASS: %d kernels, %d with HGMMA, %d with QGMMA, %d with LDL/STL%s\n", n, nh, nq, nl, ex }'
rm -rf "$sass"
fail=0
timeout 60 "$B/test_device_lib" || fail=1
timeout 60 "$B/permute_check" || fail=1
timeout 300 python3 bench/gemm_check.py $QUICK > "$RES/gemm_check.log" 2>&1 || fail=1
grep -v "^PASS" "$RES/gemm_check.log"
# racecheck and synccheck too: the epilogue's staging buffers are shared between the TMA, the
# stores and the consumers' threads (the three took about 30 s together on an H100, session 7).
if [ -z "$QUICK" ]; then
    for tool in memcheck racecheck synccheck; do
        timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
            > "$RES/sanitizer_$tool.log" 2>&1 && echo "compute-sanitizer $tool: clean" \
            || { echo "compute-sanitizer $tool: FAILED"; tail -20 "$RES/sanitizer_$tool.log"; fail=1; }
    done
fi
timeout 400 python3 bench/gemm_bench.py $QUICK "${ONLY[@]}" --json "$RES/gemm_bench.json"
if [ "$PART" = all ]; then bench/codegen_gpu.sh $QUICK || fail=1; fi
exit $fail
