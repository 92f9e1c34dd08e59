#!/usr/bin/env bash
# The device runs behind the deferred store (kernel_sm90.cuh, store_deferred.cuh), each well
# inside one 10-minute device command:
#   bench/defer_store_gpu.sh ab [SHAPES]
#                                     builds bench/sm90_kernel_ab.cu without (d0,
#                                     -DKILN_SM90_DEFER_STORE=0) and with (d1, the default) the
#                                     deferred store for the plain, bias + ReLU and bias + GELU
#                                     epilogues, unpaired (c1) and in 2-CTA clusters (c2), unless
#                                     build-ab holds them for the same sources, then times them
#                                     ABAB against cuBLAS / cuBLASLt (bench/ab_pairs.sh, REPEATS
#                                     rounds, default 3) on SHAPES ("cM,N,K ...", default the
#                                     six below: about 9 minutes at 3 rounds; split them over two
#                                     calls). All three epilogues hold tiles (holds_tiles:
#                                     copy, bias + GELU, bias + ReLU since session 17), so each
#                                     differs between d0 and d1.
#   bench/defer_store_gpu.sh library [STEPS]
#                                     builds the library (build-gemm, about 6 minutes on 16
#                                     cores; up to date on a second call to a warm machine), then
#                                     runs STEPS (default "check sanitize bench"; two calls fit
#                                     the 10 minutes: "check", then "sanitize bench"): check,
#                                     gemm_check.py (float64 references, ragged and tile-multiple
#                                     sizes); sanitize, compute-sanitizer memcheck / racecheck /
#                                     synccheck on tests/gpu/gemm_small.py; bench, gemm_bench.py's
#                                     gemm rows
# Results go to $OUT (or bench/results), named with TAG (default s15: session 15, bench/NOTES.md
# "v19"; session 16 ran it with TAG=s16, "v20").
set -uo pipefail
cd "$(dirname "$0")/.."
RES=${OUT:-bench/results}
TAG=${TAG:-s15}
mkdir -p "$RES"
export PYTHONUNBUFFERED=1
case ${1:-} in
ab)
    shapes=${2:-"c1,2048,2048,2048 c2,4096,4096,4096 c2,8192,4096,4096 c2,8192,8192,8192 c2,8192,12288,4096 c2,8192,4096,11008"}
    mkdir -p build-ab
    key=$(cat bench/sm90_kernel_ab.cu bench/clock_sampler.h bench/ab_build.sh \
          tests/gpu/cuda_check.h $(find device include -type f | sort) | sha256sum)
    # shellcheck source=bench/ab_build.sh
    source bench/ab_build.sh
    # One label's three epilogues at one cluster size: c<C>_{copy,relu,gelu}_<LABEL>.
    build_label() {  # label, cluster, defines...
        for e in copy relu gelu; do
            ab_build "build-ab/c$2_${e}_$1" $e -DKILN_AB_CLUSTER="$2" "${@:3}" &
        done
    }
    build_all() {
        rm -f build-ab/key build-ab/failed build-ab/c?_*_*
        for c in 1 2; do
            build_label d0 $c -DKILN_SM90_DEFER_STORE=0
            build_label d1 $c
        done
        wait
        [ -e build-ab/failed ] || echo "$key" > build-ab/key
    }
    t0=$(date +%s)
    [ "$(cat build-ab/key 2>/dev/null)" = "$key" ] || build_all
    echo "build: $(( $(date +%s) - t0 )) s"
    bash bench/ab_pairs.sh build-ab "d0 d1" "copy relu gelu" "$shapes" "${REPEATS:-3}" 2>&1 \
        | tee -a "$RES/sm90_kernel_ab_$TAG.txt" | grep -E "MISMATCH|library/peer" \
        | awk '{print $1, $2, $5, $6, $(NF-2), $(NF-1), $NF}'
    ;;
library)
    B=build-gemm
    export KILN_GEMM_LIB=$B/libkiln_gemm.so
    bench/build_gemm.sh "$B" || exit 1
    fail=0
    for step in ${2:-check sanitize bench}; do
        case $step in
        check)
            log=$RES/gemm_check_$TAG.txt
            timeout 300 python3 bench/gemm_check.py > "$log" 2>&1 || fail=1
            grep -v "^PASS" "$log"; grep -c "^PASS" "$log" ;;
        sanitize)
            for tool in memcheck racecheck synccheck; do
                timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 \
                    python3 tests/gpu/gemm_small.py > "$RES/sanitizer_${TAG}_$tool.txt" 2>&1 \
                    && echo "compute-sanitizer $tool: clean" \
                    || { echo "compute-sanitizer $tool: FAILED"
                         tail -20 "$RES/sanitizer_${TAG}_$tool.txt"; fail=1; }
            done ;;
        bench)
            timeout 300 python3 bench/gemm_bench.py --only gemm > "$RES/gemm_bench_${TAG}_gemm.txt" \
                2>&1 || fail=1
            tail -25 "$RES/gemm_bench_${TAG}_gemm.txt" ;;
        *) echo "unknown step: $step"; fail=1 ;;
        esac
    done
    exit $fail
    ;;
*)
    echo "usage: bench/defer_store_gpu.sh ab|library"; exit 2 ;;
esac
