#!/usr/bin/env bash
# The compiler's generated GEMM-family kernels on a GPU machine: generate (kiln compile
# --emit=cuda for bench/codegen_cases.txt), build the harness per case, check every case against
# float64, compute-sanitizer the *_small ones, time each side by side with its cuBLAS peers and
# Triton (bench/triton_peers.py), and print the ratio table with the issue's targets.
# Then the attention examples (tests/gpu/attention_gpu.sh, then bench/attention_bench.py against
# SDPA, with the kiln packed in build-cg/kiln).
# Usage: bench/codegen_gpu.sh [--quick]   (results in $OUT or bench/results)
#        bench/codegen_gpu.sh --prepare [--quick]   (on a build machine, no GPU needed)
# kiln needs Debian dev packages (Z3, CBC, fmt, CLI11, nlohmann-json) that the lent GPU image
# lacks, and it has no network: --prepare makes the generated sources (build-cg/cu) and the
# harness binaries (build-cg/bin) here, to be carried to the GPU machine (the device tool's
# `carry: ["build-cg"]`). Without build-cg, kiln is built on the GPU machine if it can be.
set -uo pipefail
cd "$(dirname "$0")/.."
PREPARE=
[ "${1:-}" = --prepare ] && { PREPARE=1; shift; }
QUICK=${1:-}
RES=${OUT:-bench/results}
mkdir -p "$RES" build-cg
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
if [ -n "$PREPARE" ] || [ ! -d build-cg/cu ]; then
    B=${KILN_BUILD:-build}
    [ -x "$B/tools/kiln/kiln" ] || { cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null &&
        ninja -C "$B" kiln >/dev/null; } ||
        { echo "kiln cannot be built here (scripts/setup.sh's packages missing?): run" \
               "bench/codegen_gpu.sh --prepare on a build machine and carry build-cg"; exit 2; }
    bench/codegen_generate.sh "$B/tools/kiln/kiln" build-cg/cu $QUICK || exit 1
fi
if [ -n "$PREPARE" ]; then
    # kiln itself too, for the attention examples (`kiln run --gpu` generates and JITs them)
    bash tests/gpu/pack_kiln.sh "${KILN_BUILD:-build}/tools/kiln/kiln" build-cg/kiln >/dev/null || exit 1
    exec bash tests/gpu/codegen_gemm.sh --build-only build-cg/cu build-cg/bin
fi
cases=()
for f in build-cg/cu/*.cu; do cases+=("$(basename "$f" .cu)"); done
fail=0
bash tests/gpu/codegen_gemm.sh build-cg/cu "$RES" build-cg/bin || fail=1
triton_args=()
for n in "${cases[@]}"; do
    read -r _ example sizes flags < <(grep "^$n " bench/codegen_cases.txt)
    # Direct-store twins, other mappings and f16 twins: Triton's bf16 peer is timed once per shape.
    [ -n "$flags" ] && continue
    declare -A s=()
    for kv in ${sizes//,/ }; do s[${kv%%=*}]=${kv#*=}; done
    case $example in
    gemm) triton_args+=(--case "gemm:${s[M]},${s[N]},${s[K]}") ;;
    dual_gemm) triton_args+=(--case "dual:${s[M]},${s[N]},${s[K]}") ;;
    gemm_rowsum) triton_args+=(--case "rowsum:${s[M]},${s[N]},${s[K]}") ;;
    esac
    unset s
done
triton_json=
if [ -f bench/triton_peers.py ] && [ ${#triton_args[@]} -gt 0 ]; then
    timeout 300 python3 bench/triton_peers.py "${triton_args[@]}" --json "$RES/triton_peers.json" \
        >"$RES/triton_peers.log" 2>&1 && triton_json=$RES/triton_peers.json ||
        { echo "Triton peers failed (see triton_peers.log)"; tail -5 "$RES/triton_peers.log"; }
fi
python3 bench/codegen_table.py "$RES/codegen_gemm.json" $triton_json --md "$RES/codegen_table.md"
# The attention examples: correctness, sanitizers, and SDPA side by side (needs a packed kiln).
if [ -x build-cg/kiln/bin/kiln ]; then
    bash tests/gpu/attention_gpu.sh build-cg/kiln | tee "$RES/attention_gpu.txt" || fail=1
    # kiln next to SDPA in one process, timed in alternation
    LD_LIBRARY_PATH=$PWD/build-cg/kiln/lib:$LD_LIBRARY_PATH timeout 500 python3 \
        bench/attention_bench.py build-cg/kiln/bin/kiln $QUICK --json "$RES/attention_bench.json" \
        2>&1 | grep -v '^ptxas' || fail=1
else
    echo "attention: no packed kiln in build-cg/kiln (run bench/codegen_gpu.sh --prepare here)"
fi
exit $fail
