#!/usr/bin/env bash
# session 25, run 5: A's own, shallower ring (Config AStages; sm90_exp_s25_a_ring.patch): the
# paired 128 x 128 kernels (plain product on EpilogueBiasAct, bias + ReLU) with 6 stages of A+B
# against 8 of B + 4 of A and 9 + 3; the 128 x 256 copy kernel with 4 stages against 5 + 3
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
G='^[a-z0-9]* [0-9x]* library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH\|rror'
bash bench/ab_pairs.sh build-ab25 "base s8a4 s9a3" "plainba relu" "c2,256,8192,8192 c2,200,8000,4096 c2,256,6144,8192" 3 2>&1 | tee $R/a_ring_pairs_s25.txt | grep "$G" | head -150
bash bench/ab_pairs.sh build-ab25 "base s5a3" "copy" "c1,8192,8192,8192 c1,8192,4096,11008" 2 2>&1 | tee $R/a_ring_large_s25.txt | grep "$G" | head -60
