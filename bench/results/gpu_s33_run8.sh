#!/usr/bin/env bash
# session 33, run 8 (H200): the rows still under 0.9 (160 x 7168 x 8192, 200 x 8000 x 4096,
# 200 x 4096 x 14336: three or four 64-row M-tiles, past a wave of pairs) run transposed in the
# harness (D^T = W . X^T: the weights are the kernel's A, the activations one B tile of 160 or
# 256 columns), each next to the harness's 128 x 128 pairs on the product as written; every
# ratio is against cuBLAS on the same (transposed or not) product.
cd "$(dirname "$0")/.."
D=build-s33
SECONDS=0
one() {  # build splits M N K
  echo -n "$1 s$2: "; KILN_AB_SPLITS=$2 timeout 60 $D/$1 $3 $4 $5 2>&1 | tail -1 | grep -o "^[0-9x]* .*library/peer [0-9.]* \[[0-9., ]*\]" | sed -E 's/library [0-9]+x[0-9]+ c[12] copy stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
}
for r in 1 2; do
  one m128n128c2 1 160 7168 8192
  one m64n160c2 1 7168 160 8192
  one m128n160 1 7168 160 8192
  one m128n160 2 7168 160 8192
  one m128n128c2 1 200 8000 4096
  one m64n256c2 1 8000 200 4096
  one m128n128c2 1 200 4096 14336
  one m64n256c2 1 4096 200 14336
  one m64n256c2 2 4096 200 14336
done 2>&1 | tee $OUT/transposed_s33.txt
echo "${SECONDS}s"
