// Example: GemmKernels' Table 2 chain in one call — element-wise operations on A, B, C and D
// that cuBLASLt cannot fuse (cuBLAS needs four extra element-wise kernels around its GEMM):
//   D = ReLU( (A + 0.5) * (B + 0.5)^T + ReLU(C) + bias )      bf16 in/out, fp32 accumulate
// The affine A and B transforms fold into the epilogue (a row-sum prepass over A and B and a
// rank-1 correction, given a workspace; without one they are applied in shared memory), C is
// transformed right after its load in the epilogue, D by the epilogue's bias and activation.
// D overwrites C (gemmEx's convention).
// Build (with the library from bench/build_gemm.sh):
//   nvcc -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
//        examples/gemm/elementwise_chain.cu build-gemm/libkiln_gemm.so -o elementwise_chain
#include "kiln/gemm.h"
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

int main() {
    const int n = 4096;
    __nv_bfloat16 *a, *w, *c, *bias;
    void* ws;
    const int64_t ws_bytes = kiln::gemm::gemm_fold_workspace_bytes(n, n, 1);
    cudaMalloc(&ws, ws_bytes);
    cudaMalloc(&a, sizeof(__nv_bfloat16) * n * n);
    cudaMalloc(&w, sizeof(__nv_bfloat16) * n * n);
    cudaMalloc(&c, sizeof(__nv_bfloat16) * n * n);
    cudaMalloc(&bias, sizeof(__nv_bfloat16) * n);
    cudaMemset(a, 0x3c, sizeof(__nv_bfloat16) * n * n); // some nonzero bf16 pattern
    cudaMemset(w, 0x3c, sizeof(__nv_bfloat16) * n * n);
    cudaMemset(c, 0xbc, sizeof(__nv_bfloat16) * n * n); // negative: ReLU(C) = 0
    cudaMemset(bias, 0, sizeof(__nv_bfloat16) * n);

    kiln::gemm::Options o;
    o.op_a = {1.f, 0.5f, false};                 // A + 0.5
    o.op_b = {1.f, 0.5f, false};                 // B + 0.5
    o.op_c = {1.f, 0.f, true};                   // ReLU(C)
    o.activation = kiln::gemm::Activation::ReLU; // ReLU on D
    o.bias = bias;
    o.bias_type = kiln::gemm::DataType::BF16;
    o.bias_mode = kiln::gemm::BiasMode::Col;
    o.workspace = ws, o.workspace_bytes = ws_bytes;
    kiln::gemm::Path path;
    o.path_taken = &path;
    auto st = kiln::gemm::gemmEx(kiln::gemm::Op::N, kiln::gemm::Op::T, n, n, n, 1.f, a, n, w, n,
                                 1.f, c, n, o);
    cudaDeviceSynchronize();
    std::printf("chain: %s, path %s\n", kiln::gemm::status_string(st),
                path == kiln::gemm::Path::Sm90Tma ? "sm90 TMA+wgmma" : "generic");
    cudaFree(a), cudaFree(w), cudaFree(c), cudaFree(bias), cudaFree(ws);
    return 0;
}
