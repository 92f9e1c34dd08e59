#!/usr/bin/env bash
# session 26, run 4: decode-ish pairs (128 x 128, 2-CTA clusters, B evict-first as in 9afa820)
# against: D's TMA stores evict-first (sF), the operand maps' L2 promotion none (np) or 128 B
# (p128), and the hints off (off: KILN_GEMM_L2=normal,normal)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
bash bench/ab_pairs.sh build-ab26b "base sF np p128 off" "plainba relu" "c2,256,8192,8192 c2,256,6144,8192 c2,200,8000,4096" 3 2>&1 | tee $R/l2_store_promo_s26.txt | grep "library/peer\|rror\|MISMATCH" | sed 's/ library 128x128 c2 / /; s/stages=6 epistage=8 staging=16384 tail=0\/0 splits=0 defer=0 band=0//; s/reference max|diff| [0-9.]* of [0-9]*//g' | head -100
