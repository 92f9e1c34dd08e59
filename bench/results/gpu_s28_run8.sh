#!/usr/bin/env bash
# session 28, run 8: decode-ish on 128x128 tiles unpaired (c1) against paired (c2), both with
# HEAD's kernel (the paired one leaves through the producer's tail wait), in turn, three passes
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab28
for s in "256 8192 8192" "256 6144 8192"; do
  for p in 1 2 3; do for e in plainba relu; do for c in c2 c1; do
    $D/${c}_${e}_early $s | sed "s/^/$c /"
  done; done; done
done 2>&1 | tee $R/decode_unpaired_s28.txt
