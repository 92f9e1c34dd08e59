#!/usr/bin/env bash
# session 34, run 11 (H200): the library after line-length tidying of special.cu, generic.cu,
# gemm.cu and chain_sm90_impl.cuh (no change in behaviour), carried as
# build-s34/libkiln_gemm.so.xz: gemm_check.py (every path: diagonal, contract, complex, dual,
# chain, split-K, the short products) and tests/gpu/gemm_small.py.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s34/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 300 python3 bench/gemm_check.py > $R/gemm_check_s34c.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_s34c.txt)"
grep -v "^PASS" $R/gemm_check_s34c.txt | head -20
timeout 120 python3 tests/gpu/gemm_small.py > $R/gemm_small_s34c.txt 2>&1
echo "gemm_small rc=$?"; tail -2 $R/gemm_small_s34c.txt
echo "${SECONDS}s"
