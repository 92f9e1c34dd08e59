#!/usr/bin/env bash
# session 23, run 2: the consumers' warpgroup index broadcast by __shfl_sync (so the wgmma
# descriptors live in uniform registers: -DKILN_AB_UNIFORM_CW) against the stock kernel;
# alternating A/B against the peer, then each sustained at the power cap
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}; D=build-ab23
G='^[a-z0-9]* [0-9x]* library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH'
bash bench/ab_pairs.sh $D "base unif" "relu gelu copy" "c2,6144,6144,6144 c2,8192,4096,11008 c2,8192,4096,4096" 2 > $R/unif_cw_s23.txt 2>&1
grep -o "$G" $R/unif_cw_s23.txt | paste - - - | head -80
bash bench/ab_pairs.sh $D "base128 unif128" "relu plainba" "c2,256,8192,8192" 3 > $R/unif_cw_decode_s23.txt 2>&1
grep -o "$G" $R/unif_cw_decode_s23.txt | paste - - - | head -40
for s in 6144,6144,6144 8192,4096,11008; do
  IFS=, read -r M N K <<< "$s"
  for l in base unif base unif; do
    echo "== $l relu $s"; KILN_AB_SUSTAIN=1.5 $D/c2_relu_$l $M $N $K
  done
done > $R/unif_cw_sustain_s23.txt 2>&1
grep -v "^$" $R/unif_cw_sustain_s23.txt | head -60
