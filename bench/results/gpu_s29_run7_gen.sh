#!/usr/bin/env bash
# session 29: the generated clustered cases with one empty arrive per compute warpgroup and CTA
# (this tree's kiln), and old_* twins of the timed ones with one arrive per compute warp and CTA
# put back (as b49234a's kiln emitted them), for an A/B of the generated kernels
set -euo pipefail
cd "$(dirname "$0")/.."
K=build/tools/kiln/kiln
D=build-cg29/cu
rm -f $D/*.cu
gen() { local name=$1 ex=$2 sizes=$3; shift 3; local args=()
  for s in ${sizes//,/ }; do args+=(--size "$s"); done
  $K compile examples/$ex.kiln "${args[@]}" --emit=cuda "$@" -o $D/$name.cu; }
gen gemm_4096_c2 gemm M=4096,N=4096,K=4096 --cluster=2
gen gemm_2048_c2 gemm M=2048,N=2048,K=2048 --cluster=2
gen gemm_127x4096x4096_t64x64_c2 gemm M=127,N=4096,K=4096 --tunable=U=64 --tunable=G=1 --tunable=V=64 --pipeline=gemm_block=8 --cluster=2
gen gemm_small_c2 gemm M=200,N=296,K=104 --cluster=2
gen gemm_small_odd_c2 gemm M=328,N=296,K=104 --cluster=2
gen bmm_small_c2 batched_gemm Z=3,M=328,N=296,K=104 --cluster=2
gen splitk_small_c2 gemm_splitk M=200,N=296,K=1000 --tunable=KC=256 --cluster=2
for n in gemm_4096_c2 gemm_2048_c2 gemm_127x4096x4096_t64x64_c2; do
  python3 - "$D/$n.cu" "$D/old_$n.cu" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r"if \(held >= 0 && (\w+) == 0 && (\w+) < kClusterSize\) \{\n(\s*)if \(\2 == 0\) kiln::dev::mbarrier::arrive\(&empty\[held\]\);\n\s*else kiln", s)
assert m, "new release not found"
lane, warp, ind = m.group(1), m.group(2), m.group(3)
pat = re.compile(r"if \(held >= 0 && " + lane + r" == 0 && " + warp + r" < kClusterSize\) \{\n\s*if \(" + warp + r" == 0\) kiln::dev::mbarrier::arrive\(&empty\[held\]\);\n\s*else kiln::dev::mbarrier::arrive_cluster")
s, n = pat.subn("if (held >= 0 && " + lane + " == 0) {\n" + ind + "kiln::dev::mbarrier::arrive(&empty[held]);\n" + ind + "kiln::dev::mbarrier::arrive_cluster", s)
assert n == 2, n
init = "kComputeWarps / 4 * kClusterSize);"
assert s.count(init) == 1
s = s.replace(init, "kComputeWarps * kClusterSize);")
open(sys.argv[2], "w").write(s)
PY
done
ls $D
