// One instantiation unit of the sm90 kernel family (heavy: built in parallel with the others).
#include "sm90_impl.cuh"
using kiln::gemm::detail::Problem;
KILN_GEMM_SM90_INSTANTIATE(__nv_bfloat16, __nv_bfloat16)
