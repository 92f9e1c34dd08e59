// kiln::gemm::TileScheduler — maps a linear persistent-loop index to (batch, m-tile, n-tile).
//
// Tiles are visited in groups of `group_m` M-tiles: inside a group the M index moves fastest, so
// the CTAs resident at one time share a few B column-panels and a few A row-panels in L2
// ("grouped rasterization"). Each persistent CTA takes tiles blockIdx.x, +gridDim.x, ...
#pragma once
#include <cstdint>

namespace kiln::gemm {

struct TileCoord {
    int m, n, batch;
};

struct TileScheduler {
    int tiles_m, tiles_n, batch, group_m;

    __host__ __device__ int total() const { return tiles_m * tiles_n * batch; }

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
};

}  // namespace kiln::gemm
