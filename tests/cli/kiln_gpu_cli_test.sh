#!/usr/bin/env bash
# `kiln run --gpu` and `kiln compile --emit=cubin|spec` on a machine without a GPU (CI): --gpu
# exits 1 and says there is no CUDA driver/device; NVRTC still makes an sm_90a cubin; the launch
# spec is JSON. On a machine with a GPU the --gpu case is skipped (exit 77): there it runs for
# real (tests/gpu/runtime_gpu.sh). Usage: kiln_gpu_cli_test.sh KILN_BINARY SOURCE_DIR
set -uo pipefail
kiln=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export KILN_CACHE_DIR=$tmp/cache
source "$(dirname "$0")/expect.sh"

gemm=$src/examples/gemm.kiln
expect 2 "--emit=cubin writes a binary: give -o FILE" -- compile "$gemm" --emit=cubin
expect 0 "" -- compile "$gemm" --emit=cubin -o "$tmp/gemm.cubin"
if [[ "$(head -c 4 "$tmp/gemm.cubin" | od -An -c | tr -d ' ')" != '177ELF' ]] ||
    ! grep -q -a -- "-arch sm_90a" "$tmp/gemm.cubin"; then
    echo "FAIL: --emit=cubin wrote no sm_90a ELF"
    failures=$((failures + 1))
fi
expect 0 '"symbol": "gemm"' -- compile "$gemm" --emit=spec
expect 0 '"swizzle_bytes": 128' -- compile "$gemm" --emit=spec
expect 2 "--iters: Value -1 not in range" -- run "$gemm" --gpu --iters -1

gpu=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && gpu=1
if [[ $gpu == 0 ]]; then
    out=$("$kiln" run "$gemm" --gpu 2>&1)
    rc=$?
    if [[ $rc -ne 1 || ! "$out" =~ "error: --gpu: no CUDA "(driver|device) ]]; then
        echo "FAIL: kiln run --gpu without a GPU -> exit $rc (want 1), output:"
        echo "$out" | head -n 5
        failures=$((failures + 1))
    fi
fi

if [[ $failures -ne 0 ]]; then
    echo "$failures failure(s)"
    exit 1
fi
[[ $gpu == 1 ]] && { echo "ok (GPU present: the no-GPU case was skipped)"; exit 77; }
echo "ok"
