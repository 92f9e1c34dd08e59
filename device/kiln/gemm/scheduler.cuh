// kiln::gemm::TileScheduler — maps a linear persistent-loop index to a work unit: an output tile
// (batch, m-tile, n-tile) and the range of its k-blocks that the unit accumulates.
//
// Tiles are visited in groups of `group_m` M-tiles: inside a group the M index moves fastest, so
// the CTAs resident at one time share a few B column-panels and a few A row-panels in L2
// ("grouped rasterization"). Each persistent CTA takes units blockIdx.x, +gridDim.x, ...
// With `splits` > 1 every tile is split along K into that many units (split-K: more, shorter
// units when the tiles alone would leave SMs idle); split_k.cuh adds their partial sums.
// The split index varies slowest, so a wave holds split 0 of every tile, then split 1, ...
// A launch may run a range of the order only (TileRange): a tail split (tail_split.h) runs the
// whole tiles in one launch and the last ones, split, in another.
#pragma once
#include <cstdint>

#include "kiln/gemm/fast_divmod.h"
#include "kiln/gemm/tail_split.h"

namespace kiln::gemm {

struct TileCoord {
    int m, n, batch;
};

/// One unit of the persistent loop: tile `index` (its place in the launch's range) at
/// `coord`, accumulating k-blocks [k_begin, k_end) as split `split` of the scheduler's splits.
struct WorkUnit {
    TileCoord coord;
    int index, split, k_begin, k_end;
};

/// The M-tile rows a launch's scheduler walks: cluster rows of cluster_m M-tiles each, or with
/// range.pair_rows the M-tiles rounded up to even (tail_split.h). The rows past M are zero-filled
/// by TMA loads and clipped or predicated away by the stores, as a pair's second CTA on the last
/// row of an odd number is.
__host__ __device__ constexpr int scheduled_rows(int tiles_m, int cluster_m, TileRange range) {
    if (cluster_m > 1) return (tiles_m + cluster_m - 1) / cluster_m;
    return range.pair_rows ? (tiles_m + 1) / 2 * 2 : tiles_m;
}

struct TileScheduler {
    int tiles_m = 0, tiles_n = 0, batch = 0, group_m = 1;
    int splits = 1;  // K splits per tile
    TileRange range{};  // the launch's tiles
    // The walk's divisors (fast_divmod.h), derived at construction: a launch builds its scheduler
    // once and never changes it.
    FastDivmod per_batch, group, rows, last_rows, split_div, span_div;

    TileScheduler() = default;
    __host__ __device__ TileScheduler(int tiles_m_, int tiles_n_, int batch_, int group_m_,
                                      int splits_ = 1, TileRange range_ = {})
        : tiles_m(tiles_m_), tiles_n(tiles_n_), batch(batch_),
          group_m(group_m_ < 1 ? 1 : group_m_),
          splits(splits_), range(range_), per_batch(tiles_m * tiles_n),
          group(group_m * tiles_n), rows(group_m),
          last_rows(tiles_m % group_m ? tiles_m % group_m : group_m), split_div(splits),
          span_div(span()) {}

    __host__ __device__ int tiles() const { return tiles_m * tiles_n * batch; }
    /// The tiles this launch runs.
    __host__ __device__ int span() const {
        return range.count ? range.count : tiles() - range.begin;
    }
    __host__ __device__ int total() const { return span() * splits; }

    __host__ __device__ TileCoord at(int t) const {
        const int b = per_batch.div(t);
        const int r = t - b * per_batch.divisor;
        const int g = group.div(r);
        const int first_m = g * group_m;
        const int in = r - g * group.divisor;
        // The last group may hold fewer M-tiles than group_m. Chosen field by field: a
        // reference to either member of this by-value kernel parameter made the compiler copy
        // the whole scheduler to the stack.
        const FastDivmod in_group =
            FastDivmod::select(tiles_m - first_m < group_m, last_rows, rows);
        const int n = in_group.div(in);
        return {first_m + in - n * in_group.divisor, n, b};
    }

    /// Unit u of total(); the k-blocks of a tile are shared out evenly (sizes differ by <= 1,
    /// the first k_blocks % splits splits one larger), in 32-bit arithmetic: a 64-bit division
    /// is a call whose return address the producer warp, at 24 registers, spilled.
    __host__ __device__ WorkUnit unit(int u, int k_blocks) const {
        const int split = splits == 1 ? 0 : span_div.div(u);
        const int t = u - split * span_div.divisor;
        return {at(range.begin + t), t, split, split_begin(split, k_blocks),
                split_begin(split + 1, k_blocks)};
    }
    /// The first k-block of split s (s = splits: k_blocks).
    __host__ __device__ int split_begin(int s, int k_blocks) const {
        const int q = split_div.div(k_blocks), r = k_blocks - q * splits;
        return s * q + (s < r ? s : r);
    }
};

}  // namespace kiln::gemm
