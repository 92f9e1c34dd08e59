#!/usr/bin/env bash
# session 24, run 5: few-row products with each tile column's K loop rotated (-DKILN_AB_KROT=7,
# sm90_exp_s24_krot_small_m.patch) against the stock kernel, harness builds in build-ab24d
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
G='^[a-z0-9]* [0-9x]* library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH'
D=build-ab24d
timeout 150 bash bench/ab_pairs.sh $D "base128 krot128" "copy" "c1,16,8192,8192 c1,64,8192,8192 c1,96,8192,8192 c1,128,8192,8192" 1 > $R/krot_small_m_s24.txt 2>&1
timeout 100 bash bench/ab_pairs.sh $D "base64 krot64" "copy" "c1,16,8192,8192 c1,64,8192,8192 c1,128,8192,8192" 1 >> $R/krot_small_m_s24.txt 2>&1
grep -o "$G" $R/krot_small_m_s24.txt | paste - - - | sed 's/ stages//'
