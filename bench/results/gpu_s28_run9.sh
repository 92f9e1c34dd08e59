#!/usr/bin/env bash
# session 28, run 9: fill-width tiles (128 x 144 / 160 / 192, as the library runs them: unpaired)
# against the same tiles in 2-CTA pairs sharing B (-DKILN_AB_CLUSTER=2: 72 / 80 / 96 rows of B
# per CTA, multicast), in turn, two passes
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab28
run() { for p in 1 2; do for c in c1 c2; do $D/${c}_$1 $2 $3 $4 | sed "s/^/$c /"; done; done; }
{
  for s in "1024 2304 4096" "512 4608 4096" "768 3072 4096" "1024 2304 8192"; do
    run copy_f144 $s; run relu_f144 $s
  done
  run copy_f160 512 5120 4096
  run copy_f192 1024 3072 4096
} 2>&1 | sed 's/staging=[0-9]* tail=0\/0 splits=0 defer=[01] band=0//; s/reference max|diff| [0-9.]* of [0-9]*//g' | tee $R/fill_pairs_s28.txt
