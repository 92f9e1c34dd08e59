#!/usr/bin/env bash
# session 36, run 6 (H200): a second sample of run 5's 64-row and 68-CTA shapes, where the
# library's cluster ran level or slower (160 and 176 x 4096 x 8192: -6% and -8%) against the
# harness's +2-3.5% (run 3): the library A/B (skinny_ab.py twotilecluster64, plain, twice), then
# the harness's 64 x 80 and 64 x 88 kernels at the same shapes on the same machine (unpaired
# with the weights evict-first against clustered with normal hints, as the library runs them).
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s36/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
for r in 1 2; do
  KILN_GEMM_TWO_TILE_CLUSTER=0 timeout 100 python3 bench/skinny_ab.py "unpaired-$r" twotilecluster64 2>&1
  timeout 100 python3 bench/skinny_ab.py "cluster-$r" twotilecluster64 2>&1
done | tee $R/skinny_ab_s36b.txt | cut -c1-150
D=build-s36
ab() {  # ab L2 BINARY M N K: kiln's and the peer's TFLOP/s with KILN_GEMM_L2=L2
  echo -n "$2 $3x$4x$5 l2=$1: "
  KILN_GEMM_L2=$1 KILN_AB_GROUP=1 timeout 60 $D/$2 $3 $4 $5 2>&1 | tail -1 | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f peer %6.1f TFLOP/s\n", $2 * $5, $2 }'
}
for r in 1 2; do
  ab first,normal m64n80 4096 160 8192; ab normal,normal m64n80cn2 4096 160 8192
  ab first,normal m64n88 4096 176 8192; ab normal,normal m64n88cn2 4096 176 8192
  ab first,normal m64n72 4096 144 8192; ab normal,normal m64n72cn2 4096 144 8192
done 2>&1 | tee $R/cluster_n_s36d.txt
echo "${SECONDS}s"
