#!/usr/bin/env bash
# session 32, run 6 (H200): 127 and 128 rows against 4096-wide weights across K (skinny_ab.py's
# `ksweep` set), the short product against cuBLAS, twice: does kiln's deficit at 127 rows grow
# with K (the streaming rate) or stay (a fixed cost per launch)?
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s32/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for r in 1 2; do timeout 100 python3 bench/skinny_ab.py short-$r ksweep 2>&1; done \
  | tee $R/skinny_ab_s32_ksweep.txt | cut -c1-150
