#!/usr/bin/env bash
# session 26, run 1: L2 cache policies on the TMA operand loads (evict_first on B, evict_last on A)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
cuobjdump -sass build-ab26/c2_relu_aLbF | grep -m3 UTMALDG
cuobjdump -sass build-ab26/c2_relu_base | grep -m3 UTMALDG
G='^[a-zA-Z0-9]* [0-9x]* library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH\|rror'
bash bench/ab_pairs.sh build-ab26 "base bF aL aLbF" "plainba relu" "c2,256,8192,8192 c2,200,8000,4096 c2,256,6144,8192" 3 2>&1 | tee $R/l2_hint_pairs_s26.txt | grep "$G" | grep "library/peer\|rror\|MISMATCH" | head -150
bash bench/ab_pairs.sh build-ab26 "base bF aL aLbF" "copy" "c1,8192,8192,8192 c1,8192,4096,11008" 2 2>&1 | tee $R/l2_hint_large_s26.txt | grep "library/peer\|rror\|MISMATCH" | head -60
