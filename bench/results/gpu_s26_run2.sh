#!/usr/bin/env bash
# session 26, run 2: the library with L2 hints (evict-first on an operand the grid reads once,
# launch_sm90.cuh streaming_hint): gemm_check, compute-sanitizer memcheck, skinny_ab's pairs,
# decode and fewsplit16 sets as built and with the hints off (KILN_GEMM_L2=normal,normal)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
timeout 200 python3 bench/gemm_check.py > $R/gemm_check_s26.txt 2>&1; echo "gemm_check rc=$?"
grep -v "^PASS" $R/gemm_check_s26.txt | tail -5; grep -c "^PASS" $R/gemm_check_s26.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 python3 tests/gpu/gemm_small.py \
  > $R/sanitizer_s26_memcheck.txt 2>&1 && echo "compute-sanitizer memcheck: clean" || { echo "memcheck FAILED"; tail -5 $R/sanitizer_s26_memcheck.txt; }
for s in pairs decode fewsplit16; do
  timeout 100 python3 bench/skinny_ab.py hints $s 2>&1
  KILN_GEMM_L2=normal,normal timeout 100 python3 bench/skinny_ab.py off $s 2>&1
done | tee $R/skinny_ab_s26_l2.txt
# the launch configurations of the default path's slow few-row shapes
KILN_GEMM_DEBUG=1 python3 - <<'PY' 2>&1 | tee $R/debug_slow_s26.txt
import sys, torch
sys.path.insert(0, "bench")
import kiln_gemm as kg
for M, N, K in ((160, 7168, 8192), (127, 4096, 4096), (200, 8000, 4096), (96, 5120, 5120), (16, 8192, 2048), (256, 8192, 8192)):
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    print(M, N, K, flush=True)
    kg.linear(a, w, out); torch.cuda.synchronize()
PY
