// One instantiation unit of the split-complex sm90 kernel (input planes: f16).
#include "complex_sm90_impl.cuh"
using kiln::gemm::detail::Problem;
KILN_COMPLEX_SM90_INSTANTIATE(__half)
