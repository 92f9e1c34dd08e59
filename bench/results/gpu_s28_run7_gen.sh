#!/usr/bin/env bash
# session 28: the generated clustered cases with the DMA thread's tail wait (this tree's kiln),
# and old_* twins of the timed ones with the closing cluster barrier put back (as 85ab2af's kiln
# emitted them), for an A/B of the generated kernels
set -euo pipefail
cd "$(dirname "$0")/.."
K=build/tools/kiln/kiln
D=build-cg28/cu
rm -f $D/*.cu
gen() { local name=$1 ex=$2 sizes=$3; shift 3; local args=()
  for s in ${sizes//,/ }; do args+=(--size "$s"); done
  $K compile examples/$ex.kiln "${args[@]}" --emit=cuda "$@" -o $D/$name.cu; }
gen gemm_4096_c2 gemm M=4096,N=4096,K=4096 --cluster=2
gen gemm_8192_c2 gemm M=8192,N=8192,K=8192 --cluster=2
gen gemm_2048_c2 gemm M=2048,N=2048,K=2048 --cluster=2
gen gemm_4000_c2 gemm M=4000,N=4000,K=4000 --cluster=2
gen gemm_127x4096x4096_t64x64_c2 gemm M=127,N=4096,K=4096 --tunable=U=64 --tunable=G=1 --tunable=V=64 --pipeline=gemm_block=8 --cluster=2
gen splitk_127x4096x4096_c2 gemm_splitk M=127,N=4096,K=4096 --cluster=2
gen gemm_small_c2 gemm M=200,N=296,K=104 --cluster=2
gen gemm_small_odd_c2 gemm M=328,N=296,K=104 --cluster=2
gen bmm_small_c2 batched_gemm Z=3,M=328,N=296,K=104 --cluster=2
gen splitk_small_c2 gemm_splitk M=200,N=296,K=1000 --tunable=KC=256 --cluster=2
for n in gemm_4096_c2 gemm_8192_c2 gemm_2048_c2 gemm_4000_c2 gemm_127x4096x4096_t64x64_c2 splitk_127x4096x4096_c2; do
  python3 - "$D/$n.cu" "$D/old_$n.cu" <<'PY'
import sys
s = open(sys.argv[1]).read()
tail = """        // the pair's compute warps released every stage: no peer arrives on ours after
        for (int s = 0; s < kStages; ++s) {
            kiln::dev::mbarrier::wait(&empty[st.stage], st.phase ^ 1u);
            st.advance();
        }
"""
assert s.count(tail) == 1
s = s.replace(tail, "")
end = "    }\n#endif\n"
assert s.count(end) == 1
s = s.replace(end, "    }\n    kiln::dev::cluster::sync_unaligned();\n#endif\n")
open(sys.argv[2], "w").write(s)
PY
done
ls $D
