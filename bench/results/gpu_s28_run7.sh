#!/usr/bin/env bash
# session 28, run 7: generated clustered kernels with the DMA thread's tail wait (build-cg28/gen.sh):
# tests/gpu/codegen_gemm.sh on all (float64 check, cuBLAS timing, memcheck/racecheck/synccheck on
# the *small* ones), then each timed case against its old_ twin (closing cluster barrier) in turn
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
SECONDS=0
bash tests/gpu/codegen_gemm.sh build-cg28/cu $R/cg28 build-cg28/bin > $R/codegen_tail_s28_check.txt 2>&1
echo "codegen_gemm rc=$? ${SECONDS}s"; grep -i "fail\|error\|mismatch" $R/codegen_tail_s28_check.txt | head
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for pass in 1 2; do
  for n in gemm_2048_c2 gemm_4096_c2 gemm_8192_c2 gemm_4000_c2 gemm_127x4096x4096_t64x64_c2 splitk_127x4096x4096_c2; do
    for v in old_$n $n; do echo "== $v"; timeout 60 build-cg28/bin/$v /tmp/$v.json 2>&1 | tail -4; done
  done
done 2>&1 | tee $R/codegen_tail_s28.txt
echo "${SECONDS}s"
