// One instantiation unit of the sm90 kernel family, 8-bit inputs (K-major A and B only).
#include "sm90_impl.cuh"
using kiln::gemm::detail::Problem;
KILN_GEMM_SM90_INSTANTIATE_KMAJOR(__nv_fp8_e5m2, float)
