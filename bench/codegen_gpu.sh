#!/usr/bin/env bash
# The compiler's generated GEMM-family kernels on a GPU machine: generate (kiln compile
# --emit=cuda for bench/codegen_cases.txt), build the harness per case, check every case against
# float64, compute-sanitizer the *_small ones, time each side by side with its cuBLAS peers and
# Triton (bench/triton_peers.py), and print the ratio table with the issue's targets.
# Usage: bench/codegen_gpu.sh [--quick]   (results in $OUT or bench/results)
# Generated sources and harness binaries made on a machine without a GPU can be carried in
# build-cg/cu and build-cg/bin (tests/gpu/codegen_gemm.sh --build-only); otherwise kiln is built
# here (build-gpu/) and they are made here.
set -uo pipefail
cd "$(dirname "$0")/.."
QUICK=${1:-}
RES=${OUT:-bench/results}
mkdir -p "$RES" build-cg
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
if [ ! -d build-cg/cu ]; then
    cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null &&
        ninja -C build-gpu kiln >/dev/null || { echo "kiln build failed"; exit 1; }
    bench/codegen_generate.sh build-gpu/tools/kiln/kiln build-cg/cu $QUICK || exit 1
fi
cases=()
for f in build-cg/cu/*.cu; do cases+=("$(basename "$f" .cu)"); done
fail=0
bash tests/gpu/codegen_gemm.sh build-cg/cu "$RES" build-cg/bin || fail=1
triton_args=()
for n in "${cases[@]}"; do
    read -r _ example sizes _ < <(grep "^$n " bench/codegen_cases.txt)
    case $n in *_direct) continue ;; esac  # the same shapes as their default twins
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
exit $fail
