#!/usr/bin/env bash
# session 36, run 8 (H200): run 5's A/B on the library as committed (S=s36c), then 129-160 rows
# past K = 8192, which the two-tile plans leave to the 128-row path: the library as built
# (skinny_ab.py twotilelongk) beside the harness's 64-row two tiles there (unpaired, the weights
# evict-first, as the library would run them), kiln's TFLOP/s.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
S=s36c bash bench/results/gpu_s36_run5.sh
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 120 python3 bench/skinny_ab.py "library" twotilelongk 2>&1 | tee $R/skinny_ab_s36_longk.txt | cut -c1-150
D=build-s36
ab() {  # ab L2 BINARY M N K: kiln's and the peer's TFLOP/s with KILN_GEMM_L2=L2
  echo -n "$2 $3x$4x$5 l2=$1: "
  KILN_GEMM_L2=$1 KILN_AB_GROUP=1 timeout 60 $D/$2 $3 $4 $5 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f TFLOP/s\n", $2 * $5 }'
}
for s in 4096:129:11008:m64n72 4096:144:11008:m64n72 4096:160:11008:m64n80 \
         4096:129:14336:m64n72 4096:150:14336:m64n80 3072:160:11008:m64n80 \
         4224:144:16384:m64n72; do
  IFS=: read m n k b <<< "$s"
  ab first,normal $b $m $n $k
done 2>&1 | tee $R/longk_twotile_s36.txt
echo "${SECONDS}s"
