// TileScheduler over a TileRange, as gemmEx's tail split uses it (src/gemm/gemm.cu
// run_sm90_any): the whole tiles in one launch and the last ones split in a second cover every
// k-block of every tile once, and a paired launch's last tiles are the same CTA tiles as the
// unpaired second launch's range (for odd M-tiles, with TileRange::pair_rows); split-K shares a
// tile's k-blocks out evenly.
#if !defined(__CUDACC__)
#define __host__
#define __device__
#endif
#include "kiln/gemm/params.h"
#include "kiln/gemm/scheduler.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace {

using kiln::gemm::TileRange;
using kiln::gemm::TileScheduler;
using kiln::gemm::WorkUnit;

using Tile = std::tuple<int, int, int>;  // CTA tile (m, n, batch)

/// The CTA tiles a launch with `cluster_m` CTAs per cluster covers (a cluster tile's m is its
/// CTA pair's first row over cluster_m, as gemm_kernel's unit_at expands it).
std::set<Tile> cta_tiles(const TileScheduler& s, int cluster_m, int k_blocks) {
    std::set<Tile> out;
    for (int u = 0; u < s.total(); ++u) {
        const WorkUnit w = s.unit(u, k_blocks);
        for (int r = 0; r < cluster_m; ++r)
            out.insert({w.coord.m * cluster_m + r, w.coord.n, w.coord.batch});
    }
    return out;
}

struct Shape {
    int tiles_m, tiles_n, batch, k_blocks;
};

const Shape kShapes[] = {
    {18, 8, 1, 128},   // 2304 x 2048 x 8192: 72 pairs, the last 6 split
    {34, 16, 1, 64},   // 4352 x 4096 x 4096
    {64, 48, 1, 64},   // 8192 x 12288 x 4096 (llama-qkv): the tail inside the last group
    {10, 16, 1, 256},  // 1280 x 4096 x 16384: one short group
    {18, 8, 2, 32},    // a batch of two
    {40, 7, 1, 40},    // a group of 16 rows and a ragged one of 8
};

TEST(TileScheduler, WholeAndTailLaunchesCoverEachKBlockOnce) {
    int split_shapes = 0;
    for (const auto& sh : kShapes) {
        SCOPED_TRACE(testing::Message() << sh.tiles_m << "x" << sh.tiles_n << " b" << sh.batch);
        const TileScheduler all{sh.tiles_m, sh.tiles_n, sh.batch, 16};
        const auto tail = kiln::gemm::tail_split_plan(all.tiles(), sh.k_blocks, 132);
        if (!tail.tiles) continue;
        ++split_shapes;
        const TileScheduler whole{sh.tiles_m, sh.tiles_n, sh.batch, 16, 1,
                                  kiln::gemm::whole_tiles(tail)};
        const TileScheduler split{sh.tiles_m, sh.tiles_n, sh.batch, 16, tail.splits,
                                  kiln::gemm::split_tiles(tail, 1)};
        std::map<Tile, std::vector<int>> hits;
        for (const TileScheduler* s : {&whole, &split})
            for (int u = 0; u < s->total(); ++u) {
                const WorkUnit w = s->unit(u, sh.k_blocks);
                auto& h = hits[{w.coord.m, w.coord.n, w.coord.batch}];
                h.resize(sh.k_blocks);
                for (int k = w.k_begin; k < w.k_end; ++k) ++h[k];
                // the split launch's workspace holds its own tiles only
                EXPECT_LT(w.index, s->span());
            }
        ASSERT_EQ(int(hits.size()), all.tiles());
        for (const auto& [tile, h] : hits)
            for (int k = 0; k < sh.k_blocks; ++k) ASSERT_EQ(h[k], 1);
    }
    EXPECT_EQ(split_shapes, int(std::size(kShapes)));  // every shape has a tail on 132 SMs
}

TEST(TileScheduler, PairedTailIsTheUnpairedRange) {
    int split_shapes = 0;
    for (const auto& sh : kShapes) {
        SCOPED_TRACE(testing::Message() << sh.tiles_m << "x" << sh.tiles_n << " b" << sh.batch);
        // launch_planes: pairs walk tiles_m / 2 cluster rows in groups of group_m / 2
        const TileScheduler pairs{sh.tiles_m / 2, sh.tiles_n, sh.batch, 8};
        const auto tail = kiln::gemm::tail_split_plan(pairs.tiles(), sh.k_blocks, 66);
        if (!tail.tiles) continue;
        ++split_shapes;
        const TileScheduler paired_tail{sh.tiles_m / 2, sh.tiles_n, sh.batch, 8, 1,
                                        {tail.first, tail.tiles}};
        const TileScheduler unpaired{sh.tiles_m, sh.tiles_n, sh.batch, 16, tail.splits,
                                     kiln::gemm::split_tiles(tail, 2)};
        EXPECT_EQ(cta_tiles(paired_tail, 2, sh.k_blocks), cta_tiles(unpaired, 1, sh.k_blocks));
    }
    EXPECT_EQ(split_shapes, int(std::size(kShapes)));  // and on 66 pairs
}

TEST(TileScheduler, OddMTilesPairUpWithPairRows) {
    // 9 M-tiles: pairs walk 5 cluster rows, the last pair's second row (9) past M. An unpaired
    // launch over 9 rows walks another order; with pair_rows it walks 10, the pairs' own.
    constexpr int kTilesM = 9, kTilesN = 16, kBlocks = 64;
    const TileScheduler pairs{kiln::gemm::scheduled_rows(kTilesM, 2, {}), kTilesN, 1, 8};
    ASSERT_EQ(pairs.tiles(), 80);
    const auto tail = kiln::gemm::tail_split_plan(pairs.tiles(), kBlocks, 66);
    ASSERT_EQ(tail.tiles, 14);
    const TileScheduler paired_tail{pairs.tiles_m, kTilesN, 1, 8, 1, {tail.first, tail.tiles}};
    auto unpaired = [&](const TileRange& range) {
        return TileScheduler{kiln::gemm::scheduled_rows(kTilesM, 1, range), kTilesN, 1, 16,
                             tail.splits, range};
    };
    // split_tiles, as gemmEx's second launch; then the same range without pair_rows
    const TileScheduler with_rows = unpaired(kiln::gemm::split_tiles(tail, 2));
    EXPECT_EQ(with_rows.tiles_m, 10);
    EXPECT_EQ(cta_tiles(paired_tail, 2, kBlocks), cta_tiles(with_rows, 1, kBlocks));
    EXPECT_NE(cta_tiles(paired_tail, 2, kBlocks),
              cta_tiles(unpaired({2 * tail.first, 2 * tail.tiles, false}), 1, kBlocks));
}

/// Grouped rasterization by plain division: the order at() must walk (M fastest inside groups of
/// group_m rows, the last group possibly shorter; batch slowest).
Tile grouped_order(int t, int tiles_m, int tiles_n, int group_m) {
    const int per_batch = tiles_m * tiles_n, b = t / per_batch, r = t % per_batch;
    const int g = r / (group_m * tiles_n), in = r % (group_m * tiles_n);
    const int rows = std::min(group_m, tiles_m - g * group_m);
    return {g * group_m + in % rows, in / rows, b};
}

TEST(TileScheduler, WalksGroupedRasterizationOrder) {
    for (int tiles_m : {1, 7, 16, 33, 64})
        for (int tiles_n : {1, 5, 48})
            for (int group_m : {1, 3, 8, 16, 100})
                for (int batch : {1, 3}) {
                    const TileScheduler s{tiles_m, tiles_n, batch, group_m};
                    for (int t = 0; t < s.tiles(); ++t) {
                        const auto c = s.at(t);
                        ASSERT_EQ(Tile(c.m, c.n, c.batch),
                                  grouped_order(t, tiles_m, tiles_n, group_m))
                            << "tile " << t << " of " << tiles_m << "x" << tiles_n << "x" << batch
                            << ", group " << group_m;
                    }
                }
}

TEST(TileScheduler, ScheduledRows) {
    EXPECT_EQ(kiln::gemm::scheduled_rows(9, 2, {}), 5);
    EXPECT_EQ(kiln::gemm::scheduled_rows(10, 2, {}), 5);
    EXPECT_EQ(kiln::gemm::scheduled_rows(9, 1, {}), 9);
    EXPECT_EQ(kiln::gemm::scheduled_rows(9, 1, {0, 0, true}), 10);
    EXPECT_EQ(kiln::gemm::scheduled_rows(10, 1, {0, 0, true}), 10);
}

TEST(TileScheduler, SplitsShareATilesKBlocksEvenlyAndInOrder) {
    for (int splits : {2, 3, 4, 7})
        for (int k_blocks : {splits, 16, 17, 63, 64, 65, 1 << 20, (1 << 25) + 3}) {
            TileScheduler s{1, 1, 1, 1, splits};
            int next = 0, smallest = k_blocks, largest = 0;
            for (int u = 0; u < s.total(); ++u) {
                const WorkUnit w = s.unit(u, k_blocks);
                EXPECT_EQ(w.split, u);
                EXPECT_EQ(w.k_begin, next) << splits << " splits of " << k_blocks;
                next = w.k_end;
                smallest = std::min(smallest, w.k_end - w.k_begin);
                largest = std::max(largest, w.k_end - w.k_begin);
            }
            EXPECT_EQ(next, k_blocks) << splits << " splits of " << k_blocks;
            EXPECT_LE(largest - smallest, 1) << splits << " splits of " << k_blocks;
            EXPECT_GE(smallest, 1);
        }
}

}  // namespace
