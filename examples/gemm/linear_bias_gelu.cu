// Example: a transformer MLP projection through the BLAS-like host API.
//   Y(tokens x out) = GELU(X(tokens x in) * W(out x in)^T + b)      bf16 in/out, fp32 accumulate
// Build (with the library objects from bench/build_gemm.sh):
//   nvcc -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Iinclude examples/gemm/linear_bias_gelu.cu \
//        build-gemm/libkiln_gemm.so -o linear_bias_gelu
#include <cstdio>
#include <vector>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include "kiln/gemm.h"

int main() {
    const int tokens = 4096, in = 4096, out = 11008;
    __nv_bfloat16 *x, *w, *y;
    float* b;
    cudaMalloc(&x, sizeof(__nv_bfloat16) * tokens * in);
    cudaMalloc(&w, sizeof(__nv_bfloat16) * out * in);
    cudaMalloc(&y, sizeof(__nv_bfloat16) * tokens * out);
    cudaMalloc(&b, sizeof(float) * out);
    cudaMemset(x, 0x3c, sizeof(__nv_bfloat16) * tokens * in);  // some nonzero bf16 pattern
    cudaMemset(w, 0x3c, sizeof(__nv_bfloat16) * out * in);
    cudaMemset(b, 0, sizeof(float) * out);

    kiln::gemm::Options o;  // bf16 A/B/C by default
    o.activation = kiln::gemm::Activation::GELU;
    o.bias = b;
    o.bias_type = kiln::gemm::DataType::F32;
    o.bias_mode = kiln::gemm::BiasMode::Col;  // one bias per output feature
    kiln::gemm::Path path;
    o.path_taken = &path;
    // W is stored out x in (nn.Linear), i.e. op(B) = W^T: transB = T.
    auto st = kiln::gemm::gemmEx(kiln::gemm::Op::N, kiln::gemm::Op::T, tokens, out, in, 1.f, x, in,
                                 w, in, 0.f, y, out, o);
    cudaDeviceSynchronize();
    std::printf("gemmEx: %s, path %s\n", kiln::gemm::status_string(st),
                path == kiln::gemm::Path::Sm90Tma ? "sm90 TMA+wgmma" : "generic");

    // A misaligned view falls back to the generic path instead of failing.
    st = kiln::gemm::gemmEx(kiln::gemm::Op::N, kiln::gemm::Op::T, 100, 100, 100, 1.f, x + 1, in,
                            w, in, 0.f, y, out, o);
    cudaDeviceSynchronize();
    std::printf("misaligned A: %s, path %s\n", kiln::gemm::status_string(st),
                path == kiln::gemm::Path::Sm90Tma ? "sm90 TMA+wgmma" : "generic");
    // Bad leading dimension: an error value, nothing launched.
    st = kiln::gemm::gemmEx(kiln::gemm::Op::N, kiln::gemm::Op::T, tokens, out, in, 1.f, x, in - 1,
                            w, in, 0.f, y, out, o);
    std::printf("lda < K: %s\n", kiln::gemm::status_string(st));
    cudaFree(x), cudaFree(w), cudaFree(y), cudaFree(b);
    return 0;
}
