// Internal: few-row products (LLM decoding: up to 64 rows of activations against a wide weight
// matrix) run transposed, D^T = B.A^T, on 128 x 16 or 128 x 64 tiles.
// Why: run as written, every CTA reads the same few rows of A in each k-block while it streams
// its share of B from DRAM, and the product ran at 0.84-0.87 of cuBLAS at 16-64 rows and
// 8192 x 8192 weights, 30% slower on the same tiles at 16 rows than at 128 (bench/NOTES.md,
// v28). Transposed, the weights are the kernel's A (128 rows per CTA, streamed), the activations
// its B (one column tile, 16 or 64 wide: few_rows_tile_n, shared by every CTA), and 8 stages
// keep the weights' bytes in flight: 0.96 / 0.99 of cuBLAS at 16 / 64 rows against 8192 x 8192
// weights on 64-wide tiles.
// Against fewer tiles than SMs the weights' K is split (few_rows_splits): 16 x 4096 x 4096
// (32 tiles) ran at 0.54 of cuBLAS as written, 0.74 transposed and split in four, 0.90 so on
// 16-wide tiles (few_rows_tile_n; v29).
// The result is stored column by column (D^T's rows are D's columns: a view with row stride 1,
// store_direct, in row pairs where D's rows pair up: store_direct_column_major); D is small next
// to the weights, so the scattered stores cost little.
#pragma once
#include <utility>
#include "dispatch.h"

namespace kiln::gemm::detail {

/// The transposed product's column tile: at most this many rows of A.
inline constexpr int kFewRowsMaxM = 64;

/// The column tile of the transposed product of M rows: 16 up to 16 rows, else 64. At one row
/// against 8192 x 8192 weights 128 x 16 tiles ran 0.98 of cuBLAS against 0.90 for 128 x 64, at
/// 8 and 16 rows +1% and +0.5%; at 32 rows two 16-wide tiles lost 12% (v29; why one row gains
/// most is not traced).
constexpr int few_rows_tile_n(int M) { return M <= 16 ? 16 : 64; }

/// The shape rule: at most kFewRowsMaxM rows of A against no more 128-row tiles of B (over the
/// batch) than the `sms` SMs run in one wave. At 65-128 rows (two column tiles) the transposed
/// product was slower than the default path on 8192 x 8192 weights (0.79-0.87 against
/// 0.89-0.90); past one wave, at 64 x 28672 x 8192 (224 tiles), 1% slower (bench/NOTES.md,
/// v28, v29).
constexpr bool few_rows_shape(int M, int N, int batch, int sms) {
    const int64_t tiles = int64_t((N + 127) / 128) * batch;
    return M <= kFewRowsMaxM && tiles <= sms;
}

/// KILN_GEMM_FEW_ROWS=0|1 turns the transposed few-row path off, or on for every product it
/// can run (experiments only).
inline int few_rows_override() {
    static const int env = env_int("KILN_GEMM_FEW_ROWS", -1);
    return env;
}

/// Whether p (a gemmEx call without transforms or sums, on the TMA path) runs transposed:
/// 16-bit K-major operands, no C (beta 0; EpilogueLinear reads C by rows) and, unless forced
/// (then at any M: the transposed product tiles A's rows by 64), the shape rule
/// (few_rows_shape on `sms` SMs).
inline bool few_rows_transposed(const Problem& p, int sms) {
    if (!is16(p.a_type) || p.va.mn_major || p.vb.mn_major || p.beta != 0.f) return false;
    if (p.row_sum || p.col_sum) return false;
    const int env = few_rows_override();
    if (env == 0 || env == 1) return env == 1;
    return few_rows_shape(p.M, p.N, p.batch, sms);
}

/// k-blocks (of 128 bytes) per split that count as long: a split that streams at least 8 KiB
/// of each of its 128 rows of B.
inline constexpr int kFewRowsLongSplit = 64;

/// K splits of the transposed product's `tiles` 128-row tiles of `k_blocks` k-blocks on `sms`
/// SMs: none from kStreamingCtas tiles on; below, the fewest that make kStreamingCtas CTAs if
/// each split stays long (kFewRowsLongSplit), else as many as fill the SMs within split-K's
/// bounds (params.h); 1 (none) below two. Measured against the other counts (v29): 32 tiles of
/// K = 11008 or 14336 ran fastest split in two (64 CTAs; 4 splits were 4-6% slower), 32 tiles
/// of K = 4096 in four (128 CTAs; 2 splits 4% slower), 40 tiles of K = 5120 in three; 64 tiles
/// of K = 2048 split in two were 12-14% slower than unsplit.
constexpr int few_rows_splits(int64_t tiles, int64_t k_blocks, int sms) {
    if (tiles <= 0 || tiles >= kStreamingCtas) return 1;
    int64_t fewest = streaming_splits(tiles);
    if (fewest > kMaxSplits) fewest = kMaxSplits;
    if (k_blocks / fewest >= kFewRowsLongSplit) return int(fewest);
    const int64_t fill = bounded_splits(sms / tiles, k_blocks);
    return fill >= 2 ? int(fill) : 1;
}

/// The few-row product's weight tiles in 4-CTA clusters along M, which share the activations'
/// tile by multicast (as cuBLAS's tst_128x32_64x10_4x1 at 32 x 14336 x 4096): 64-wide tiles,
/// unsplit, from 3/5 of the `sms` SMs' tiles on (80 of 132), where the device keeps them all
/// resident (`resident4`: 4-CTA clusters it keeps; 30 on an H200). In the library (H200,
/// bench/NOTES.md v43) 80-112 tiles ran +3.5-5% so (32 x 14336 x 4096 0.93 -> 0.97 of cuBLAS,
/// bias + ReLU 0.94 -> 0.99; 32 x 10240 x 4096, 80 tiles, 0.78 -> 0.82), while 64 tiles ran 21%
/// slower (64 x 8192 x 8192 1.02 -> 0.79): clusters fill whole GPCs, so a grid of half the SMs
/// in clusters crowds into half the GPCs where the unclustered one spreads over all of them.
/// 16-wide tiles lost 1-25% in 2- and 4-CTA clusters at 32-64 tiles (harness). Weights that
/// fit one wave of 72-96-wide tiles run untransposed instead (few_rows_untransposed_width,
/// checked first), so the clusters serve the wider ones (N past ~12700 on 132 SMs).
/// `forced`: KILN_GEMM_FEW_ROWS_CLUSTER (1: never, 4: wherever the tiles and clusters allow;
/// A/B runs), else -1.
inline constexpr int kFewRowsClusterM = 4;
constexpr int few_rows_cluster_m(int64_t tiles, int splits, int bn, int sms, int resident4,
                                 int forced = -1) {
    if (forced == 1 || bn != 64 || splits != 1) return 1;
    if ((tiles + kFewRowsClusterM - 1) / kFewRowsClusterM > resident4) return 1;
    return forced == kFewRowsClusterM || tiles * 5 >= int64_t(sms) * 3 ? kFewRowsClusterM : 1;
}

/// KILN_GEMM_FEW_ROWS_CLUSTER=1|4 (few_rows_cluster_m's `forced`).
inline int few_rows_cluster_override() {
    static const int env = env_int("KILN_GEMM_FEW_ROWS_CLUSTER", -1);
    return env;
}

/// The width of the weight tiles where a few-row product of 17 to 64 rows runs *untransposed*
/// instead: A's rows one 64-row M-tile (one consumer warpgroup), the weights the N side in
/// tiles of the narrowest of 72-96 columns (the 64-row two-tile kernels' widths) that fit one
/// wave of `sms`, unpaired; 0 where it does not (16 rows or fewer, a batch, or no such width
/// from 72 weight tiles of 128 rows on 132 SMs, 6/11 of them). Where the weights' 128-row tiles
/// fill 55-75% of the SMs the transposed product leaves the rest idle: untransposed on 116-128
/// CTAs the harness ran 32 x 9216-12288 x 4096 at 0.95-0.99 of cuBLAS against 0.78-0.86 (the
/// transposed tiles, in 4-CTA clusters from 80), 64 x 10240 x 8192 0.95 against 0.75
/// (bench/NOTES.md v43), as cuBLAS runs 64 x 8192 x 8192 on tst_80x64 (its weights the N
/// side). At 64 tiles (8192 weights) and at 16 rows it lost 1-6% to the transposed tiles.
/// `forced`: KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 turns it off (A/B runs), else -1.
inline constexpr int kFewRowsUntransposedWidths[] = {72, 80, 88, 96};
constexpr int few_rows_untransposed_width(int M, int N, int batch, int sms, int forced = -1) {
    if (forced == 0 || M <= 16 || M > kFewRowsMaxM || batch != 1) return 0;
    if (int64_t(N + 127) / 128 * 11 < int64_t(sms) * 6) return 0;
    for (const int w : kFewRowsUntransposedWidths)
        if ((N + w - 1) / w <= sms) return w;
    return 0;
}

/// KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 (few_rows_untransposed_width's `forced`).
inline int few_rows_untransposed_override() {
    static const int env = env_int("KILN_GEMM_FEW_ROWS_UNTRANSPOSED", -1);
    return env;
}

/// p as D^T = B.A^T: rows and columns swap, so do A and B; D^T's element (n, m) is D's (m, n),
/// at m * ldc + n; D's column bias is D^T's row bias, and its row bias D^T's column bias.
constexpr Problem transposed_problem(const Problem& p) {
    Problem q = p;
    std::swap(q.M, q.N);
    std::swap(q.va, q.vb);
    std::swap(q.a, q.b);
    std::swap(q.lda, q.ldb);
    std::swap(q.sa, q.sb);
    // op(B)^T is B with the other op: K-major B (Op::T) becomes K-major A (Op::N) and back
    q.ta = p.tb == Op::T ? Op::N : Op::T;
    q.tb = p.ta == Op::N ? Op::T : Op::N;
    q.vd = OutView::column_major(p.ldc, p.vd.batch_stride);
    if (p.bias && p.bias_mode == BiasMode::Col) q.bias_mode = BiasMode::Row;
    if (p.bias && p.bias_mode == BiasMode::Row) q.bias_mode = BiasMode::Col;
    return q;
}

}  // namespace kiln::gemm::detail
