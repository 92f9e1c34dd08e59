// default_params: the tile, cluster, split and stage choices gemmEx launches with (H100: 132 SMs).
#include "kiln/gemm/params.h"

#include <gtest/gtest.h>

namespace {

using kiln::gemm::default_params;
using kiln::gemm::kMaxSplits;
using kiln::gemm::kMinSplitKBlocks;
using kiln::gemm::max_stages;

constexpr int kSms = 132;
constexpr int kBf16 = 2;

TEST(GemmParams, ManyWideTilesRunInPairs) {
    // 4096^3: 512 tiles of 128 x 256, about four per SM
    const auto p = default_params(4096, 4096, 4096, 1, kBf16, kSms);
    EXPECT_EQ(p.block_n, 256);
    EXPECT_EQ(p.cluster_m, 2);
    EXPECT_EQ(p.split_k, 1);
    EXPECT_EQ(p.stages, 4);
}

TEST(GemmParams, OneWaveOfWideTilesRunsUnpaired) {
    // 2048^3: 128 tiles of 128 x 256 on 132 SMs, one each; pairs measured 3% slower
    const auto p = default_params(2048, 2048, 2048, 1, kBf16, kSms);
    EXPECT_EQ(p.block_n, 256);
    EXPECT_EQ(p.cluster_m, 1);
    EXPECT_EQ(p.split_k, 1);
}

TEST(GemmParams, TheWaveBoundaryDecidesThePairs) {
    // 132 tiles of 128 x 256 fill the SMs exactly: unpaired; one more row of tiles: pairs
    const auto at = default_params(128 * 66, 256 * 2, 4096, 1, kBf16, kSms);
    EXPECT_EQ(at.block_n, 256);
    EXPECT_EQ(at.cluster_m, 1);
    const auto past = default_params(128 * 67, 256 * 2, 4096, 1, kBf16, kSms);
    EXPECT_EQ(past.block_n, 256);
    EXPECT_EQ(past.cluster_m, 2);
}

TEST(GemmParams, SkinnyProblemsTakeNarrowTilesWithoutPairs) {
    // decode-ish 256 x 8192 x 8192: 64 wide tiles would leave half the SMs idle
    const auto p = default_params(256, 8192, 8192, 1, kBf16, kSms);
    EXPECT_EQ(p.block_n, 128);
    EXPECT_EQ(p.cluster_m, 1);
    EXPECT_EQ(p.split_k, 1);  // 128 narrow tiles already fill 132 SMs
    EXPECT_EQ(p.stages, 6);
}

TEST(GemmParams, LongKWithFewTilesIsSplit) {
    // 1024 x 1024 x 8192: 64 narrow tiles, 128 k-blocks each
    const auto p = default_params(1024, 1024, 8192, 1, kBf16, kSms);
    EXPECT_EQ(p.block_n, 128);
    EXPECT_EQ(p.cluster_m, 1);
    EXPECT_EQ(p.split_k, 2);
}

TEST(GemmParams, SplitsKeepEnoughKBlocksAndStayBounded) {
    // 128 x 128 x 4096: one tile, 64 k-blocks: at most 64 / kMinSplitKBlocks = 4 splits
    const auto p = default_params(128, 128, 4096, 1, kBf16, kSms);
    EXPECT_EQ(p.split_k, 64 / kMinSplitKBlocks);
    EXPECT_LE(p.split_k, kMaxSplits);
    // short K: no split at all
    EXPECT_EQ(default_params(128, 128, 512, 1, kBf16, kSms).split_k, 1);
}

TEST(GemmParams, BatchesCountAsTiles) {
    // 16 x (1024 x 1024): 16 x 32 wide tiles = 512 > 132 SMs: wide, paired, unsplit
    const auto p = default_params(1024, 1024, 4096, 16, kBf16, kSms);
    EXPECT_EQ(p.block_n, 256);
    EXPECT_EQ(p.cluster_m, 2);
    EXPECT_EQ(p.split_k, 1);
}

TEST(GemmParams, StagesFillSharedMemory) {
    EXPECT_EQ(max_stages(128, 256, 64, kBf16), 4);  // 48 KiB per stage
    EXPECT_EQ(max_stages(128, 128, 64, kBf16), 7);  // 32 KiB per stage (capped at 6 by default_params)
    EXPECT_EQ(max_stages(1024, 1024, 64, kBf16), 1); // never below one
}

}  // namespace
