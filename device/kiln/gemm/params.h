// kiln::gemm params (GemmKernels §4.2.1): tile shapes and pipeline depth with default heuristics.
// Plain C++ (no CUDA), so host code and tests can call it.
#pragma once
#include "kiln/gemm/split_k.h"
#include "kiln/gemm/tail_split.h"

namespace kiln::gemm {

struct Params {
    int block_m = 128, block_n = 256, block_k = 64;  // CTA tile
    int warpgroup_m = 64;                             // rows per consumer warpgroup
    int stages = 4;                                   // smem pipeline depth
    int cluster_m = 1, cluster_n = 1;                 // CTAs per cluster (M: 2; see default_params)
    int swizzle_bytes = 128;
    int group_m = 16;                                 // rasterization group (tiles along M)
    int split_k = 1;                                  // K splits per tile (split_k.h)
    bool tail_split = true;  // unsplit launches: split the last, partial wave (tail_split.h)
    int sms = 0;             // the device's SMs, which tail_split_plan shares the tail among
};

/// Split-K bounds: every split keeps at least kMinSplitKBlocks k-blocks (its partial costs an
/// fp32 write of the tile and the last split's reads of the others), and at most kMaxSplits
/// splits share a tile.
inline constexpr int kMinSplitKBlocks = 16;
inline constexpr int kMaxSplits = 4;

/// CTAs that stream a weight matrix at full rate from DRAM when each has a long K to walk: 64
/// such CTAs moved 2.7 TB/s on the H100, and splitting them further only added fix-ups
/// (bench/NOTES.md, v28, v29).
inline constexpr int kStreamingCtas = 64;

/// The fewest K splits of `tiles` (> 0) tiles that make kStreamingCtas CTAs.
constexpr int64_t streaming_splits(int64_t tiles) { return (kStreamingCtas + tiles - 1) / tiles; }

/// 128-byte k-blocks (one swizzle row) of a K of `elem_bytes`-byte elements.
constexpr int64_t k_blocks_of(int64_t K, int elem_bytes) { return (K * elem_bytes + 127) / 128; }

/// The splits of a tile's `k_blocks` among `workers` otherwise idle ones, within split-K's
/// bounds; below 2, the tile is not split.
constexpr int64_t bounded_splits(int64_t workers, int64_t k_blocks) {
    int64_t splits = workers;
    if (splits > k_blocks / kMinSplitKBlocks) splits = k_blocks / kMinSplitKBlocks;
    if (splits > kMaxSplits) splits = kMaxSplits;
    return splits;
}

/// The tail split (tail_split.h) of `tiles` tiles of `k_blocks` k-blocks on `slots` persistent
/// workers: the last, partial wave's tiles split into as many parts as the idle workers allow,
/// within split-K's bounds. None when the tiles fit one wave (default_params splits them all
/// instead), fill whole waves, or leave too few idle workers to split the last one in two.
constexpr TailSplit tail_split_plan(int64_t tiles, int k_blocks, int slots) {
    if (slots < 2 || tiles <= slots || tiles % slots == 0) return {};
    const int64_t r = tiles % slots;
    const int64_t splits = bounded_splits(slots / r, k_blocks);
    if (splits < 2) return {};
    return {int(tiles - r), int(r), int(splits)};
}

/// Largest stage count whose A+B buffers fit in `smem_bytes` (leaving room for barriers).
constexpr int max_stages(int bm, int bn, int bk, int elem_bytes, int smem_bytes = 227 * 1024) {
    int per_stage = (bm + bn) * bk * elem_bytes;
    int s = (smem_bytes - 2048) / per_stage;
    return s < 1 ? 1 : s;
}

/// Whether 128x128 tiles of an M x N x batch output pair along M in one wave: two M-tiles (a
/// skinny output streaming B, which the pair shares) and no more pairs than the SMs hold. At
/// decode-ish 256x8192x8192 such pairs ran the bias + activation kernel 2.5-3.5% faster than
/// unpaired (5% at the power cap), and the plain product on that kernel 2.5-4% faster than on
/// the unpaired copy kernel, which pairs made 1.5% slower (bench/NOTES.md, v25, v26); taller
/// outputs (more M-tiles, more reuse of B in L2) were not measured, one M-tile would idle a
/// CTA.
constexpr bool pair_narrow_tiles(int M, int N, int batch, int sms) {
    const long m_tiles = (M + 127) / 128, n_tiles = (N + 127) / 128;
    return m_tiles == 2 && n_tiles * batch <= sms / 2;
}

/// Tile widths between 128 and 256 (fill_tile_n), narrowest first.
inline constexpr int kFillWidths[] = {144, 160, 192};

/// The tile width of a launch whose 128x256 tiles leave SMs idle in their one wave while 128x128
/// tiles would spill into a second: the narrowest fill width whose tiles still fit one wave,
/// else 256. A CTA's time is about proportional to its tile's width, so 1024x2304x4096 runs
/// 128 tiles of 144 columns instead of 72 of 256: 0.64 -> 0.87 of cuBLAS, and 512x4608x4096
/// 0.65 -> 0.86, 1024x2304x8192 0.58 -> 0.90 (bench/NOTES.md, v31; cuBLAS picks such widths
/// there too). Only where the output is at least four M-tiles tall: skinny outputs stream B
/// from DRAM, and filling the wave with narrower tiles did not speed them up (256x6144x8192 on
/// 96-wide tiles: 0.85 -> 0.82, same note). 16-bit inputs only (the instantiated kernels); 144
/// and 160 columns need B read in one TMA box per k-block (b_one_box: K-major, one row mode),
/// as they are not whole 64-row chunks.
constexpr int fill_tile_n(long m_tiles, int N, int batch, int elem_bytes, int sms,
                          bool b_one_box) {
    if (elem_bytes != 2 || m_tiles < 4) return 256;
    for (const int w : kFillWidths) {
        if (w % 64 != 0 && !b_one_box) continue;
        if (m_tiles * ((N + w - 1) / w) * batch <= sms) return w;
    }
    return 256;
}

/// Heuristic: 128x256 tiles when they fill at least ~90% of the SMs in one wave, else 128x128
/// (more, smaller tiles for skinny or small problems) -- unless the narrow tiles spill past one
/// wave where the wide ones fit in it: a second, mostly idle wave of narrow tiles costs more
/// than one of wide tiles (256x11008x4096: 0.73 -> 0.85 of cuBLAS, bench/NOTES.md "v15").
/// 128x256 tiles pair up in 2-CTA clusters (sharing B) only when there are more tiles than SMs:
/// a single wave of pairs ran 3% slower than the same tiles unpaired at 2048^3 (bench/NOTES.md,
/// v11). When the tiles still leave half of the SMs or more idle and K is long, each tile's K is
/// split into as many units as fill the SMs (at most kMaxSplits, each >= kMinSplitKBlocks
/// k-blocks). Unsplit 128x128 tiles, always one wave, pair up on skinny outputs of two M-tiles
/// (pair_narrow_tiles); the launcher pairs only its bias + activation kernel there, which also
/// runs the plain product (v25, v26). One M-tile (at most 128 rows: the product streams B from
/// DRAM) splits only as far as kStreamingCtas CTAs: at 96 and 128 rows against 8192 x 8192
/// weights (64 tiles) unsplit ran 0.97 of cuBLAS against 0.89-0.91 split in two, and
/// 127 x 4096 x 4096 (32 tiles) 0.68 split in two against 0.59 in four (v29). Where the wide
/// tiles leave SMs idle and the narrow ones spill, a fill width between the two may fit one
/// full wave (fill_tile_n; b_one_box: whether B's k-block is one TMA box).
/// Stages fill shared memory.
constexpr Params default_params(int M, int N, int K, int batch, int elem_bytes, int sms,
                                bool b_one_box = true) {
    Params p;
    const long m_tiles = (M + 127) / 128;
    const long tiles256 = m_tiles * ((N + 255) / 256) * batch;
    const long tiles128 = m_tiles * ((N + 127) / 128) * batch;
    const bool fills = tiles256 * 10 >= long(sms) * 9;
    const bool narrow_spill = tiles128 > sms && tiles256 <= sms;
    p.block_n = fills || narrow_spill ? 256 : 128;
    if (narrow_spill && !fills)
        p.block_n = fill_tile_n(m_tiles, N, batch, elem_bytes, sms, b_one_box);
    p.cluster_m = p.block_n == 256 && tiles256 > sms ? 2 : 1;
    const long tiles = long(split_k_cta_tiles(M, N, batch, p.block_m, p.block_n, p.cluster_m));
    int64_t workers = tiles > 0 ? sms / tiles : 1;
    const bool one_m_tile = (M + p.block_m - 1) / p.block_m == 1;
    if (tiles > 0 && one_m_tile && workers > streaming_splits(tiles))
        workers = streaming_splits(tiles);
    const int64_t splits = bounded_splits(workers, k_blocks_of(K, elem_bytes));
    p.split_k = splits >= 2 ? int(splits) : 1;
    if (p.block_n == 128 && p.split_k == 1 && pair_narrow_tiles(M, N, batch, sms)) p.cluster_m = 2;
    p.stages = max_stages(p.block_m, p.block_n, p.block_k, elem_bytes);
    if (p.stages > 6) p.stages = 6;
    p.sms = sms;
    return p;
}

}  // namespace kiln::gemm
