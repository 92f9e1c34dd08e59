#include "sm90_impl.cuh"
namespace kiln::gemm::detail {
cudaError_t run_sm90_bf16(const Problem& p, int bn) { return run_sm90_in<__nv_bfloat16>(p, bn); }
}  // namespace kiln::gemm::detail
