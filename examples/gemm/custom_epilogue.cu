// Example: the template-level interface — the sm90 kernel with a user epilogue functor.
// D = softplus(acc) * scale[row]   (anything elementwise that knows its (row, col, batch))
// Build: nvcc -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Idevice examples/gemm/custom_epilogue.cu
#include <cstdio>
#include <cuda_bf16.h>
#include "kiln/gemm/launch_sm90.cuh"

struct SoftplusRowScale {
    const float* scale;
    __device__ float operator()(float acc, int row, int, int) const {
        return scale[row] * log1pf(__expf(acc));
    }
};

int main() {
    const int M = 2048, N = 2048, K = 1024;
    __nv_bfloat16 *a, *b;
    float *d, *scale;
    cudaMalloc(&a, sizeof(__nv_bfloat16) * M * K);
    cudaMalloc(&b, sizeof(__nv_bfloat16) * N * K);
    cudaMalloc(&d, sizeof(float) * M * N);
    cudaMalloc(&scale, sizeof(float) * M);
    cudaMemset(a, 0, sizeof(__nv_bfloat16) * M * K);
    cudaMemset(b, 0, sizeof(__nv_bfloat16) * N * K);
    cudaMemset(scale, 0, sizeof(float) * M);
    // 128x128x64 tiles, 6 stages, no cluster; A: M x K row-major, B: N x K row-major.
    using Cfg = kiln::gemm::sm90::Config<__nv_bfloat16, float, 128, 6, 1>;
    cudaError_t e = kiln::gemm::sm90::launch<Cfg>(a, K, 0, b, K, 0, d, N, 0, M, N, K, 1,
                                                  SoftplusRowScale{scale}, nullptr);
    cudaDeviceSynchronize();
    std::printf("custom epilogue: %s\n", cudaGetErrorString(e));
    cudaFree(a), cudaFree(b), cudaFree(d), cudaFree(scale);
    return 0;
}
