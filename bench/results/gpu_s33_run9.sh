#!/usr/bin/env bash
# session 33, run 9 (H200): the library runs 160 x 7168 x 8192 at 354 TFLOP/s, the harness's
# 128 x 128 pairs (copy kernel) at 423: is it the paired bias + activation kernel the library
# runs the plain product on (v26)? The harness's copy and plainba pairs in alternation on the
# `pairs` set's shapes, then the library's `pairs` set as built and with KILN_GEMM_CLUSTER=1.
cd "$(dirname "$0")/.."
D=build-s33
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s33/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
one() {  # build splits M N K
  echo -n "$1 s$2: "; KILN_AB_SPLITS=$2 timeout 60 $D/$1 $3 $4 $5 2>&1 | tail -1 | grep -o "^[0-9x]* .*library/peer [0-9.]* \[[0-9., ]*\]" | sed -E 's/library [0-9]+x[0-9]+ c[12] (copy|copy on bias\+act) stages=.*band=0://; s/reference max\|diff\| [0-9.]* of [0-9]*//g'
}
for r in 1 2; do
  for sh in "160 7168 8192" "256 8192 8192" "200 8000 4096" "200 4096 14336" "256 5120 14336"; do
    for b in m128n128c2 m128n128c2_pba; do one $b 1 $sh; done
  done
done 2>&1 | tee $R/pairs_copy_pba_s33.txt
echo "${SECONDS}s"
for v in default CLUSTER=1; do
  if [ $v = default ]; then e=(); else e=("KILN_GEMM_$v"); fi
  env "${e[@]}" timeout 100 python3 bench/skinny_ab.py "$v" pairs 2>&1
done | tee $R/skinny_ab_s33_pairs.txt | cut -c1-150
echo "${SECONDS}s"
