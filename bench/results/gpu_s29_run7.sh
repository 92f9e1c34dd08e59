#!/usr/bin/env bash
# session 29, run 4: generated clustered kernels with one empty arrive per compute warpgroup and
# CTA (build-cg29/gen.sh): tests/gpu/codegen_gemm.sh on all (float64 check, cuBLAS timing,
# memcheck / racecheck / synccheck on the *small* ones), then each timed case against its old_
# twin (one arrive per compute warp and CTA) in turn, two passes
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
SECONDS=0
bash tests/gpu/codegen_gemm.sh build-cg29/cu $R/cg29b build-cg29/bin > $R/codegen_release_s29b_check.txt 2>&1
echo "codegen_gemm rc=$? ${SECONDS}s"; grep -i "fail\|error\|mismatch" $R/codegen_release_s29b_check.txt | head
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for pass in 1 2; do
  for n in gemm_2048_c2 gemm_4096_c2 gemm_127x4096x4096_t64x64_c2; do
    for v in old_$n $n; do echo "== $v"; timeout 60 build-cg29/bin/$v /tmp/$v.json 2>&1 | tail -4; done
  done
done 2>&1 | tee $R/codegen_release_s29b.txt
echo "${SECONDS}s"
