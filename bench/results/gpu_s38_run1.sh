#!/usr/bin/env bash
# session 38, run 1 (H200): the two-tile product's clusters, harness, products as the library
# runs them (kernel M = weights, N = A's rows; KILN_AB_STORE_T=1): 1 x 2 (the library's) against
# 2 x 2 and 4 x 2 (cuBLASLt's at K = 2048: `tst_128x88_64x7_4x2`, bench/NOTES.md v41): two or four
# weight tiles' CTAs also share the activations' tile. Two rounds; then a ragged check and
# compute-sanitizer (memcheck, racecheck) on the 4 x 2 kernel, one untimed call.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s38h
export KILN_AB_GROUP=1 KILN_AB_STORE_T=1
{
for r in 1 2; do
  echo "round $r"
  for s in "88 7168 176 2048" "88 8192 168 2560" "88 7168 176 1024" "88 8192 176 8192" \
           "96 8192 192 2048" "96 5120 184 2048" "96 5120 192 1536" \
           "104 6144 200 2048" "104 8192 208 1024" "104 8192 208 8192" \
           "80 8192 160 2048" "80 8192 160 8192" "80 4352 150 4096"; do
    set -- $s
    for c in cn2 c22 c42; do ab_time $D/t$1$c $2 $3 $4; done
  done
done
echo "ragged"
for c in c22 c42; do
  for s in "1000 170 1000" "4352 150 520" "200 176 64"; do ab_time $D/t88$c $s; done
done
echo "sanitizer"
for tool in memcheck racecheck; do
  KILN_AB_ONCE=1 timeout 240 compute-sanitizer --tool $tool $D/t88c42 1000 170 512 2>&1 | tail -4
done
} 2>&1 | tee $OUT/cluster42_s38.txt
