// The element-wise chain / reductions unit of the sm90 kernel for bf16 A, B and C
// (chain_sm90_impl.cuh).
// (Both headers named here: build_gemm.sh keys a unit on the src/gemm headers it includes.)
#include "chain_sm90_impl.cuh"
#include "sm90_impl.cuh"
using kiln::gemm::detail::Problem;
KILN_GEMM_CHAIN_INSTANTIATE(__nv_bfloat16)
