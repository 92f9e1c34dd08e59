// One instantiation unit of the sm90 kernel family (heavy: built in parallel with the others).
#include "sm90_impl.cuh"
using kiln::gemm::detail::Problem;
KILN_GEMM_SM90_INSTANTIATE(__half, __nv_bfloat16)
