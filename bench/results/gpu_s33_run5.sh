#!/usr/bin/env bash
# session 33, run 5 (H200): 64-row tiles with the consumer index constant (cw), and two wgmma
# batches in flight instead of one (f2: -DKILN_SM90_INFLIGHT=2), and the unpaired 64 x 64 tile
# (c1_cw), harness against cuBLAS, two rounds.
cd "$(dirname "$0")/.."
D=build-s33
SECONDS=0
one() {  # build splits M N K
  echo -n "$1 s$2: "; KILN_AB_SPLITS=$2 timeout 60 $D/$1 $3 $4 $5 2>&1 | tail -1 | grep -o "^[0-9x]* .*library/peer [0-9.]* \[[0-9., ]*\]" | sed -E 's/library 64x[0-9]+ c[12] copy stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
}
for r in 1 2; do
  for sh in "127 4096 4096" "128 4096 4096" "127 4096 8192" "128 4096 2048"; do
    for b in m64n64c2_cw2 m64n64c2_f2 m64n64c1_cw; do one $b 1 $sh; done
  done
  for b in m64n64c2_cw2 m64n64c2_f2; do one $b 2 80 2048 8192; done
  for sh in "1024 1024 8192" "128 8192 8192" "96 5120 5120"; do
    for b in m64n128c2_cw m64n128c2_f2; do one $b 1 $sh; done
  done
done 2>&1 | tee $OUT/inflight_s33.txt
echo "${SECONDS}s"
