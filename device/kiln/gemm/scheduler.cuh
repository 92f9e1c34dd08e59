// kiln::gemm::TileScheduler — maps a linear persistent-loop index to a work unit: an output tile
// (batch, m-tile, n-tile) and the range of its k-blocks that the unit accumulates.
//
// Tiles are visited in groups of `group_m` M-tiles: inside a group the M index moves fastest, so
// the CTAs resident at one time share a few B column-panels and a few A row-panels in L2
// ("grouped rasterization"). Each persistent CTA takes units blockIdx.x, +gridDim.x, ...
// With `splits` > 1 every tile is split along K into that many units (split-K: more, shorter
// units when the tiles alone would leave SMs idle); split_k.cuh adds their partial sums.
// The split index varies slowest, so a wave holds split 0 of every tile, then split 1, ...
// With a tail split (tail_split.h) only the last tiles of the order are split, after the whole
// tiles.
#pragma once
#include <cstdint>

#include "kiln/gemm/tail_split.h"

namespace kiln::gemm {

struct TileCoord {
    int m, n, batch;
};

/// One unit of the persistent loop: tile `index` (its place in the scheduler's order) at
/// `coord`, accumulating k-blocks [k_begin, k_end) as part `split` of the tile's `parts` (1: the
/// whole tile). Parts > 1 meet in the split-K fix-up (TileScheduler::partial says where).
struct WorkUnit {
    TileCoord coord;
    int index, split, k_begin, k_end, parts;
};

struct TileScheduler {
    int tiles_m, tiles_n, batch, group_m;
    int splits = 1;  // K splits per tile
    TailSplit tail{};  // the split last wave (splits == 1 only)

    __host__ __device__ int tiles() const { return tiles_m * tiles_n * batch; }
    __host__ __device__ int total() const {
        return tail.tiles ? tail.first + tail.tiles * tail.splits : tiles() * splits;
    }

    __host__ __device__ TileCoord at(int t) const {
        int per_batch = tiles_m * tiles_n;
        int b = t / per_batch;
        int r = t - b * per_batch;
        int group_size = group_m * tiles_n;
        int g = r / group_size;
        int first_m = g * group_m;
        int rows = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
        int in = r - g * group_size;
        return {first_m + in % rows, in / rows, b};
    }

    /// Unit u of total(); the k-blocks of a tile are shared out evenly (sizes differ by <= 1).
    __host__ __device__ WorkUnit unit(int u, int k_blocks) const {
        if (tail.tiles && u >= tail.first) {
            const TailUnit tu = tail_split_unit(tail, u - tail.first, k_blocks);
            const int t = tail.first + tu.tile;
            return {at(t), t, tu.split, tu.k_begin, tu.k_end, tail.splits};
        }
        const int split = splits == 1 ? 0 : u / tiles();
        const int t = u - split * tiles();
        return {at(t), t, split, int(int64_t(k_blocks) * split / splits),
                int(int64_t(k_blocks) * (split + 1) / splits), splits};
    }

    /// The workspace tile of tile `index` when its parts meet: a tail split keeps partials for
    /// its split tiles only.
    __host__ __device__ int partial(int index) const {
        return tail.tiles ? index - tail.first : index;
    }
};

}  // namespace kiln::gemm
