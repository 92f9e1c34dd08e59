#!/usr/bin/env bash
# kiln's main job on the bundled GEMM example, set-up included: build, verify the program under
# its mapping, show the task tree, run it in the CPU interpreter against a float64 reference
# (at the default sizes and at sizes that are not tile multiples), compile it to pipelined event
# IR and simulate that under adversarial schedules, generate CUDA from it, and, on a machine
# with an NVIDIA GPU, run the generated kernel and kiln's GEMM library next to cuBLAS.
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

echo "== kiln compile examples/gemm.kiln --emit=cuda (the generated kernel, first lines)"
mkdir -p build/demo
$kiln compile examples/gemm.kiln --size M=4096 --size N=4096 --size K=4096 --emit=cuda \
    -o build/demo/gemm_4096.cu
grep -n "__global__\|mbarrier::wait\|wgmma::\|setmaxnreg\|regs::" build/demo/gemm_4096.cu | head -n 12

# On a GPU: the generated kernels (two shapes, one ragged) against cuBLAS and a float64
# reference, then kiln's GEMM library against cuBLAS.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    $kiln compile examples/gemm.kiln --size M=8192 --size N=8192 --size K=8192 --emit=cuda \
        -o build/demo/gemm_8192.cu
    $kiln compile examples/gemm.kiln --size M=4000 --size N=4000 --size K=4000 --emit=cuda \
        -o build/demo/gemm_4000.cu
    echo "== GPU: kiln run --gpu (NVRTC through the kernel cache, checked against float64)"
    $kiln run examples/gemm.kiln --gpu --size M=4096 --size N=4096 --size K=4096
    echo "== GPU: kiln-generated GEMM vs cuBLAS (tests/gpu/codegen_gemm.sh)"
    bash tests/gpu/codegen_gemm.sh build/demo build/demo/gpu
    echo "== GPU: kiln GEMM library vs cuBLAS (bench/gpu.sh --quick --part library)"
    bash bench/gpu.sh --quick --part library
else
    echo "== no NVIDIA GPU here: skipping the GPU runs (on a Hopper machine this step runs the"
    echo "   generated kernels and the GEMM library next to cuBLAS)"
fi
