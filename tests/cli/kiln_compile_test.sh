#!/usr/bin/env bash
# `kiln compile` from the command line: pass selection, printing, output file, and the exit code
# and message of every kind of bad input. Usage: kiln_compile_test.sh KILN_BINARY SOURCE_DIR
set -uo pipefail
kiln=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/expect.sh"

gemm=$src/examples/gemm.kiln
expect 0 "call gemm_leaf(C5, Ap4[t], Bp3[t])" -- compile "$gemm"
expect 0 "stages 4 on k" -- compile "$gemm"
expect 0 "# ---- after depend ----" -- compile "$gemm" --print-after-all
expect 0 "# ---- after alloc-smem ----" -- compile "$gemm" --print-after-all
expect 0 "# ---- after copy-elim ----" -- compile "$gemm" --print-after=copy-elim
expect 0 "copy-in A for gemm_tile" -- compile "$gemm" --stop-after=depend
expect 0 "alloc-smem:" -- compile "$gemm" --time-passes
expect 0 "" -- compile "$gemm" -o "$tmp/gemm.ev"
grep -q "pipeline = 4" "$tmp/gemm.ev" || { echo "FAIL: -o wrote no pipelined IR"; failures=$((failures + 1)); }
# The depend output has no roles yet.
if "$kiln" compile "$gemm" --stop-after=vectorize | grep -q "role dma"; then
    echo "FAIL: --stop-after=vectorize ran warp-specialize"
    failures=$((failures + 1))
fi

expect 2 "unknown pass 'bogus' (passes: depend, vectorize, copy-elim" -- compile "$gemm" --print-after=bogus
expect 1 "unknown pass 'bogus'" -- compile "$gemm" --stop-after=bogus
expect 1 "cannot" -- compile "$tmp/missing.kiln"
printf 'program p\ntask t(A: read f32[4])\nvariant v of t leaf {\n  fill(A 0.0)\n}\n' >"$tmp/bad.kiln"
expect 1 "bad.kiln:4:" -- compile "$tmp/bad.kiln"
# Five 128x256x64 bf16 stages do not fit 227 KiB: the breakdown names every tensor.
sed 's/pipeline = 4/pipeline = 5/' "$gemm" >"$tmp/gemm5.kiln"
expect 1 "origin gemm_tile.B" -- compile "$tmp/gemm5.kiln"
expect 0 "lowered (6 passes): 3 schedules" -- run "$gemm" --size M=128 --size N=256 --size K=128 --lowered --schedules 3
# Mapping overrides: the same breakdown through --pipeline; a skinny-M mapping (one 64-row
# consumer warpgroup, 64x64 tiles, 8 stages) lowers and runs; f16 through --dtype.
expect 1 "origin gemm_tile.B" -- compile "$gemm" --pipeline gemm_block=5
expect 0 "stages 8 on k" -- compile "$gemm" --size M=127 --tunable U=64 --tunable G=1 --tunable V=64 --pipeline gemm_block=8
expect 0 "lowered (6 passes): 3 schedules in" -- run "$gemm" --size M=127 --size N=128 --size K=128 --tunable U=64 --tunable G=1 --tunable V=64 --lowered --schedules 3
expect 0 "tolerance 1e-03 for f16" -- run "$gemm" --size M=64 --size N=64 --size K=64 --dtype bf16=f16
expect 0 "DType::F16" -- compile "$gemm" --dtype bf16=f16 --emit=cuda
expect 1 "declares no tunable 'G' (it declares: U, V)" -- compile "$gemm" --tunable gemm_host.G=1
expect 1 "a warpgroup's piece has exactly 64 rows" -- check "$gemm" --tunable G=4
expect 2 "--tunable expects [INSTANCE.]NAME=POSITIVE_INTEGER, got 'U=0'" -- compile "$gemm" --tunable U=0
expect 2 "--dtype expects FROM=TO" -- tree "$gemm" --dtype bf16=half
expect 2 "" -- run "$gemm" --lowered --schedules 0

# 2-CTA clusters: the control reaches the event IR, the CUDA and the launch spec; sizes other
# than 1 or 2 are usage errors; an instance that cannot take it is named with the rule.
expect 0 "persistent cluster = 2" -- compile "$gemm" --cluster 2
expect 0 "kiln::dev::tma::load_multicast" -- compile "$gemm" --cluster 2 --emit=cuda
expect 0 '"cluster": 2' -- compile "$gemm" --cluster=2 --emit=spec
expect 2 "--cluster: Value 3 not in range 1 to 2" -- compile "$gemm" --cluster 3
sed '/^    persistent$/d' "$gemm" >"$tmp/gemm_np.kiln"
expect 1 "instance 'gemm_block': cluster = 2 needs \`warpspecialize\` and \`persistent\`" -- compile "$tmp/gemm_np.kiln" --cluster 2
if [[ $failures -ne 0 ]]; then
    echo "$failures kiln compile CLI checks failed"
    exit 1
fi
echo "kiln compile CLI: all checks passed"
