// default_params: the tile, cluster, split and stage choices gemmEx launches with (H100: 132 SMs).
#include "kiln/gemm/params.h"

#include <gtest/gtest.h>

namespace {

using kiln::gemm::default_params;
using kiln::gemm::kMaxSplits;
using kiln::gemm::kMinSplitKBlocks;
using kiln::gemm::max_stages;
using kiln::gemm::pair_narrow_tiles;
using kiln::gemm::tail_split_plan;

constexpr int kSms = 132;
constexpr int kBf16 = 2;

struct Expected {
    const char* why;
    int M, N, K, batch;
    int block_n, cluster_m, split_k;
};

// Each row is one rule of the heuristic at the problem that shows it.
const Expected kCases[] = {
    {"4096^3: 512 wide tiles, about four per SM: paired", 4096, 4096, 4096, 1, 256, 2, 1},
    {"2048^3: one wave of 128 wide tiles: unpaired (pairs measured 3% slower)", 2048, 2048, 2048,
     1, 256, 1, 1},
    {"132 wide tiles fill the SMs exactly: unpaired", 128 * 66, 512, 4096, 1, 256, 1, 1},
    {"134 wide tiles exceed the SMs: paired", 128 * 67, 512, 4096, 1, 256, 2, 1},
    {"decode-ish: 64 wide tiles would idle half the SMs, 128 narrow ones fill them, paired along "
     "M (two M-tiles)", 256, 8192, 8192, 1, 128, 2, 1},
    {"128x16384x4096: one M-tile of 128 narrow tiles: unpaired (a pair would idle one CTA)", 128,
     16384, 4096, 1, 128, 1, 1},
    {"256x11008x4096: 172 narrow tiles spill into a second wave, 86 wide ones fit in one", 256,
     11008, 4096, 1, 256, 1, 1},
    {"256x8448x4096: 132 narrow tiles fill one wave exactly: narrow, 66 pairs", 256, 8448, 4096,
     1, 128, 2, 1},
    {"1024x1024x8192: 64 narrow tiles with 128 k-blocks each: split in two", 1024, 1024, 8192, 1,
     128, 1, 2},
    {"a batch of 16 counts 16x the tiles: wide, paired, unsplit", 1024, 1024, 4096, 16, 256, 2, 1},
    {"128x8192x8192: one M-tile of 64 narrow tiles streams B on 64 CTAs: unsplit", 128, 8192,
     8192, 1, 128, 1, 1},
    {"127x4096x4096: one M-tile of 32 narrow tiles: split in two, 64 CTAs", 127, 4096, 4096, 1,
     128, 1, 2},
    {"100x1024x8192: one M-tile of 8 narrow tiles: at most four splits", 100, 1024, 8192, 1, 128,
     1, 4},
    {"256x4096x4096: two M-tiles of 64 narrow tiles fill the SMs: split in two", 256, 4096, 4096,
     1, 128, 1, 2},
    {"short K is never split", 128, 128, 512, 1, 128, 1, 1},
    {"1024x2304x4096: 72 wide tiles idle 60 SMs, 144 narrow ones spill: 128 tiles 144 wide",
     1024, 2304, 4096, 1, 144, 1, 1},
    {"768x3072x4096: 144 wide fills the SMs exactly (6 x 22 tiles)", 768, 3072, 4096, 1, 144, 1,
     1},
    {"1024x3072x4096: 176 tiles at 144 spill, 128 at 192 fit: 192 wide", 1024, 3072, 4096, 1,
     192, 1, 1},
    {"1000x3000x1000: ragged, 8 x 16 tiles at 192", 1000, 3000, 1000, 1, 192, 1, 1},
    {"640x4096x4096: 145 tiles at 144 spill, 130 at 160 fit", 640, 4096, 4096, 1, 160, 1, 1},
    {"512x5120x4096: 4 x 32 tiles at 160", 512, 5120, 4096, 1, 160, 1, 1},
    {"1024x2048x4096: 128 narrow tiles fit one wave: no fill width", 1024, 2048, 4096, 1, 128, 1,
     1},
    {"384x6144x4096: three M-tiles stream B: the wide tiles stay", 384, 6144, 4096, 1, 256, 1,
     1},
};

TEST(GemmParams, FillWidthsOnlyForTallOutputsOf16BitInputs) {
    using kiln::gemm::fill_tile_n;
    EXPECT_EQ(fill_tile_n(8, 2304, 1, kBf16, kSms, true), 144);
    EXPECT_EQ(fill_tile_n(5, 4096, 1, kBf16, kSms, true), 160);
    EXPECT_EQ(fill_tile_n(5, 4096, 1, kBf16, kSms, false), 192);
    // 144 and 160 columns are not whole 64-row chunks: B must be one TMA box (K-major, one row
    // mode)
    EXPECT_EQ(fill_tile_n(8, 2304, 1, kBf16, kSms, false), 192);
    EXPECT_EQ(fill_tile_n(8, 2304, 1, 1, kSms, true), 256);   // fp8: not instantiated
    EXPECT_EQ(fill_tile_n(3, 6144, 1, kBf16, kSms, true), 256);  // skinny: streams B
    EXPECT_EQ(fill_tile_n(8, 4000, 1, kBf16, kSms, true), 256);  // nothing fits one wave
    EXPECT_EQ(default_params(1024, 2304, 4096, 1, kBf16, kSms, false).block_n, 192);
    EXPECT_EQ(default_params(1024, 2304, 4096, 1, 1, kSms).block_n, 256);
}

TEST(GemmParams, EachRuleOfTheHeuristic) {
    for (const auto& c : kCases) {
        SCOPED_TRACE(c.why);
        const auto p = default_params(c.M, c.N, c.K, c.batch, kBf16, kSms);
        EXPECT_EQ(p.block_n, c.block_n);
        EXPECT_EQ(p.cluster_m, c.cluster_m);
        EXPECT_EQ(p.split_k, c.split_k);
    }
}

TEST(GemmParams, NarrowTilesPairForOneWaveOfTwoMTiles) {
    EXPECT_TRUE(pair_narrow_tiles(256, 8192, 1, kSms));    // 64 pairs
    EXPECT_TRUE(pair_narrow_tiles(200, 8448, 1, kSms));    // ragged M: 2 M-tiles, 66 pairs
    EXPECT_FALSE(pair_narrow_tiles(256, 8576, 1, kSms));   // 67 pairs: a second wave
    EXPECT_FALSE(pair_narrow_tiles(384, 4096, 1, kSms));   // 3 M-tiles
    EXPECT_FALSE(pair_narrow_tiles(512, 2048, 1, kSms));   // 4 M-tiles: not measured
    EXPECT_FALSE(pair_narrow_tiles(128, 8192, 1, kSms));   // 1 M-tile
    EXPECT_TRUE(pair_narrow_tiles(256, 1024, 8, kSms));    // 8 batches of 8 pairs
    EXPECT_FALSE(pair_narrow_tiles(256, 8192, 1, 0));      // no SMs known
}

TEST(GemmParams, SplitsKeepEnoughKBlocksAndStayBounded) {
    // 128 x 128 x 4096: one tile, 64 k-blocks: 64 / kMinSplitKBlocks splits, within kMaxSplits
    const auto p = default_params(128, 128, 4096, 1, kBf16, kSms);
    EXPECT_EQ(p.split_k, 64 / kMinSplitKBlocks);
    EXPECT_LE(p.split_k, kMaxSplits);
}

TEST(GemmParams, StagesFillSharedMemory) {
    EXPECT_EQ(default_params(4096, 4096, 4096, 1, kBf16, kSms).stages, 4);
    EXPECT_EQ(default_params(256, 8192, 8192, 1, kBf16, kSms).stages, 6);  // capped
    EXPECT_EQ(max_stages(128, 256, 64, kBf16), 4);    // 48 KiB per stage
    EXPECT_EQ(max_stages(128, 128, 64, kBf16), 7);    // 32 KiB per stage
    EXPECT_EQ(max_stages(1024, 1024, 64, kBf16), 1);  // never below one
}

struct TailCase {
    const char* why;
    int tiles, k_blocks, slots;
    int split_tiles, splits;  // expected; 0 tiles: no tail split
};

// 128 x 256 tiles in pairs (66 workers on 132 SMs) unless said otherwise; K in 64-wide k-blocks.
const TailCase kTailCases[] = {
    {"2304x2048x8192: 72 pair tiles, the last 6 split as far as kMaxSplits", 72, 128, 66, 6, 4},
    {"short K: each split keeps kMinSplitKBlocks k-blocks", 72, 32, 66, 6, 2},
    {"8192x12288x4096: 18 in the last wave, 66 / 18 = 3 splits", 1536, 64, 66, 18, 3},
    {"4096^3: 58 of 66 busy in the last wave: too few idle to split", 256, 64, 66, 0, 0},
    {"a whole number of waves", 264, 64, 66, 0, 0},
    {"one wave: default_params splits every tile instead", 64, 128, 66, 0, 0},
    {"K too short for two splits", 72, 31, 66, 0, 0},
    {"unpaired workers count alike", 140, 64, 132, 8, 4},
};

TEST(GemmParams, TailSplitOfThePartialLastWave) {
    for (const auto& c : kTailCases) {
        SCOPED_TRACE(c.why);
        const auto t = tail_split_plan(c.tiles, c.k_blocks, c.slots);
        EXPECT_EQ(t.tiles, c.split_tiles);
        if (!t.tiles) continue;
        EXPECT_EQ(t.splits, c.splits);
        EXPECT_EQ(t.first + t.tiles, c.tiles);  // the split tiles are the last ones
        EXPECT_LE(t.tiles * t.splits, c.slots);  // the split tail fits one wave
        EXPECT_GE(c.k_blocks / t.splits, kMinSplitKBlocks);
    }
}

TEST(GemmParams, DefaultParamsRecordTheDevice) {
    EXPECT_EQ(default_params(4096, 4096, 4096, 1, kBf16, kSms).sms, kSms);
    EXPECT_TRUE(default_params(4096, 4096, 4096, 1, kBf16, kSms).tail_split);
}

}  // namespace
