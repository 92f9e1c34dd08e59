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
    {"decode-ish: 64 wide tiles would idle half the SMs, 128 narrow ones fill them", 256, 8192,
     8192, 1, 128, 1, 1},
    {"256x11008x4096: 172 narrow tiles spill into a second wave, 86 wide ones fit in one", 256,
     11008, 4096, 1, 256, 1, 1},
    {"256x8448x4096: 132 narrow tiles fill one wave exactly: narrow", 256, 8448, 4096, 1, 128, 1,
     1},
    {"1024x1024x8192: 64 narrow tiles with 128 k-blocks each: split in two", 1024, 1024, 8192, 1,
     128, 1, 2},
    {"a batch of 16 counts 16x the tiles: wide, paired, unsplit", 1024, 1024, 4096, 16, 256, 2, 1},
    {"short K is never split", 128, 128, 512, 1, 128, 1, 1},
};

TEST(GemmParams, EachRuleOfTheHeuristic) {
    for (const auto& c : kCases) {
        SCOPED_TRACE(c.why);
        const auto p = default_params(c.M, c.N, c.K, c.batch, kBf16, kSms);
        EXPECT_EQ(p.block_n, c.block_n);
        EXPECT_EQ(p.cluster_m, c.cluster_m);
        EXPECT_EQ(p.split_k, c.split_k);
    }
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

}  // namespace
