#!/usr/bin/env bash
# session 28, run 11: is a full wave of exactly 132 unpaired 128 x 144 tiles slow? c1 (unpaired)
# against c2 (pairs) at outputs of 132 tiles (6 x 22, 4 x 33, 12 x 11) and 128 (8 x 16), in turn
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab28
run() { for p in 1 2; do for c in c1 c2; do $D/${c}_$1 $2 $3 $4 | sed "s/^/$c /"; done; done; }
{
  for s in "768 3168 4096" "512 4752 4096" "1536 1584 4096" "1024 2304 4096"; do
    run copy_f144 $s; run relu_f144 $s
  done
} 2>&1 | sed 's/staging=[0-9]* tail=0\/0 splits=0 defer=[01] band=0//; s/reference max|diff| [0-9.]* of [0-9]*//g' | tee $R/fill_132_s28.txt
