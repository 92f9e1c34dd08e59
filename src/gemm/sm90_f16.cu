#include "sm90_impl.cuh"
namespace kiln::gemm::detail {
cudaError_t run_sm90_f16(const Problem& p, int bn) { return run_sm90_in<__half>(p, bn); }
}  // namespace kiln::gemm::detail
