// Runs a GEMM (or, with -DKILN_Z=batch, a batched GEMM) that `kiln compile --emit=cuda` generated
// on random bf16 data: checks it against a
// float64 reference (every element for small shapes, 4096 sampled ones for large), compares it
// with cuBLAS, and times both (cublasGemmEx / cublasGemmStridedBatchedEx, bf16 inputs and
// output, fp32 accumulation).
// Writes one JSON object to argv[1].
//
// Build (tests/gpu/codegen_gemm.sh does this on the GPU machine):
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Idevice \
//        -DKILN_GENERATED='"gemm.cu"' -DKILN_M=4096 -DKILN_N=4096 -DKILN_K=4096 \
//        tests/gpu/codegen_gemm.cu -lcublas
#include KILN_GENERATED

#ifndef KILN_NO_CUBLAS
#include <cublas_v2.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

constexpr int M = KILN_M, N = KILN_N, K = KILN_K;
#ifdef KILN_Z
constexpr int Z = KILN_Z;
int launch(void* c, const void* a, const void* b) {
    return kiln_launch_batched_gemm(c, a, b, Z, M, N, K, 0);
}
#else
constexpr int Z = 1;
int launch(void* c, const void* a, const void* b) {
    return kiln_launch_gemm(c, a, b, M, N, K, 0);
}
#endif
constexpr size_t MK = size_t(M) * K, KN = size_t(K) * N, MN = size_t(M) * N;

#define CHECK_CUDA(x)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                          \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

std::vector<__nv_bfloat16> random_bf16(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<__nv_bfloat16> v(n);
    for (auto& x : v)
        x = __float2bfloat16_rn(u(rng));
    return v;
}

double reference(const std::vector<__nv_bfloat16>& a, const std::vector<__nv_bfloat16>& b, int z,
                 int r, int c) {
    double s = 0;
    for (int k = 0; k < K; ++k)
        s += double(__bfloat162float(a[z * MK + size_t(r) * K + k])) *
             double(__bfloat162float(b[z * KN + size_t(k) * N + c]));
    return s;
}

template <class F> float time_ms(F&& f, int iters) {
    for (int i = 0; i < std::min(iters, 3); ++i)
        f();
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0);
    for (int i = 0; i < iters; ++i)
        f();
    cudaEventRecord(t1);
    CHECK_CUDA(cudaEventSynchronize(t1));
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    return ms / iters;
}

} // namespace

int main(int argc, char** argv) {
    const char* out_path = argc > 1 ? argv[1] : "codegen_gemm.json";
    auto ha = random_bf16(Z * MK, 1), hb = random_bf16(Z * KN, 2);
    __nv_bfloat16 *da, *db, *dc, *dref;
    CHECK_CUDA(cudaMalloc(&da, ha.size() * 2));
    CHECK_CUDA(cudaMalloc(&db, hb.size() * 2));
    CHECK_CUDA(cudaMalloc(&dc, Z * MN * 2));
    CHECK_CUDA(cudaMalloc(&dref, Z * MN * 2));
    CHECK_CUDA(cudaMemcpy(da, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dc, 0xff, Z * MN * 2)); // NaN: unwritten elements fail the check

    int rc = launch(dc, da, db);
    cudaError_t run = cudaDeviceSynchronize();
    if (rc != 0 || run != cudaSuccess) {
        std::fprintf(stderr, "kiln launch: rc %d, %s\n", rc, cudaGetErrorString(run));
        return 1;
    }
    std::vector<__nv_bfloat16> hc(Z * MN);
    CHECK_CUDA(cudaMemcpy(hc.data(), dc, hc.size() * 2, cudaMemcpyDeviceToHost));

    // bf16 output: half an ulp of rounding (2^-9 relative) plus fp32 accumulation order.
    const bool full = double(Z) * M * N * K <= 1e9;
    std::mt19937 rng(3);
    double max_err = 0;
    long bad = 0, checked = 0;
    auto check = [&](int z, int r, int c) {
        double ref = reference(ha, hb, z, r, c);
        double got = __bfloat162float(hc[z * MN + size_t(r) * N + c]);
        double err = std::fabs(got - ref);
        max_err = std::max(max_err, std::isnan(err) ? INFINITY : err);
        if (!(err <= 8e-3 * std::fabs(ref) + 1e-3 * std::sqrt(double(K))))
            ++bad;
        ++checked;
    };
    if (full) {
        for (int z = 0; z < Z; ++z)
            for (int r = 0; r < M; ++r)
                for (int c = 0; c < N; ++c)
                    check(z, r, c);
    } else {
        for (int s = 0; s < 4096; ++s)
            check(rng() % Z, rng() % M, rng() % N);
        for (int s = 0; s < 64; ++s) // the ragged last rows / columns
            check(rng() % Z, M - 1 - s % 4, rng() % N), check(rng() % Z, rng() % M, N - 1 - s % 4);
    }

#ifndef KILN_NO_CUBLAS
    cublasHandle_t h;
    cublasCreate(&h);
    const float alpha = 1.f, beta = 0.f;
    // Row-major C = A B is column-major C^T = B^T A^T.
    auto cublas = [&] {
        if (Z == 1)
            cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, db, CUDA_R_16BF, N, da,
                         CUDA_R_16BF, K, &beta, dref, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F,
                         CUBLAS_GEMM_DEFAULT);
        else
            cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, db,
                                       CUDA_R_16BF, N, KN, da, CUDA_R_16BF, K, MK, &beta, dref,
                                       CUDA_R_16BF, N, MN, Z, CUBLAS_COMPUTE_32F,
                                       CUBLAS_GEMM_DEFAULT);
    };
#else
    auto cublas = [&] { CHECK_CUDA(cudaMemcpy(dref, dc, Z * MN * 2, cudaMemcpyDefault)); };
    std::fprintf(stderr, "built without cuBLAS: the cuBLAS columns are a device copy\n");
#endif
    cublas();
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<__nv_bfloat16> hr(Z * MN);
    CHECK_CUDA(cudaMemcpy(hr.data(), dref, hr.size() * 2, cudaMemcpyDeviceToHost));
    double max_diff_cublas = 0;
    for (size_t i = 0; i < hr.size(); ++i)
        max_diff_cublas = std::max(
            max_diff_cublas, double(std::fabs(__bfloat162float(hc[i]) - __bfloat162float(hr[i]))));

    // KILN_ITERS overrides the timed iterations (1 under compute-sanitizer).
    const char* iters_env = std::getenv("KILN_ITERS");
    const int iters = iters_env ? std::atoi(iters_env) : double(Z) * M * N * K > 1e11 ? 20 : 50;
    float kiln_ms = time_ms([&] { launch(dc, da, db); }, iters);
    float cublas_ms = time_ms(cublas, iters);
    CHECK_CUDA(cudaGetLastError());
    const double flop = 2.0 * Z * M * N * K;
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);

    FILE* f = std::fopen(out_path, "w");
    std::fprintf(f,
                 "{\"gpu\": \"%s\", \"sm_clock_max_mhz\": %d, \"batch\": %d, \"M\": %d, \"N\": %d, "
                 "\"K\": %d, "
                 "\"checked\": %ld, \"full_check\": %s, \"bad\": %ld, \"max_abs_err\": %.6g, "
                 "\"max_abs_diff_vs_cublas\": %.6g, \"kiln_ms\": %.5f, \"kiln_tflops\": %.2f, "
                 "\"cublas_ms\": %.5f, \"cublas_tflops\": %.2f, \"ratio_vs_cublas\": %.3f}\n",
                 prop.name, clock_khz / 1000, Z, M, N, K, checked, full ? "true" : "false", bad,
                 max_err, max_diff_cublas, kiln_ms, flop / kiln_ms / 1e9, cublas_ms,
                 flop / cublas_ms / 1e9, cublas_ms / kiln_ms);
    std::fclose(f);
    std::printf("%dx%dx%dx%d: %s (%ld bad of %ld, max err %.3g), kiln %.1f TFLOP/s, cuBLAS %.1f "
                "TFLOP/s, ratio %.3f\n",
                Z, M, N, K, bad ? "WRONG" : "correct", bad, checked, max_err, flop / kiln_ms / 1e9,
                flop / cublas_ms / 1e9, cublas_ms / kiln_ms);
    return bad ? 2 : 0;
}
