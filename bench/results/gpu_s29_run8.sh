#!/usr/bin/env bash
# session 29, run 8: the paired 128x128 kernel's release: base (per warp), pairs (lane 0 of
# warp 0 on its own CTA, of warp 1 on the peer: the library since 4c79583) and w0 (lane 0 of
# warp 0 does both arrives), in turn
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab29b
SECONDS=0
{ bash $D/ab_pairs.sh $D "base pairs w0" "plainba relu" "c2,256,8192,8192" 3
  bash $D/ab_pairs.sh $D "base pairs w0" "relu" "c2,256,6144,8192 c2,160,7168,8192" 2; } 2>&1 \
  | tee $R/wg_release_s29d.txt | grep -o "^[a-z0-9]* [0-9x]* .*library/peer [0-9.]*" | sed -E 's/library 128x128 c2 //; s/stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
echo "${SECONDS}s"
