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
// A round (store_round) is also what the deferred store (store_deferred.cuh) runs, one panel at
// a time, under the next tile's mainloop.
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
#include "kiln/smem.cuh"
#include "kiln/swizzle.cuh"
#include "kiln/tma.cuh"
#include "kiln/wgmma.cuh"

namespace kiln::gemm::sm90 {

/// A 64 x 64 16-bit panel: 64 rows of one 128-byte swizzle row each.
inline constexpr int kPanelBytes = 64 * 128;
/// 8-column fragment groups (wgmma accumulator column groups j) per 64-column panel.
inline constexpr int kGroupsPerPanel = 64 / 8;
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

/// One store round of a warpgroup's 64 x 64*Panels part: panels [p0, p0 + panels) go through
/// `buffer` (panels * 8 KiB). pair_bits(j, h) gives the packed 16-bit pair of fragment column
/// group j, row half h (the wgmma accumulator's rows accumulator_row(t, 0) + 8h, columns
/// 8j + accumulator_col(t, 0), +1); j and h must fold to constants.
/// Waits first until the stores that last read the buffer (Buffers rounds back) are done with it
/// (TMA bulk groups complete in order); then one thread issues the panels' TMA stores and commits
/// them as one group. Every thread of the warpgroup calls it.
/// The values go to shared memory by stmatrix, four 8 x 8 matrices (two column groups, both row
/// halves) per instruction: 4 stores per panel where 32-bit stores took 16 (2048^3: the
/// epilogue of a tile 300 clocks shorter, bench/NOTES.md "v20").
/// Opaque: the addresses come from a base the compiler cannot see through, so a caller's loop
/// (the deferred store's k-loop) cannot hoist them into registers held across its body (16
/// generic 64-bit addresses took 32 registers and spilled).
template <int Buffers, bool Opaque = false, class PairBits>
__device__ __forceinline__ void store_round(const PairBits& pair_bits, uint8_t* buffer,
                                            const CUtensorMap* map, int p0, int panels,
                                            int tile_row, int tile_col, int batch, int c0,
                                            int barrier_id, int t) {
    namespace dev = kiln::dev;
    if (t == 0)
        dev::tma::store_wait_read<Buffers - 1>();
    dev::named_barrier::sync(barrier_id, 128);
    uint32_t base = dev::smem::address(buffer);
    if constexpr (Opaque) base = dev::smem::opaque(base);
    // stmatrix .x4 per two column groups (j, j + 1): matrix m is group j + m / 2, row half m % 2;
    // lane l addresses its row l % 8. Conflict-free: a matrix's 8 rows land in 8 distinct
    // 16-byte chunks (the swizzle).
    const int lane = t % 32, m = lane / 8;
    const int row = 16 * (t / 32) + 8 * (m % 2) + lane % 8;
#pragma unroll
    for (int j = p0 * kGroupsPerPanel; j < (p0 + panels) * kGroupsPerPanel; j += 2) {
        const uint32_t at = staged_offset(row, 8 * (j + m / 2) - 64 * p0);
        dev::smem::store_matrix_x4(base + at, pair_bits(j, 0), pair_bits(j, 1),
                                   pair_bits(j + 1, 0), pair_bits(j + 1, 1));
    }
    dev::fence::proxy_async_shared(); // generic-proxy writes, read next by the TMA unit
    dev::named_barrier::sync(barrier_id, 128);
    if (t == 0) {
#pragma unroll
        for (int p = p0; p < p0 + panels; ++p) {
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

/// The staging buffer of round `round` when Buffers buffers of Round panels are used in turn.
template <int Round, int Buffers>
__device__ __forceinline__ uint8_t* round_buffer(uint8_t* staging, int round) {
    return staging + (round % Buffers) * Round * kPanelBytes;
}

/// Buffers: the staging holds Buffers buffers of Round panels each, used in turn, so that a round
/// waits only for the stores of the round Buffers rounds back; the rounds of a tile must be a
/// multiple of Buffers, so that the turn carries over from one tile to the next.
/// before_round(p0, panels): called before the round of panels [p0, p0 + panels) waits for the
/// stores that last read its buffer, so that work on the round's own values (the epilogue's,
/// done per round) runs while the TMA unit reads earlier rounds.
/// Relu: the pack applies max(x, 0) (pack_pair; relu_in_pack epilogues).
template <class Out, int Round = kStagedPanels, int Buffers = 1, bool Relu = false, int NAcc,
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
    const auto pair_bits = [&](int j, int h) {
        return pack_pair<Out, Relu>(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
    };
#pragma unroll
    for (int p0 = 0; p0 < Panels; p0 += Round) {
        const int panels = Round < Panels - p0 ? Round : Panels - p0;
        before_round(p0, panels);
        store_round<Buffers>(pair_bits, round_buffer<Round, Buffers>(staging, p0 / Round), map,
                             p0, panels, tile_row, tile_col, batch, c0, barrier_id, t);
    }
}

/// The staging buffer stays in use until the last stores have read it: call before exiting.
__device__ __forceinline__ void drain_staged_stores(int t) {
    if (t == 0)
        kiln::dev::tma::store_wait_read<0>();
}

} // namespace kiln::gemm::sm90
