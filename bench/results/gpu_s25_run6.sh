#!/usr/bin/env bash
# session 25, run 7: the transposed few-row product's column tile narrowed to the rows it holds
# (Config BN = 16 / 32, direct stores: the kernel_sm90.cuh change of commit after 7d4be56), so that the weights get more
# stages in the same shared memory: harness copy kernels, 128 x 64 with 8 stages (the library's
# few-row kernel) against 128 x 32 with 11, 128 x 16 with 12 and with 8, on D^T = W.X^T shapes
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
G='library [0-9x]* c[12] [a-z+ ]*\|: *[0-9.]* TFLOP/s\|library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH\|rror'
bash bench/ab_pairs.sh build-ab25b "bn64 bn32 bn16 bn16s8" "copy" \
  "c1,8192,16,8192 c1,8192,1,8192 c1,8192,32,8192 c1,8192,16,2048 c1,16896,8,4096" 2 2>&1 \
  | tee $R/narrow_bn_s25.txt | grep "$G" | sed 's/ *reference max|diff| [0-9.e-]* of [0-9.e+]*//g' | head -60
