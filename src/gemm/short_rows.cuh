// Internal: short products (65 to 256 rows of A, LLM decoding at larger batches) on 64-row tiles
// of one consumer warpgroup, in 2-CTA clusters whose two M-tiles share each B tile.
// Why: with 128-row tiles such a product has one or two M-tiles, so the grid is as many CTAs as
// B has 128-row tiles; it either leaves SMs idle or splits K and pays for the partial sums.
// Halving the tile's rows doubles the CTAs that stream B while the pair still loads each B tile
// once (multicast), the shape cuBLAS runs there (64 x 64 tiles in 1 x 2 clusters at
// 127 x 4096 x 4096). Against the 128-row path in the same run (library, H200, bench/NOTES.md
// v36), plain: 127 x 4096 x 4096 0.68 -> 0.80 of cuBLAS, 128 x 4096 x 4096 0.85 -> 1.02,
// 96 x 5120 x 5120 0.75 -> 0.95 and 128 x 8192 x 8192 0.87 -> 0.99 on 128-wide tiles,
// 256 x 4096 x 4096 0.82 -> 1.02; bias + ReLU against cuBLASLt 0.70 -> 0.89, 0.87 -> 1.13,
// 0.78 -> 0.98, 0.89 -> 1.00, 0.84 -> 1.03.
// Only where the pairs fit one wave: past it a second, partial wave of pairs cost more than the
// tiles saved (160 x 7168 x 8192: 0.72 -> 0.47 in the harness); under half a wave the pairs
// split K (80 x 2048 x 8192 on 32 pairs: 0.52 unsplit, 0.81 in two).
// 129 to 160 rows (three 64-row M-tiles: a pair would idle a CTA) run transposed, D^T = B.A^T
// (few_rows.cuh's transposed_problem): the weights on 64-row tiles in pairs, all of A's rows in
// one 160-wide tile that both CTAs of a pair share, as cuBLAS runs the weights on wgmma's M side
// there. Against the 128-row path in the same run (library, H200, bench/NOTES.md v37):
// 160 x 7168 x 8192 0.73 -> 0.85 of cuBLAS, 144 x 8192 x 4096 0.85 -> 0.95, 150 x 4352 x 4096
// 0.86 -> 0.97, 129 x 4224 x 8192 0.73 -> 0.80; bias + ReLU against cuBLASLt +3-14%.
#pragma once
#include <cstdint>
#include "dispatch.h"

namespace kiln::gemm::detail {

/// Rows of the short product's tile (one consumer warpgroup).
inline constexpr int kShortRowsBlockM = 64;

/// The tile widths the short product may take, narrowest first (sm90_impl.cuh instantiates
/// these).
inline constexpr int kShortRowsWidths[] = {64, 128};

/// The transposed short product's tile width: at most this many rows of A, in one tile.
inline constexpr int kShortRowsTransposedN = 160;

/// k-blocks (of 128 bytes) up to which 64-wide pairs beat the 128-row path. That path runs such
/// outputs (at most 33 128-row tiles) split in two; at 96 x 4096 x 11008 and 128 x 4096 x 14336
/// its long splits ran 0.945 and 0.921 of cuBLAS against 0.928 and 0.860 on 64 x 64 pairs, at
/// K = 4096 its short ones 0.64-0.83 against 0.77-0.99 (bench/NOTES.md v36).
inline constexpr int64_t kShortRowsNarrowMaxKBlocks = 128;

/// The short product's launch: its tile width (0: the 128-row path), K splits (1: none) and
/// whether it runs transposed (the weights on the 64-row tiles, A's rows bn wide).
struct ShortRows {
    int bn = 0;
    int splits = 1;
    bool transposed = false;
};

/// The transposed short product of 129 to kShortRowsTransposedN rows: unsplit, where the
/// weights' pairs of 64-row tiles fill half a wave to one, K up to kShortRowsNarrowMaxKBlocks
/// (what was measured: 56 pairs at K = 8192).
constexpr ShortRows short_rows_transposed_plan(int N, int64_t k_blocks, int batch, int64_t wave) {
    const int64_t pairs = (int64_t(N) + 2 * kShortRowsBlockM - 1) / (2 * kShortRowsBlockM) * batch;
    if (pairs > wave || 2 * pairs < wave || k_blocks > kShortRowsNarrowMaxKBlocks) return {};
    return {kShortRowsTransposedN, 1, true};
}

/// The short product of an M x N x K x batch output of 16-bit elements on `sms` SMs: the
/// narrowest of kShortRowsWidths whose pairs of 64-row tiles fit one wave of 2-CTA clusters
/// (64 wide only while K is at most kShortRowsNarrowMaxKBlocks), unsplit where they fill at
/// least half of it; 64-wide pairs under half a wave split K to fill it, within split-K's bounds
/// (bounded_splits: in the library 80 x 2048 x 8192's 32 pairs split in two ran 0.81 of cuBLAS,
/// the 128-row path's 16 tiles split in four 0.69, and 128 x 1024 x 8192 0.61 -> 0.98 split in
/// four; bench/NOTES.md v36). 128-wide pairs are never under half a wave: they are taken only
/// where the 64-wide ones were more than one.
/// 129 to 160 rows run transposed (short_rows_transposed_plan).
/// None (the 128-row path) when M is at most 64 rows (one M-tile: the pair would idle a CTA),
/// 161 to 192 (three M-tiles: one pair would idle a CTA; 192 x 4096 x 4096 0.99 -> 0.92 of
/// cuBLAS) or more than 256 (more than two pairs' rows), or when the split would not reach two.
constexpr ShortRows short_rows_plan(int M, int N, int K, int batch, int sms) {
    const int m_tiles = (M + kShortRowsBlockM - 1) / kShortRowsBlockM;
    const int64_t wave = sms / 2, k_blocks = k_blocks_of(K, 2);
    if (sms < 4) return {};
    if (M > 2 * kShortRowsBlockM && M <= kShortRowsTransposedN)
        return short_rows_transposed_plan(N, k_blocks, batch, wave);
    if (m_tiles < 2 || m_tiles > 4 || m_tiles % 2 != 0) return {};
    const int64_t pair_rows = m_tiles / 2;
    for (const int bn : kShortRowsWidths) {
        const int64_t pairs = pair_rows * ((int64_t(N) + bn - 1) / bn) * batch;
        if (pairs > wave) continue;
        if (bn == 64 && k_blocks > kShortRowsNarrowMaxKBlocks) return {};
        if (2 * pairs >= wave) return {bn, 1};
        const int64_t splits = bn == 64 ? bounded_splits(wave / pairs, k_blocks) : 1;
        return splits >= 2 ? ShortRows{bn, int(splits)} : ShortRows{};
    }
    return {};
}

/// KILN_GEMM_SHORT_ROWS=0 turns the short-product path off (experiments only).
inline bool short_rows_enabled() {
    static const bool on = !env_off("KILN_GEMM_SHORT_ROWS");
    return on;
}

/// The short product p (a gemmEx call without transforms or sums, on the TMA path) runs as, or
/// none: 16-bit K-major operands and short_rows_plan's shape rule on `sms` SMs; transposed only
/// without C (EpilogueLinear reads C by rows).
inline ShortRows short_rows_plan(const Problem& p, int sms) {
    if (!is16(p.a_type) || p.va.mn_major || p.vb.mn_major || !short_rows_enabled()) return {};
    const ShortRows plan = short_rows_plan(p.M, p.N, p.K, p.batch, sms);
    return plan.transposed && p.beta != 0.f ? ShortRows{} : plan;
}

}  // namespace kiln::gemm::detail
