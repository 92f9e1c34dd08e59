// One instantiation unit of the split-complex sm90 kernel (input planes: bf16).
#include "complex_sm90_impl.cuh"
using kiln::gemm::detail::Problem;
KILN_COMPLEX_SM90_INSTANTIATE(__nv_bfloat16)
