// One sm90 library kernel configuration, timed alone: bf16 NT GEMM (A M x K, B N x K, both
// K-major; D M x N bf16), 128 x 256 tiles, no cluster, the plain product's epilogue (what gemmEx
// runs for alpha 1, beta 0, no bias, no activation) or with -DKILN_AB_BIAS_RELU gemmEx's
// bias + ReLU epilogue (a bf16 column bias; -DKILN_AB_BIAS_ACT: EpilogueBiasAct, which needs
// -DKILN_AB_EPISTAGE=8, kAccBias, with -DKILN_AB_GELU: bias + GELU; -DKILN_AB_PLAIN_BIAS_ACT
// with -DKILN_AB_EPISTAGE=8: the plain product on EpilogueBiasAct without a bias or an
// activation, against cuBLAS, bench/NOTES.md v25); -DKILN_AB_STAGES=S and
// -DKILN_AB_EPISTAGE=E set
// the Config's ring depth (default 4) and epilogue staging (default 0), -DKILN_AB_CLUSTER=2 pairs
// CTAs (sharing B; -DKILN_AB_CLUSTER_N=2: sharing A), -DKILN_AB_BN=128 narrows the tile, next to a
// generated GEMM (kiln compile --emit=cuda, built as a shared object, C = A . B with B stored
// K x N) on the same A. For A/B experiments on the kernel without rebuilding the whole library:
// build this file once per variant of the headers (-I a patched copy first) and run each.
//
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Idevice -Iinclude \
//        bench/sm90_kernel_ab.cu -o ab -ldl
//   ./ab M N K [generated.so]
//   (add -DKILN_AB_CUBLAS ... -lcublas -lcublasLt for the cuBLAS column)
//
// Timing: a CUDA graph of 10 back-to-back launches, replayed; median of 50 replays (cudaEvents),
// L2 flushed before each replay, as bench/gemm_bench_util.py. Prints TFLOP/s, the library
// result's max-abs difference from a float reference on every 61st row (exit 1 past 1% of the
// largest value), and with a generated kernel a max-abs check of the two results against each
// other (both from the same A; the generated one reads B transposed, so the B given to it is the
// transpose of the library's; copy epilogue only). With -DKILN_AB_CUBLAS (link -lcublas) cuBLAS
// runs the same product (cublasGemmEx, bf16 in / fp32 compute / bf16 out) on the same A and B,
// timed with the library in alternation (five rounds each; the ratio is the median of the
// rounds' ratios), so the two see the same clocks; with a bias epilogue the peer is cuBLASLt
// with its fused bias + ReLU / GELU epilogue (also -lcublasLt), as torch._addmm_activation.
// The peer's result is checked against the same reference (PEER MISMATCH, exit 1).
// -DKILN_AB_SPLITK also builds the unpaired split kernel; KILN_AB_TAIL=1 then runs a tail split
// (tail_split.h; one worker per SM, per pair with -DKILN_AB_CLUSTER=2): the whole tiles on the
// configured kernel, the last ones split on that one. -DKILN_AB_BAND_BN=W with KILN_AB_BAND=R
// runs the last R rows of M-tiles as a second, unpaired launch of 128 x W tiles (a retiled
// last wave; bench/NOTES.md "v24"); KILN_AB_GROUP=G sets the rasterization group (default 16).
// -DKILN_AB_BM=64 runs 64-row tiles on one consumer warpgroup; -DKILN_AB_SPLIT_ALL builds the
// configured kernel with split-K, and KILN_AB_SPLITS=S then splits every tile's K in S.
// KILN_AB_SUSTAIN=S (with -DKILN_AB_CUBLAS) replaces the alternation: each of the two runs
// back to back for S seconds, twice, with the SM clock and board power sampled through NVML
// (clock_sampler.h); KILN_AB_ONCE=1 calls each twice untimed (0 TFLOP/s), for Nsight Compute.
// KILN_AB_COLD=R gives both sides R copies of B in turn (each call's B cold in L2 once R copies
// outgrow it, as a model's weights are). KILN_AB_STORE_T=1 stores D column-major, as the library
// stores a transposed product's D^T, and times the plain product's peer on the problem the
// library transposed (cuBLAS's B . A^T, N x M row-major: the same bytes); the bias epilogues'
// peer stays on the problem as given, and the generated kernel's comparison does not apply.
// The kernel defers its stores where its epilogue does (the plain copy, bias + GELU and
// bias + ReLU: holds_tiles in store_deferred.cuh); -DKILN_SM90_DEFER_STORE=0 builds it without,
// the A/B of bench/defer_store_gpu.sh ab.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <functional>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#if defined(KILN_AB_CUBLAS)
#include <cublasLt.h>
#include <cublas_v2.h>
#endif

#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/launch_sm90.cuh"
#include "kiln/gemm/params.h"
#include "../tests/gpu/cuda_check.h"
#include "clock_sampler.h"

namespace {

#ifndef KILN_AB_STAGES
#define KILN_AB_STAGES 4
#endif
#ifndef KILN_AB_EPISTAGE
#define KILN_AB_EPISTAGE 0
#endif
#ifndef KILN_AB_CLUSTER
#define KILN_AB_CLUSTER 1
#endif
#ifndef KILN_AB_BN
#define KILN_AB_BN 256
#endif
#ifndef KILN_AB_CLUSTER_N
#define KILN_AB_CLUSTER_N 1
#endif
using T = __nv_bfloat16;
#if defined(KILN_AB_SPLITK)
constexpr bool kSplitK = true;
#else
constexpr bool kSplitK = false;
#endif
#ifndef KILN_AB_BM
#define KILN_AB_BM 128
#endif
#if defined(KILN_AB_SPLIT_ALL)
constexpr bool kSplitAll = true;
#else
constexpr bool kSplitAll = false;
#endif
using Cfg = kiln::gemm::sm90::Config<T, T, KILN_AB_BN, KILN_AB_STAGES, KILN_AB_CLUSTER, false,
                                     false, 1, kSplitAll, KILN_AB_EPISTAGE, KILN_AB_BM,
                                     KILN_AB_CLUSTER_N>;
// A tail split's second launch (-DKILN_AB_SPLITK): unpaired; split kernels stage no epilogue
// inputs (kernel_sm90.cuh), but the bias + activation kernel's split 0 starts from the bias.
#if defined(KILN_AB_BIAS_ACT)
constexpr int kSplitEpiStage = kiln::gemm::kAccBias;
#else
constexpr int kSplitEpiStage = 0;
#endif
using SplitCfg = kiln::gemm::sm90::Config<T, T, KILN_AB_BN, KILN_AB_STAGES, 1, false, false, 1,
                                          true, kSplitEpiStage, KILN_AB_BM>;
// -DKILN_AB_BAND_BN=W builds a second, unpaired kernel of 128 x W tiles; KILN_AB_BAND=R then
// runs the last R rows of 128 on it after the rest on Cfg: the last, partial wave retiled.
#if defined(KILN_AB_BAND_BN)
#ifndef KILN_AB_BAND_STAGES
#define KILN_AB_BAND_STAGES 5
#endif
using BandCfg = kiln::gemm::sm90::Config<T, T, KILN_AB_BAND_BN, KILN_AB_BAND_STAGES, 1, false,
                                         false, 1, false, KILN_AB_EPISTAGE>;
#endif
#if defined(KILN_AB_GELU)
constexpr auto kAct = kiln::gemm::Activation::GELU;
#elif defined(KILN_AB_PLAIN_BIAS_ACT)
constexpr auto kAct = kiln::gemm::Activation::None;
#else
constexpr auto kAct = kiln::gemm::Activation::ReLU;
#endif
#if defined(KILN_AB_BIAS_ACT) || defined(KILN_AB_PLAIN_BIAS_ACT)
using Epi = kiln::gemm::EpilogueBiasAct<kAct>;
#elif defined(KILN_AB_BIAS_RELU)
using Epi = kiln::gemm::EpilogueLinear<T, kAct>;
#else
using Epi = kiln::gemm::EpilogueCopy;
#endif
using GenLaunch = int (*)(void*, const void*, const void*, int, int, int, cudaStream_t);

__global__ void fill_random(T* p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x) {
        unsigned h = unsigned(i) * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        p[i] = __float2bfloat16(float(h & 0xffff) / 32768.f - 1.f);
    }
}

// The float reference of rows r = kRefStride * i (every tile's halves are sampled: the stride is
// odd), one output element per thread: sum_k a[r,k] b[c,k], then the column bias and the
// activation (kAct, in float64) when `bias` is set. ref is (M / kRefStride + 1) x N.
constexpr int kRefStride = 61;
__global__ void reference(const T* a, const T* b, const T* bias, float* ref, int M, int N, int K) {
    const size_t rows = (M + kRefStride - 1) / kRefStride;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < rows * N;
         i += size_t(gridDim.x) * blockDim.x) {
        const size_t r = i / N * kRefStride, c = i % N;
        float sum = 0.f;
        for (int k = 0; k < K; ++k)
            sum += __bfloat162float(a[r * K + k]) * __bfloat162float(b[c * K + k]);
        if (bias) {
            const double x = sum + __bfloat162float(bias[c]);
            sum = kAct == kiln::gemm::Activation::ReLU
                      ? fmax(x, 0.0)
                      : 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
        }
        ref[i] = sum;
    }
}

__global__ void transpose(const T* in, T* out, int rows, int cols) {  // out = in^T
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < size_t(rows) * cols;
         i += size_t(gridDim.x) * blockDim.x)
        out[(i % cols) * rows + i / cols] = in[i];
}

/// The graph of `calls` back-to-back launches of `launch` on s.
template <class F>
cudaGraphExec_t capture_calls(F&& launch, cudaStream_t s, int calls) {
    cudaGraph_t g;
    KILN_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < calls; ++i) launch();
    KILN_CUDA_CHECK(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t ge;
    KILN_CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
    KILN_CUDA_CHECK(cudaGraphDestroy(g));
    return ge;
}

template <class F>
float median_ms_per_call(F&& launch, cudaStream_t s, void* flush, size_t flush_bytes) {
    constexpr int kCalls = 10, kReps = 50;
    launch();
    KILN_CUDA_CHECK(cudaStreamSynchronize(s));
    cudaGraphExec_t ge = capture_calls(launch, s, kCalls);
    cudaEvent_t t0, t1;
    KILN_CUDA_CHECK(cudaEventCreate(&t0));
    KILN_CUDA_CHECK(cudaEventCreate(&t1));
    std::vector<float> ms;
    for (int r = 0; r < kReps + 5; ++r) {
        KILN_CUDA_CHECK(cudaMemsetAsync(flush, r, flush_bytes, s));
        KILN_CUDA_CHECK(cudaEventRecord(t0, s));
        KILN_CUDA_CHECK(cudaGraphLaunch(ge, s));
        KILN_CUDA_CHECK(cudaEventRecord(t1, s));
        KILN_CUDA_CHECK(cudaEventSynchronize(t1));
        float m = 0;
        KILN_CUDA_CHECK(cudaEventElapsedTime(&m, t0, t1));
        if (r >= 5) ms.push_back(m / kCalls);
    }
    std::sort(ms.begin(), ms.end());
    KILN_CUDA_CHECK(cudaEventDestroy(t0));
    KILN_CUDA_CHECK(cudaEventDestroy(t1));
    KILN_CUDA_CHECK(cudaGraphExecDestroy(ge));
    return ms[ms.size() / 2];
}

/// KILN_AB_SUSTAIN=S: `launch` replayed back to back for about S seconds (graphs of 20 calls,
/// no L2 flush between them, so the board settles at its power limit), the SM clock and power
/// sampled meanwhile. Prints the rate, the clock, and the work per clock (TFLOP/s per GHz),
/// which stays comparable between kernels that the power limit clocks differently.
template <class F>
void print_sustained(const char* who, F&& launch, cudaStream_t s, double seconds, double flop,
                     kiln::bench::ClockSampler& sampler) {
    constexpr int kCalls = 20, kBatch = 8;
    cudaGraphExec_t ge = capture_calls(launch, s, kCalls);
    for (int i = 0; i < kBatch; ++i) KILN_CUDA_CHECK(cudaGraphLaunch(ge, s));  // warm-up
    KILN_CUDA_CHECK(cudaStreamSynchronize(s));
    cudaEvent_t t0, t1;
    KILN_CUDA_CHECK(cudaEventCreate(&t0));
    KILN_CUDA_CHECK(cudaEventCreate(&t1));
    sampler.start();
    KILN_CUDA_CHECK(cudaEventRecord(t0, s));
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    long calls = 0;
    while (std::chrono::steady_clock::now() < until) {
        for (int i = 0; i < kBatch; ++i) KILN_CUDA_CHECK(cudaGraphLaunch(ge, s));
        calls += kBatch * kCalls;
        KILN_CUDA_CHECK(cudaStreamSynchronize(s));
    }
    KILN_CUDA_CHECK(cudaEventRecord(t1, s));
    KILN_CUDA_CHECK(cudaEventSynchronize(t1));
    const auto c = sampler.stop();
    float ms = 0;
    KILN_CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    const double tflops = flop * calls / (ms * 1e9);
    std::printf("  sustained %s %7.1f TFLOP/s at %5.0f MHz %5.1f W (%d samples, reasons 0x%llx) "
                "%6.1f TFLOP/s per GHz\n",
                who, tflops, c.sm_mhz, c.watts, c.samples, (unsigned long long)c.reasons,
                c.sm_mhz > 0 ? tflops / (c.sm_mhz / 1000) : 0.0);
    KILN_CUDA_CHECK(cudaEventDestroy(t0));
    KILN_CUDA_CHECK(cudaEventDestroy(t1));
    KILN_CUDA_CHECK(cudaGraphExecDestroy(ge));
}

bool env_set(const char* name) {
    const char* v = std::getenv(name);
    return v && v[0] && v[0] != '0';
}

#if defined(KILN_AB_CUBLAS)
void check_cublas(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "%s failed\n", what);
        std::exit(2);
    }
}

/// cuBLAS's plain product D (M x N row-major) = A B^T on stream s.
std::function<void()> cublas_plain(const T* a, const T* b, T* d, int M, int N, int K,
                                   cudaStream_t s) {
    cublasHandle_t h;
    check_cublas(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
    check_cublas(cublasSetStream(h, s) == CUBLAS_STATUS_SUCCESS, "cublasSetStream");
    return [=] {
        static const float one = 1.f, zero = 0.f;
        // column-major view: D^T (N x M) = B (N x K, ld K)^T-as-stored . A^T
        check_cublas(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, b, CUDA_R_16BF, K,
                                  a, CUDA_R_16BF, K, &zero, d, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F,
                                  CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS,
                     "cublasGemmEx");
    };
}

/// cuBLASLt's D = act(A B^T + bias[col]) with its fused epilogue (kAct), bf16 bias, the
/// heuristic's first algorithm and a 32 MiB workspace: what torch._addmm_activation runs.
std::function<void()> cublaslt_bias_act(const T* a, const T* b, const T* bias, T* d, int M,
                                        int N, int K, cudaStream_t s) {
    cublasLtHandle_t lt;
    check_cublas(cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS, "cublasLtCreate");
    cublasLtMatmulDesc_t op;
    check_cublas(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) ==
                     CUBLAS_STATUS_SUCCESS,
                 "cublasLtMatmulDescCreate");
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    const cublasLtEpilogue_t ep = kAct == kiln::gemm::Activation::GELU
                                      ? CUBLASLT_EPILOGUE_GELU_BIAS
                                      : CUBLASLT_EPILOGUE_RELU_BIAS;
    const cudaDataType_t bias_type = CUDA_R_16BF;
    auto set = [&](cublasLtMatmulDescAttributes_t attr, const void* v, size_t n) {
        check_cublas(cublasLtMatmulDescSetAttribute(op, attr, v, n) == CUBLAS_STATUS_SUCCESS,
                     "cublasLtMatmulDescSetAttribute");
    };
    set(CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
    set(CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
    set(CUBLASLT_MATMUL_DESC_EPILOGUE, &ep, sizeof ep);
    set(CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias);
    set(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof bias_type);
    // column-major: D^T (N x M) = (B stored K x N)^T . (A stored K x M); bias along D^T's rows
    cublasLtMatrixLayout_t la, lb, ld;
    check_cublas(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, K, N, K) == CUBLAS_STATUS_SUCCESS &&
                     cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, K, M, K) ==
                         CUBLAS_STATUS_SUCCESS &&
                     cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, N, M, N) ==
                         CUBLAS_STATUS_SUCCESS,
                 "cublasLtMatrixLayoutCreate");
    const size_t ws_bytes = 32u << 20;
    void* ws;
    KILN_CUDA_CHECK(cudaMalloc(&ws, ws_bytes));
    cublasLtMatmulPreference_t pref;
    check_cublas(cublasLtMatmulPreferenceCreate(&pref) == CUBLAS_STATUS_SUCCESS &&
                     cublasLtMatmulPreferenceSetAttribute(
                         pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                         sizeof ws_bytes) == CUBLAS_STATUS_SUCCESS,
                 "cublasLtMatmulPreference");
    cublasLtMatmulHeuristicResult_t heur{};
    int found = 0;
    check_cublas(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, ld, ld, pref, 1, &heur,
                                                &found) == CUBLAS_STATUS_SUCCESS &&
                     found > 0,
                 "cublasLtMatmulAlgoGetHeuristic");
    return [=] {
        static const float one = 1.f, zero = 0.f;
        check_cublas(cublasLtMatmul(lt, op, &one, b, la, a, lb, &zero, d, ld, d, ld, &heur.algo,
                                    ws, ws_bytes, s) == CUBLAS_STATUS_SUCCESS,
                     "cublasLtMatmul");
    };
}
#endif

/// Device buffers for `splits` K splits of `cta_tiles` tiles of bm x bn (counters zeroed).
kiln::gemm::SplitK split_buffers(int64_t cta_tiles, int splits, int bm, int bn, cudaStream_t s) {
    kiln::gemm::SplitK sk;
    sk.splits = splits;
    const int64_t counter_bytes = kiln::gemm::split_k_counter_bytes(cta_tiles);
    KILN_CUDA_CHECK(cudaMalloc(&sk.counters, counter_bytes));
    KILN_CUDA_CHECK(cudaMemsetAsync(sk.counters, 0, counter_bytes, s));
    KILN_CUDA_CHECK(
        cudaMalloc(&sk.partials, kiln::gemm::split_k_partial_bytes(cta_tiles, splits, bm, bn)));
    return sk;
}

/// The tail split (params.h) of the launch, with one worker per SM or per pair of SMs, and the
/// split-K workspace of its second launch (counters zeroed); no tiles: none.
struct TailLaunch {
    kiln::gemm::TailSplit tail;
    kiln::gemm::SplitK split;
};
TailLaunch tail_split_workspace(int M, int N, int K, cudaStream_t s) {
    int dev_id = 0, sms = 0;
    KILN_CUDA_CHECK(cudaGetDevice(&dev_id));
    KILN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev_id));
    const int64_t cluster_tiles =
        kiln::gemm::split_k_cta_tiles(M, N, 1, Cfg::BM, Cfg::BN, Cfg::ClusterM) / Cfg::ClusterM;
    TailLaunch t;
    t.tail = kiln::gemm::tail_split_plan(
        cluster_tiles, int(kiln::gemm::k_blocks_of(K, sizeof(T))), sms / Cfg::ClusterM);
    const int64_t cta_tiles = int64_t(t.tail.tiles) * Cfg::ClusterM;
    if (cta_tiles == 0) return t;
    t.split = split_buffers(cta_tiles, t.tail.splits, SplitCfg::BM, SplitCfg::BN, s);
    return t;
}

/// KILN_AB_SPLITS=S (-DKILN_AB_SPLIT_ALL builds): the workspace of S K splits of every tile
/// (counters zeroed); unset or 1: none.
kiln::gemm::SplitK whole_split_workspace(int M, int N, cudaStream_t s) {
    const char* env = std::getenv("KILN_AB_SPLITS");
    const int splits = env ? std::atoi(env) : 1;
    if (!kSplitAll || splits < 2) return {};
    return split_buffers(kiln::gemm::split_k_cta_tiles(M, N, 1, Cfg::BM, Cfg::BN, Cfg::ClusterM),
                         splits, Cfg::BM, Cfg::BN, s);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s M N K [generated.so]\n", argv[0]);
        return 2;
    }
    const int M = std::atoi(argv[1]), N = std::atoi(argv[2]), K = std::atoi(argv[3]);
    GenLaunch gen = nullptr;
    if (argc > 4) {
        void* h = dlopen(argv[4], RTLD_NOW | RTLD_LOCAL);
        gen = h ? reinterpret_cast<GenLaunch>(dlsym(h, "kiln_launch_gemm")) : nullptr;
        if (!gen) {
            std::fprintf(stderr, "%s: no kiln_launch_gemm (%s)\n", argv[4], dlerror());
            return 2;
        }
    }
    cudaStream_t s;
    KILN_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    T *a, *b, *bt, *d, *dg;
    KILN_CUDA_CHECK(cudaMalloc(&a, sizeof(T) * M * K));
    KILN_CUDA_CHECK(cudaMalloc(&b, sizeof(T) * N * K));
    KILN_CUDA_CHECK(cudaMalloc(&bt, sizeof(T) * N * K));
    KILN_CUDA_CHECK(cudaMalloc(&d, sizeof(T) * M * N));
    KILN_CUDA_CHECK(cudaMalloc(&dg, sizeof(T) * M * N));
    const size_t flush_bytes = 256u << 20;
    void* flush;
    KILN_CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
    fill_random<<<1024, 256, 0, s>>>(a, size_t(M) * K, 1);
    fill_random<<<1024, 256, 0, s>>>(b, size_t(N) * K, 2);
    transpose<<<1024, 256, 0, s>>>(b, bt, N, K);

    namespace sm90 = kiln::gemm::sm90;
    const auto va = kiln::gemm::OperandView::matrix(a, M, K, K, false, 0);
    // KILN_AB_COLD=R: R copies of B, the graph's calls taking them in turn (each side's), so that
    // with R copies past the 50 MB L2 every call streams its B from DRAM, as a layer's weights in
    // a model do, instead of finding the previous call's B in L2.
    const char* cold_env = std::getenv("KILN_AB_COLD");
    const int b_copies = cold_env ? std::max(1, std::atoi(cold_env)) : 1;
    std::vector<T*> bs{b};
    for (int i = 1; i < b_copies; ++i) {
        T* c;
        KILN_CUDA_CHECK(cudaMalloc(&c, sizeof(T) * N * K));
        KILN_CUDA_CHECK(cudaMemcpyAsync(c, b, sizeof(T) * N * K, cudaMemcpyDeviceToDevice, s));
        bs.push_back(c);
    }
    int lib_turn = 0;
    // KILN_AB_STORE_T=1: D column-major (element (m, n) at n * M + m), as the library stores a
    // transposed product's D^T (few_rows.cuh)
    const bool store_t = env_set("KILN_AB_STORE_T");
    const auto dv = store_t ? kiln::gemm::OutView::column_major(M, 0)
                            : kiln::gemm::OutView::matrix(N, 0);
    Epi epi{};
    const T* epi_bias = nullptr;  // what the reference adds (before ReLU)
#if defined(KILN_AB_BIAS_RELU) || defined(KILN_AB_BIAS_ACT)
    T* bias;
    KILN_CUDA_CHECK(cudaMalloc(&bias, sizeof(T) * N));
    fill_random<<<64, 256, 0, s>>>(bias, N, 3);
    epi.bias = bias;
    epi_bias = bias;
    epi.bias_type = kiln::gemm::BiasType::BF16;
#ifndef KILN_AB_BIAS_ACT
    epi.bias_mode = kiln::gemm::BiasMode::Col;
    const char* what = "bias+relu";
#else
    const char* what = kAct == kiln::gemm::Activation::GELU ? "bias+gelu compact"
                                                            : "bias+relu compact";
#endif
#elif defined(KILN_AB_PLAIN_BIAS_ACT)
    const char* what = "copy on bias+act";  // no bias, alpha 1, no activation: A B^T exactly
#else
    const char* what = "copy";
#endif
    // KILN_AB_TAIL=1 (-DKILN_AB_SPLITK builds): the whole tiles by Cfg, then the tail's split
    // ones unpaired by SplitCfg, as gemmEx launches a tail split.
    TailLaunch tl;
    const char* tail_env = std::getenv("KILN_AB_TAIL");
    if (kSplitK && tail_env && tail_env[0] == '1') tl = tail_split_workspace(M, N, K, s);
    const kiln::gemm::SplitK whole = whole_split_workspace(M, N, s);
    // KILN_AB_GROUP=G: the rasterization group (M-tiles per group; the library's 16).
    const char* group_env = std::getenv("KILN_AB_GROUP");
    const int group = group_env ? std::atoi(group_env) : 16;
#if defined(KILN_AB_BAND_BN)
    const char* band_env = std::getenv("KILN_AB_BAND");
    const int band_rows = band_env ? std::min(M, std::atoi(band_env) * 128) : 0;
#else
    const int band_rows = 0;  // built without the band kernel: KILN_AB_BAND does nothing
#endif
    auto lib = [&] {
        // this call's copy of B, for every launch of the call (KILN_AB_COLD)
        const auto vb =
            kiln::gemm::OperandView::matrix(bs[lib_turn++ % b_copies], N, K, K, false, 0);
#if defined(KILN_AB_BAND_BN)
        if (band_rows > 0) {
            const int m1 = M - band_rows;
            KILN_CUDA_CHECK(sm90::launch_views<Cfg>(
                kiln::gemm::OperandView::matrix(a, m1, K, K, false, 0), vb, d, dv, m1, N, K, 1,
                epi, s, group));
            KILN_CUDA_CHECK(sm90::launch_views<BandCfg>(
                kiln::gemm::OperandView::matrix(a + size_t(m1) * K, band_rows, K, K, false, 0),
                vb, d + size_t(m1) * N, dv, band_rows, N, K, 1, epi, s, group));
            return;
        }
#endif
        if (!tl.tail.tiles) {
            KILN_CUDA_CHECK(sm90::launch_views<Cfg>(va, vb, d, dv, M, N, K, 1, epi, s, group, {},
                                                    whole));
            return;
        }
        if constexpr (kSplitK) {
            KILN_CUDA_CHECK(sm90::launch_views<Cfg>(va, vb, d, dv, M, N, K, 1, epi, s, group, {},
                                                    {}, kiln::gemm::whole_tiles(tl.tail)));
            KILN_CUDA_CHECK(sm90::launch_views<SplitCfg>(
                va, vb, d, dv, M, N, K, 1, epi, s, group, {}, tl.split,
                kiln::gemm::split_tiles(tl.tail, Cfg::ClusterM)));
        }
    };
    const double flop = 2.0 * M * N * K;
    // KILN_AB_ONCE=1: two calls of each kernel and no timing (for Nsight Compute).
    const bool once = env_set("KILN_AB_ONCE");
    const char* sustain = std::getenv("KILN_AB_SUSTAIN");
    const double sustain_s = sustain ? std::atof(sustain) : 0;
    float t_lib = 0;
    if (once) {
        lib();
        lib();
    } else {
        t_lib = median_ms_per_call(lib, s, flush, flush_bytes);
    }
    std::printf("%dx%dx%d library %dx%d c%dx%d %s stages=%d epistage=%d staging=%d tail=%d/%d "
                "splits=%d defer=%d band=%d: %7.1f TFLOP/s",
                M, N, K, Cfg::BM, Cfg::BN, Cfg::ClusterM, Cfg::ClusterN, what, Cfg::Stages,
                KILN_AB_EPISTAGE,
                Cfg::StagingPerConsumer, tl.tail.tiles, tl.tail.first,
                tl.tail.tiles ? tl.tail.splits : whole.splits,
                int(kiln::gemm::sm90::StorePlan<Cfg, Epi>::DeferStore), band_rows,
                once ? 0.0 : flop / t_lib / 1e9);
    // The float reference on sampled rows; off_reference(out) prints the largest difference of
    // a device result from it and says whether it exceeds 1% of the largest value.
    std::vector<float> hr;
    {
        const int rows = (M + kRefStride - 1) / kRefStride;
        float* ref;
        KILN_CUDA_CHECK(cudaMalloc(&ref, sizeof(float) * rows * N));
        reference<<<4096, 256, 0, s>>>(a, b, epi_bias, ref, M, N, K);
        // cudaMemcpy runs on the legacy stream, which does not wait for a non-blocking one
        KILN_CUDA_CHECK(cudaStreamSynchronize(s));
        hr.resize(size_t(rows) * N);
        KILN_CUDA_CHECK(
            cudaMemcpy(hr.data(), ref, sizeof(float) * hr.size(), cudaMemcpyDeviceToHost));
        KILN_CUDA_CHECK(cudaFree(ref));
    }
    auto off_reference = [&](const T* out, bool col_major) {
        KILN_CUDA_CHECK(cudaStreamSynchronize(s));
        std::vector<T> hd(size_t(M) * N);
        KILN_CUDA_CHECK(cudaMemcpy(hd.data(), out, sizeof(T) * hd.size(), cudaMemcpyDeviceToHost));
        float diff = 0, mag = 0;
        for (size_t i = 0; i < hr.size(); ++i) {
            const size_t m = i / N * kRefStride, n = i % N;
            const size_t at = col_major ? n * M + m : m * N + n;
            diff = std::max(diff, std::abs(__bfloat162float(hd[at]) - hr[i]));
            mag = std::max(mag, std::abs(hr[i]));
        }
        std::printf("  reference max|diff| %.3g of %.3g", diff, mag);
        return !(diff <= 0.01f * mag);
    };
    if (off_reference(d, store_t)) {
        std::printf("  MISMATCH\n");
        return 1;
    }
#if defined(KILN_AB_CUBLAS)
    {
        T* dc;
        KILN_CUDA_CHECK(cudaMalloc(&dc, sizeof(T) * M * N));
        std::vector<std::function<void()>> peers;
        for (T* bi : bs)
            peers.push_back(epi_bias  ? cublaslt_bias_act(a, bi, epi_bias, dc, M, N, K, s)
                            : store_t ? cublas_plain(bi, a, dc, N, M, K, s)  // B . A^T
                                      : cublas_plain(a, bi, dc, M, N, K, s));
        int peer_turn = 0;
        const auto run_cublas = [&] { peers[peer_turn++ % b_copies](); };
        const auto peer_off = [&] {  // the peer computes what the library does
            if (!off_reference(dc, store_t && !epi_bias)) return false;
            std::printf("  PEER MISMATCH\n");
            return true;
        };
        if (once || sustain_s > 0) {
            run_cublas();
            run_cublas();
            if (peer_off()) return 1;
            std::printf("\n");
            if (once) return 0;
            // Two rounds each, alternating, so that drift in the board's state shows.
            kiln::bench::ClockSampler sampler;
            if (!sampler.ok()) std::printf("  (NVML not available: no clock or power)\n");
            for (int round = 0; round < 2; ++round) {
                print_sustained("library", lib, s, sustain_s, flop, sampler);
                print_sustained(epi_bias ? "cuBLASLt" : "cuBLAS ", run_cublas, s, sustain_s,
                                flop, sampler);
            }
            return 0;
        }
        std::vector<float> ratios;
        float t_cu = 0;
        for (int round = 0; round < 5; ++round) {
            t_cu = median_ms_per_call(run_cublas, s, flush, flush_bytes);
            const float t_l = median_ms_per_call(lib, s, flush, flush_bytes);
            ratios.push_back(t_cu / t_l);
        }
        std::sort(ratios.begin(), ratios.end());
        std::printf("  %s %7.1f TFLOP/s  library/peer %.3f [%.3f, %.3f]",
                    epi_bias ? "cuBLASLt" : "cuBLAS", flop / t_cu / 1e9, ratios[2], ratios[0],
                    ratios[4]);
        if (peer_off()) return 1;
        KILN_CUDA_CHECK(cudaFree(dc));
    }
#endif
    if (gen && !store_t) {
        auto run_gen = [&] {
            if (int rc = gen(dg, a, bt, M, N, K, s)) {
                std::fprintf(stderr, "generated launcher returned %d\n", rc);
                std::exit(2);
            }
        };
        const float t_gen = median_ms_per_call(run_gen, s, flush, flush_bytes);
        KILN_CUDA_CHECK(cudaStreamSynchronize(s));
        std::vector<T> hd(size_t(M) * N), hg(size_t(M) * N);
        KILN_CUDA_CHECK(cudaMemcpy(hd.data(), d, sizeof(T) * hd.size(), cudaMemcpyDeviceToHost));
        KILN_CUDA_CHECK(cudaMemcpy(hg.data(), dg, sizeof(T) * hg.size(), cudaMemcpyDeviceToHost));
        float diff = 0, mag = 0;
        for (size_t i = 0; i < hd.size(); ++i) {
            diff = std::max(diff, std::abs(__bfloat162float(hd[i]) - __bfloat162float(hg[i])));
            mag = std::max(mag, std::abs(__bfloat162float(hg[i])));
        }
        std::printf("  generated: %7.1f TFLOP/s  library/generated %.3f  max|diff| %.3g of %.3g",
                    flop / t_gen / 1e9, t_gen / t_lib, diff, mag);
        // the generated kernel is the plain product: comparable with the copy epilogue only
        if (!epi_bias && !(diff <= 0.02f * mag)) {
            std::printf("  MISMATCH\n");
            return 1;
        }
    }
    std::printf("\n");
    return 0;
}
