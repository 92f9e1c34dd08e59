#!/usr/bin/env bash
# session 39 (H200): run 8's untransposed few-row tiles under 80 weight tiles of 128 rows and at
# 16 rows (harness, plain, two rounds): 64 x 72 / 80 tiles against the library's transposed 128 x
# 64 and 128 x 16 tiles (D column-major, KILN_AB_STORE_T=1; 5120 x 16 x 5120 split in three as
# the library does).
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
B=build-s39h
SECONDS=0
for round in 1 2; do
  echo "# round $round"
  ab_time $B/u64n72s12 64 8192 8192
  ab_time $B/u64n80s11 64 8192 8192
  KILN_AB_STORE_T=1 ab_time $B/m128n64s8 8192 64 8192
  ab_time $B/u64n72s12 32 8192 4096
  KILN_AB_STORE_T=1 ab_time $B/m128n64s8 8192 32 4096
  ab_time $B/u64n72s12 16 8192 8192
  ab_time $B/u64n80s11 16 8192 8192
  KILN_AB_STORE_T=1 ab_time $B/m128n16s8 8192 16 8192
  ab_time $B/u64n72s12 16 5120 5120
  KILN_AB_STORE_T=1 KILN_AB_SPLITS=3 ab_time $B/m128n16s8sp 5120 16 5120
  ab_time $B/u64n80s11 32 9216 4096
  KILN_AB_STORE_T=1 ab_time $B/m128n64s8 9216 32 4096
  echo "${SECONDS}s"
done 2>&1 | tee $R/fewuntrans_s39b.txt
