// 2-CTA clusters (`cluster = 2` on the block instance): pair scheduling of row-adjacent tiles,
// multicast of the operand the pair shares, stage release in both CTAs, the opening cluster
// barrier and the DMA thread's tail wait, the cluster launch in the launcher and the launch
// spec; and the refusals.
#include "codegen/cluster_plan.h"
#include "lowered_example.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace kiln::codegen {
namespace {

using testing::emit;
using testing::lower;
using testing::Lowered;

const passes::Sizes kSquare = {{"M", 4096}, {"N", 4096}, {"K", 4096}};


TEST(Cluster, PairsTakeRowAdjacentTilesScheduledPerPair) {
    std::string cuda = emit(lower("gemm", kSquare, 2));
    EXPECT_HAS(cuda, "constexpr int kClusterSize = 2;");
    EXPECT_HAS(cuda, "constexpr int kTiles = 256;"); // 16 pairs of i-tiles x 16 j-tiles
    EXPECT_HAS(cuda, "for (int tile = blockIdx.x / kClusterSize; tile < kTiles; tile += "
                     "gridDim.x / kClusterSize)");
    EXPECT_HAS(cuda, "const int group_rows = min(16 - group_first, 4);");
    EXPECT_HAS(cuda, "const int pair = group_first + in_plane % 64 % group_rows;");
    EXPECT_HAS(cuda, "const int i = pair * kClusterSize + cta_rank;");
}

TEST(Cluster, SharedOperandIsMulticastHalfPerCta) {
    std::string cuda = emit(lower("gemm", kSquare, 2));
    // A depends on the pair's row variable: each CTA loads its own.
    EXPECT_HAS(cuda, "kiln::dev::tma::load((A2_smem + st.stage * 16384), &tm_A, &full[st.stage], "
                     "k * 64, i * 128);");
    EXPECT_HAS(cuda, "for (int p = 2 * cta_rank; p < 2 * (cta_rank + 1); ++p)");
    EXPECT_HAS(cuda, "kiln::dev::tma::load_multicast((B2_smem + st.stage * 32768) + p * 8192, "
                     "&tm_B, &full[st.stage], 0b11, (j * 256) + p * 64, k * 64);");
    // Each CTA's full barrier still receives the whole stage: its A and both halves of B.
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::arrive_expect_tx(&full[st.stage], 49152);");
}

TEST(Cluster, StagesAreReleasedInBothCtasAndTheDmaThreadWaitsForTheLast) {
    std::string cuda = emit(lower("gemm", kSquare, 2));
    EXPECT_HAS(cuda, "#include \"kiln/cluster.cuh\"");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::init(&empty[s], kComputeWarps * kClusterSize);");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::arrive_cluster(&empty[held], cta_rank ^ 1);");
    const auto first = cuda.find("kiln::dev::cluster::sync();");
    ASSERT_NE(first, std::string::npos);
    EXPECT_LT(first, cuda.find("kiln::dev::cluster::block_rank()"));
    EXPECT_EQ(cuda.find("kiln::dev::cluster::sync", first + 1), std::string::npos)
        << "a second cluster barrier: the CTAs leave through the DMA thread's tail wait";
    // The DMA thread's tail: after its tile loop, before the compute role, each stage's last
    // release by both CTAs; the DMA warpgroup's idle threads leave at once.
    const auto tail = cuda.find("// the pair's compute warps released every stage");
    ASSERT_NE(tail, std::string::npos) << "no tail wait: a CTA could leave before its peer";
    EXPECT_LT(cuda.find("if (threadIdx.x != 0) return;"), tail);
    EXPECT_LT(tail, cuda.find("// ---- role compute"));
    EXPECT_NE(cuda.find("kiln::dev::mbarrier::wait(&empty[st.stage], st.phase ^ 1u);", tail),
              std::string::npos);
    EXPECT_EQ(cuda.find("__syncthreads();"), std::string::npos);
}

TEST(Cluster, UnpairedKernelsHaveNoTailWait) {
    std::string cuda = emit(lower("gemm", kSquare, 1));
    EXPECT_EQ(cuda.find("the pair's compute warps released every stage"), std::string::npos);
}

TEST(Cluster, LauncherAndSpecLaunchClusters) {
    Lowered l = lower("gemm", kSquare, 2);
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    const KernelLaunch& k = generated->spec.kernels.back();
    EXPECT_EQ(k.cluster, 2);
    EXPECT_EQ(k.tiles, 256);
    EXPECT_EQ(k.grid(66), 132); // 66 resident pairs
    EXPECT_EQ(k.grid(300), 512);
    const std::string& cuda = generated->source;
    EXPECT_HAS(cuda, "attrs[0].val.clusterDim.x = 2;");
    EXPECT_HAS(cuda, "static const int clusters = [&] {");
    EXPECT_HAS(cuda, "if (cudaOccupancyMaxActiveClusters(&n, gemm, &config) != cudaSuccess || n "
                     "< 1) n = sms / 2;");
    EXPECT_HAS(cuda, "config.gridDim = dim3((256 < clusters ? 256 : clusters) * 2);");
    EXPECT_HAS(cuda, "if (cudaLaunchKernelEx(&config, gemm, tm_C, tm_A, tm_B) != cudaSuccess) "
                     "return 3;");
    auto back = launch_spec_from_json(to_json(generated->spec));
    ASSERT_TRUE(back.ok()) << back.error_text();
    EXPECT_EQ(*back, generated->spec);
}

TEST(Cluster, RaggedRowsLeaveTheLastPairHalfPastTheEnd) {
    // 4000 rows: 32 row tiles, the last partial; 127 rows: one tile, so the pair's second CTA
    // runs a tile wholly past the end (zero-filled loads, clipped stores) to keep the barriers.
    std::string cuda = emit(lower("gemm", {{"M", 127}, {"N", 4096}, {"K", 4096}}, 2));
    EXPECT_HAS(cuda, "constexpr int kTiles = 16;");
    EXPECT_HAS(cuda, "const int i = pair * kClusterSize + cta_rank;");
}

TEST(Cluster, WholeGemmFamilyMulticastsItsSharedOperands) {
    EXPECT_HAS(emit(lower("batched_gemm", {}, 2)), "&tm_B, &full[st.stage], 0b11, ");
    std::string dual = emit(lower("dual_gemm", {}, 2));
    EXPECT_HAS(dual, "&tm_B1, &full[st.stage], 0b11, ");
    EXPECT_HAS(dual, "&tm_B2, &full[st.stage], 0b11, ");
    EXPECT_HAS(emit(lower("gemm_rowsum", {}, 2)), "&tm_B, &full[st.stage], 0b11, ");
}

TEST(Cluster, NoClusterNoClusterCode) {
    std::string cuda = emit(lower("gemm", kSquare));
    EXPECT_EQ(cuda.find("cluster"), std::string::npos);
    EXPECT_EQ(cuda.find("multicast"), std::string::npos);
}

// plan_cluster's rules on a hand-made grid (i, j) and its loads (the variables each reads).
struct Grid {
    event::Op pfor, copy_a, copy_b;
    event::TensorDecl a, b;
    KernelPlan plan;
    Grid() {
        pfor.kind = event::OpKind::PFor;
        pfor.result = "e0";
        pfor.loop.vars = {"i", "j"};
        pfor.loop.extents = {5, 4};
        pfor.loop.controls.cluster = 2;
        copy_a.kind = copy_b.kind = event::OpKind::Copy;
        copy_a.result = "e1";
        copy_b.result = "e2";
        a.name = "A2";
        a.shape = {128, 64};
        b.name = "B2";
        b.shape = {64, 256};
        plan.grid = &pfor;
    }
    TmaLoad load(const event::Op& copy, const event::TensorDecl& buf, std::set<std::string> vars,
                 int64_t panels) const {
        TmaLoad t;
        t.copy = &copy;
        t.buffer = &buf;
        t.panels = panels;
        t.vars = std::move(vars);
        return t;
    }
};

std::string refusal(const KernelPlan& plan, const std::vector<TmaLoad>& loads) {
    try {
        plan_cluster(plan, loads);
    } catch (const DiagnosticError& e) {
        return e.diag.message;
    }
    return "";
}

TEST(ClusterPlan, PairsTheRowVariableAndSharesWhatDoesNotReadIt) {
    Grid g;
    ClusterPlan c = plan_cluster(
        g.plan, {g.load(g.copy_a, g.a, {"i", "k"}, 1), g.load(g.copy_b, g.b, {"j", "k"}, 4)});
    EXPECT_EQ(c.pair_var, "i");
    EXPECT_EQ(c.shared, (std::set<std::string>{"e2"}));
    EXPECT_EQ(c.schedule.vars, (std::vector<std::string>{"pair", "j"}));
    EXPECT_EQ(c.schedule.extents,
              (ir::Shape{3, 4})); // 5 row tiles: the last pair is half past the end
}

TEST(ClusterPlan, AnOperandNotSharedByThePairIsRefused) {
    Grid g;
    EXPECT_EQ(refusal(g.plan, {g.load(g.copy_a, g.a, {"i", "k"}, 1),
                               g.load(g.copy_b, g.b, {"i", "j", "k"}, 4)}),
              "codegen: cannot lower pfor %e0: cluster = 2: every DMA copy reads a tile that "
              "depends on 'i', so the pair of row-adjacent tiles shares no operand to multicast");
}

// A K-major A tile is one panel wide: the pair splits it by rows instead (pairs along j).
TEST(ClusterPlan, AOnePanelTileIsSplitByRows) {
    Grid g;
    g.pfor.loop.vars = {"j", "i"};
    ClusterPlan c = plan_cluster(
        g.plan, {g.load(g.copy_a, g.a, {"i", "k"}, 1), g.load(g.copy_b, g.b, {"j", "k"}, 4)});
    EXPECT_EQ(c.pair_var, "j");
    EXPECT_EQ(c.shared, (std::set<std::string>{"e1"}));
    EXPECT_EQ(c.by_rows, (std::set<std::string>{"e1"}));
}

TEST(ClusterPlan, UnsplittableTilesAndOneDimensionalGridsAreRefused) {
    Grid g;
    g.b.shape = {12, 192}; // 3 panels of 12 rows: neither halves into whole panels nor atoms
    EXPECT_EQ(refusal(g.plan, {g.load(g.copy_b, g.b, {"j", "k"}, 3)}),
              "codegen: cannot lower copy %e2: cluster = 2: the pair splits the shared tile B2 by "
              "64-column panels or by 8-row swizzle atoms, and it has 3 panels of 12 rows");
    g.pfor.loop.vars = {"i"};
    g.pfor.loop.extents = {5};
    EXPECT_EQ(refusal(g.plan, {g.load(g.copy_b, g.b, {"k"}, 4)}),
              "codegen: cannot lower pfor %e0: cluster = 2 pairs row-adjacent tiles: the grid "
              "needs (rows, columns) variables, it has one");
}

} // namespace
} // namespace kiln::codegen
