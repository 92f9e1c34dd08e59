#!/usr/bin/env bash
# The device run that decides whether the deferred store (kernel_sm90.cuh, store_deferred.cuh)
# becomes the sm90 kernel's default. Two parts, each well inside one 10-minute device command:
#   bench/defer_store_gpu.sh ab [SHAPES]
#                                     builds bench/sm90_kernel_ab.cu without (d0) and with (d1)
#                                     the deferred store for the plain, bias + ReLU and bias + GELU
#                                     epilogues, unpaired (c1) and in 2-CTA clusters (c2), unless
#                                     build-ab holds them for the same sources, then times them
#                                     ABAB against cuBLAS / cuBLASLt (bench/ab_pairs.sh) on SHAPES
#                                     ("cM,N,K ...", default the six below; split them over two
#                                     calls if one would run past its 10 minutes). AB_LABELS
#                                     picks the builds compared (default "d0 d1"). For one-wave
#                                     shapes such as 2048^3, where 128 x 256 tiles leave each CTA
#                                     one tile and so nothing to defer under: n128, the deferred
#                                     store on 128 x 128 tiles (c1 only), and r, the last tile
#                                     through the ring (KILN_SM90_RING_LAST, no deferral), e.g.
#                                     AB_LABELS="d0 r n128" ... ab c1,2048,2048,2048
#   bench/defer_store_gpu.sh library  builds the library with it (build-gemm-defer), then
#                                     gemm_check.py (float64 references, ragged and tile-multiple
#                                     sizes), compute-sanitizer memcheck / racecheck / synccheck on
#                                     tests/gpu/gemm_small.py, and gemm_bench.py's gemm rows
# Results go to $OUT (or bench/results). Prediction (bench/NOTES.md "v19"): the store rounds'
# share of the epilogue, 1-3% on the plain and bias + ReLU rows, less on bias + GELU, whose SFU
# work stays ahead of the next tile.
set -uo pipefail
cd "$(dirname "$0")/.."
RES=${OUT:-bench/results}
mkdir -p "$RES"
export PYTHONUNBUFFERED=1
case ${1:-} in
ab)
    shapes=${2:-"c1,2048,2048,2048 c2,4096,4096,4096 c2,8192,4096,4096 c2,8192,8192,8192 c2,8192,12288,4096 c2,8192,4096,11008"}
    mkdir -p build-ab
    key=$(cat bench/sm90_kernel_ab.cu tests/gpu/cuda_check.h $(find device include -type f | sort) \
          | sha256sum)
    build() {  # name, defines...
        nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Idevice \
            -DKILN_AB_CUBLAS "${@:2}" bench/sm90_kernel_ab.cu -o "build-ab/$1" -ldl -lcublas \
            -lcublasLt || { echo "build failed: $1"; touch build-ab/failed; }
    }
    # One label's three epilogues at one cluster size: c<C>_{copy,relu,gelu}_<LABEL>.
    build_label() {  # label, cluster, defines...
        local name=$1 c=$2 def=(-DKILN_AB_CLUSTER=$2 "${@:3}")
        build "c${c}_copy_$name" "${def[@]}" &
        build "c${c}_relu_$name" "${def[@]}" -DKILN_AB_BIAS_ACT -DKILN_AB_EPISTAGE=1 &
        build "c${c}_gelu_$name" "${def[@]}" -DKILN_AB_BIAS_ACT -DKILN_AB_EPISTAGE=1 \
            -DKILN_AB_GELU &
    }
    build_all() {
        rm -f build-ab/key build-ab/failed build-ab/c?_*_*
        for c in 1 2; do
            build_label d0 $c -DKILN_SM90_DEFER_STORE=0
            build_label d1 $c -DKILN_SM90_DEFER_STORE=1
            build_label r $c -DKILN_SM90_RING_LAST=1
        done
        build_label n128 1 -DKILN_SM90_DEFER_STORE=1 -DKILN_AB_BN=128
        wait
        [ -e build-ab/failed ] || echo "$key" > build-ab/key
    }
    t0=$(date +%s)
    [ "$(cat build-ab/key 2>/dev/null)" = "$key" ] || build_all
    echo "build: $(( $(date +%s) - t0 )) s"
    bash bench/ab_pairs.sh build-ab "${AB_LABELS:-d0 d1}" "copy relu gelu" "$shapes" 2 2>&1 \
        | tee -a "$RES/sm90_kernel_ab_defer.txt" | grep -E "MISMATCH|library/peer" \
        | awk '{print $1, $2, $5, $6, $(NF-2), $(NF-1), $NF}'
    ;;
library)
    B=build-gemm-defer
    export KILN_GEMM_LIB=$B/libkiln_gemm.so
    KILN_GEMM_NVCC_FLAGS=-DKILN_SM90_DEFER_STORE=1 bench/build_gemm.sh "$B" || exit 1
    fail=0
    timeout 300 python3 bench/gemm_check.py > "$RES/gemm_check_defer.txt" 2>&1 || fail=1
    grep -v "^PASS" "$RES/gemm_check_defer.txt"; grep -c "^PASS" "$RES/gemm_check_defer.txt"
    for tool in memcheck racecheck synccheck; do
        timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
            > "$RES/sanitizer_defer_$tool.txt" 2>&1 && echo "compute-sanitizer $tool: clean" \
            || { echo "compute-sanitizer $tool: FAILED"; tail -20 "$RES/sanitizer_defer_$tool.txt"; fail=1; }
    done
    timeout 300 python3 bench/gemm_bench.py --only gemm > "$RES/gemm_bench_defer_gemm.txt" 2>&1 \
        || fail=1
    tail -25 "$RES/gemm_bench_defer_gemm.txt"
    exit $fail
    ;;
*)
    echo "usage: bench/defer_store_gpu.sh ab|library"; exit 2 ;;
esac
