#!/usr/bin/env bash
# session 32, run 5 (H200): gemm_check.py again after its split linear short-product case got a
# TMA-aligned K (2104; run 4's 2100 made 4200-byte rows, which took the generic path).
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s32/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s32d.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s32d.txt)"
grep -v "^PASS" $R/gemm_check_s32d.txt | head -20
grep "^PASS linear 100x1000x2104" $R/gemm_check_s32d.txt
