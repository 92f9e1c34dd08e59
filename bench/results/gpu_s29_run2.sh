#!/usr/bin/env bash
# session 29, run 2: the library with tail maps in the 128-wide split-K kernels and one empty
# arrive per consumer warpgroup (in every kernel: this build's 256-wide split-K linear kernels
# spilled 40 bytes): the ragged split launches (KILN_GEMM_DEBUG=1), gemm_check, skinny_ab's
# midrows set (plain, bias + ReLU) and fill set (plain) as built against KILN_GEMM_TAIL_MAPS=0
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm && gunzip -c build-lib29/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
SECONDS=0
KILN_GEMM_DEBUG=1 timeout 60 python3 - > $R/split_tail_launch_s29.txt 2>&1 <<'PY'
import sys, torch
sys.path.insert(0, "bench")
import kiln_gemm as kg
for M, N, K in ((96, 5120, 5120), (80, 2048, 8192), (127, 4096, 4096), (100, 8192, 4096),
                (96, 2000, 4160), (200, 1000, 2104), (160, 7168, 8192)):
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    print(f"== {M}x{N}x{K}", flush=True)
    kg.linear(a, w, out)
    torch.cuda.synchronize()
PY
cat $R/split_tail_launch_s29.txt
timeout 150 python3 bench/gemm_check.py > $R/gemm_check_s29.txt 2>&1; echo "gemm_check rc=$? ${SECONDS}s"
grep -v "^PASS" $R/gemm_check_s29.txt | tail -5; grep -c "^PASS" $R/gemm_check_s29.txt
{ for pass in 1 2; do
    timeout 60 python3 bench/skinny_ab.py tailmaps midrows 2>&1
    KILN_GEMM_TAIL_MAPS=0 timeout 60 python3 bench/skinny_ab.py zerofill midrows 2>&1
  done
  timeout 60 python3 bench/skinny_ab.py tailmaps midrows relu 2>&1
  KILN_GEMM_TAIL_MAPS=0 timeout 60 python3 bench/skinny_ab.py zerofill midrows relu 2>&1
  timeout 60 python3 bench/skinny_ab.py tailmaps fill 2>&1
  KILN_GEMM_TAIL_MAPS=0 timeout 60 python3 bench/skinny_ab.py zerofill fill 2>&1; } | tee $R/skinny_ab_s29_tailmaps.txt
echo "${SECONDS}s"
