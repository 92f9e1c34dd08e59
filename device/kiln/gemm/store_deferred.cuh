// kiln::gemm::sm90 deferred store — a finished tile's 16-bit results held in registers and
// stored one panel per k-block under the next tile's mainloop.
//
// Why: in the cooperative kernel both consumer warpgroups run their epilogue at the same time,
// so the tensor cores idle for all of it: the staging writes, the proxy fences and named
// barriers of each store round, and the waits for the TMA unit to read earlier rounds. Held as
// packed 16-bit pairs (BN / 4 registers: 64 at BN = 256), the tile's store rounds run between
// the next tile's wgmma batches instead, each while a batch is in flight. The registers are
// there: ptxas allocates up to the setmaxnreg.inc count after that instruction, not the 168 the
// launch bounds give the kernel at entry (a consumer holding 128 accumulators and 64 packed
// pairs across a wgmma loop compiles spill-free to R195).
// What is not deferred: the epilogue's arithmetic (alpha, bias, activation) runs in fp32 on the
// accumulator before the results are packed, so the outputs are rounded once, as before.
// Requires: what store_staged requires; rounds of one panel through Buffers one-panel buffers in
// turn; hold() only when nothing is pending (flush() first).
#pragma once
#include <cstdint>
#include <cuda.h>

#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/numeric.cuh"
#include "kiln/gemm/store_staged.cuh"

namespace kiln::gemm::sm90 {

/// Whether kernels with this epilogue hold their tiles: where the deferred store was measured
/// faster (bench/NOTES.md, "v19": A/B in one process on an H100, 2048^3 to 8192^3 and two LLM
/// shapes): the plain copy +0.3-1.8% and bias + GELU +0-1.7% on shapes of several tiles per
/// CTA; bias + ReLU +0.7-1.7% ("v21") once its staged bias was read by ld.shared (through
/// generic pointers its held-tile kernel spilled 128 bytes). Epilogues not measured keep the
/// pipelined rounds.
template <class Epilogue>
inline constexpr bool holds_tiles = false;
template <>
inline constexpr bool holds_tiles<EpilogueCopy> = true;
template <>
inline constexpr bool holds_tiles<EpilogueBiasAct<Activation::GELU>> = true;
template <>
inline constexpr bool holds_tiles<EpilogueBiasAct<Activation::ReLU>> = true;

template <class Out, int BN, int Buffers>
class HeldTile {
public:
    static constexpr int Panels = BN / 64;
    static_assert(BN % 64 == 0, "tile width must be a multiple of one 64-column panel");
    static_assert(Panels % Buffers == 0, "a tile's rounds must be a multiple of the buffers");

    /// Packs a warpgroup's fragment and its tile's place. before_panel(p, 1) runs the epilogue
    /// on panel p's columns first (store_staged's before_round form), one panel at a time: on
    /// the whole fragment at once ptxas hoisted the bias loads of every column and spilled.
    /// Nothing may be pending (flush() first), so that the held registers are free for it.
    /// Relu: the pack applies max(x, 0) (pack_pair; relu_in_pack epilogues).
    template <bool Relu = false, class BeforePanel>
    __device__ __forceinline__ void hold(float (&acc)[BN / 2], int tile_row, int tile_col,
                                         int batch, const BeforePanel& before_panel) {
#pragma unroll
        for (int p = 0; p < Panels; ++p) {
            before_panel(p, 1);
#pragma unroll
            for (int j = p * kGroupsPerPanel; j < (p + 1) * kGroupsPerPanel; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h)
                    bits_[2 * j + h] =
                        pack_pair<Out, Relu>(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
        }
        row_ = tile_row, col_ = tile_col, batch_ = batch;
        next_ = 0;
    }

    __device__ __forceinline__ bool pending() const { return next_ < Panels; }

    /// Stores the next held panel (one store round); no-op when nothing is pending.
    __device__ __forceinline__ void store_next(uint8_t* staging, const CUtensorMap* map, int c0,
                                               int barrier_id, int t) {
        if (!pending()) return;
        const auto pair_bits = [&](int j, int h) { return bits_[2 * j + h]; };
        // The panel index must be a constant where bits_ is read, or the array leaves the
        // registers: one unrolled arm per panel.
#pragma unroll
        for (int p = 0; p < Panels; ++p)
            if (p == next_)
                store_round<Buffers, true>(pair_bits, round_buffer<1, Buffers>(staging, p), map,
                                           p, 1, row_, col_, batch_, c0, barrier_id, t);
        ++next_;
    }

    __device__ __forceinline__ void flush(uint8_t* staging, const CUtensorMap* map, int c0,
                                          int barrier_id, int t) {
        while (pending()) store_next(staging, map, c0, barrier_id, t);
    }

private:
    uint32_t bits_[BN / 4];  // [2j + h]: rows srow + 8h, columns 8j + scol, +1 (wgmma layout)
    int row_ = 0, col_ = 0, batch_ = 0;
    int next_ = Panels;
};

}  // namespace kiln::gemm::sm90
