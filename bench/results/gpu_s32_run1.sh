#!/usr/bin/env bash
# session 32, run 1 (H200): 64-row tiles on one consumer warpgroup (Config BM = 64) in the
# harness against cuBLAS / cuBLASLt on the library's slow few-row shapes, split 1-4 ways and
# 64 / 128 wide, paired or not; the library (a933137's, build-lib31) on the same shapes first.
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-s32
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
if [ -f build-lib31/libkiln_gemm.so.gz ]; then mkdir -p build-gemm && gunzip -c build-lib31/libkiln_gemm.so.gz > build-gemm/libkiln_gemm.so; fi
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
[ -f build-gemm/libkiln_gemm.so ] && timeout 100 python3 bench/skinny_ab.py lib midrows 2>&1 | tee $R/bm64_lib_s32.txt | cut -c1-150
[ -f build-gemm/libkiln_gemm.so ] && timeout 100 python3 bench/skinny_ab.py lib midrows relu 2>&1 | tee -a $R/bm64_lib_s32.txt | cut -c1-150
echo "${SECONDS}s"
shapes="127,4096,4096 128,4096,4096 80,2048,8192 96,5120,5120 100,8192,4096 96,8192,8192 128,8192,8192 128,6144,8192 160,7168,8192 200,8000,4096 256,5120,14336 256,4096,4096"
for sh in $shapes; do
  IFS=, read -r M N K <<< "$sh"
  for run in "c2_copy_n64 1 2 3 4" "c2_copy_n128 1 2 3 4" "c1_copy_n64 1 2" "c1_copy_m128 1 2 4"; do
    read -r b splits <<< "$run"
    for s in $splits; do
      KILN_AB_SPLITS=$s timeout 20 $D/$b $M $N $K 2>&1 | sed "s/^/$b s$s /"
    done
  done
done | tee $R/bm64_harness_s32.txt | cut -c1-230
echo "${SECONDS}s"
for sh in 127,4096,4096 96,5120,5120 160,7168,8192 256,5120,14336; do
  IFS=, read -r M N K <<< "$sh"
  for run in "c2_relu_n64 1 2 3" "c2_relu_n128 1 2 3"; do
    read -r b splits <<< "$run"
    for s in $splits; do
      KILN_AB_SPLITS=$s timeout 20 $D/$b $M $N $K 2>&1 | sed "s/^/$b s$s /"
    done
  done
done | tee $R/bm64_harness_relu_s32.txt | cut -c1-230
echo "${SECONDS}s"
