// Example: GETT tensor contractions and transposed GEMMs on the TMA + wgmma path.
//   D[a,b,c] = sum_d A[b,d,a] * B[d,c]     (the paper's TCCG benchmark 1: a=64, b=32, c=d=2048)
// No transpose kernels: the contraction becomes one GEMM whose operands are TMA tensor views
// (A: rows (a, b), K = d, MN-major; B: K = d, columns c, MN-major; D: rows (a, b), columns c).
// Build (with the library objects from bench/build_gemm.sh):
//   nvcc -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Iinclude examples/gemm/gett_contract.cu \
//        build-gemm/libkiln_gemm.so -o gett_contract
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include "kiln/gemm.h"

namespace kg = kiln::gemm;

static const char* path_name(kg::Path p) {
    return p == kg::Path::Sm90Tma ? "sm90 TMA+wgmma" : "generic";
}

int main() {
    int ext[26] = {};
    for (int& e : ext) e = 1;
    ext['a' - 'a'] = 64, ext['b' - 'a'] = 32, ext['c' - 'a'] = 2048, ext['d' - 'a'] = 2048;
    const size_t na = size_t(32) * 2048 * 64, nb = size_t(2048) * 2048, nd = size_t(64) * 32 * 2048;
    __nv_bfloat16 *A, *B, *D;
    cudaMalloc(&A, sizeof(__nv_bfloat16) * na);
    cudaMalloc(&B, sizeof(__nv_bfloat16) * nb);
    cudaMalloc(&D, sizeof(__nv_bfloat16) * nd);
    cudaMemset(A, 0x3c, sizeof(__nv_bfloat16) * na);  // some nonzero bf16 pattern
    cudaMemset(B, 0x3c, sizeof(__nv_bfloat16) * nb);

    kg::Options o;  // bf16 in and out
    kg::Path path = kg::Path::Auto;
    o.path_taken = &path;
    kg::Status st = kg::contract("abc = bda * dc", ext, A, B, D, o);
    cudaDeviceSynchronize();
    std::printf("contract abc = bda * dc: %s, path %s\n", kg::status_string(st), path_name(path));

    // The same storage as a transposed GEMM: for b = 0, D[:, 0, :] (64 x 2048, ldc = 32*2048)
    // = A[0]^T (A[0] stored 2048 x 64) * B (stored 2048 x 2048): transA = T, transB = N.
    st = kg::gemmEx(kg::Op::T, kg::Op::N, 64, 2048, 2048, 1.f, A, 64, B, 2048, 0.f, D, 32 * 2048, o);
    cudaDeviceSynchronize();
    std::printf("gemmEx(T, N): %s, path %s\n", kg::status_string(st), path_name(path));
    cudaFree(A), cudaFree(B), cudaFree(D);
    return 0;
}
