#!/usr/bin/env bash
# session 33, run 4 (H200): the 64-row tile's consumer with its index a constant (one consumer):
# the k-loop 71 -> 49 instructions, descriptors on the uniform datapath. Harness, alternating
# builds, against cuBLAS.
cd "$(dirname "$0")/.."
D=build-s33
SECONDS=0
for r in 1 2; do
for shape in "127 4096 4096" "128 4096 4096" "96 5120 5120" "127 4096 8192" "80 2048 8192:2"; do
  s=${shape##*:}; [ "$s" = "$shape" ] && s=1; sh=${shape%%:*}
  for b in m64n64c2 m64n64c2_cw; do
    echo -n "$b s$s: "; KILN_AB_SPLITS=$s timeout 60 $D/$b $sh 2>&1 | tail -1 | grep -o "^[0-9x]* .*library/peer [0-9.]* \[[0-9., ]*\]" | sed -E 's/library 64x[0-9]+ c2 copy stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
  done
done
for shape in "1024 1024 8192" "512 2048 8192" "128 8192 8192" "256 4096 4096"; do
  for b in m64n128c2 m64n128c2_cw; do
    echo -n "$b: "; KILN_AB_SPLITS=1 timeout 60 $D/$b $shape 2>&1 | tail -1 | grep -o "^[0-9x]* .*library/peer [0-9.]* \[[0-9., ]*\]" | sed -E 's/library 64x[0-9]+ c2 copy stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
  done
done
done 2>&1 | tee $OUT/cw_const_s33.txt
echo "${SECONDS}s"
