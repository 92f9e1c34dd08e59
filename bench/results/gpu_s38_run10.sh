#!/usr/bin/env bash
# session 38, run 10 (H200): does the bias + activation kernel (EpilogueBiasAct: the column bias
# starts the accumulator, the epilogue only scales, activates and stores) keep the 4 x 2
# clusters' gain where EpilogueLinear did not (runs 5, 8)? Harness, bW[cn2|c42]: ab_build relu
# (-DKILN_AB_BIAS_ACT -DKILN_AB_EPISTAGE=8) at the widths of runs 1 and 5, beside the copy
# kernels tW[cn2|c42]; D column-major; two rounds.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s38h
export KILN_AB_GROUP=1 KILN_AB_STORE_T=1
{
for r in 1 2; do
  echo "round $r"
  for s in "88 7168 176 1024" "88 7168 176 2048" "104 6144 208 1024" "72 7168 136 1024"; do
    set -- $s
    for c in t$1cn2 t$1c42 b$1cn2 b$1c42; do ab_time $D/$c $2 $3 $4; done
  done
done
} 2>&1 | tee $OUT/cluster42_biasact_s38.txt
