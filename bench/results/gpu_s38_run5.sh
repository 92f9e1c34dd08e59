#!/usr/bin/env bash
# session 38, run 5 (H200): run 4's bias + ReLU lost 0-3% with the 4 x 2 clusters where the plain
# product gained 1-9%. The transposed product's bias + ReLU runs EpilogueLinear (D's column bias
# is the kernel's row bias) with one staged column vector; here the harness's EpilogueLinear
# bias + ReLU (-DKILN_AB_BIAS_RELU -DKILN_AB_EPISTAGE=1: a column bias, staged), 1 x 2 against
# 4 x 2 (lW[cn2|c42]), beside the copy kernels (tW[cn2|c42]) and EpilogueLinear without the
# staged column (-DKILN_AB_EPISTAGE=0: zW[cn2|c42]), D column-major; two rounds.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s38h
export KILN_AB_GROUP=1 KILN_AB_STORE_T=1
{
for r in 1 2; do
  echo "round $r"
  for s in "88 7168 176 1024" "88 7168 176 2048" "104 6144 208 1024" "72 7168 136 1024"; do
    set -- $s
    for c in t$1cn2 t$1c42 l$1cn2 l$1c42 z$1cn2 z$1c42; do ab_time $D/$c $2 $3 $4; done
  done
done
} 2>&1 | tee $OUT/cluster42_linear_s38${SUFFIX:-}.txt
