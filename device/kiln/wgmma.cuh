// kiln::dev::wgmma — warpgroup MMA (sm_90a): smem descriptors, issue, commit, wait.
//
// One warpgroup (4 consecutive warps starting at a warp index divisible by 4) issues m64nNkK
// (K = 16 for bf16/f16, 32 for the 8-bit e4m3/e5m2) with A and B in shared memory (described by
// 64-bit descriptors) and D (fp32) in registers: thread t of the warpgroup holds, for j in
// [0, N/8), the elements
//   d[4j+0..1] = D[16*(t/32) + (t%32)/4    ][8j + 2*(t%4) + {0,1}]
//   d[4j+2..3] = D[16*(t/32) + (t%32)/4 + 8][8j + 2*(t%4) + {0,1}]
// (see accumulator_row/col below). Order of use: fence() before the first mma that reads
// registers written by ordinary code, mma()..., commit(), wait<N>() before reading D.
#pragma once
#include "kiln/cstdint.cuh"
#include "kiln/smem.cuh"
#include "kiln/swizzle.cuh"

namespace kiln::dev::wgmma {

enum class DType { BF16, F16, E4M3, E5M2 };

/// K of one instruction: 16 for 16-bit inputs, 32 for 8-bit ones. Either way one k-step is 32
/// bytes of a K-major row, so a K-major descriptor advances by 32 bytes per instruction.
template <DType T>
inline constexpr int k_per_mma = (T == DType::E4M3 || T == DType::E5M2) ? 32 : 16;

/// Shared-memory matrix descriptor. For K-major operands with a swizzled layout, `sbo` is the
/// byte distance between consecutive 8-row groups (8 * swizzle row bytes for dense tiles) and
/// `lbo` is unused by the hardware (kept at 16 bytes, as CUTLASS does). For MN-major operands
/// `lbo` is the distance between swizzle atoms along MN and `sbo` between 8-deep K groups.
template <swizzle::Mode M>
__device__ __forceinline__ uint64_t make_desc(const void* smem, uint32_t lbo, uint32_t sbo) {
    uint32_t addr = dev::smem::address(smem);
    uint64_t d = 0;
    d |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4);
    d |= static_cast<uint64_t>((lbo >> 4) & 0x3FFF) << 16;
    d |= static_cast<uint64_t>((sbo >> 4) & 0x3FFF) << 32;
    d |= swizzle::wgmma_layout_type<M> << 62;
    return d;
}

/// This thread's warpgroup (threadIdx.x / 128), broadcast from lane 0. ptxas cannot tell that
/// threadIdx.x / 128 is the same in every lane, so descriptors derived from it were built in
/// vector registers and moved to uniform ones (R2UR) before each wgmma: ~20 more instructions
/// per k-block and warp, and 3% of a DRAM-streaming 128 x 128 kernel's speed (bench/NOTES.md
/// v27). The broadcast value is uniform, so they are computed once, on the uniform datapath.
/// Not a gain everywhere: the generated attention kernels ran 5-6% slower with it (same note).
/// Every lane of the warp must call it (a full-mask shuffle).
__device__ __forceinline__ int warpgroup_index() {
    return __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x / 128), 0);
}

/// Descriptor advanced by `bytes` along its start address (e.g. the next k16 slice inside a
/// K-major 128B-swizzled row: +32 bytes for 16-bit types). The hardware applies the swizzle to
/// the computed address, so this stays valid as long as the tile base is swizzle-aligned.
__device__ __forceinline__ uint64_t advance(uint64_t desc, uint32_t bytes) {
    return desc + static_cast<uint64_t>(bytes >> 4);
}

template <int N, DType T>
struct MmaSS {
    static_assert(N < 0,
                  "wgmma m64nNkK: N must be one of gen_wgmma.py's NS (8 to 256)");
};
template <int N, DType T>
struct MmaRS {
    static_assert(N < 0, "wgmma m64nNk16 with A in registers: N one of 8..256 as above, and "
                         "16-bit inputs");
};
#include "kiln/wgmma_ops.inc"

/// D(64xN, fp32) (+)= (ScaleA*A)(64xK) * (ScaleB*B)(KxN), K = k_per_mma<T>. scale_d = 0
/// overwrites D, 1 accumulates. TransA/TransB = 1 select MN-major (transposed) smem operands
/// (16-bit types only). ScaleA/ScaleB = -1 negate A or B inside the instruction (no extra work:
/// complex products subtract Ai*Bi this way).
template <int N, DType T, int TransA = 0, int TransB = 0, int ScaleA = 1, int ScaleB = 1>
__device__ __forceinline__ void mma(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b,
                                    int scale_d) {
    static_assert(N % 8 == 0 && N >= 8 && N <= 256, "wgmma N must be a multiple of 8 in [8,256]");
    static_assert((ScaleA == 1 || ScaleA == -1) && (ScaleB == 1 || ScaleB == -1),
                  "wgmma imm-scale-a/b are +1 or -1");
    MmaSS<N, T>::template run<TransA, TransB, ScaleA, ScaleB>(d, desc_a, desc_b, scale_d);
}

/// The same with A from registers (the RS form): thread t holds the 64 x 16 slice of A in the
/// accumulator layout of a 64 x 16 tile, as four packed pairs (pack()):
///   a[0] = A[r][2q..2q+1], a[1] = A[r+8][2q..2q+1], a[2] = A[r][8+2q..], a[3] = A[r+8][8+2q..]
/// with r = accumulator_row(t, 0), q = t % 4. So an accumulator computed by one wgmma feeds the
/// next as its A without a trip through shared memory (FlashAttention's P = softmax(S) into
/// P.V): k-step ks reads accumulator registers 8ks .. 8ks + 7. The registers must keep their
/// values until the wgmma completes (wait<>). TransB = 1: B MN-major.
template <int N, DType T, int TransB = 0, int ScaleA = 1, int ScaleB = 1>
__device__ __forceinline__ void mma_rs(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t desc_b,
                                       int scale_d) {
    static_assert(T == DType::BF16 || T == DType::F16, "A from registers: 16-bit inputs");
    MmaRS<N, T>::template run<TransB, ScaleA, ScaleB>(d, a, desc_b, scale_d);
}

/// Two fp32 values as one register of the 16-bit type T (round to nearest even), lo first.
template <DType T>
__device__ __forceinline__ uint32_t pack(float lo, float hi) {
    static_assert(T == DType::BF16 || T == DType::F16, "pack: 16-bit types");
    uint32_t r;
    if constexpr (T == DType::BF16)
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    else
        asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

/// Orders register/shared accesses before the first wgmma of a batch.
__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }

__device__ __forceinline__ void commit() {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/// Waits until at most N committed wgmma groups are still in flight.
template <int N>
__device__ __forceinline__ void wait() {
    static_assert(N >= 0 && N <= 7, "wgmma.wait_group takes 0..7");
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

/// Keeps the compiler from moving accumulator reads/writes across wgmma issue/wait.
template <int R>
__device__ __forceinline__ void fence_operand(float (&d)[R]) {
#pragma unroll
    for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

/// The same for A-operand registers (mma_rs): kept unchanged and live until a wait retired the
/// wgmmas that read them.
template <int S>
__device__ __forceinline__ void fence_operand(uint32_t (&a)[S][4]) {
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
        for (int i = 0; i < 4; ++i) asm volatile("" : "+r"(a[s][i])::"memory");
}

/// Row (0..63) of accumulator register i for warpgroup thread t (see the header comment).
__host__ __device__ constexpr int accumulator_row(int t, int i) {
    return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2);
}
/// Column (0..N-1) of accumulator register i for warpgroup thread t.
__host__ __device__ constexpr int accumulator_col(int t, int i) {
    return 8 * (i / 4) + 2 * (t % 4) + (i % 2);
}

/// The transpose of an 8 x 8 matrix of 16-bit values held by a warp as one register per lane,
/// lane l holding the pair (row l / 4, columns 2 (l % 4), +1): the layout of one row half of an
/// accumulator column group packed in pairs. Returns the same lane's pair of the transposed
/// matrix, i.e. (column l / 4, rows 2 (l % 4), +1) of the input. Every lane of the warp must
/// call it (movmatrix is .aligned).
__device__ __forceinline__ uint32_t transpose_8x8(uint32_t pair) {
    uint32_t t;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t) : "r"(pair));
    return t;
}

}  // namespace kiln::dev::wgmma
