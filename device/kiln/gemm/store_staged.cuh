// kiln::gemm::sm90 staged store — the TMA-store epilogue of one consumer warpgroup.
//
// What it does: writes a 64 x BN fp32 accumulator fragment (already through the epilogue's
// alpha/beta/bias/activation, in registers) as 16-bit values into a 128B-swizzled shared-memory
// staging buffer of two 64 x 64 panels (16 KiB), then one thread issues TMA tile stores of the
// panels; BN > 128 takes several rounds through the same buffer, or through its two panels as
// two buffers used in turn (Buffers = 2: a round then waits for the stores of two rounds back,
// not the one before; +0.6% at 2048^3, bench/NOTES.md v18).
// Why: the direct path's 4-byte stores scatter over 8 rows per warp instruction and compete with
// the mainloop's TMA loads in L2; the generated kernels measured +13% from this scheme
// (bench/NOTES.md, "TMA-store epilogue").
// Round: panels per pass through the buffer (kStagedPanels; BN / 64 where the buffer holds the
// warpgroup's whole 64 x BN part, as when it also stages C: epilogue_stage.cuh).
// Requires: a 16-bit Out; `staging` 1024-byte aligned, owned by this warpgroup; `map` D's tensor
// map with a {64, 64, 1[, 1]} box and 128B swizzle: rank 3 {N, M, batch} with c0 = INT_MAX, or
// for a GETT view with two column modes rank 4 {c0, M, N / c0, batch}, c0 a multiple of 64
// (launch_sm90.cuh's make_output_map); `barrier_id` a named barrier no other warpgroup uses.
// Every thread of the warpgroup calls it (t = 0..127).
// Guarantees: the TMA clips rows >= M and columns >= N, so ragged tiles need no predicates; on
// return the stores are committed but may still be reading `staging` — the next call waits for
// them, and the kernel must call drain_staged_stores() before it exits.
#pragma once
#include <climits>
#include <cstdint>
#include <cuda.h>

#include "kiln/barrier.cuh"
#include "kiln/fence.cuh"
#include "kiln/gemm/numeric.cuh"
#include "kiln/swizzle.cuh"
#include "kiln/tma.cuh"
#include "kiln/wgmma.cuh"

namespace kiln::gemm::sm90 {

/// A 64 x 64 16-bit panel: 64 rows of one 128-byte swizzle row each.
inline constexpr int kPanelBytes = 64 * 128;
/// Panels per staging round (the staging buffer of one consumer warpgroup: 16 KiB).
inline constexpr int kStagedPanels = 2;
inline constexpr int kStagingBytes = kStagedPanels * kPanelBytes;

/// Byte offset of the 16-bit element pair (row, col), col even, in a buffer of 64-column panels.
__host__ __device__ constexpr uint32_t staged_offset(int row, int col) {
    return (col / 64) * kPanelBytes +
           kiln::dev::swizzle::offset<kiln::dev::swizzle::Mode::B128>(row, (col % 64) * 2);
}

/// What store_staged does before each round by default: nothing.
struct NoRoundWork {
    __device__ __forceinline__ void operator()(int, int) const {}
};

/// Buffers: the staging holds Buffers buffers of Round panels each, used in turn, so that a round
/// waits only for the stores of the round Buffers rounds back (TMA bulk groups complete in
/// order); the rounds of a tile must be a multiple of Buffers, so that the turn carries over from
/// one tile to the next.
/// before_round(p0, panels): called before the round of panels [p0, p0 + panels) waits for the
/// stores that last read its buffer, so that work on the round's own values (the epilogue's,
/// done per round) runs while the TMA unit reads earlier rounds.
template <class Out, int Round = kStagedPanels, int Buffers = 1, int NAcc,
          class BeforeRound = NoRoundWork>
__device__ __forceinline__ void store_staged(const float (&acc)[NAcc], uint8_t* staging,
                                             const CUtensorMap* map, int tile_row, int tile_col,
                                             int batch, int c0, int barrier_id, int t,
                                             const BeforeRound& before_round = {}) {
    static_assert(sizeof(Out) == 2, "staged stores: 16-bit outputs (64 columns = 128 bytes)");
    constexpr int BN = 2 * NAcc, Panels = BN / 64; // 64 x BN over 128 threads
    static_assert(BN % 64 == 0, "tile width must be a multiple of one 64-column panel");
    static_assert(Buffers == 1 || (Panels % Round == 0 && Panels / Round % Buffers == 0),
                  "a tile's rounds must be a multiple of the staging buffers");
    namespace dev = kiln::dev;
    const int srow = dev::wgmma::accumulator_row(t, 0), scol = dev::wgmma::accumulator_col(t, 0);
#pragma unroll
    for (int p0 = 0; p0 < Panels; p0 += Round) {
        before_round(p0, Round < Panels - p0 ? Round : Panels - p0);
        uint8_t* buffer = staging + (p0 / Round % Buffers) * Round * kPanelBytes;
        // The stores that last read this buffer (Buffers rounds back, maybe in the previous
        // tile) must be done with it before it is rewritten.
        if (t == 0)
            dev::tma::store_wait_read<Buffers - 1>();
        dev::named_barrier::sync(barrier_id, 128);
        constexpr int JPerPanel = 64 / 8; // 8-column fragment groups per panel
#pragma unroll
        for (int j = p0 * JPerPanel; j < (p0 + Round) * JPerPanel; ++j) {
            if (j >= Panels * JPerPanel)
                break;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                // Conflict-free: a warp's 8 rows land in 8 distinct 16-byte chunks (the swizzle).
                const uint32_t at = staged_offset(srow + 8 * h, 8 * j - 64 * p0 + scol);
                store_pair(reinterpret_cast<Out*>(buffer + at), acc[4 * j + 2 * h],
                           acc[4 * j + 2 * h + 1]);
            }
        }
        dev::fence::proxy_async_shared(); // generic-proxy writes, read next by the TMA unit
        dev::named_barrier::sync(barrier_id, 128);
        if (t == 0) {
#pragma unroll
            for (int p = p0; p < p0 + Round && p < Panels; ++p) {
                const int col = tile_col + 64 * p;
                if (c0 == INT_MAX) {
                    const int32_t coords[3] = {col, tile_row, batch};
                    dev::tma::store(map, buffer + (p - p0) * kPanelBytes, coords);
                } else {  // two column modes: the panel lies inside one outer index
                    const int32_t coords[4] = {col % c0, tile_row, col / c0, batch};
                    dev::tma::store(map, buffer + (p - p0) * kPanelBytes, coords);
                }
            }
            dev::tma::store_commit();
        }
    }
}

/// The staging buffer stays in use until the last stores have read it: call before exiting.
__device__ __forceinline__ void drain_staged_stores(int t) {
    if (t == 0)
        kiln::dev::tma::store_wait_read<0>();
}

} // namespace kiln::gemm::sm90
