// permute_tensor (device/kiln/gemm/permute.cuh) on the GPU: every kernel form (16-byte and
// scalar gathers, pair and scalar transposes) against a host reference on fresh random bits,
// ragged and odd extents included, then the two copies the GETT benchmark makes timed against
// cudaMemcpyAsync of the same bytes (the bandwidth a copy can reach).
//
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Idevice \
//        tests/gpu/permute_check.cu -o permute_check && ./permute_check
// Exit status: 0 when every case matches, 1 otherwise.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "kiln/gemm/permute.cuh"
#include "cuda_check.h"

namespace {

struct Case {
    const char *from, *to;
    std::map<char, int> ext;
    const char* form;  // which kernel it exercises
};

void extents(const Case& c, int (&e)[26]) {
    for (int& x : e) x = 1;
    for (auto [m, n] : c.ext) e[m - 'a'] = n;
}

/// dst[...] = src[...] on the host, by walking the destination in order.
std::vector<uint16_t> reference(const std::vector<uint16_t>& src, const Case& c, const int* e) {
    const std::string from = c.from, to = c.to;
    const int64_t n = kiln::gemm::gett::elements(to, e);
    std::vector<uint16_t> out(n);
    for (int64_t i = 0; i < n; ++i) {
        int64_t rem = i, s = 0;
        for (int k = int(to.size()) - 1; k >= 0; --k) {
            const int64_t x = rem % e[to[k] - 'a'];
            rem /= e[to[k] - 'a'];
            s += x * kiln::gemm::gett::mode_stride(from, to[k], e);
        }
        out[i] = src[s];
    }
    return out;
}

bool check(const Case& c, std::mt19937& rng) {
    int e[26];
    extents(c, e);
    const int64_t n = kiln::gemm::gett::elements(c.from, e);
    std::vector<uint16_t> h(n);
    for (auto& x : h) x = uint16_t(rng());
    uint16_t *src, *dst;
    KILN_CUDA_CHECK(cudaMalloc(&src, 2 * n + 16));
    KILN_CUDA_CHECK(cudaMalloc(&dst, 2 * n + 16));
    KILN_CUDA_CHECK(cudaMemcpy(src, h.data(), 2 * n, cudaMemcpyHostToDevice));
    KILN_CUDA_CHECK(cudaMemset(dst, 0xff, 2 * n));
    const cudaError_t err =
        kiln::gemm::permute::permute_tensor(src, c.from, dst, c.to, e, cudaStream_t(0));
    KILN_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<uint16_t> got(n);
    KILN_CUDA_CHECK(cudaMemcpy(got.data(), dst, 2 * n, cudaMemcpyDeviceToHost));
    const auto want = reference(h, c, e);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) bad += got[i] != want[i];
    std::printf("%s %s -> %s (%s, %lld elements): %s\n", bad || err ? "FAIL" : "PASS", c.from, c.to,
                c.form, (long long)n, err ? cudaGetErrorString(err) : bad ? "mismatch" : "exact");
    KILN_CUDA_CHECK(cudaFree(src));
    KILN_CUDA_CHECK(cudaFree(dst));
    return !bad && !err;
}

template <class F>
float median_us(F&& f) {
    cudaEvent_t a, b;
    KILN_CUDA_CHECK(cudaEventCreate(&a));
    KILN_CUDA_CHECK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < 25; ++r) {
        KILN_CUDA_CHECK(cudaEventRecord(a));
        for (int i = 0; i < 10; ++i) f();
        KILN_CUDA_CHECK(cudaEventRecord(b));
        KILN_CUDA_CHECK(cudaEventSynchronize(b));
        float ms = 0;
        KILN_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
        if (r >= 5) t.push_back(ms * 100.f);  // per call, us
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

void time_copy(const Case& c) {
    int e[26];
    extents(c, e);
    const int64_t n = kiln::gemm::gett::elements(c.from, e);
    uint16_t *src, *dst;
    KILN_CUDA_CHECK(cudaMalloc(&src, 2 * n));
    KILN_CUDA_CHECK(cudaMalloc(&dst, 2 * n));
    KILN_CUDA_CHECK(cudaMemset(src, 1, 2 * n));
    const float t_perm = median_us([&] {
        KILN_CUDA_CHECK(
            kiln::gemm::permute::permute_tensor(src, c.from, dst, c.to, e, cudaStream_t(0)));
    });
    const float t_copy =
        median_us([&] {
            KILN_CUDA_CHECK(cudaMemcpyAsync(dst, src, 2 * n, cudaMemcpyDeviceToDevice));
        });
    const double gb = 4.0 * n / 1e3;  // read + write, in GB/s per us
    std::printf("time %s -> %s (%s, %.1f MiB): permute %.1f us (%.0f GB/s), memcpy %.1f us "
                "(%.0f GB/s), memcpy/permute %.2f\n",
                c.from, c.to, c.form, 2.0 * n / (1 << 20), t_perm, gb / t_perm, t_copy,
                gb / t_copy, t_copy / t_perm);
    KILN_CUDA_CHECK(cudaFree(src));
    KILN_CUDA_CHECK(cudaFree(dst));
}

}  // namespace

int main() {
    std::mt19937 rng(std::random_device{}());
    const Case cases[] = {
        {"dbc", "bcd", {{'d', 64}, {'b', 200}, {'c', 32}}, "pair transpose"},
        {"dca", "acd", {{'d', 136}, {'c', 64}, {'a', 8}}, "pair transpose"},
        {"abcd", "dbca", {{'a', 6}, {'b', 5}, {'c', 4}, {'d', 34}}, "pair transpose, ragged"},
        {"xy", "yx", {{'x', 100}, {'y', 64}}, "pair transpose, 64-wide tiles, ragged rows"},
        {"xy", "yx", {{'x', 1000}, {'y', 18}}, "pair transpose, 32-wide tiles, ragged"},
        {"dca", "acd", {{'d', 7}, {'c', 5}, {'a', 3}}, "scalar transpose, odd"},
        {"xy", "yx", {{'x', 301}, {'y', 47}}, "scalar transpose, 64-wide tiles, odd"},
        {"dbc", "bdc", {{'d', 8}, {'b', 200}, {'c', 32}}, "16-byte gather"},
        {"xyz", "yxz", {{'x', 5}, {'y', 7}, {'z', 3}}, "scalar gather, odd"},
        {"ab", "ab", {{'a', 33}, {'b', 40}}, "plain copy"},
        {"a", "a", {{'a', 1}}, "one element"},
    };
    bool ok = true;
    for (const Case& c : cases) ok = check(c, rng) && ok;
    // the GETT benchmark's copies (bench/gemm_bench.py): ab = acd * dbc copies B, abc = dca * bd
    // copies A
    time_copy({"dbc", "bcd", {{'d', 64}, {'b', 2048}, {'c', 32}}, "pair transpose"});
    time_copy({"dca", "acd", {{'d', 2048}, {'c', 64}, {'a', 32}}, "pair transpose"});
    std::printf("permute_check: %s\n", ok ? "all exact" : "FAILURES");
    return ok ? 0 : 1;
}
