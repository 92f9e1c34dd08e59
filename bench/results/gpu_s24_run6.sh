#!/usr/bin/env bash
# session 24, run 6: is it contention on A's few lines? 16 rows of activations times 8192 x 8192
# weights, run directly (A = activations: every CTA reads the same 16 lines per k-block) and
# transposed (the weights as A, the activations as B; in 2-CTA clusters each pair reads them once
# and multicasts), 64 CTAs streaming 128 weight rows each in both; 128 rows as the reference
cd "$(dirname "$0")"
for r in 1 2; do
  for c in "c1_copy_base128 16 8192 8192" "c1_copy_base128 8192 16 8192" "c2_copy_base128 8192 16 8192" \
           "c1_copy_base128 128 8192 8192" "c1_copy_base128 8192 128 8192" "c2_copy_base128 8192 128 8192" \
           "c1_copy_base64 8192 16 8192"; do
    set -- $c; echo "== $c"; ./$1 $2 $3 $4 | grep -o "library [0-9x]* c[12][^:]*: *[0-9.]* TFLOP/s\|library/peer [0-9.]*\|MISMATCH" | paste - -
  done
done
