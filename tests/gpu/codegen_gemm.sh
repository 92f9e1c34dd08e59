#!/usr/bin/env bash
# On a GPU machine: builds tests/gpu/codegen_gemm.cu against every generated GEMM-family kernel
# DIR/*.cu (from `kiln compile examples/{gemm,gemm_splitk,batched_gemm,gemm_rowsum,dual_gemm}.kiln --size ...
# --emit=cuda -o DIR/NAME.cu`; the program and sizes are read from the generated header), runs
# each (correctness vs float64, speed vs its cuBLAS peers), runs
# compute-sanitizer memcheck, racecheck and synccheck on DIR/*small*.cu, and writes OUT_DIR/codegen_gemm.json
# (a list of the per-shape objects) and OUT_DIR/codegen_gemm.log.
# Binaries go to BIN_DIR (default /tmp/codegen_gemm); one already there and newer than its .cu
# and the harness is used as is, so they can be built on a machine without a GPU (--build-only) and carried.
# Usage: tests/gpu/codegen_gemm.sh DIR OUT_DIR [BIN_DIR]
#        tests/gpu/codegen_gemm.sh --build-only DIR BIN_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD_ONLY=
if [ "${1:-}" = --build-only ]; then BUILD_ONLY=1; shift; set -- "$1" /dev/null "$2"; fi
DIR=$1; OUT_DIR=$2; BIN=${3:-/tmp/codegen_gemm}
mkdir -p "$BIN"
LOG="$OUT_DIR/codegen_gemm.log"
size() { sed -n '1s/.*sizes \(.*\)).*/\1/p' "$1" | tr ',' '\n' | sed -n "s/^ *$2 = \([0-9]*\)$/\1/p"; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
kind_flags() {  # the harness's mode for the generated program
    grep -q "wgmma::DType::F16" "$1" && echo -DKILN_F16
    case $(sed -n "1s/.*event program '\([a-z_]*\)'.*/\1/p" "$1") in
    batched_gemm) echo "-DKILN_Z=$(size "$1" Z)" ;;
    gemm_rowsum) echo -DKILN_ROWSUM ;;
    gemm_splitk) echo -DKILN_SPLITK ;;
    dual_gemm) echo -DKILN_DUAL ;;
    esac
}
build() {  # NAME FILE
    nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -cudart shared -Idevice \
        -DKILN_GENERATED="\"$PWD/$2\"" -DKILN_M=$(size "$2" M) -DKILN_N=$(size "$2" N) \
        -DKILN_K=$(size "$2" K) $(kind_flags "$2") tests/gpu/codegen_gemm.cu -lcublas \
        -o "$BIN/$1"
}
jobs=0
PARALLEL=$(( $(nproc) > 12 ? 12 : $(nproc) ))
for f in "$DIR"/*.cu; do
    n=$(basename "$f" .cu)
    [ "$BIN/$n" -nt "$f" ] && [ "$BIN/$n" -nt tests/gpu/codegen_gemm.cu ] && continue
    ( build "$n" "$f" || echo "BUILD FAILED: $n" ) >"$BIN/$n.build" 2>&1 &
    jobs=$((jobs + 1))
    [ $((jobs % PARALLEL)) = 0 ] && wait
done
wait
if [ -n "$BUILD_ONLY" ]; then cat "$BIN"/*.build 2>/dev/null | grep -A3 "FAILED\|error"; exit 0; fi
mkdir -p "$OUT_DIR"
cat "$BIN"/*.build >"$LOG" 2>/dev/null
fail=0
echo "[" >"$OUT_DIR/codegen_gemm.json"
first=1
for f in "$DIR"/*.cu; do
    n=$(basename "$f" .cu)
    [ -x "$BIN/$n" ] || { fail=1; continue; }
    timeout 120 "$BIN/$n" "$BIN/$n.json" 2>&1 | tee -a "$LOG" || fail=1
    if [ -s "$BIN/$n.json" ]; then
        [ $first = 1 ] || echo "," >>"$OUT_DIR/codegen_gemm.json"
        sed "s/^{/{\"case\": \"$n\", /" "$BIN/$n.json" | tr -d '\n' >>"$OUT_DIR/codegen_gemm.json"
        first=0
    fi
done
echo "]" >>"$OUT_DIR/codegen_gemm.json"
# KILN_SANITIZE: which cases run under compute-sanitizer (a glob; default every *small* case).
for f in "$DIR"/${KILN_SANITIZE:-*small*}.cu; do
    small=$(basename "$f" .cu)
    for tool in memcheck racecheck synccheck; do
        echo "== compute-sanitizer --tool $tool $small" | tee -a "$LOG"
        KILN_ITERS=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/$small" \
            $BIN/san.json 2>&1 | tail -3 | tee -a "$LOG" || fail=1
    done
done
exit $fail
