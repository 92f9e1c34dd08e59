#!/usr/bin/env bash
# On a GPU machine: builds tests/gpu/codegen_gemm.cu against every generated GEMM DIR/*.cu (from
# `kiln compile examples/gemm.kiln --size ... --emit=cuda -o DIR/NAME.cu`, or batched_gemm.kiln;
# the sizes are read from the generated header), runs each (correctness vs float64, speed vs cuBLAS), runs
# compute-sanitizer memcheck and synccheck on DIR/*small*.cu, and writes OUT_DIR/codegen_gemm.json
# (a list of the per-shape objects) and OUT_DIR/codegen_gemm.log.
# Usage: tests/gpu/codegen_gemm.sh DIR OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
DIR=$1; OUT_DIR=$2
mkdir -p "$OUT_DIR" /tmp/codegen_gemm
LOG="$OUT_DIR/codegen_gemm.log"
size() { sed -n '1s/.*sizes \(.*\)).*/\1/p' "$1" | tr ',' '\n' | sed -n "s/^ *$2 = \([0-9]*\)$/\1/p"; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
build() {  # NAME FILE [extra flags]: without cuBLAS when it cannot be linked
    local n=$1 f=$2
    shift 2
    nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Idevice \
        -DKILN_GENERATED="\"$PWD/$f\"" -DKILN_M=$(size "$f" M) -DKILN_N=$(size "$f" N) \
        -DKILN_K=$(size "$f" K) $(grep -q "event program 'batched_gemm'" "$f" && echo -DKILN_Z=$(size "$f" Z)) \
        tests/gpu/codegen_gemm.cu "$@" -o "/tmp/codegen_gemm/$n"
}
for f in "$DIR"/*.cu; do
    n=$(basename "$f" .cu)
    ( build "$n" "$f" -lcublas || build "$n" "$f" -DKILN_NO_CUBLAS ||
      echo "BUILD FAILED: $n" ) >"/tmp/codegen_gemm/$n.build" 2>&1 &
done
wait
cat /tmp/codegen_gemm/*.build >"$LOG"
fail=0
echo "[" >"$OUT_DIR/codegen_gemm.json"
first=1
for f in "$DIR"/*.cu; do
    n=$(basename "$f" .cu)
    [ -x "/tmp/codegen_gemm/$n" ] || { fail=1; continue; }
    timeout 120 "/tmp/codegen_gemm/$n" "/tmp/codegen_gemm/$n.json" 2>&1 | tee -a "$LOG" || fail=1
    if [ -s "/tmp/codegen_gemm/$n.json" ]; then
        [ $first = 1 ] || echo "," >>"$OUT_DIR/codegen_gemm.json"
        sed "s/^{/{\"case\": \"$n\", /" "/tmp/codegen_gemm/$n.json" | tr -d '\n' >>"$OUT_DIR/codegen_gemm.json"
        first=0
    fi
done
echo "]" >>"$OUT_DIR/codegen_gemm.json"
for f in "$DIR"/*small*.cu; do
    small=$(basename "$f" .cu)
    for tool in memcheck synccheck; do
        echo "== compute-sanitizer --tool $tool $small" | tee -a "$LOG"
        KILN_ITERS=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 "/tmp/codegen_gemm/$small" \
            /tmp/codegen_gemm/san.json 2>&1 | tail -3 | tee -a "$LOG" || fail=1
    done
done
exit $fail
