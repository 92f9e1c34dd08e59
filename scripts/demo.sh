#!/usr/bin/env bash
# kiln's main job on the bundled GEMM example, set-up included: build, verify the program under
# its mapping, show the task tree, run it in the CPU interpreter against a float64 reference
# (at the default sizes and at sizes that are not tile multiples), compile it to pipelined event
# IR and simulate that under adversarial schedules, and, on a machine with an
# NVIDIA GPU, run kiln's Hopper GEMM next to cuBLAS.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
kiln=build/tools/kiln/kiln

echo "== kiln check examples/gemm.kiln"
$kiln check examples/gemm.kiln && echo "ok: program and mapping verified"
echo "== kiln tree examples/gemm.kiln (first lines)"
$kiln tree examples/gemm.kiln | head -n 12
echo "== kiln run examples/gemm.kiln"
$kiln run examples/gemm.kiln
echo "== kiln run examples/gemm.kiln --size M=200 --size N=300 --size K=100 (ragged: padded tiles)"
$kiln run examples/gemm.kiln --size M=200 --size N=300 --size K=100

echo "== kiln compile examples/gemm.kiln (event IR after all passes; partitions elided)"
$kiln compile examples/gemm.kiln | grep -v '^ *part '
echo "== kiln run examples/gemm.kiln --lowered --schedules 50 (the compiled event IR, simulated)"
$kiln run examples/gemm.kiln --size M=128 --size N=256 --size K=384 --lowered --schedules 50

# CUDA generation from the event IR is not built yet; the GPU step runs the hand-composed
# kernels of kiln's GEMM library (device/kiln/gemm) against cuBLAS.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [ -x bench/gpu.sh ]; then
    echo "== GPU: kiln GEMM vs cuBLAS (bench/gpu.sh --quick)"
    bash bench/gpu.sh --quick
else
    echo "== no NVIDIA GPU here: skipping the GPU run (bench/gpu.sh --quick on a Hopper machine)"
fi
