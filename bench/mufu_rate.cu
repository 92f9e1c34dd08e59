// Per-SM throughput of the special-function and conversion instructions a fused GELU epilogue
// issues, in results per clock per SM: tanh.approx in f32, f16x2 and bf16x2 form, ex2.approx,
// the fp32 -> bf16x2 pack every 16-bit epilogue ends in, and whole GELU elements in the
// epilogue's f32 form and a packed f16x2 form; then both GELU forms' largest error against
// float64 (bench/NOTES.md, "v15"). Each thread runs 8 independent chains so latency hides; the
// clock is read with clock64 inside the kernel (per SM, no launch cost).
//
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Idevice bench/mufu_rate.cu -o mufu
//   ./mufu
#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kiln/gemm/epilogue.cuh"

namespace {

constexpr int kChains = 8, kIters = 4096, kThreads = 512;

enum class Op { TanhF32, TanhF16x2, TanhBF16x2, Ex2F32, PackBF16x2, GeluF32, GeluPacked };

/// One special-function instruction on a register: op is one of the Op values it names.
template <Op op, class T>
__device__ __forceinline__ T sfu(T x) {
    T y;
    if constexpr (op == Op::TanhF32) asm volatile("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if constexpr (op == Op::Ex2F32) asm volatile("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if constexpr (op == Op::TanhF16x2)
        asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(y) : "r"(x));
    else asm volatile("tanh.approx.bf16x2 %0, %1;" : "=r"(y) : "r"(x));
    return y;
}
__device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi) {
    uint32_t y;
    asm volatile("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(y) : "f"(hi), "f"(lo));
    return y;
}

/// The packed alternative to the epilogue's GELU: one tanh.approx.f16x2 per pair of values
/// (measured here and rejected: the packed tanh issues at half the rate, so a pair costs what
/// two f32 tanh do, and its error is ~200x the f32 form's).
__device__ __forceinline__ float2 gelu_pair(float2 x) {
    constexpr float k0 = 0.7978845608028654f, k1 = 0.044715f * 0.7978845608028654f;
    const __half2 u = __floats2half2_rn(x.x * fmaf(k1, x.x * x.x, k0),
                                        x.y * fmaf(k1, x.y * x.y, k0));
    const uint32_t packed = sfu<Op::TanhF16x2>(*reinterpret_cast<const uint32_t*>(&u));
    const float2 t = __half22float2(*reinterpret_cast<const __half2*>(&packed));
    const float h0 = 0.5f * x.x, h1 = 0.5f * x.y;
    return make_float2(fmaf(h0, t.x, h0), fmaf(h1, t.y, h1));
}

/// Results one iteration of `op` produces per chain (packed forms: 2).
constexpr int results_per_step(Op op) {
    return op == Op::TanhF32 || op == Op::Ex2F32 || op == Op::GeluF32 ? 1 : 2;
}

template <Op op>
__global__ void rate_kernel(float* out, long long* cycles, float seed) {
    float v[kChains];
    uint32_t w[kChains];
    for (int c = 0; c < kChains; ++c) {
        v[c] = seed * (threadIdx.x + c) * 1e-3f;
        w[c] = 0x3c003c00u + threadIdx.x + c;
    }
    __syncthreads();
    const long long t0 = clock64();
    for (int i = 0; i < kIters; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) {
            if constexpr (op == Op::TanhF32) v[c] = sfu<op>(v[c]);
            else if constexpr (op == Op::TanhF16x2 || op == Op::TanhBF16x2) w[c] = sfu<op>(w[c]);
            else if constexpr (op == Op::Ex2F32) v[c] = sfu<op>(v[c]) * -0.5f;
            else if constexpr (op == Op::PackBF16x2)
                w[c] = pack_bf16x2(__uint_as_float(w[c]), v[c]);
            else if constexpr (op == Op::GeluF32)
                v[c] = kiln::gemm::activate<kiln::gemm::Activation::GELU>(v[c]) - 0.25f;
            else {  // a pair through the packed GELU, then back to fp32 for the next step
                const float2 y = gelu_pair(make_float2(v[c], __uint_as_float(w[c])));
                v[c] = y.x - 0.25f;
                w[c] = __float_as_uint(y.y - 0.25f);
            }
        }
    }
    __syncthreads();
    const long long t1 = clock64();
    float s = 0.f;
    for (int c = 0; c < kChains; ++c) s += v[c] + __uint_as_float(w[c] & 0x3fffffffu);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

template <Op op>
void measure(const char* name, int sms, float* out, long long* cycles) {
    rate_kernel<op><<<sms, kThreads>>>(out, cycles, 1.f);  // warm-up
    rate_kernel<op><<<sms, kThreads>>>(out, cycles, 1.f);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        std::printf("%-14s launch failed: %s\n", name, cudaGetErrorString(cudaGetLastError()));
        return;
    }
    long long c = 0;
    cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost);  // block 0 (one per SM)
    const double results = double(kThreads) * kChains * kIters * results_per_step(op);
    std::printf("%-14s %7.2f results / clock / SM\n", name, results / double(c));
}

__global__ void gelu_both(const float* x, float* y32, float* ypair, int n) {
    const int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 1 >= n) return;
    y32[i] = kiln::gemm::activate<kiln::gemm::Activation::GELU>(x[i]);
    y32[i + 1] = kiln::gemm::activate<kiln::gemm::Activation::GELU>(x[i + 1]);
    const float2 p = gelu_pair(make_float2(x[i], x[i + 1]));
    ypair[i] = p.x, ypair[i + 1] = p.y;
}

/// Largest absolute error of both GELU forms against float64 on a fine grid of [-lim, lim].
void gelu_accuracy(float lim) {
    constexpr int n = 1 << 20;
    std::vector<float> x(n), y32(n), ypair(n);
    for (int i = 0; i < n; ++i) x[i] = -lim + 2.f * lim * float(i) / float(n - 1);
    float *dx, *d32, *dpair;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&d32, n * sizeof(float));
    cudaMalloc(&dpair, n * sizeof(float));
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    gelu_both<<<n / 2 / 256, 256>>>(dx, d32, dpair, n);
    cudaMemcpy(y32.data(), d32, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(ypair.data(), dpair, n * sizeof(float), cudaMemcpyDeviceToHost);
    double e32 = 0, epair = 0;
    for (int i = 0; i < n; ++i) {
        const double v = x[i];
        const double u = 0.7978845608028654 * (v + 0.044715 * v * v * v);
        const double ref = 0.5 * v * (1 + std::tanh(u));
        e32 = std::max(e32, std::fabs(y32[i] - ref));
        epair = std::max(epair, std::fabs(ypair[i] - ref));
    }
    std::printf("gelu on [-%g, %g]: max abs error f32 tanh %.2e, f16x2 tanh %.2e\n", lim, lim, e32,
                epair);
    cudaFree(dx), cudaFree(d32), cudaFree(dpair);
}

}  // namespace

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    float* out = nullptr;
    long long* cycles = nullptr;
    cudaMalloc(&out, sizeof(float) * sms * kThreads);
    cudaMalloc(&cycles, sizeof(long long) * sms);
    measure<Op::TanhF32>("tanh.f32", sms, out, cycles);
    measure<Op::TanhF16x2>("tanh.f16x2", sms, out, cycles);
    measure<Op::TanhBF16x2>("tanh.bf16x2", sms, out, cycles);
    measure<Op::Ex2F32>("ex2.f32", sms, out, cycles);
    measure<Op::PackBF16x2>("cvt.bf16x2.f32", sms, out, cycles);
    measure<Op::GeluF32>("gelu f32", sms, out, cycles);
    measure<Op::GeluPacked>("gelu pair", sms, out, cycles);
    gelu_accuracy(4.f);
    gelu_accuracy(100.f);
    return 0;
}
