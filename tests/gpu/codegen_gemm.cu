// Runs a GEMM-family kernel that `kiln compile --emit=cuda` generated on random bf16 data (f16
// with -DKILN_F16, for programs compiled with --dtype bf16=f16), checks it against a float64
// reference (every element for small shapes, sampled ones for large), and times it side by side
// with its cuBLAS peers (16-bit inputs, fp32 accumulation; CUDA-graph replays in alternating
// rounds, see time_interleaved):
//   gemm (default)    C = A B                    peer: cublasGemmEx
//   -DKILN_SPLITK     C = A B (gemm_splitk.kiln: split K, fp32 partial sums, conversion kernel)
//                                                 peer: cublasGemmEx
//   -DKILN_Z=batch    C[z] = A[z] B[z]            peer: cublasGemmStridedBatchedEx
//   -DKILN_ROWSUM     C = A B, r[i] = sum_j C    peers: cublasGemmEx alone (the plain GEMM the
//                     (fp32 accumulator rows)     fused reduction should cost nothing over), and
//                                                 cublasGemmEx + a row-sum kernel (unfused)
//   -DKILN_DUAL       O = silu(A B1) * (A B2)    peers: the best unfused sequence: two
//                                                 cublasGemmEx + an elementwise kernel, or one
//                                                 cublasGemmEx on [B1 | B2] + the elementwise
//                                                 kernel (ratio against the faster)
// Writes one JSON object to argv[1]; exit 2 when the result is wrong.
//
// Build (tests/gpu/codegen_gemm.sh does this on the GPU machine):
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Idevice \
//        -DKILN_GENERATED='"gemm.cu"' -DKILN_M=4096 -DKILN_N=4096 -DKILN_K=4096 \
//        tests/gpu/codegen_gemm.cu -lcublas
#include KILN_GENERATED

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int M = KILN_M, N = KILN_N, K = KILN_K;
#ifdef KILN_Z
constexpr int Z = KILN_Z;
#else
constexpr int Z = 1;
#endif
constexpr size_t MK = size_t(M) * K, KN = size_t(K) * N, MN = size_t(M) * N;
#if defined(KILN_F16)
using elem = __half;
using elem2 = __half2;
constexpr cudaDataType_t kElemType = CUDA_R_16F;
constexpr const char* kElemName = "f16";
#else
using elem = __nv_bfloat16;
using elem2 = __nv_bfloat162;
constexpr cudaDataType_t kElemType = CUDA_R_16BF;
constexpr const char* kElemName = "bf16";
#endif
// Both 16-bit types convert from float (round to nearest) and to float.
__host__ __device__ inline float to_f32(elem x) {
    return float(x);
}
__host__ __device__ inline elem from_f32(float x) {
    return elem(x);
}

#define CHECK_CUDA(x)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                          \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

std::vector<elem> random_elems(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<elem> v(n);
    for (auto& x : v)
        x = from_f32(u(rng));
    return v;
}

elem* to_device(const std::vector<elem>& h) {
    elem* d = nullptr;
    CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(elem)));
    CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(elem), cudaMemcpyHostToDevice));
    return d;
}

template <class T> std::vector<T> to_host(const T* d, size_t n) {
    std::vector<T> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

double dot(const std::vector<elem>& a, const std::vector<elem>& b, int z, int r, int c) {
    double s = 0;
    for (int k = 0; k < K; ++k)
        s += double(to_f32(a[z * MK + size_t(r) * K + k])) *
             double(to_f32(b[z * KN + size_t(k) * N + c]));
    return s;
}

// Every launch (kiln's, cuBLAS's, the peers' kernels) goes to this stream, so it can be captured.
cudaStream_t g_stream = nullptr;

// `calls` back-to-back calls of f captured as one CUDA graph: replaying it times the device work
// alone (the host side of every launch — kiln's launcher, cuBLAS picking its kernel — would
// otherwise be timed instead of a 12 us GEMM).
cudaGraphExec_t capture(const std::function<void()>& f, int calls) {
    cudaGraph_t graph;
    CHECK_CUDA(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < calls; ++i)
        f();
    CHECK_CUDA(cudaStreamEndCapture(g_stream, &graph));
    size_t nodes = 0; // a call that launched nothing would time as free
    CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
    if (nodes < size_t(calls)) {
        std::fprintf(stderr, "capture: %zu graph nodes for %d calls\n", nodes, calls);
        std::exit(1);
    }
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    CHECK_CUDA(cudaGraphDestroy(graph));
    return exec;
}

// Mean time of one call, over a replay of `exec` holding `calls` calls.
float replay_ms(cudaGraphExec_t exec, int calls) {
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0, g_stream);
    CHECK_CUDA(cudaGraphLaunch(exec, g_stream));
    cudaEventRecord(t1, g_stream);
    CHECK_CUDA(cudaEventSynchronize(t1));
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    return ms / calls;
}

struct Timing {
    std::string peer;
    std::function<void()> run;
    float ms = 0;
};

// kiln and its peers are timed as CUDA-graph replays (~5 ms of calls each) in 7 alternating
// rounds after a shared warm-up of ~100 ms, and each gets its median round: clocks that ramp up
// or throttle over the run then hit every contender alike. (Timing each in one block of stream
// launches, peers first, moved ratios by 10-25% between processes.) quick (compute-sanitizer):
// one call each.
void time_interleaved(const std::vector<Timing*>& all, bool quick) {
    auto once_ms = [](const std::function<void()>& f) {
        auto exec = capture(f, 1);
        const float ms = replay_ms(exec, 1);
        cudaGraphExecDestroy(exec);
        return ms;
    };
    if (quick) {
        for (auto* t : all)
            t->ms = once_ms(t->run);
        return;
    }
    std::vector<int> calls;
    std::vector<cudaGraphExec_t> graphs;
    for (auto* t : all) {
        once_ms(t->run); // the first call loads modules and runs cuBLAS's heuristics
        calls.push_back(std::clamp(int(5.f / std::max(once_ms(t->run), 1e-3f)), 3, 2000));
        graphs.push_back(capture(t->run, calls.back()));
    }
    for (int warm = 0; warm < 20 / int(all.size()); ++warm)
        for (size_t i = 0; i < all.size(); ++i)
            replay_ms(graphs[i], calls[i]);
    std::vector<std::vector<float>> rounds(all.size());
    for (int r = 0; r < 7; ++r)
        for (size_t i = 0; i < all.size(); ++i)
            rounds[i].push_back(replay_ms(graphs[i], calls[i]));
    for (size_t i = 0; i < all.size(); ++i) {
        std::sort(rounds[i].begin(), rounds[i].end());
        all[i]->ms = rounds[i][rounds[i].size() / 2];
        cudaGraphExecDestroy(graphs[i]);
    }
}

// Row-major C (M x N) = A (M x K) B (K x N), i.e. column-major C^T = B^T A^T; ldb/ldc = n.
void cublas_gemm(cublasHandle_t h, const elem* a, const elem* b, elem* c, int n) {
    const float alpha = 1.f, beta = 0.f;
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, M, K, &alpha, b, kElemType, n, a, kElemType, K,
                 &beta, c, kElemType, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

#if defined(KILN_DUAL)
// silu(g) * u over element pairs; g and u rows of length n with row strides ldg / ldu.
__global__ void swiglu_kernel(const elem* g, const elem* u, elem* o, int ldg, int ldu) {
    const size_t i = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) * 2;
    if (i >= MN)
        return;
    const size_t r = i / N, c = i % N;
    const elem2 gp = *reinterpret_cast<const elem2*>(g + r * ldg + c);
    const elem2 up = *reinterpret_cast<const elem2*>(u + r * ldu + c);
    const float2 gv{to_f32(gp.x), to_f32(gp.y)}, uv{to_f32(up.x), to_f32(up.y)};
    *reinterpret_cast<elem2*>(o + i) = elem2(from_f32(gv.x / (1.f + __expf(-gv.x)) * uv.x),
                                             from_f32(gv.y / (1.f + __expf(-gv.y)) * uv.y));
}

#endif

#if defined(KILN_ROWSUM)
// One warp per row: r[row] = sum of the row's 16-bit values in fp32.
__global__ void rowsum_kernel(const elem* c, float* r) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= M)
        return;
    float s = 0;
    for (int j = threadIdx.x % 32; j < N; j += 32)
        s += to_f32(c[size_t(row) * N + j]);
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if (threadIdx.x % 32 == 0)
        r[row] = s;
}
#endif

struct Check {
    double max_err = 0;
    long bad = 0, checked = 0;
    // 16-bit output: half an ulp of rounding (2^-9 relative for bf16) plus fp32 accumulation order.
    void element(double got, double ref) {
        double err = std::fabs(got - ref);
        max_err = std::max(max_err, std::isnan(err) ? INFINITY : err);
        if (!(err <= 8e-3 * std::fabs(ref) + 1e-3 * std::sqrt(double(K))))
            ++bad;
        ++checked;
    }
};

// The elements checked: all of them for small problems, else a sample with the ragged edges.
template <class F> void for_checked(bool full, F&& f) {
    if (full) {
        for (int z = 0; z < Z; ++z)
            for (int r = 0; r < M; ++r)
                for (int c = 0; c < N; ++c)
                    f(z, r, c);
        return;
    }
    std::mt19937 rng(3);
    for (int s = 0; s < 4096; ++s)
        f(rng() % Z, rng() % M, rng() % N);
    for (int s = 0; s < 64; ++s) // the ragged last rows / columns
        f(rng() % Z, M - 1 - s % 4, rng() % N), f(rng() % Z, rng() % M, N - 1 - s % 4);
}

} // namespace

int main(int argc, char** argv) {
    const char* out_path = argc > 1 ? argv[1] : "codegen_gemm.json";
    const bool full = double(Z) * M * N * K <= 1e9;
    const char* iters_env = std::getenv("KILN_ITERS"); // 1 under compute-sanitizer
    const bool quick = iters_env && std::atoi(iters_env) <= 1;
    cublasHandle_t h;
    CHECK_CUDA(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
    cublasCreate(&h);
    cublasSetStream(h, g_stream);
    auto ha = random_elems(Z * MK, 1), hb = random_elems(Z * KN, 2);
    elem *da = to_device(ha), *db = to_device(hb), *dc = nullptr, *dpeer = nullptr;
    CHECK_CUDA(cudaMalloc(&dc, Z * MN * sizeof(elem)));
    CHECK_CUDA(cudaMemset(dc, 0xff, Z * MN * sizeof(elem))); // NaN: unwritten elements fail
    Check check;
    std::vector<Timing> peers;
    std::string kind;
    double flop = 2.0 * Z * M * N * K;
#if defined(KILN_DUAL)
    kind = "dual_gemm_swiglu";
    flop *= 2;
    auto hb2 = random_elems(KN, 4);
    elem* db2 = to_device(hb2);
    auto launch = [&] { return kiln_launch_dual_gemm(dc, da, db, db2, M, N, K, g_stream); };
#elif defined(KILN_ROWSUM)
    kind = "gemm_rowsum";
    float* dr = nullptr;
    CHECK_CUDA(cudaMalloc(&dr, M * sizeof(float)));
    CHECK_CUDA(cudaMemset(dr, 0xff, M * sizeof(float)));
    auto launch = [&] { return kiln_launch_gemm_rowsum(dc, dr, da, db, M, N, K, g_stream); };
#elif defined(KILN_Z)
    kind = "batched_gemm";
    auto launch = [&] { return kiln_launch_batched_gemm(dc, da, db, Z, M, N, K, g_stream); };
#elif defined(KILN_SPLITK)
    kind = "gemm";
    auto launch = [&] { return kiln_launch_gemm_splitk(dc, da, db, M, N, K, g_stream); };
#else
    kind = "gemm";
    auto launch = [&] { return kiln_launch_gemm(dc, da, db, M, N, K, g_stream); };
#endif
    int rc = launch();
    cudaError_t run = cudaDeviceSynchronize();
    if (rc != 0 || run != cudaSuccess) {
        std::fprintf(stderr, "kiln launch: rc %d, %s\n", rc, cudaGetErrorString(run));
        return 1;
    }
    const auto hc = to_host(dc, Z * MN);
    CHECK_CUDA(cudaMalloc(&dpeer, 2 * Z * MN * sizeof(elem)));
#if defined(KILN_DUAL)
    for_checked(full, [&](int z, int r, int c) {
        const double g = dot(ha, hb, z, r, c), u = dot(ha, hb2, z, r, c);
        check.element(to_f32(hc[size_t(r) * N + c]), g / (1 + std::exp(-g)) * u);
    });
    // Unfused: G and U in 16 bits (as a model would keep them), then the elementwise kernel.
    elem *dg = dpeer, *du = dpeer + MN, *dcat = nullptr, *dgu = nullptr;
    std::vector<elem> hcat(size_t(K) * 2 * N);
    for (int k = 0; k < K; ++k)
        for (int c = 0; c < N; ++c) {
            hcat[size_t(k) * 2 * N + c] = hb[size_t(k) * N + c];
            hcat[size_t(k) * 2 * N + N + c] = hb2[size_t(k) * N + c];
        }
    dcat = to_device(hcat);
    CHECK_CUDA(cudaMalloc(&dgu, 2 * MN * sizeof(elem)));
    const int ew_blocks = int((MN / 2 + 255) / 256);
    peers.push_back({"2x cublasGemmEx + swiglu kernel", [&] {
                         cublas_gemm(h, da, db, dg, N);
                         cublas_gemm(h, da, db2, du, N);
                         swiglu_kernel<<<ew_blocks, 256, 0, g_stream>>>(dg, du, dg, N, N);
                     }});
    peers.push_back({"cublasGemmEx on [B1|B2] + swiglu kernel", [&] {
                         cublas_gemm(h, da, dcat, dgu, 2 * N);
                         swiglu_kernel<<<ew_blocks, 256, 0, g_stream>>>(dgu, dgu + N, dg, 2 * N,
                                                                        2 * N);
                     }});
#elif defined(KILN_ROWSUM)
    const auto hr = to_host(dr, M);
    for_checked(full, [&](int z, int r, int c) {
        check.element(to_f32(hc[size_t(r) * N + c]), dot(ha, hb, z, r, c));
    });
    // Row sums of the fp32 accumulator: every row when small, else 48 rows incl. the last.
    std::vector<int> rows;
    for (int r = 0; r < M; r += full ? 1 : std::max(1, M / 47))
        rows.push_back(r);
    rows.push_back(M - 1);
    for (int r : rows) {
        double ref = 0, mag = 0;
        for (int c = 0; c < N; ++c) {
            const double v = dot(ha, hb, 0, r, c);
            ref += v;
            mag += std::fabs(v);
        }
        const double err = std::fabs(hr[r] - ref);
        check.max_err = std::max(check.max_err, std::isnan(err) ? INFINITY : err);
        if (!(err <= 1e-5 * mag + 1e-3))
            ++check.bad;
        ++check.checked;
    }
    peers.push_back({"cublasGemmEx (no reduction)", [&] { cublas_gemm(h, da, db, dpeer, N); }});
    float* dr_peer = nullptr;
    CHECK_CUDA(cudaMalloc(&dr_peer, M * sizeof(float)));
    peers.push_back({"cublasGemmEx + row-sum kernel", [&] {
                         cublas_gemm(h, da, db, dpeer, N);
                         rowsum_kernel<<<(M + 7) / 8, 256, 0, g_stream>>>(dpeer, dr_peer);
                     }});
#else
    for_checked(full, [&](int z, int r, int c) {
        check.element(to_f32(hc[z * MN + size_t(r) * N + c]), dot(ha, hb, z, r, c));
    });
    auto cublas = [&] {
        const float alpha = 1.f, beta = 0.f;
        if (Z == 1)
            cublas_gemm(h, da, db, dpeer, N);
        else
            cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, db, kElemType,
                                       N, KN, da, kElemType, K, MK, &beta, dpeer, kElemType, N, MN,
                                       Z, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    peers.push_back({Z == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx", cublas});
#endif
    Timing kiln{"kiln", [&] {
                    if (launch() != 0) {
                        std::fprintf(stderr, "kiln launch failed while timing\n");
                        std::exit(1);
                    }
                }};
    std::vector<Timing*> contenders{&kiln};
    for (auto& p : peers)
        contenders.push_back(&p);
    time_interleaved(contenders, quick);
    const float kiln_ms = kiln.ms;
    CHECK_CUDA(cudaGetLastError());
    float best = peers[0].ms;
    for (const auto& p : peers)
        best = std::min(best, p.ms);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);

    FILE* f = std::fopen(out_path, "w");
    std::fprintf(f,
                 "{\"kind\": \"%s\", \"dtype\": \"%s\", \"gpu\": \"%s\", \"sm_clock_max_mhz\": %d, "
                 "\"batch\": %d, "
                 "\"M\": %d, \"N\": %d, \"K\": %d, \"checked\": %ld, \"full_check\": %s, "
                 "\"bad\": %ld, \"max_abs_err\": %.6g, \"kiln_ms\": %.5f, \"kiln_tflops\": %.2f, "
                 "\"peers\": [",
                 kind.c_str(), kElemName, prop.name, clock_khz / 1000, Z, M, N, K, check.checked,
                 full ? "true" : "false", check.bad, check.max_err, kiln_ms, flop / kiln_ms / 1e9);
    for (size_t i = 0; i < peers.size(); ++i)
        std::fprintf(f, "%s{\"peer\": \"%s\", \"ms\": %.5f, \"ratio\": %.3f}", i ? ", " : "",
                     peers[i].peer.c_str(), peers[i].ms, peers[i].ms / kiln_ms);
    std::fprintf(f, "], \"ratio_vs_best_peer\": %.3f}\n", best / kiln_ms);
    std::fclose(f);
    std::printf("%s %s %dx%dx%dx%d: %s (%ld bad of %ld, max err %.3g), kiln %.1f TFLOP/s",
                kind.c_str(), kElemName, Z, M, N, K, check.bad ? "WRONG" : "correct", check.bad,
                check.checked, check.max_err, flop / kiln_ms / 1e9);
    for (const auto& p : peers)
        std::printf(", %s %.3fx", p.peer.c_str(), p.ms / kiln_ms);
    std::printf("\n");
    return check.bad ? 2 : 0;
}
