// kiln::gemm epilogue staging — the epilogue's inputs brought into shared memory while the
// tile's mainloop runs, so that the epilogue never waits on a global load.
//
// What: per consumer warpgroup of the sm90 kernel, (1) C's 64 x BN tile, loaded by one TMA
// per 64-column panel into the warpgroup's TMA-store staging buffer (the swizzled panels D
// leaves through, store_staged.cuh), and (2) fp32 vectors indexed by the tile's columns (the
// column bias, the affine fold's v), copied by the warpgroup's threads. Both are issued right
// after the tile's first k-block of wgmmas and read by the epilogue through a TileStage.
// Why: unstaged, the epilogue loads C, the bias and v from global memory in batches of four
// column groups (more would spill), and each batch waits one L2 or DRAM latency: 8 batches
// per input and tile. The Table-2 chain, which reads all three, spent ~20 us per tile there
// (bench/NOTES.md, v12).
//
// Epilogue contract (all optional; Config::EpiStage turns staging on for a kernel):
//   static constexpr int column_vectors;   vectors it reads by column (its wrapped ones included)
//   void stage_columns(float* cols, int width, int col_begin, int b, int N, int t) const;
//       thread t of 128 writes its share of cols[k * width + i] = vector_k[col_begin + i]
//       (0 past N) for its own vectors, then forwards cols + its vectors * width inward
//   CSource c_source() const;               C as a matrix (ptr null: C is not read)
//   apply(acc, row0, col0, b, M, N, const TileStage<HasC>& s)   reads them back
// Guarantees: the values the epilogue sees are the ones it would have loaded, zero past M / N.
#pragma once
#include <cstdint>
#include <type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kiln/gemm/numeric.cuh"
#include "kiln/gemm/store_staged.cuh"
#include "kiln/smem.cuh"

namespace kiln::gemm {

/// Config::EpiStage: the number of column vectors staged (0-3), plus kStageC for C's tile in
/// the staging buffer (TMA).
inline constexpr int kStageC = 4;
constexpr int stage_columns(int vectors) { return vectors; }

/// C as the epilogue reads it: element (b, r, c) at ptr[b * batch_stride + r * ld + c].
struct CSource {
    const void* ptr = nullptr;
    int64_t ld = 0, batch_stride = 0;
};

/// The unstaged kernel's argument: every input comes from global memory.
struct NoStage {
    static constexpr bool staged = false, has_c = false, bias_in_acc = false;
};

/// What one consumer warpgroup staged for its tile, as shared-window addresses (read by
/// ld.shared: through generic pointers every read took a 64-bit address pair, and ptxas hoisted
/// them until a held tile's kernel spilled). (lrow, lcol): the thread's fragment origin inside
/// the warpgroup's 64 x width part of the tile (wgmma layout: its values sit at rows lrow,
/// lrow + 8 and columns lcol + 8j, lcol + 8j + 1).
template <bool HasC>
struct TileStage {
    static constexpr bool staged = true, has_c = HasC, bias_in_acc = false;
    uint32_t cols;  // column vectors, `width` floats each
    int width;
    uint32_t c;     // C's 64 x width 16-bit tile in staged panels (HasC only)
    int lrow, lcol;

    /// The stage as seen by an epilogue nested inside one that used `used` vectors.
    __device__ __forceinline__ TileStage inner(int used) const {
        return {cols + 4u * used * width, width, c, lrow, lcol};
    }
    /// Column vector k at the thread's columns lcol + 8j + e (e = 0, 1).
    __device__ __forceinline__ float2 column_pair(int k, int j) const {
        return kiln::dev::smem::load_f32x2(cols + 4u * (k * width + lcol + 8 * j));
    }
    /// C at (lrow + 8h, lcol + 8j + e), e = 0, 1, as floats.
    template <class CT>
    __device__ __forceinline__ float2 c_pair(int h, int j) const {
        static_assert(sizeof(CT) == 2, "staged C: 16-bit elements");
        return unpack_pair<CT>(
            kiln::dev::smem::load_u32(c + sm90::staged_offset(lrow + 8 * h, lcol + 8 * j)));
    }
};

/// Column vectors an epilogue reads (0 when it does not say).
template <class E>
inline constexpr int column_vectors_of = 0;
template <class E>
    requires requires { E::column_vectors; }
inline constexpr int column_vectors_of<E> = E::column_vectors;

}  // namespace kiln::gemm
