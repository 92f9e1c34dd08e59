// Split-K (examples/gemm_splitk.kiln): a workspace the launcher allocates, an element-wise kernel
// zeroing it before the main kernel, accumulator tiles added into it with vector reductions, an
// element-wise kernel converting it after; in 2-CTA clusters the column-adjacent pair shares the
// A tile, split by rows.
#include "codegen/launch_spec.h"
#include "lowered_example.h"

namespace kiln::codegen {
namespace {

using testing::emit;
using testing::lower;

const passes::Sizes kSkinny = {{"M", 127}, {"N", 4096}, {"K", 4096}};

TEST(SplitK, ZeroesAddsPartialTilesAndConvertsInThreeKernels) {
    testing::Lowered l = lower("gemm_splitk", kSkinny);
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    const std::string& cuda = generated->source;
    EXPECT_HAS(cuda, "gemm_splitk_pre_e0(float* __restrict__ P1) {");
    EXPECT_HAS(cuda, "for (int e = 0; e < 32; ++e) D4[e] += C4[e];");
    EXPECT_HAS(cuda, "// red.global.add copy(P1, D4): accumulator coordinates of wgmma");
    EXPECT_HAS(cuda, "if (col + 1 < 4096) kiln::dev::atomic::red_add_pair(out + col, v0, v1);");
    EXPECT_HAS(cuda, "gemm_splitk_post_e53(__nv_bfloat16* __restrict__ C, const float* "
                     "__restrict__ P1) {");
    EXPECT_HAS(cuda, "kiln::dev::vec::store4(C + kiln_d, kiln::dev::vec::load4(P1 + kiln_s));");
    // The caller passes C, A and B; the launcher owns P1, one per stream.
    EXPECT_HAS(cuda, "extern \"C\" int kiln_launch_gemm_splitk(void* C, const void* A, const void* "
                     "B, int M, int N, int K, cudaStream_t stream) {");
    EXPECT_HAS(cuda, "if (!slot && cudaMalloc(&slot, 2080768) != cudaSuccess) return 4;");
    const LaunchSpec& s = generated->spec;
    ASSERT_EQ(s.kernels.size(), 3u);
    EXPECT_EQ(s.kernels[0].symbol, "gemm_splitk_pre_e0");
    EXPECT_EQ(s.kernels[1].symbol, "gemm_splitk");
    EXPECT_EQ(s.kernels[1].tiles, 1 * 64 * 2); // row tiles x column tiles x K chunks
    EXPECT_EQ(s.kernels[2].symbol, "gemm_splitk_post_e53");
    ASSERT_EQ(s.params.size(), 4u);
    EXPECT_EQ(s.params[3].name, "P1");
    EXPECT_TRUE(s.params[3].workspace);
    EXPECT_FALSE(s.params[0].workspace);
    auto back = launch_spec_from_json(to_json(s));
    ASSERT_TRUE(back.ok()) << back.error_text();
    EXPECT_EQ(*back, s);
}

TEST(SplitK, ElementwiseKernelsSpreadEachTileOverSeveralCtas) {
    testing::Lowered l = lower("gemm_splitk", {{"M", 1024}, {"N", 1024}, {"K", 16384}});
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    // The example's 128 x 64 tiles: 2048 vectors, 2 CTAs of 256 threads x 4 vectors each.
    EXPECT_HAS(generated->source, "const int kiln_part = blockIdx.x % 2;");
    EXPECT_HAS(generated->source, "const int kiln_v = kiln_part * 1024 + threadIdx.x + kiln_it * 256;");
    const auto& s = generated->spec;
    EXPECT_EQ(s.kernels[0].tiles, 8 * 16 * 2); // (i, j) tiles x CTAs per tile
    EXPECT_EQ(s.kernels[2].tiles, 8 * 16 * 2);
}

// Each kernel after the first overlaps its predecessor's tail (programmatic dependent launch)
// and waits for it on the device before touching what it wrote; the GEMM's DMA role, which
// loads only A and B, does not wait.
TEST(SplitK, LaterKernelsOverlapTheirPredecessorsAndWaitOnTheDevice) {
    testing::Lowered l = lower("gemm_splitk", kSkinny);
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    const std::string& cuda = generated->source;
    const auto& s = generated->spec;
    ASSERT_EQ(s.kernels.size(), 3u);
    EXPECT_FALSE(s.kernels[0].overlaps_previous);
    EXPECT_TRUE(s.kernels[1].overlaps_previous);
    EXPECT_TRUE(s.kernels[2].overlaps_previous);
    EXPECT_HAS(cuda, "attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;");
    EXPECT_HAS(cuda, "kiln::dev::grid::wait_previous();  // the earlier kernels' writes");
    EXPECT_HAS(cuda, "kiln::dev::grid::wait_previous();  // the previous kernel's writes");
    EXPECT_EQ(cuda.find("an earlier kernel writes what the TMA loads"), std::string::npos);
    auto back = launch_spec_from_json(to_json(s));
    ASSERT_TRUE(back.ok()) << back.error_text();
    EXPECT_TRUE(back->kernels[2].overlaps_previous);
}

TEST(SplitK, ClusterPairSharesTheATileSplitByRows) {
    testing::Lowered l = lower("gemm_splitk", kSkinny, 2);
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    EXPECT_HAS(generated->source, "// shared by the pair: this CTA loads rows [64 * cta_rank, 64 "
                                  "* (cta_rank + 1)) of each panel into both CTAs");
    EXPECT_HAS(generated->source, "kiln::dev::tma::load_multicast((A2_smem + st.stage * 16384) + "
                                  "cta_rank * 8192, &tm_A, &full[st.stage], 0b11, s * 2048 + k * "
                                  "64, (i * 128) + cta_rank * 64);");
    const auto& main = generated->spec.kernels[1];
    EXPECT_EQ(main.cluster, 2);
    EXPECT_EQ(main.args[1].map.box, (std::vector<uint32_t>{64, 64})); // A: half its 128 rows
}

// The generator's error for the example with its workspace P1 edited by `edit`.
template <class Edit> std::string error_with_workspace(Edit edit) {
    testing::Lowered l = lower("gemm_splitk");
    for (auto& op : l.program.body.ops)
        if (op.kind == event::OpKind::Alloc && op.alloc.name == "P1")
            edit(op.alloc);
    auto cuda = emit_cuda(l.program, l.options);
    EXPECT_FALSE(cuda.ok());
    return cuda.ok() ? "" : cuda.error_text();
}

TEST(SplitK, ReducingCopyIntoA16BitTileIsRefused) {
    const std::string e = error_with_workspace([](auto& a) { a.dtype = ir::DType::BF16; });
    EXPECT_NE(e.find("cannot lower copy %e48 (copy-out D for store_thread): a reducing copy adds "
                     "into f32 tensors only, not bf16 P1"),
              std::string::npos)
        << e;
}

TEST(SplitK, WorkspaceMustBeGlobal) {
    const std::string e = error_with_workspace([](auto& a) { a.memory = ir::Memory::Shared; });
    EXPECT_NE(e.find("cannot lower alloc P1: top-level tensors must be GLOBAL (entry parameters "
                     "or workspaces), not SHARED"),
              std::string::npos)
        << e;
}

} // namespace
} // namespace kiln::codegen
