#!/usr/bin/env bash
# session 29, run 5: the paired 128x128 kernel's release in three forms, in turn: base (one
# arrive per consumer warp and CTA, HEAD b49234a), pairs (one per warpgroup and CTA: lane 0 of
# warp 0 / warp 1, the predicate run 1's wgrel build had; identical SASS), final (the same
# threads chosen by threadIdx.x % 128 == 0 / 32, as run 4's library)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab29b
SECONDS=0
{ bash $D/ab_pairs.sh $D "base pairs final" "plainba relu" "c2,256,8192,8192" 3
  bash $D/ab_pairs.sh $D "base pairs final" "relu" "c2,256,6144,8192 c2,160,7168,8192 c2,200,8000,4096" 2; } 2>&1 \
  | tee $R/wg_release_s29c.txt | grep -o "^[a-z]* [0-9x]* .*library/peer [0-9.]*" | sed -E 's/library 128x128 c2 //; s/stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
echo "${SECONDS}s"
