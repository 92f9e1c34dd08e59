#!/usr/bin/env bash
# session 23, run 5: a consumer that finds the next stage not yet landed retires its wgmmas
# (wait_group 0) and frees the previous stage before it blocks (-DKILN_AB_EARLY_RELEASE),
# against the stock kernel (HEAD ff11ed0), harness A/B against the peer
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}; D=build-ab23b
G='^[a-z0-9]* [0-9x]* library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH'
bash bench/ab_pairs.sh $D "base128 early128" "relu plainba" "c2,256,8192,8192" 3 > $R/early_release_s23.txt 2>&1
bash bench/ab_pairs.sh $D "base128 early128" "relu" "c2,256,5120,14336 c2,512,8192,8192 c2,200,8000,4096" 2 >> $R/early_release_s23.txt 2>&1
bash bench/ab_pairs.sh $D "base early" "relu gelu" "c2,8192,4096,11008 c2,6144,6144,6144" 2 >> $R/early_release_s23.txt 2>&1
grep -o "$G" $R/early_release_s23.txt | paste - - - | head -80
echo "MISMATCH lines: $(grep -c MISMATCH $R/early_release_s23.txt)"
