// Which SMs' identical reads the L2 serves once. Every CTA (one per SM) streams 16 KiB pieces
// through the TMA engine (bulk copies, or {64, 128} tensor boxes as the GEMM's operand loads)
// from a region chosen by its SM id; Nsight Compute's lts__t_sectors_srcunit_tex_op_read counts
// the sectors the L2 served. Sharing patterns: the two SMs of a TPC, two or four TPCs of one
// GPC, two or four TPCs of different GPCs (the map of bench/results/sm_placement_s20.txt: TPC
// t < 32 sits in GPC t % 8). bench/NOTES.md "v25" has what it found.
//   nvcc -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a -Idevice bench/l2_merge_probe.cu
//   ncu --metrics lts__t_sectors_srcunit_tex_op_read.sum -k stream_region ./a.out
#include <cstdio>

#include <cuda/ptx>
#include <cuda_runtime.h>

#include "../tests/gpu/cuda_check.h"
#include "kiln/mbarrier.cuh"
#include "kiln/tma.cuh"

namespace {

constexpr int kChunk = 16 * 1024;
constexpr int kStages = 8;
constexpr int kSmem = kStages * kChunk + 64;

enum Mode { kDistinct, kTpcPairs, kLowDistinct, kGpcPairs, kCrossPairs, kGpcQuads, kCrossQuads,
            kLowAll, kModes };
const char* const kModeNames[kModes] = {
    "all SMs, distinct",          "all SMs, the two SMs of a TPC share",
    "SMs 0-63, distinct",         "SMs 0-63, TPCs t and t+8 (one GPC) share",
    "SMs 0-63, TPCs t and t^1 (two GPCs) share", "SMs 0-63, four TPCs of one GPC share",
    "SMs 0-63, four TPCs of four GPCs share",    "SMs 0-63, all share"};

/// The region an SM reads, or -1 to stay idle. The SM's bit within its TPC keeps every
/// cross-TPC pattern free of the TPC's own merging.
__device__ int region_of(unsigned sm, int mode) {
    const int t = int(sm >> 1), s = int(sm & 1);
    if (mode == kDistinct) return int(sm);
    if (mode == kTpcPairs) return t;
    if (sm >= 64) return -1;
    switch (mode) {
    case kLowDistinct: return int(sm);
    case kGpcPairs: return 2 * (t % 8 + 8 * (t / 16)) + s;
    case kCrossPairs: return 2 * (t >> 1) + s;
    case kGpcQuads: return 2 * (t % 8) + s;
    case kCrossQuads: return 2 * (t / 4) + s;
    default: return 0;
    }
}

/// Streams `reads` 16 KiB pieces of region_of(smid), piece i being k-block i % kblocks: with
/// `map` null, contiguous bulk copies (cp.async.bulk); else one {64, 128} box of the 2D tensor
/// (region r = rows 128 r ... 128 r + 127, 128-byte swizzle), as the GEMM's operand loads.
__global__ void stream_region(const char* buf, const __grid_constant__ CUtensorMap map,
                              bool tensor, int kblocks, int reads, int mode) {
    extern __shared__ __align__(1024) char smem[];
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    const int region = region_of(sm, mode);
    if (region < 0 || threadIdx.x != 0) return;
    uint64_t* full = reinterpret_cast<uint64_t*>(smem + kStages * kChunk);
    for (int s = 0; s < kStages; ++s) kiln::dev::mbarrier::init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    const char* base = buf + size_t(region) * kblocks * kChunk;
    for (int i = 0; i < reads; ++i) {
        const int s = i % kStages, kb = i % kblocks;
        if (i >= kStages) kiln::dev::mbarrier::wait(&full[s], uint32_t(i / kStages - 1) & 1u);
        kiln::dev::mbarrier::arrive_expect_tx(&full[s], kChunk);
        if (tensor)
            kiln::dev::tma::load(smem + s * kChunk, &map, &full[s], kb * 64, region * 128);
        else
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                                     smem + s * kChunk, base + size_t(kb) * kChunk,
                                     uint32_t(kChunk), &full[s]);
    }
    for (int i = reads < kStages ? 0 : reads - kStages; i < reads; ++i)
        kiln::dev::mbarrier::wait(&full[i % kStages], uint32_t(i / kStages) & 1u);
}

}  // namespace

int main() {
    int sms = 0;
    KILN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    // Streaming: 128 k-blocks (2 MiB) per region, read once (DRAM); resident: 16 k-blocks
    // (256 KiB) read 16 times (L2).
    const struct { const char* name; int kblocks, reads; } kinds[] = {{"streaming", 128, 128},
                                                                      {"resident", 16, 256}};
    char* buf = nullptr;
    const size_t bytes = size_t(sms) * 128 * kChunk;
    KILN_CUDA_CHECK(cudaMalloc(&buf, bytes));
    KILN_CUDA_CHECK(cudaMemset(buf, 1, bytes));
    KILN_CUDA_CHECK(
        cudaFuncSetAttribute(stream_region, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    for (const bool tensor : {false, true})
        for (const auto& k : kinds) {
            // Rows of k.kblocks * 64 bf16, 128 rows per region.
            CUtensorMap map{};
            const uint64_t dims[2] = {uint64_t(k.kblocks) * 64, uint64_t(sms) * 128};
            const uint64_t strides[1] = {uint64_t(k.kblocks) * 128};
            const uint32_t box[2] = {64, 128};
            if (!kiln::dev::tma::make_tensor_map<2>(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, buf,
                                                    dims, strides, box,
                                                    kiln::dev::swizzle::Mode::B128)) {
                std::fprintf(stderr, "tensor map rejected\n");
                return 1;
            }
            for (int mode = 0; mode < kModes; ++mode) {
                cudaEventRecord(t0);
                stream_region<<<sms, 32, kSmem>>>(buf, map, tensor, k.kblocks, k.reads, mode);
                cudaEventRecord(t1);
                KILN_CUDA_CHECK(cudaEventSynchronize(t1));
                float ms = 0;
                cudaEventElapsedTime(&ms, t0, t1);
                std::printf("%s %-9s mode %d (%s): %.1f us\n", tensor ? "tensor" : "bulk  ",
                            k.name, mode, kModeNames[mode], ms * 1000);
            }
        }
    return 0;
}
