#!/usr/bin/env bash
# session 33, run 6 (H200): the harness with B warm in L2 between the graph's calls (as every
# benchmark so far) and cold (KILN_AB_COLD=8: eight copies of B taken in turn, by both sides):
# paired 64 x 64 (the short product), unpaired 64 x 64, paired 64 x 128, 128 x 128 split.
cd "$(dirname "$0")/.."
D=build-s33
SECONDS=0
one() {  # label build splits M N K
  echo -n "$1 $2 s$3: "; KILN_AB_SPLITS=$3 timeout 60 $D/$2 $4 $5 $6 2>&1 | tail -1 | grep -o "^[0-9x]* .*library/peer [0-9.]* \[[0-9., ]*\]" | sed -E 's/library [0-9]+x[0-9]+ c[12] copy stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
}
for mode in warm cold; do
  if [ $mode = cold ]; then export KILN_AB_COLD=8; else unset KILN_AB_COLD; fi
  for sh in "127 4096 4096" "128 4096 4096" "128 4096 2048" "127 4096 8192" "256 4096 4096"; do
    for b in m64n64c2_cw m64n64c1_cw; do one $mode $b 1 $sh; done
  done
  for sh in "96 5120 5120" "128 8192 8192" "1024 1024 8192" "512 2048 8192"; do
    one $mode m64n128c2_cw 1 $sh
    one $mode m128n128s 2 $sh
  done
done 2>&1 | tee $OUT/cold_s33.txt
echo "${SECONDS}s"
