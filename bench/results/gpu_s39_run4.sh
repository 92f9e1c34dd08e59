#!/usr/bin/env bash
# session 39 (H200): run 3's few-row harness comparison with clusters along M (the weight
# tiles' CTAs sharing the activations' tile by multicast, as cuBLAS's 2x1 / 4x1 few-row
# kernels): 128 x 16, 128 x 64, 128 x 32 and 64-row tiles in 2- and 4-CTA clusters; r*: the bias
# + ReLU kernel (EpilogueBiasAct, kAccBias; its peer cuBLASLt's fused epilogue on the problem as
# given). Two rounds.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
B=build-s39h
export KILN_AB_STORE_T=1
SECONDS=0
for round in 1 2; do
  echo "# round $round"
  for bin in m128n16s8 m128n16s8c2 m128n16s8c4; do
    ab_time $B/$bin 8192 16 8192
    ab_time $B/$bin 5120 16 5120
    ab_time $B/$bin 8192 1 8192
    ab_time $B/$bin 4096 16 4096
  done
  ab_time $B/m64n16s16c4 5120 16 5120
  ab_time $B/m64n16s16c4 8192 16 8192
  for bin in m128n64s8 m128n64s8c2 m128n64s8c4 m64n64s13 m64n64s13c4; do
    ab_time $B/$bin 4096 64 11008
    ab_time $B/$bin 8192 64 8192
    ab_time $B/$bin 14336 32 4096
  done
  ab_time $B/m128n32s10c2 14336 32 4096
  ab_time $B/m128n32s10c4 14336 32 4096
  for bin in r128n64s8 r128n64s8c4; do
    ab_time $B/$bin 14336 32 4096
    ab_time $B/$bin 8192 64 8192
  done
  echo "${SECONDS}s"
done 2>&1 | tee $R/fewtiles_s39b.txt
