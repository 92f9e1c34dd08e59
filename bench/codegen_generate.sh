#!/usr/bin/env bash
# Generates the CUDA of every case in bench/codegen_cases.txt (or the --quick subset) with
# `kiln compile --emit=cuda [FLAGS]` into DIR/NAME.cu. Usage: bench/codegen_generate.sh KILN DIR [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
KILN=$1; DIR=$2; QUICK=${3:-}
mkdir -p "$DIR"
grep -v '^#' bench/codegen_cases.txt | while read -r name example sizes flags; do
    [ -n "$name" ] || continue
    if [ -n "$QUICK" ]; then
        case $name in gemm_4096|gemm_8192|gemm_4000|gemm_small|bmm_8x2048|dual_4096x11008x4096|dual_small|rowsum_4096|rowsum_small|gemm_4096_direct|splitk_1024x1024x16384|splitk_small) ;; *) continue ;; esac
    fi
    args=()
    for s in ${sizes//,/ }; do args+=(--size "$s"); done
    # shellcheck disable=SC2086  # flags are words
    "$KILN" compile "examples/$example.kiln" "${args[@]}" --emit=cuda $flags -o "$DIR/$name.cu.new"
    # An unchanged source keeps its time stamp, so its harness binary is not rebuilt.
    if cmp -s "$DIR/$name.cu.new" "$DIR/$name.cu"; then rm "$DIR/$name.cu.new"; else mv "$DIR/$name.cu.new" "$DIR/$name.cu"; fi
done
