// GPU unit tests of device/kiln/*.cuh (and the GEMM library's 16-bit pack): each mechanism
// checked by a small kernel against host arithmetic. Build:
//   nvcc -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Idevice tests/gpu/test_device_lib.cu \
//        -o test_device_lib
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <vector>

#include "kiln/atomic.cuh"
#include "kiln/barrier.cuh"
#include "kiln/fence.cuh"
#include "kiln/gemm/numeric.cuh"
#include "kiln/grid_dependency.cuh"
#include "kiln/math.cuh"
#include "kiln/mbarrier.cuh"
#include "kiln/smem.cuh"
#include "kiln/swizzle.cuh"
#include "kiln/tma.cuh"
#include "kiln/vector.cuh"
#include "kiln/wgmma.cuh"
#include "cuda_check.h"

namespace dev = kiln::dev;
static int failures = 0;
static void expect(bool ok, const char* what) {
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    failures += !ok;
}

// 1. TMA load of a 64x64 bf16 box with 128B swizzle lands where swizzle::offset says.
__global__ void tma_swizzle_kernel(const __grid_constant__ CUtensorMap map, uint16_t* out, int c0,
                                   int c1) {
    __shared__ alignas(1024) uint16_t tile[64 * 64];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        dev::mbarrier::init(&bar, 1);
        dev::fence::mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        dev::mbarrier::arrive_expect_tx(&bar, sizeof(tile));
        dev::tma::load(tile, &map, &bar, c0, c1);
    }
    dev::mbarrier::wait(&bar, 0);
    for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) out[i] = tile[i];
}

// 2. wgmma m64n64 from K-major 128B-swizzled tiles (written with swizzle::offset): 64 rows of
// 128 bytes each (64 bf16 or 128 e4m3 k), four instructions of 32 bytes of k; ScaleB = -1
// negates B inside the instruction. RS: A from registers instead (mma_rs), each thread packing
// its slice of A from global memory in the layout mma_rs documents.
template <class T, dev::wgmma::DType DT, int ScaleB, bool RS = false>
__global__ void wgmma_kernel(const T* a, const T* b, float* d) {
    constexpr int KE = 128 / sizeof(T);  // k elements per row
    __shared__ alignas(1024) T sa[64 * KE];
    __shared__ alignas(1024) T sb[64 * KE];
    for (int i = threadIdx.x; i < 64 * KE; i += 128) {
        int r = i / KE, k = i % KE;
        uint32_t off = dev::swizzle::offset<dev::swizzle::Mode::B128>(r, k * sizeof(T)) / sizeof(T);
        sa[off] = a[i];
        sb[off] = b[i];
    }
    dev::fence::proxy_async_shared();  // generic-proxy writes -> async-proxy (wgmma) reads
    __syncthreads();
    float acc[32] = {};
    uint64_t da = dev::wgmma::make_desc<dev::swizzle::Mode::B128>(sa, 16, 1024);
    uint64_t db = dev::wgmma::make_desc<dev::swizzle::Mode::B128>(sb, 16, 1024);
    const int t = threadIdx.x;
    uint32_t ra[4][4];  // RS: k-step ks holds A[r or r + 8][16 ks + (0 or 8) + 2 q, + 1]
    if constexpr (RS) {
        const int r = dev::wgmma::accumulator_row(t, 0), q = t % 4;
        auto at = [&](int row, int col) { return float(a[row * KE + col]); };
        for (int ks = 0; ks < 4; ++ks)
            for (int j = 0; j < 4; ++j) {
                const int row = r + 8 * (j % 2), col = 16 * ks + 8 * (j / 2) + 2 * q;
                ra[ks][j] = dev::wgmma::pack<DT>(at(row, col), at(row, col + 1));
            }
    }
    dev::wgmma::fence();
    for (int k = 0; k < 4; ++k) {
        if constexpr (RS)
            dev::wgmma::mma_rs<64, DT, 0, 1, ScaleB>(acc, ra[k], dev::wgmma::advance(db, 32 * k),
                                                     1);
        else
            dev::wgmma::mma<64, DT, 0, 0, 1, ScaleB>(acc, dev::wgmma::advance(da, 32 * k),
                                                     dev::wgmma::advance(db, 32 * k), 1);
    }
    dev::wgmma::commit();
    dev::wgmma::wait<0>();
    dev::wgmma::fence_operand(ra);
    for (int i = 0; i < 32; ++i)
        d[dev::wgmma::accumulator_row(t, i) * 64 + dev::wgmma::accumulator_col(t, i)] = acc[i];
}

/// Runs wgmma_kernel on small integers (exact in every input type and in fp32) and compares
/// with the host product ScaleB * A * B^T.
template <class T, dev::wgmma::DType DT, int ScaleB, bool RS = false>
void check_wgmma(const char* what) {
    constexpr int KE = 128 / sizeof(T);
    std::vector<T> a(64 * KE), b(64 * KE);
    std::vector<float> af(64 * KE), bf(64 * KE);
    srand(7);
    for (int i = 0; i < 64 * KE; ++i) {
        af[i] = float(rand() % 9 - 4);
        bf[i] = float(rand() % 9 - 4);
        a[i] = T(af[i]);
        b[i] = T(bf[i]);
    }
    T *da, *db;
    float* dd;
    KILN_CUDA_CHECK(cudaMalloc(&da, a.size() * sizeof(T)));
    KILN_CUDA_CHECK(cudaMalloc(&db, b.size() * sizeof(T)));
    KILN_CUDA_CHECK(cudaMalloc(&dd, 64 * 64 * 4));
    KILN_CUDA_CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice));
    KILN_CUDA_CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice));
    wgmma_kernel<T, DT, ScaleB, RS><<<1, 128>>>(da, db, dd);
    KILN_CUDA_CHECK(cudaGetLastError());
    std::vector<float> d(64 * 64);
    KILN_CUDA_CHECK(cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost));
    bool exact = true;
    for (int m = 0; m < 64; ++m)
        for (int n = 0; n < 64; ++n) {
            float ref = 0;
            for (int k = 0; k < KE; ++k) ref += af[m * KE + k] * bf[n * KE + k];
            exact &= d[m * 64 + n] == ScaleB * ref;
        }
    expect(exact, what);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dd);
}

// 3. mbarrier phases: a producer warp and a consumer warp ping-pong through one slot 100 times.
__global__ void mbarrier_kernel(int* out) {
    __shared__ uint64_t full, empty;
    __shared__ int slot;
    if (threadIdx.x == 0) {
        dev::mbarrier::init(&full, 1);
        dev::mbarrier::init(&empty, 1);
    }
    __syncthreads();
    dev::mbarrier::PipelineState<1> st;
    int sum = 0;
    for (int i = 0; i < 100; ++i) {
        if (threadIdx.x == 0) {  // producer
            dev::mbarrier::wait(&empty, st.phase ^ 1u);
            slot = i;
            dev::mbarrier::arrive(&full);
        } else if (threadIdx.x == 32) {  // consumer
            dev::mbarrier::wait(&full, st.phase);
            sum += slot;
            dev::mbarrier::arrive(&empty);
        }
        st.advance();
    }
    if (threadIdx.x == 32) *out = sum;
}

// 4. Named barrier among warps 0-1 while warps 2-3 use another id.
__global__ void named_barrier_kernel(int* out) {
    __shared__ int v[2];
    int half = threadIdx.x / 64;
    if (threadIdx.x % 64 == 0) v[half] = 10 + half;
    if (half == 0) dev::named_barrier::sync<1, 64>();
    else dev::named_barrier::sync<2, 64>();
    if (threadIdx.x % 64 == 63) out[half] = v[half];
}

// wgmma::warpgroup_index: every thread of a 384-thread block (three warpgroups) writes its own.
__global__ void warpgroup_index_kernel(int* out) {
    out[threadIdx.x] = dev::wgmma::warpgroup_index();
}

// math::fast_exp2 over [-150, 127): 4096 points, then -inf.
__global__ void exp2_kernel(float* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 4096) return;
    out[i] = dev::math::fast_exp2(i < 4096 ? -150.f + i * (277.f / 4096) : -INFINITY);
}

// 5. red_add_pair / red_add: every thread of 64 blocks adds (t, 2t) into pair t % 64 and t into
// element 0; integer values, so the sums are exact whatever order the adds land in.
__global__ void red_kernel(float* out) {
    const int t = threadIdx.x;
    dev::atomic::red_add_pair(out + 2 * (t % 64), float(t), float(2 * t));
    dev::atomic::red_add(out + 128, float(t));
}

// 6. load4 / store4: four floats converted to bf16, f16 and f32 in one access each.
__global__ void vec_kernel(const float* in, __nv_bfloat16* b, __half* h, float* f) {
    const int i = 4 * threadIdx.x;
    const float4 v = dev::vec::load4(in + i);
    dev::vec::store4(b + i, v);
    dev::vec::store4(h + i, v);
    dev::vec::store4(f + i, v);
}

// 7. smem: one warp stores four 8 x 8 matrices of 16-bit values by stmatrix .x4 at an address
// made opaque inside a loop (the deferred store's pattern), matrix i at 128 * i, row r at 16 r;
// element (i, r, c) holds 256 * round + 64 * i + 8 * r + c. Lane l holds, of matrix i, row
// l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 (the wgmma accumulator's layout). Reads back.
__global__ void smem_kernel(uint16_t* out) {
    __shared__ __align__(16) uint16_t buf[256];
    const int l = threadIdx.x;
    const auto pair = [&](int round, int i) {
        const uint32_t e = 256 * round + 64 * i + 8 * (l / 4) + 2 * (l % 4);
        return e | (e + 1) << 16;
    };
    for (int round = 0; round < 2; ++round) {
        const uint32_t base = dev::smem::opaque(dev::smem::address(buf));
        dev::smem::store_matrix_x4(base + 128 * (l / 8) + 16 * (l % 8), pair(round, 0),
                                   pair(round, 1), pair(round, 2), pair(round, 3));
        __syncwarp();
        if (round == 1)
            for (int k = l; k < 256; k += 32) out[k] = buf[k];
        __syncwarp();
    }
}

// Shared-window loads (the epilogue's staged bias and C): lane l reads the float pair at byte
// 8 l and the 32-bit word at byte 4 l of a buffer holding 0.5 k - 7 at float k.
__global__ void smem_load_kernel(float* pairs, uint32_t* words) {
    __shared__ __align__(16) float buf[64];
    const int l = threadIdx.x;
    buf[l] = 0.5f * l - 7.f;
    buf[l + 32] = 0.5f * (l + 32) - 7.f;
    __syncwarp();
    const uint32_t base = dev::smem::address(buf);
    const float2 v = dev::smem::load_f32x2(base + 8 * l);
    pairs[2 * l] = v.x;
    pairs[2 * l + 1] = v.y;
    words[l] = dev::smem::load_u32(base + 4 * l);
}

// The 16-bit pack with ReLU (kiln/gemm/numeric.cuh, cvt.rn.relu): lane l packs in[2l], in[2l+1]
// both plainly and with ReLU, as bf16 and as f16.
__global__ void pack_relu_kernel(const float* in, uint32_t* out) {
    const int l = threadIdx.x;
    const float a = in[2 * l], b = in[2 * l + 1];
    out[4 * l] = kiln::gemm::pack_pair<__nv_bfloat16>(a, b);
    out[4 * l + 1] = kiln::gemm::pack_pair<__nv_bfloat16, true>(a, b);
    out[4 * l + 2] = kiln::gemm::pack_pair<__half>(a, b);
    out[4 * l + 3] = kiln::gemm::pack_pair<__half, true>(a, b);
}

// 8. Programmatic dependent launch: the producer lets the consumer launch at once, then writes
// slowly; the consumer, launched with programmatic stream serialization, must see every write
// after wait_previous (without it, it would read the zeros the memset left).
__global__ void producer_kernel(int* data, int n) {
    dev::grid::launch_dependents();
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const long long until = clock64() + 20000;
        while (clock64() < until) {
        }
        data[i] = i + 1;
    }
}
__global__ void consumer_kernel(const int* data, int n, long long* sum) {
    dev::grid::wait_previous();
    long long s = 0;
    for (int i = 0; i < n; ++i)
        s += data[i];
    *sum = s;
}

int main() {
    // --- TMA + swizzle ---
    {
        const int R = 128, C = 128;
        std::vector<uint16_t> h(R * C);
        for (int i = 0; i < R * C; ++i) h[i] = uint16_t(i);
        uint16_t *g, *o;
        KILN_CUDA_CHECK(cudaMalloc(&g, h.size() * 2));
        KILN_CUDA_CHECK(cudaMalloc(&o, 64 * 64 * 2));
        KILN_CUDA_CHECK(cudaMemcpy(g, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
        CUtensorMap map;
        const uint64_t dims[2] = {C, R};
        const uint64_t strides[1] = {C * 2};
        const uint32_t box[2] = {64, 64};
        bool ok = dev::tma::make_tensor_map<2>(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, g, dims,
                                               strides, box, dev::swizzle::Mode::B128);
        expect(ok, "tma: make_tensor_map accepts an aligned 128x128 bf16 tensor");
        const uint64_t bad_strides[1] = {C * 2 + 2};
        CUtensorMap bad;
        expect(!dev::tma::make_tensor_map<2>(&bad, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, g, dims,
                                             bad_strides, box, dev::swizzle::Mode::B128),
               "tma: make_tensor_map rejects a stride that is not a 16-byte multiple");
        // box at (64, 96): the lower 32 rows are out of bounds and must read as zero
        tma_swizzle_kernel<<<1, 128>>>(map, o, 64, 96);
        KILN_CUDA_CHECK(cudaGetLastError());
        std::vector<uint16_t> got(64 * 64);
        KILN_CUDA_CHECK(cudaMemcpy(got.data(), o, got.size() * 2, cudaMemcpyDeviceToHost));
        bool match = true;
        for (int r = 0; r < 64; ++r)
            for (int c = 0; c < 64; ++c) {
                int gr = 96 + r, gc = 64 + c;
                uint16_t want = gr < R ? h[gr * C + gc] : 0;
                uint32_t off = dev::swizzle::offset<dev::swizzle::Mode::B128>(r, c * 2) / 2;
                match &= got[off] == want;
            }
        expect(match, "tma+swizzle: 128B-swizzled box matches swizzle::offset, OOB rows zero");
        cudaFree(g);
        cudaFree(o);
    }
    // --- wgmma ---
    check_wgmma<__nv_bfloat16, dev::wgmma::DType::BF16, 1>(
        "wgmma: m64n64k16 x4 (K-major, 128B swizzle) equals host product exactly");
    check_wgmma<__nv_bfloat16, dev::wgmma::DType::BF16, -1>(
        "wgmma: imm-scale-b = -1 gives -A*B^T exactly");
    check_wgmma<__nv_bfloat16, dev::wgmma::DType::BF16, 1, true>(
        "wgmma: A from registers (mma_rs, pack) equals host product exactly");
    check_wgmma<__half, dev::wgmma::DType::F16, -1, true>(
        "wgmma: f16 A from registers with imm-scale-b = -1 gives -A*B^T exactly");
    check_wgmma<__nv_fp8_e4m3, dev::wgmma::DType::E4M3, 1>(
        "wgmma: m64n64k32 e4m3 x4 (K-major, 128B swizzle) equals host product exactly");
    // --- shared-memory stores ---
    {
        uint16_t* o;
        KILN_CUDA_CHECK(cudaMalloc(&o, 256 * 2));
        smem_kernel<<<1, 32>>>(o);
        KILN_CUDA_CHECK(cudaGetLastError());
        std::vector<uint16_t> got(256);
        KILN_CUDA_CHECK(cudaMemcpy(got.data(), o, 256 * 2, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int k = 0; k < 256; ++k) ok &= got[k] == uint16_t(256 + k);
        expect(ok, "smem: stmatrix .x4 through an opaque shared-window address lands each matrix "
                   "row where its lane points");
        cudaFree(o);
        float* pairs;
        uint32_t* words;
        KILN_CUDA_CHECK(cudaMalloc(&pairs, 64 * 4));
        KILN_CUDA_CHECK(cudaMalloc(&words, 32 * 4));
        smem_load_kernel<<<1, 32>>>(pairs, words);
        KILN_CUDA_CHECK(cudaGetLastError());
        std::vector<float> p(64);
        std::vector<uint32_t> w(32);
        KILN_CUDA_CHECK(cudaMemcpy(p.data(), pairs, 64 * 4, cudaMemcpyDeviceToHost));
        KILN_CUDA_CHECK(cudaMemcpy(w.data(), words, 32 * 4, cudaMemcpyDeviceToHost));
        bool loads = true;
        for (int k = 0; k < 64; ++k) loads &= p[k] == 0.5f * k - 7.f;
        for (int k = 0; k < 32; ++k) {
            const float want = 0.5f * k - 7.f;
            uint32_t bits;
            std::memcpy(&bits, &want, 4);
            loads &= w[k] == bits;
        }
        expect(loads, "smem: ld.shared.v2.f32 and ld.shared.b32 at window addresses read the "
                      "floats and words written through the generic pointer");
        cudaFree(pairs);
        cudaFree(words);
    }
    // --- the 16-bit pack with ReLU ---
    {
        // Negative values (0 after ReLU), positive ones (rounded as without it), a NaN (kept:
        // torch.relu's answer) and -0.
        std::vector<float> in(64);
        for (int k = 0; k < 64; ++k) in[k] = (k % 3 == 0 ? -1.f : 1.f) * (0.37f * k + 0.011f);
        in[5] = NAN;
        in[6] = -0.f;
        float* din;
        uint32_t* dout;
        KILN_CUDA_CHECK(cudaMalloc(&din, 64 * 4));
        KILN_CUDA_CHECK(cudaMalloc(&dout, 128 * 4));
        KILN_CUDA_CHECK(cudaMemcpy(din, in.data(), 64 * 4, cudaMemcpyHostToDevice));
        pack_relu_kernel<<<1, 32>>>(din, dout);
        KILN_CUDA_CHECK(cudaGetLastError());
        std::vector<uint32_t> got(128);
        KILN_CUDA_CHECK(cudaMemcpy(got.data(), dout, 128 * 4, cudaMemcpyDeviceToHost));
        const auto is_nan = [](uint16_t bits, bool f16) {
            return f16 ? (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0
                       : (bits & 0x7f80) == 0x7f80 && (bits & 0x7f) != 0;
        };
        bool ok = true;
        for (int k = 0; k < 64; ++k) {
            const int l = k / 2, half = 16 * (k % 2);
            for (int f16 = 0; f16 < 2; ++f16) {
                const uint16_t plain = uint16_t(got[4 * l + 2 * f16] >> half);
                const uint16_t relu = uint16_t(got[4 * l + 2 * f16 + 1] >> half);
                if (std::isnan(in[k])) ok &= is_nan(relu, f16);
                else if (in[k] > 0.f) ok &= relu == plain;
                else ok &= (relu & 0x7fff) == 0;
            }
        }
        expect(ok, "pack_pair<T, true>: ReLU in the bf16 / f16 pack (negatives to 0, positives "
                   "as the plain pack, NaN kept)");
        cudaFree(din);
        cudaFree(dout);
    }
    // --- mbarrier, named barriers ---
    {
        int* o;
        KILN_CUDA_CHECK(cudaMalloc(&o, 8));
        mbarrier_kernel<<<1, 64>>>(o);
        KILN_CUDA_CHECK(cudaGetLastError());
        int sum = 0;
        KILN_CUDA_CHECK(cudaMemcpy(&sum, o, 4, cudaMemcpyDeviceToHost));
        expect(sum == 4950, "mbarrier: 100 producer/consumer phases deliver every value once");
        named_barrier_kernel<<<1, 128>>>(o);
        KILN_CUDA_CHECK(cudaGetLastError());
        int v[2];
        KILN_CUDA_CHECK(cudaMemcpy(v, o, 8, cudaMemcpyDeviceToHost));
        expect(v[0] == 10 && v[1] == 11, "named_barrier: two independent 64-thread barriers");
        cudaFree(o);
    }
    {
        int* o;
        KILN_CUDA_CHECK(cudaMalloc(&o, 384 * sizeof(int)));
        warpgroup_index_kernel<<<1, 384>>>(o);
        KILN_CUDA_CHECK(cudaGetLastError());
        int v[384];
        KILN_CUDA_CHECK(cudaMemcpy(v, o, sizeof v, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int i = 0; i < 384; ++i) ok = ok && v[i] == i / 128;
        expect(ok, "wgmma::warpgroup_index: threadIdx.x / 128 in every lane");
        cudaFree(o);
    }
    // --- math ---
    {
        float* o;
        KILN_CUDA_CHECK(cudaMalloc(&o, 4097 * sizeof(float)));
        exp2_kernel<<<5, 1024>>>(o);
        KILN_CUDA_CHECK(cudaGetLastError());
        std::vector<float> got(4097);
        KILN_CUDA_CHECK(cudaMemcpy(got.data(), o, got.size() * 4, cudaMemcpyDeviceToHost));
        bool close = got[4096] == 0.f;  // 2^-inf
        for (int i = 0; i < 4096; ++i) {
            const float x = -150.f + i * (277.f / 4096);
            const double want = std::exp2(double(x));
            close &= x < -126 ? got[i] == 0.f  // subnormal results flush to zero
                              : std::fabs(got[i] - want) <= want * 1e-6;
        }
        expect(close, "math: fast_exp2 within 1e-6 relative of 2^x, subnormals and 2^-inf zero");
        cudaFree(o);
    }
    // --- atomic reductions ---
    {
        float* o;
        KILN_CUDA_CHECK(cudaMalloc(&o, 129 * sizeof(float)));
        KILN_CUDA_CHECK(cudaMemset(o, 0, 129 * sizeof(float)));
        red_kernel<<<64, 256>>>(o);
        KILN_CUDA_CHECK(cudaGetLastError());
        std::vector<float> got(129);
        KILN_CUDA_CHECK(
            cudaMemcpy(got.data(), o, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
        bool ok = got[128] == 64.0f * (255 * 256 / 2);
        for (int p = 0; p < 64; ++p) { // threads p, p + 64, p + 128, p + 192 of every block
            const float want = 64.0f * (4 * p + 384);
            ok &= got[2 * p] == want && got[2 * p + 1] == 2 * want;
        }
        expect(ok, "atomic: red_add_pair and red_add from 16384 threads sum exactly");
        cudaFree(o);
    }
    // --- vector loads and converting stores ---
    {
        const int n = 256;
        std::vector<float> h(n);
        for (int i = 0; i < n; ++i)
            h[i] = (i - 128) * 0.25f; // at most 8 significant bits: exact in bf16 and f16
        float *in, *f;
        __nv_bfloat16* b;
        __half* hh;
        KILN_CUDA_CHECK(cudaMalloc(&in, n * 4));
        KILN_CUDA_CHECK(cudaMalloc(&f, n * 4));
        KILN_CUDA_CHECK(cudaMalloc(&b, n * 2));
        KILN_CUDA_CHECK(cudaMalloc(&hh, n * 2));
        KILN_CUDA_CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
        vec_kernel<<<1, n / 4>>>(in, b, hh, f);
        KILN_CUDA_CHECK(cudaGetLastError());
        std::vector<__nv_bfloat16> gb(n);
        std::vector<__half> gh(n);
        std::vector<float> gf(n);
        KILN_CUDA_CHECK(cudaMemcpy(gb.data(), b, n * 2, cudaMemcpyDeviceToHost));
        KILN_CUDA_CHECK(cudaMemcpy(gh.data(), hh, n * 2, cudaMemcpyDeviceToHost));
        KILN_CUDA_CHECK(cudaMemcpy(gf.data(), f, n * 4, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int i = 0; i < n; ++i)
            ok &= __bfloat162float(gb[i]) == h[i] && __half2float(gh[i]) == h[i] && gf[i] == h[i];
        expect(ok, "vec: load4 + store4 to bf16, f16 and f32 keep every element in place");
        cudaFree(in);
        cudaFree(f);
        cudaFree(b);
        cudaFree(hh);
    }
    // --- programmatic dependent launch ---
    {
        const int n = 4096;
        int* data;
        long long* sum;
        KILN_CUDA_CHECK(cudaMalloc(&data, n * sizeof(int)));
        KILN_CUDA_CHECK(cudaMalloc(&sum, sizeof(long long)));
        KILN_CUDA_CHECK(cudaMemset(data, 0, n * sizeof(int)));
        producer_kernel<<<1, 128>>>(data, n);
        cudaLaunchAttribute attr;
        attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr.val.programmaticStreamSerializationAllowed = 1;
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(1);
        config.blockDim = dim3(1);
        config.attrs = &attr;
        config.numAttrs = 1;
        KILN_CUDA_CHECK(
            cudaLaunchKernelEx(&config, consumer_kernel, static_cast<const int*>(data), n, sum));
        long long got = 0;
        KILN_CUDA_CHECK(cudaMemcpy(&got, sum, sizeof(got), cudaMemcpyDeviceToHost));
        expect(got == 1LL * n * (n + 1) / 2,
               "grid: a programmatic dependent sees all its predecessor's writes after wait_previous");
        cudaFree(data);
        cudaFree(sum);
    }
    printf("test_device_lib: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
