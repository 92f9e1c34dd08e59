// alloc-smem (src/passes/alloc_smem.h): the golden cases of tests/golden/alloc-smem/, and the
// issue-4 requirement on the pipelined GEMM's plan (tile 128x256x64 of bf16: 4 stages fit 227 KiB,
// 5 report the overflow with the breakdown), on a hand-built block through the passes that
// precede allocation and on examples/gemm.kiln through the whole pipeline.
#include "event_golden.h"
#include "passes/alloc_smem.h"
#include "passes/pipeline.h"
#include "passes/pipeline_loops.h"
#include "passes/warp_specialize.h"

namespace kiln::passes::testing {
namespace {

TEST(AllocSmem, Golden) {
    run_golden_folder("alloc-smem", alloc_smem, 9);
}

// The GEMM block after copy elimination: tile 128x256x64 of bf16, A and B staged through shared
// memory by the k loop, `pipeline = DEPTH` requested on the block.
std::string gemm_block(int depth) {
    return R"(event_program gemm
sizes K = 256, M = 128, N = 256

leaf mma_tile(C: rw f32[128, 256], A: read bf16[128, 64], B: read bf16[64, 256]) {
  mma(C, A, B)
}

alloc A : GLOBAL bf16[128, 256] param read
alloc B : GLOBAL bf16[256, 256] param read
part Ap = blocks(A, [128, 64])
part Bp = blocks(B, [64, 256])
%e0 = pfor i in [1] @BLOCK warpspecialize pipeline = )" +
           std::to_string(depth) + R"( {
  alloc acc : REGISTER f32[128, 256]
  %e1 = for k in [4] @BLOCK {
    alloc As : SHARED bf16[128, 64] layout swizzle128 origin gemm_tile.A
    alloc Bs : SHARED bf16[64, 256] layout swizzle128 origin gemm_tile.B
    %e2 = copy Ap[0, k] -> As @BLOCK
    %e3 = copy Bp[k, 0] -> Bs @BLOCK
    %e4 = call mma_tile(acc, As, Bs) @BLOCK after [%e2, %e3]
    yield %e4
  }
  yield %e1
}
)";
}

Result<event::EventProgram> plan_gemm(int depth, const PassContext& ctx = {}) {
    auto p = event::parse_event_program(gemm_block(depth), "gemm.ev");
    if (!p)
        return p.errors();
    for (auto* pass : {warp_specialize, pipeline_loops, alloc_smem}) {
        p = pass(std::move(p).value(), ctx);
        if (!p)
            return p;
    }
    return p;
}

int64_t offset_of(const event::EventProgram& p, const std::string& tensor) {
    int64_t offset = -2;
    event::walk(p.body, [&](const event::Op& op) {
        if (op.kind == event::OpKind::Alloc && op.alloc.name == tensor)
            offset = op.alloc.offset;
    });
    return offset;
}

TEST(AllocSmem, PipelinedGemmFourStagesFit) {
    auto p = plan_gemm(4);
    ASSERT_TRUE(p.ok()) << p.error_text();
    // B (4 x 32 KiB) first, A (4 x 16 KiB) after it: 192 KiB of the 227 KiB.
    EXPECT_EQ(offset_of(*p, "Bs"), 0);
    EXPECT_EQ(offset_of(*p, "As"), 131072);
}

TEST(AllocSmem, PipelinedGemmFiveStagesOverflowWithBreakdown) {
    auto p = plan_gemm(5);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error_text(),
              "gemm.ev:12:1: error: shared memory of pfor %e0 does not fit: the smallest plan "
              "needs 245760 bytes, the limit is 232448 bytes (the machine's shared memory); "
              "SHARED tensors (245760 bytes in all):\n"
              "  As (origin gemm_tile.A): 81920 bytes, 5 stages, live %e2..%e4\n"
              "  Bs (origin gemm_tile.B): 163840 bytes, 5 stages, live %e3..%e4\n");
}

// The SHARED tensors the code generator keeps in registers (PassContext::shared_in_registers)
// take no space: with Bs among them, five stages of As alone fit, at offset 0, and Bs keeps no
// offset. The hook sees the program before allocation.
TEST(AllocSmem, TensorsKeptInRegistersAreNotPlaced) {
    PassContext ctx;
    int calls = 0;
    ctx.shared_in_registers = [&](const event::EventProgram& p) {
        ++calls;
        EXPECT_EQ(offset_of(p, "As"), -1);
        return std::set<std::string>{"Bs"};
    };
    auto p = plan_gemm(5, ctx);
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(offset_of(*p, "As"), 0);
    EXPECT_EQ(offset_of(*p, "Bs"), -1);
}

// examples/gemm.kiln through the whole pipeline, as written (pipeline = 4) and with the depth
// raised to 5 in the mapping.
Result<Compiled> compile_gemm_example(int depth) {
    std::string text = read_text(source_path("examples/gemm.kiln"));
    auto at = text.find("pipeline = 4");
    EXPECT_NE(at, std::string::npos);
    if (at != std::string::npos)
        text.replace(at, 12, "pipeline = " + std::to_string(depth));
    return compile(parse(text, "gemm.kiln"), CompileOptions{});
}

TEST(AllocSmem, GemmExampleFitsWithFourStages) {
    auto c = compile_gemm_example(4);
    ASSERT_TRUE(c.ok()) << c.error_text();
    EXPECT_EQ(offset_of(c->program, "B2"), 0);
    EXPECT_EQ(offset_of(c->program, "A2"), 131072);
}

TEST(AllocSmem, GemmExampleOverflowsWithFiveStages) {
    auto c = compile_gemm_example(5);
    ASSERT_FALSE(c.ok());
    ASSERT_EQ(c.errors().size(), 1u);
    EXPECT_EQ(c.errors()[0].message,
              "shared memory of pfor %e0 does not fit: the smallest plan needs 245760 bytes, the "
              "limit is 232448 bytes (smem_limit); SHARED tensors (245760 bytes in all):\n"
              "  A2 (origin gemm_tile.A): 81920 bytes, 5 stages, live %e13..%e27\n"
              "  B2 (origin gemm_tile.B): 163840 bytes, 5 stages, live %e14..%e27");
}

} // namespace
} // namespace kiln::passes::testing
