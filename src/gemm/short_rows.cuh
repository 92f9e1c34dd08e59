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
// The transposed two-tile product: A's 129-208 rows in two column tiles (80, 96 or 104 wide:
// two_tile_width) against the weights on 128-row tiles of two consumer warpgroups, unpaired,
// the two CTAs of a weight tile next to each other in the launch order (rasterization group 1),
// so that the two SMs of a TPC merge their identical weight loads (bench/NOTES.md v25) -- as
// cuBLAS runs 200 x 8000 x 4096 (tst_128x104, 126 CTAs). Harness, H200, against the paths it
// replaces (v38): at 161-208 rows (the 128-row path, 25-35% of its MMA on padding) and K past
// 4096, +4-22% (192 x 7168 x 8192 434 -> 491 TFLOP/s, 168 x 6144 x 8192 351 -> 417,
// 192 x 5120 x 11008 341 -> 416), level or -2% at K = 4096; at 129-160 rows against the 64 x 160
// pairs, +5-20% up to 96 CTAs (150 x 4352 x 4096 268 -> 321, 160 x 6144 x 6144 372 -> 404),
// level at 112, -5-11% at 128; at 64 CTAs against 128-row tiles split in two, +6-17%
// (library: 144 x 4096 x 4096 0.81 -> 0.96 of cuBLAS).
// Where the weights' 64-row tiles, two CTAs each (one per column tile of A's rows), fit one wave
// the two-tile product runs on them: one consumer warpgroup per CTA, unpaired, group 1, twice
// the CTAs of the 128-row tiles, as cuBLAS runs 129 x 4096 x 8192 (tst_64x72, 128 CTAs).
// Harness, H200 (v39): 144 x 4096 x 4096 328 -> 366 TFLOP/s, 192 x 4096 x 4096 349 -> 433,
// 168 x 4096 x 11008 351 -> 429, 160 x 3072 x 8192 289 -> 339, 200 x 4096 x 2048 289 -> 375;
// 3-4% slower than the 128-row tiles at 129-144 rows and K = 8192 (which keeps them there).
// Since session 36 a weight tile's two CTAs run as a 2-CTA cluster that shares it by multicast
// where that measured faster (two_tile_cluster_n: the 128-row tiles from three fifths of a
// wave, the 64-row ones 72 wide where the weights outgrow the L2), as cuBLAS's
// `tst_64x72_64x12_1x2` does: library, H200, 160 x 8192 x 8192 0.84 -> 0.95 of cuBLAS, 176 x
// 8192 x 8192 0.92 -> 1.06 (bench/NOTES.md v40).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
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

/// The most rows of A the transposed two-tile product takes (two 104-wide tiles).
inline constexpr int kTwoTileMaxM = 208;

/// The two-tile product's column tile for M rows of A: half of them rounded up to wgmma's
/// N step of 8, so 72 (129-144 rows), 80, 88, 96 or 104 (201-208; sm90_impl.cuh,
/// run_sm90_two_tiles). 72 against 80 at 129-144 rows +5-8%, 88 against 96 at 161-176 rows
/// 0-7% (harness, 128-row tiles, bench/NOTES.md v39).
constexpr int two_tile_width(int M) { return ((M + 1) / 2 + 7) / 8 * 8; }

/// k-blocks (of 128 bytes) past which the two-tile product beats the 128-row path at 161-208
/// rows: at K = 4096 it ran level or 2% slower (200 x 8000, 176 x 8192, 184 x 7168), from
/// K = 5120 on 4-22% faster (bench/NOTES.md v38).
inline constexpr int64_t kTwoTileMinKBlocks = 64;

/// The same bound for the clustered 128-row tiles (two_tile_cluster_n): K = 1024 on. At K =
/// 3072 and 4096 they ran 5-21% faster than the 128-row path (library, 161-208 rows: 168 x 8192
/// x 4096 0.79 -> 0.96 of cuBLAS, 176 x 7168 x 3072 0.89 -> 1.02; bench/NOTES.md v40), at K =
/// 1024-2560 12-21% (176 x 7168 x 2048 0.75 -> 0.91, 184 x 5120 x 2048 0.84 -> 0.99; bias +
/// ReLU level to +17%; v41); under 1024 not measured.
inline constexpr int64_t kTwoTileClusterMinKBlocks = 15;

/// k-blocks up to which a clustered two-tile product on 128-row weight tiles runs its clusters
/// 4 x 2 (two_tile_cluster_m): at K = 1024-4096 they ran level to +8% against 1 x 2 (harness,
/// 136-200 rows: 176 x 7168 x 1024 0.865 -> 0.94 of cuBLAS, 176 x 7168 x 2048 0.915 -> 0.955,
/// 200 x 6144 x 4096 0.6% slower; bench/NOTES.md v42).
inline constexpr int64_t kTwoTileQuadMaxKBlocks = 64;

/// k-blocks past which 129-144 rows keep the 128-row two-tile tiles where they fit and the
/// 64-row ones would run unclustered (at K = 8192 the 128-row tiles ran 3-5% faster at 129-144
/// rows, at 160 rows level, and 5% slower with the weights evict-first; at K = 6144 and under
/// 6-16% slower; the clustered 64-row tiles level with them, bias + ReLU 5% faster:
/// bench/NOTES.md v39, v40), and past which the 64-row ones need more than half a wave
/// (narrow_two_tiles_fit).
inline constexpr int64_t kTwoTileWideMinKBlocks = 96;

/// Which two-tile products the plans may take: none (KILN_GEMM_TWO_TILES=0), the 128-row tiles
/// only (KILN_GEMM_TWO_TILES=128), or either (the default).
enum class TwoTiles { None, Rows128, Any };

/// What the two-tile plans know beside the shape: which of them they may take, whether the
/// weights outgrow the L2 (two_tile_weights_read_once, for the batches' weights together where
/// each batch has its own), whether a weight tile's two CTAs may share it in a cluster
/// (KILN_GEMM_TWO_TILE_CLUSTER=0: never, for A/B runs), the k-blocks past which 161-208
/// rows take the clustered 128-row tiles (KILN_GEMM_TWO_TILE_CLUSTER_MIN_K, for A/B runs), how
/// many 8-CTA clusters the device keeps resident (device_resident_clusters; 0: no 4 x 2
/// clusters, as for every epilogue but the plain copy) and the k-blocks up to which they are
/// taken (KILN_GEMM_TWO_TILE_QUAD_MAX_K, for A/B runs).
struct TwoTileOptions {
    TwoTiles which = TwoTiles::Any;
    bool weights_stream = false;
    bool cluster = true;
    int64_t cluster_min_k_blocks = kTwoTileClusterMinKBlocks;
    int quad_clusters = 0;
    int64_t quad_max_k_blocks = kTwoTileQuadMaxKBlocks;
    constexpr TwoTileOptions(TwoTiles w = TwoTiles::Any, bool stream = false, bool c = true,
                             int64_t min_k = kTwoTileClusterMinKBlocks, int quads = 0,
                             int64_t quad_max_k = kTwoTileQuadMaxKBlocks)
        : which(w), weights_stream(stream), cluster(c), cluster_min_k_blocks(min_k),
          quad_clusters(quads), quad_max_k_blocks(quad_max_k) {}
};

/// The short product's launch: its tile width (0: the 128-row path), K splits (1: none),
/// whether it runs transposed (the weights on the M side, A's rows bn wide), its tile's rows and
/// CTAs per cluster (64 rows in pairs along M; the two-tile products on 128 or 64 rows, the two
/// CTAs of a weight tile a cluster along N or unpaired, on 128 rows also 4 x 2 clusters), and
/// whether the weights load evict-first (OperandView::read_once).
struct ShortRows {
    int bn = 0;
    int splits = 1;
    bool transposed = false;
    int block_m = kShortRowsBlockM;
    int cluster_m = 2;
    int cluster_n = 1;
    bool read_once = false;
};

/// Whether the two-tile product's weights (weight_bytes of them, a weight tile's two CTAs
/// consecutive, so they load it together) outgrow an L2 of l2_bytes: then they are read once
/// (OperandView::read_once, evict-first). At 4096 x 8192 weights (64 MiB, 50 MB of L2) the
/// hint ran the two-tile product +2-6% (harness, bench/NOTES.md v39); weights that fit the L2
/// stay normal: a model's next call may find them there (evict-first lost 2-25% on the few-row
/// product's weights, v30).
constexpr bool two_tile_weights_read_once(int64_t weight_bytes, int64_t l2_bytes) {
    return weight_bytes > l2_bytes;
}

/// CTAs per cluster along N of a two-tile product (2: a weight tile's two CTAs share it by
/// multicast, as cuBLAS's `tst_64x72_64x12_1x2`; 1: consecutive, unpaired). Library, H200,
/// against the unpaired CTAs (bench/NOTES.md v40): on 128-row tiles from three fifths of a wave
/// +3-16% (160 x 8192 x 8192 0.85 -> 0.95 of cuBLAS, 136 x 5120 x 4096 0.96 -> 1.07, 176 x 8192
/// x 8192 0.92 -> 1.06), at 68 CTAs 4-7% slower (150 x 4352 x 4096), and 5-9% slower at 64 in
/// the harness; on 64-row tiles, where the weights outgrow the L2, level at 72 wide with bias +
/// ReLU +5% (129-144 rows at K = 8192), 6-8% slower at 80 and 88 wide; where the weights fit the
/// L2 (their loads L2 hits) 3-13% slower in the harness.
constexpr int two_tile_cluster_n(int block_m, int width, int64_t ctas, int sms,
                                 const TwoTileOptions& opt) {
    if (!opt.cluster) return 1;
    if (block_m == 128) return 5 * ctas >= 3 * int64_t(sms) ? 2 : 1;
    return opt.weights_stream && width == 72 ? 2 : 1;
}

/// CTAs of a transposed product of N weight rows (x batch) at two per tile_rows of them: the
/// two-tile product's (on 128- or 64-row tiles), and the 64 x 160 pairs' (two 64-row tiles per
/// pair, so two per 128 weight rows).
constexpr int64_t weight_tile_ctas(int N, int batch, int tile_rows = 128) {
    return 2 * ((int64_t(N) + tile_rows - 1) / tile_rows * batch);
}

/// CTAs per cluster along M of a two-tile product: 4 where its 128-row weight tiles' 1 x 2
/// clusters (two_tile_cluster_n) may run 4 x 2 (four weight tiles' CTAs also share the
/// activations' tile, as cuBLAS's `tst_128x88_64x7_4x2` at K = 2048): K at most
/// opt.quad_max_k_blocks and every cluster of N weight rows (x batch) resident at once
/// (opt.quad_clusters): 4 x 2 clusters of 128 CTAs, one more than an H200 keeps, ran at half
/// the speed of 1 x 2 ones (harness, bench/NOTES.md v42). Else 1.
constexpr int two_tile_cluster_m(int block_m, int cluster_n, int N, int batch, int64_t k_blocks,
                                 const TwoTileOptions& opt) {
    const int64_t clusters = ((int64_t(N) + 127) / 128 + 3) / 4 * batch;
    return block_m == 128 && cluster_n == 2 && k_blocks <= opt.quad_max_k_blocks &&
                   clusters <= opt.quad_clusters
               ? 4
               : 1;
}

/// The transposed two-tile product of M rows on block_m-row tiles of N weight rows (x batch),
/// two CTAs each. Its weights load evict-first where they outgrow the L2 and its CTAs run
/// unpaired: clustered, the hint cost the 64-row tiles 4% in the harness (v40), and the 128-row
/// ones ran level.
constexpr ShortRows two_tile_plan(int M, int N, int batch, int64_t k_blocks, int block_m, int sms,
                                  const TwoTileOptions& opt) {
    const int width = two_tile_width(M);
    const int64_t ctas = weight_tile_ctas(N, batch, block_m);
    const int cluster_n = two_tile_cluster_n(block_m, width, ctas, sms, opt);
    const int cluster_m = two_tile_cluster_m(block_m, cluster_n, N, batch, k_blocks, opt);
    return {width, 1, true, block_m, cluster_m, cluster_n, opt.weights_stream && cluster_n == 1};
}

/// Whether `ctas` fill at least 15/32 of a wave of `sms`: the two-tile products' floor (at 64
/// CTAs of 132 they beat the 128-row path's split tiles, at 48 they did not: bench/NOTES.md v38).
constexpr bool fills_two_tile_floor(int64_t ctas, int sms) {
    return 32 * ctas >= 15 * int64_t(sms);
}

/// Whether the two-tile product on the weights' 64-row tiles (two CTAs per 64 weight rows)
/// fills more than half a wave and at most one, or from 15/32 of one to half while K is at most
/// kTwoTileWideMinKBlocks: at 64 CTAs it ran 16% faster than the 128-row tiles split in two at
/// 144 x 2048 x 4096, 3-5% slower at 160 x 2048 x 8192 (library, bench/NOTES.md v39).
constexpr bool narrow_two_tiles_fit(int N, int64_t k_blocks, int batch, int sms) {
    const int64_t ctas = weight_tile_ctas(N, batch, 64);
    if (ctas > sms) return false;
    return 2 * ctas > sms ||
           (fills_two_tile_floor(ctas, sms) && k_blocks <= kTwoTileWideMinKBlocks);
}

/// The transposed product of 129 to kShortRowsTransposedN rows, unsplit: the two-tile
/// product on 64-row weight tiles where they fit one wave (narrow_two_tiles_fit) but at 129-144
/// rows past kTwoTileWideMinKBlocks where the 128-row ones fit too and the 64-row ones would
/// run unclustered; on 128-row weight tiles where those (two CTAs each) fill from 15/32 of a
/// wave to one (at 64 CTAs they ran 6-17% faster than the 128-row path's tiles split in two, at
/// 48 1% slower: bench/NOTES.md v38). Past three quarters they run clustered
/// (two_tile_cluster_n): unclustered there, the 64 x 160 pairs (each pair two 64-row weight
/// tiles sharing A's one tile) ran 5-11% faster at 128 CTAs and level at 112; clustered, the
/// two tiles ran 8-12% faster than the pairs (library, v40). Without clusters
/// (KILN_GEMM_TWO_TILE_CLUSTER=0) the pairs take that part. Without the two-tile product
/// (TwoTiles::None) the pairs take half a wave to one. The pairs only where K is at most
/// kShortRowsNarrowMaxKBlocks (what was measured: 56 weight tiles at K = 8192); the two tiles
/// at any K: past K = 8192 the 64-row ones ran 0.95-1.06 of cuBLAS in the harness where the
/// 128-row path's split tiles ran 0.76-0.80 in the library (v40).
constexpr ShortRows short_rows_transposed_plan(int M, int N, int64_t k_blocks, int batch,
                                               int sms, const TwoTileOptions& opt = {}) {
    const int64_t ctas = weight_tile_ctas(N, batch);
    if (ctas > sms) return {};
    const ShortRows wide = two_tile_plan(M, N, batch, k_blocks, 128, sms, opt);
    const bool wide_fit = opt.which != TwoTiles::None && fills_two_tile_floor(ctas, sms) &&
                          (4 * ctas <= 3 * int64_t(sms) || wide.cluster_n == 2);
    if (opt.which == TwoTiles::Any && narrow_two_tiles_fit(N, k_blocks, batch, sms)) {
        const ShortRows narrow = two_tile_plan(M, N, batch, k_blocks, 64, sms, opt);
        if (!(wide_fit && k_blocks > kTwoTileWideMinKBlocks && narrow.bn == 72 &&
              narrow.cluster_n == 1))
            return narrow;
    }
    if (wide_fit) return wide;
    if (2 * ctas < sms || k_blocks > kShortRowsNarrowMaxKBlocks) return {};
    return {kShortRowsTransposedN, 1, true};
}

/// The two-tile product of 161 to kTwoTileMaxM rows: on 64-row weight tiles where they fit
/// (narrow_two_tiles_fit; 4-31% faster than the 128-row ones at every K measured, 2048-11008;
/// at 193-208 rows short_rows_plan's pairs fit first wherever they would),
/// else on 128-row ones where those fill more than half a wave and at most one (under half, the
/// 128-row path splits K instead) and K is past kTwoTileMinKBlocks, or clustered past
/// kTwoTileClusterMinKBlocks; none without it.
constexpr ShortRows two_tile_rows_plan(int M, int N, int64_t k_blocks, int batch, int sms,
                                       const TwoTileOptions& opt = {}) {
    if (opt.which == TwoTiles::Any && narrow_two_tiles_fit(N, k_blocks, batch, sms))
        return two_tile_plan(M, N, batch, k_blocks, 64, sms, opt);
    const int64_t ctas = weight_tile_ctas(N, batch);
    if (opt.which == TwoTiles::None || ctas > sms || 2 * ctas <= sms) return {};
    const ShortRows wide = two_tile_plan(M, N, batch, k_blocks, 128, sms, opt);
    const int64_t min_k_blocks =
        wide.cluster_n == 2 ? opt.cluster_min_k_blocks : kTwoTileMinKBlocks;
    return k_blocks > min_k_blocks ? wide : ShortRows{};
}

/// The short product on 64-row tiles in pairs of an output of m_tiles (2 or 4) such tiles:
/// see short_rows_plan.
constexpr ShortRows short_rows_pairs_plan(int m_tiles, int N, int64_t k_blocks, int batch,
                                          int64_t wave) {
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

/// The short product of an M x N x K x batch output of 16-bit elements on `sms` SMs: the
/// narrowest of kShortRowsWidths whose pairs of 64-row tiles fit one wave of 2-CTA clusters
/// (64 wide only while K is at most kShortRowsNarrowMaxKBlocks), unsplit where they fill at
/// least half of it; 64-wide pairs under half a wave split K to fill it, within split-K's bounds
/// (bounded_splits: in the library 80 x 2048 x 8192's 32 pairs split in two ran 0.81 of cuBLAS,
/// the 128-row path's 16 tiles split in four 0.69, and 128 x 1024 x 8192 0.61 -> 0.98 split in
/// four; bench/NOTES.md v36). 128-wide pairs are never under half a wave: they are taken only
/// where the 64-wide ones were more than one.
/// 129 to 160 rows run transposed (short_rows_transposed_plan), 161 to 192 as the transposed
/// two-tile product (two_tile_rows_plan; three 64-row M-tiles would idle a CTA of a pair), and
/// 193 to 208 so where no pairs fit one wave: at 200 x 4096 x 2048 the 64 x 128 pairs' bias +
/// ReLU (the bias-started accumulator) ran 11% faster than the two tiles' linear kernel, the
/// plain products within 4% either way (bench/NOTES.md v39).
/// None (the 128-row path) when M is at most 64 rows (one M-tile: the pair would idle a CTA)
/// or more than 256 (more than two pairs' rows), or when the split would not reach two.
/// opt: which two-tile products it may take (KILN_GEMM_TWO_TILES), how (TwoTileOptions).
constexpr ShortRows short_rows_plan(int M, int N, int K, int batch, int sms,
                                    const TwoTileOptions& opt = {}) {
    const int m_tiles = (M + kShortRowsBlockM - 1) / kShortRowsBlockM;
    const int64_t k_blocks = k_blocks_of(K, 2);
    if (sms < 4) return {};
    if (M > 2 * kShortRowsBlockM && M <= kShortRowsTransposedN)
        return short_rows_transposed_plan(M, N, k_blocks, batch, sms, opt);
    if (M > kShortRowsTransposedN && M <= 3 * kShortRowsBlockM)
        return two_tile_rows_plan(M, N, k_blocks, batch, sms, opt);
    if (m_tiles < 2 || m_tiles > 4) return {};
    const ShortRows pairs = short_rows_pairs_plan(m_tiles, N, k_blocks, batch, sms / 2);
    if (pairs.bn || M <= 3 * kShortRowsBlockM || M > kTwoTileMaxM) return pairs;
    return two_tile_rows_plan(M, N, k_blocks, batch, sms, opt);
}

/// KILN_GEMM_SHORT_ROWS=0 turns the short-product path off (experiments only).
inline bool short_rows_enabled() {
    static const bool on = !env_off("KILN_GEMM_SHORT_ROWS");
    return on;
}

/// KILN_GEMM_TWO_TILES=0 turns the two-tile product off, =128 keeps it to 128-row weight tiles
/// (experiments only; the A/B of bench/NOTES.md v39). Off, 129-160 rows run as 64 x 160 pairs
/// from half a wave on, 161-208 rows on the 128-row path.
inline TwoTiles two_tiles_enabled() {
    static const TwoTiles on = [] {
        const char* e = std::getenv("KILN_GEMM_TWO_TILES");
        if (!e) return TwoTiles::Any;
        return std::strcmp(e, "0") == 0     ? TwoTiles::None
               : std::strcmp(e, "128") == 0 ? TwoTiles::Rows128
                                            : TwoTiles::Any;
    }();
    return on;
}

/// KILN_GEMM_TWO_TILE_CLUSTER=0 keeps a two-tile product's CTAs unpaired (experiments only;
/// the A/B of bench/NOTES.md v40).
inline bool two_tile_cluster_enabled() {
    static const bool on = !env_off("KILN_GEMM_TWO_TILE_CLUSTER");
    return on;
}

/// KILN_GEMM_TWO_TILE_CLUSTER_MIN_K=B moves the k-blocks past which 161-208 rows take the
/// clustered 128-row two tiles to B (experiments only; kTwoTileClusterMinKBlocks by default).
inline int64_t two_tile_cluster_min_k_blocks() {
    static const int64_t k =
        env_int("KILN_GEMM_TWO_TILE_CLUSTER_MIN_K", int(kTwoTileClusterMinKBlocks));
    return k;
}

/// KILN_GEMM_TWO_TILE_QUAD_MAX_K=B moves the k-blocks up to which the clustered 128-row two
/// tiles run 4 x 2 clusters to B, 0: never (experiments only; kTwoTileQuadMaxKBlocks by
/// default).
inline int64_t two_tile_quad_max_k_blocks() {
    static const int64_t k =
        env_int("KILN_GEMM_TWO_TILE_QUAD_MAX_K", int(kTwoTileQuadMaxKBlocks));
    return k;
}

/// The short product p (a gemmEx call without transforms or sums, on the TMA path) runs as, or
/// none: 16-bit K-major operands and short_rows_plan's shape rule on `sms` SMs; transposed only
/// without C (EpilogueLinear reads C by rows). The transposed product's weights are B (N x K):
/// weights shared by the batches are read again by each batch's CTAs, so they never stream.
/// 4 x 2 clusters for the plain product only: with D's bias and ReLU (EpilogueLinear) they ran
/// 0-3% slower than 1 x 2 ones where the plain product gained 1-9% (bench/NOTES.md v42).
inline ShortRows short_rows_plan(const Problem& p, int sms) {
    if (!is16(p.a_type) || p.va.mn_major || p.vb.mn_major || !short_rows_enabled()) return {};
    const bool per_batch = p.batch == 1 || p.vb.batch_stride != 0;
    const TwoTileOptions opt{
        two_tiles_enabled(),
        per_batch && two_tile_weights_read_once(int64_t(p.N) * p.K * p.batch * 2,
                                                device_l2_bytes()),
        two_tile_cluster_enabled(), two_tile_cluster_min_k_blocks(),
        plain_epilogue(p) ? device_resident_clusters(8) : 0, two_tile_quad_max_k_blocks()};
    const ShortRows plan = short_rows_plan(p.M, p.N, p.K, p.batch, sms, opt);
    return plan.transposed && p.beta != 0.f ? ShortRows{} : plan;
}

}  // namespace kiln::gemm::detail
