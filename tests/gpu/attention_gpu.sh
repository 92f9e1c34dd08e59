#!/usr/bin/env bash
# The generated attention kernels on a GPU machine: every attention example through
# `kiln run --gpu` (generate, NVRTC, run, compare with the float64 reference on fresh random
# data) at its own size and at a ragged one (N not a multiple of the 128-row tiles), three other
# mappings (64-wide key tiles, a 2-deep pipeline, f16) at the ragged size, then
# compute-sanitizer memcheck / racecheck / synccheck on small ragged causal runs (d64, d128), then timings
# at 128K tokens (Z x N = 131072, N = 1024 and 4096) next to PyTorch's SDPA (bench/attention_sdpa.py)
# in the same job. Exits non-zero when a check fails.
# Usage (repo root): tests/gpu/attention_gpu.sh KILN_DIR   (bin/kiln + lib/ from tests/gpu/pack_kiln.sh)
set -uo pipefail
KILN_DIR=$(cd "${1:?usage: attention_gpu.sh KILN_DIR}" && pwd)
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH=$KILN_DIR/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
K=$KILN_DIR/bin/kiln
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
fail=0
examples=(attention_d64 attention_d64_causal attention_d128 attention_d128_causal)
for e in "${examples[@]}"; do
    for sizes in "" "--size Z=3 --size N=1000"; do
        # shellcheck disable=SC2086  # sizes are words
        out=$(timeout 120 "$K" run "examples/$e.kiln" --gpu --iters 5 $sizes 2>&1)
        rc=$?
        echo "$e ${sizes:-(own sizes)}: rc=$rc $(grep -E 'rel error' <<<"$out")"
        [ $rc -eq 0 ] || { fail=1; tail -5 <<<"$out"; }
    done
done
# Other mappings of the same programs: 64-wide key tiles, a 2-deep pipeline, f16.
for variant in "attention_d64 --tunable BN=64" "attention_d64_causal --pipeline attn_block=2" \
    "attention_d128 --dtype bf16=f16"; do
    # shellcheck disable=SC2086  # the variant's words
    out=$(timeout 120 "$K" run examples/${variant%% *}.kiln ${variant#* } --gpu --iters 5 \
        --size Z=3 --size N=1000 2>&1)
    rc=$?
    echo "$variant, Z=3 N=1000: rc=$rc $(grep -E 'rel error' <<<"$out")"
    [ $rc -eq 0 ] || { fail=1; tail -5 <<<"$out"; }
done
for e in attention_d64_causal attention_d128_causal; do
    for tool in memcheck racecheck synccheck; do
        if timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 "$K" run \
            examples/$e.kiln --gpu --iters 1 --warmup 0 --size Z=2 --size N=300 \
            > "${OUT:-/tmp}/${e}_$tool.log" 2>&1; then
            echo "compute-sanitizer $tool $e: clean"
        else
            echo "compute-sanitizer $tool $e: FAILED"; tail -20 "${OUT:-/tmp}/${e}_$tool.log"; fail=1
        fi
    done
done
for e in "${examples[@]}"; do
    d=${e#attention_d}; d=${d%_causal}; causal=0
    [[ $e == *causal ]] && causal=1
    for n in 1024 4096; do
        z=$((131072 / n))
        t=$(timeout 200 "$K" run "examples/$e.kiln" --gpu --no-check --size Z=$z --size N=$n \
            --iters 10 2>&1 | grep -o 'median [0-9.]* ms')
        echo "kiln $e Z=$z N=$n: $t"
        timeout 120 python3 bench/attention_sdpa.py $z $n "$d" $causal
    done
done
exit $fail
