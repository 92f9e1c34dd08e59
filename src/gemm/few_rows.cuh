// Internal: few-row products (LLM decoding: up to 64 rows of activations against a wide weight
// matrix) run transposed, D^T = B.A^T, on 128 x 16 or 128 x 64 tiles, or where narrower weight
// tiles fill the SMs better, untransposed on 64 x 32-256 tiles (few_rows_untransposed_width).
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

/// KILN_GEMM_FEW_ROWS=0|1 turns the few-row path off, or the transposed one on for every
/// product it can run (experiments only).
inline int few_rows_override() {
    static const int env = env_int("KILN_GEMM_FEW_ROWS", -1);
    return env;
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

/// Whether the transposed few-row product's 128-row weight tiles (N weights) fill at least 9/10
/// of one wave of `sms` unsplit: then it beats the untransposed tiles at 16 rows or fewer.
constexpr bool few_rows_transposed_fills(int N, int sms) {
    const int64_t tiles = (int64_t(N) + 127) / 128;
    return tiles <= sms && 10 * tiles >= 9 * int64_t(sms);
}

/// The width of the weight tiles where a few-row product runs *untransposed* instead: A's rows one
/// 64-row M-tile (one consumer warpgroup), the weights the N side in tiles of the narrowest of
/// kFewRowsUntransposedWidths (the multiples of 8 from 32 to 256) whose tiles fit one wave of
/// `sms`, unpaired and unsplit (the layout of cuBLAS's tst_80x64 at 64 x 8192 x 8192); 0 where the
/// product stays transposed: a batch, more than 256 * sms weights, 32-wide tiles under 3/5 of a
/// wave (v45: from 80 tiles up they beat the transposed tiles, 48 x 3072 x 8192 0.78 -> 0.91, 64 x
/// 3072 x 4096 cold 0.76 -> 0.97; 32 x 3072 x 4096 warm 0.96 -> 0.94; at 64 tiles they lost 3-14%),
/// and at 16 rows or fewer 32-wide tiles and weights whose transposed tiles fill the SMs
/// (few_rows_transposed_fills). Where the transposed product's 128-row weight tiles leave SMs idle,
/// split K unevenly or outgrow one wave, the untransposed tiles fill it. Bias + ReLU against
/// cuBLASLt in the library (bench/NOTES.md v44, H200), transposed or as written -> untransposed: 64
/// x 6144 x 4096 0.79 -> 1.09, 64 x 22016 x 4096 0.79 -> 1.04 on 168-wide tiles (the default path
/// before; 0.97 on 192-wide ones, 115 CTAs), 64 x 4096 x 11008 0.92 -> 1.00 (split in two before),
/// 32 x 5120 x 5120 0.84 -> 1.05, 16 x 5120 x 5120 0.94 -> 1.05 (split in three before). 17-64 rows
/// ran level or faster at every width in the harness (32 x 14336 x 4096 1% slower than the
/// transposed tiles in 4-CTA clusters, which this replaced). At 1-16 rows (v45) the untransposed
/// tiles won from 40 wide: 16 x 10240 x 4096 0.83 -> 1.03, 16 x 22016 x 4096 0.81 -> 0.99-1.04, 16
/// x 14336 x 4096 0.95 -> 0.97, 8 x 28672 x 8192 0.87 -> 0.96, 16 x 8192 x 8192 level; they lost
/// where the transposed tiles fill the SMs unsplit (16 x 16384 x 4096, 128 of them: 1.00 -> 0.98)
/// and at 32 wide (16 x 4096 x 4096, whose transposed tiles split in four: 45 against 56 TFLOP/s).
/// `forced`: KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 turns it off, =1 takes the narrowest width that fits
/// one wave at any row count (A/B runs), else -1.
constexpr int few_rows_untransposed_width(int M, int N, int batch, int sms, int forced = -1) {
    if (forced == 0 || M > kFewRowsMaxM || batch != 1) return 0;
    for (const int w : kFewRowsUntransposedWidths) {
        const int64_t tiles = (int64_t(N) + w - 1) / w;
        if (tiles > sms) continue;
        if (forced == 1) return w;
        if (M <= 16)
            return w > kFewRowsUntransposedWidths[0] && !few_rows_transposed_fills(N, sms) ? w : 0;
        return w > kFewRowsUntransposedWidths[0] || 5 * tiles >= 3 * int64_t(sms) ? w : 0;
    }
    return 0;
}

/// KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 or 1 (few_rows_untransposed_width's `forced`); 0 under
/// KILN_GEMM_FEW_ROWS=1, which runs every few-row product transposed.
inline int few_rows_untransposed_override() {
    static const int env =
        few_rows_override() == 1 ? 0 : env_int("KILN_GEMM_FEW_ROWS_UNTRANSPOSED", -1);
    return env;
}

/// p's untransposed width on `sms` SMs (few_rows_untransposed_width, 0: transposed) under the
/// KILN_GEMM_FEW_ROWS_UNTRANSPOSED switch (the override above).
inline int few_rows_untransposed_width_for(const Problem& p, int sms) {
    return few_rows_untransposed_width(p.M, p.N, p.batch, sms, few_rows_untransposed_override());
}

/// Whether p (a gemmEx call without transforms or sums, on the TMA path) runs as a few-row
/// product, transposed or untransposed (run_few_rows): 16-bit K-major operands, no C (beta 0;
/// the transposed product's EpilogueLinear would read C by rows) and, unless forced (then at any
/// M: the transposed product tiles A's rows by 64), the shape rule (few_rows_shape on `sms`
/// SMs) or an untransposed width (few_rows_untransposed_width).
inline bool few_rows_path(const Problem& p, int sms) {
    if (!is16(p.a_type) || p.va.mn_major || p.vb.mn_major || p.beta != 0.f) return false;
    if (p.row_sum || p.col_sum) return false;
    const int env = few_rows_override();
    if (env == 0 || env == 1) return env == 1;
    return few_rows_shape(p.M, p.N, p.batch, sms) || few_rows_untransposed_width_for(p, sms) != 0;
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
    q.transposed = !p.transposed;
    if (p.bias && p.bias_mode == BiasMode::Col) q.bias_mode = BiasMode::Row;
    if (p.bias && p.bias_mode == BiasMode::Row) q.bias_mode = BiasMode::Col;
    return q;
}

}  // namespace kiln::gemm::detail
