#!/usr/bin/env bash
# `kiln run --gpu` on a GPU machine: the generated GEMM, batched GEMM, dual GEMM (SwiGLU) and
# GEMM + row sum (two kernels), split-K GEMM (three kernels and a workspace) at small, ragged and
# large sizes, both epilogues, GEMM, row sum and split-K in 2-CTA clusters, each run twice
# — the first compiles with NVRTC into a fresh kernel cache, the second must hit it — every run
# checked against the float64 reference on fresh random data and timed (median of CUDA-event-timed launches). Then: a shape the TMA
# cannot describe (row stride not a multiple of 16 bytes) must be refused with a message, a
# truncated cache entry must be reported and recompiled, and compute-sanitizer memcheck must
# find nothing in a ragged run. Exits non-zero when anything differs from that.
#
# Usage (repo root): tests/gpu/runtime_gpu.sh [KILN_DIR]
#   KILN_DIR: bin/kiln + lib/ from tests/gpu/pack_kiln.sh (built elsewhere and carried);
#   without it kiln is built here into build-gpu/ (needs scripts/setup.sh's Debian packages).
# The log goes to stdout and to $OUT/runtime_gpu.txt (or build-gpu/runtime_gpu.txt).
set -uo pipefail
KILN_DIR=${1:+$(cd "$1" && pwd)}
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
if [[ -n $KILN_DIR ]]; then
    KILN=$KILN_DIR/bin/kiln
    export LD_LIBRARY_PATH=$KILN_DIR/lib:$LD_LIBRARY_PATH
else
    cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null &&
        ninja -C build-gpu kiln >/dev/null ||
        { echo "cannot build kiln here (scripts/setup.sh's packages missing?): pack one with" \
               "tests/gpu/pack_kiln.sh and pass its folder"; exit 2; }
    KILN=build-gpu/tools/kiln/kiln
fi
LOG=${OUT:-build-gpu}/runtime_gpu.txt
mkdir -p "$(dirname "$LOG")"
exec > >(tee "$LOG") 2>&1
export KILN_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "kiln cache: $KILN_CACHE_DIR (empty)"
fail=0

# run EXPECTED_EXIT "text the output must hold" ARGS... : one `kiln` command, shown and checked.
run() {
    local want_rc=$1 want=$2
    shift 2
    echo "\$ kiln $*"
    local out rc
    out=$("$KILN" "$@" 2>&1)
    rc=$?
    echo "$out"
    if [[ $rc -ne $want_rc || "$out" != *"$want"* ]]; then
        echo "^^^ UNEXPECTED: exit $rc (want $want_rc), want output holding: $want"
        fail=1
    fi
}

# twice EXAMPLE [kiln run options]: a miss that compiles, then a hit; both PASS their reference
# (the hit of a 4096-sized problem skips the check: same data, same cubin, and the CPU reference
# is the slow part there).
twice() {
    local example=$1
    shift
    local again=()
    [[ "$*" == *4096* ]] && again=(--no-check)
    run 0 "kernel cache: miss" run "examples/$example.kiln" --gpu "$@"
    run 0 "kernel cache: hit" run "examples/$example.kiln" --gpu "$@" "${again[@]}"
}
big=(--size M=4096 --size N=4096 --size K=4096)

twice gemm
twice gemm --size M=200 --size N=312 --size K=104
twice gemm "${big[@]}"
twice gemm "${big[@]}" --epilogue tma
twice batched_gemm
twice batched_gemm --size Z=8 --size M=1024 --size N=1024 --size K=1024
twice dual_gemm
twice dual_gemm "${big[@]}"
twice dual_gemm "${big[@]}" --epilogue tma
twice gemm_rowsum
twice gemm_rowsum "${big[@]}"
# 2-CTA clusters through cuLaunchKernelEx: 328 rows leave the last pair's second tile past the end.
twice gemm --size M=328 --size N=312 --size K=104 --cluster 2 --epilogue tma
twice gemm "${big[@]}" --cluster 2 --epilogue tma
twice gemm_rowsum --size M=328 --size N=312 --size K=104 --cluster 2
# Split-K: a workspace the runtime allocates (poisoned), zeroed by the first kernel, partial tiles
# added with red.global.add by the second, converted by the third; K=4104 makes 3 chunks, the
# last one ragged; in clusters the column-adjacent pair multicasts A by rows.
twice gemm_splitk --size K=4104
twice gemm_splitk --size M=127 --size N=4096 --size K=4096 --cluster 2

# K=100 bf16 rows are 200 bytes: the TMA cannot stride them; refused, not run wrong.
run 1 "not a multiple of 16 as the TMA requires" run examples/gemm.kiln --gpu \
    --size M=200 --size N=300 --size K=100

# A truncated entry (in a cache of its own) is reported, removed and compiled again.
export KILN_CACHE_DIR=$(mktemp -d)
run 0 "kernel cache: miss" run examples/gemm.kiln --gpu --iters 0
truncate -s 1000 "$KILN_CACHE_DIR"/gemm-*/kernel.cubin
run 0 "is corrupt (kernel.cubin is not a cubin" run examples/gemm.kiln --gpu --iters 0
run 0 "kernel cache: hit" run examples/gemm.kiln --gpu --iters 0

echo "\$ compute-sanitizer --tool memcheck kiln run examples/gemm.kiln --gpu --size M=200 --size N=312 --size K=104 --iters 1 --warmup 0"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$KILN" run examples/gemm.kiln \
    --gpu --size M=200 --size N=312 --size K=104 --iters 1 --warmup 0 2>&1 | tail -4
[[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "^^^ UNEXPECTED: memcheck failed"; fail=1; }

echo "\$ compute-sanitizer --tool memcheck kiln run examples/gemm_splitk.kiln --gpu --size M=200 --size N=312 --size K=1000 --tunable KC=256 --iters 1 --warmup 0"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$KILN" run examples/gemm_splitk.kiln \
    --gpu --size M=200 --size N=312 --size K=1000 --tunable KC=256 --iters 1 --warmup 0 2>&1 | tail -4
[[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "^^^ UNEXPECTED: memcheck failed"; fail=1; }

echo "runtime_gpu: $([[ $fail == 0 ]] && echo ALL OK || echo FAILURES)"
exit $fail
