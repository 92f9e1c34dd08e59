// The late passes (warp-specialize, pipeline-loops, alloc-smem) proven on the event-IR simulator
// (src/interp/event_sim.h): a sequential copy -> compute loop and a vectorized GEMM block,
// pipelined by the passes, compute the right result with no race under 200 seeded schedules;
// without a loop-carried edge the passes derived (the backward WAR edge, the accumulator chain)
// some schedule races. Tensors alloc-smem aliases are race-free on the simulator's shared-memory
// arena, and the WAR event it adds alone orders the reuse. The GEMM examples compiled through the
// whole pipeline compute what the program interpreter computes.
#include "ir/event_printer.h"
#include "ir/event_verify.h"
#include "passes/alloc_smem.h"
#include "passes/pipeline_loops.h"
#include "passes/warp_specialize.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

namespace kiln::interp {
namespace {

// Column sums of A: row k is loaded into shared memory (a DMA copy) and added into a register
// accumulator (compute). Sequential: every iteration waits for the previous one.
const std::string kStream = R"(event_program stream
leaf zero(r: write f32[16]) {
  fill(r, 0.0)
}
alloc A : GLOBAL f32[8, 16] param read
alloc O : GLOBAL f32[16] param write
part Ar = blocks(A, [_, 16])
%p = pfor i in [1] @BLOCK warpspecialize pipeline = 3 {
  alloc acc : REGISTER f32[16]
  %z = call zero(acc) @BLOCK
  %e0 = for k in [8] @BLOCK after [%z] {
    alloc S : SHARED f32[16]
    %e1 = copy Ar[k, 0] -> S @BLOCK
    %e2 = copy add S -> acc @BLOCK after [%e1]
    yield %e2
  }
  %e3 = copy acc -> O @BLOCK after [%e0]
  yield %e3
}
)";

// `sequential` after the three late passes.
std::string pipelined(const std::string& sequential) {
    auto p = event::parse_event_program(sequential, "sequential.ev");
    EXPECT_TRUE(p.ok()) << p.error_text();
    passes::PassContext ctx;
    for (auto* pass : {passes::warp_specialize, passes::pipeline_loops, passes::alloc_smem}) {
        if (!p)
            return "";
        p = pass(std::move(p).value(), ctx);
        EXPECT_TRUE(p.ok()) << p.error_text();
    }
    if (!p)
        return "";
    EXPECT_EQ(format_diagnostics(event::verify_event_program(*p)), "");
    return event::print_event_program(*p);
}

Params stream_inputs() {
    return {{"A", integers(ir::DType::F32, {8, 16}, 7)}, {"O", poison(ir::DType::F32, {16})}};
}

const std::string kWar = ", cross %e2@-3";

TEST(PipelineSim, PassesDeriveTheStagesAndTheLoopCarriedEdges) {
    std::string text = pipelined(kStream);
    EXPECT_NE(text.find("%e0 = for k in [8] @BLOCK pipeline = 3 after [%z] {"), std::string::npos)
        << text;
    EXPECT_NE(text.find("alloc S : SHARED f32[16] stages 3 on k offset 0"), std::string::npos)
        << text;
    EXPECT_NE(text.find("%e1 = copy Ar[k, 0] -> S @BLOCK role dma after [cross %z" + kWar + "]"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("%e2 = copy add S -> acc @BLOCK role compute after [cross %e1, %e2@-1]"),
              std::string::npos)
        << text;
}

TEST(PipelineSim, PipelinedLoopIsCorrectUnder200Seeds) {
    std::string text = pipelined(kStream);
    const Params in = stream_inputs();
    auto failure = first_failure(parse(text), in, "O", column_sums(*in.at("A")), 200);
    EXPECT_FALSE(failure) << *failure << "\n" << text;
}

TEST(PipelineSim, WithoutTheBackwardWarEdgeSomeScheduleRaces) {
    std::string text = without(pipelined(kStream), kWar);
    const Params in = stream_inputs();
    auto failure = first_failure(parse(text), in, "O", column_sums(*in.at("A")), 200);
    ASSERT_TRUE(failure) << text;
    EXPECT_NE(failure->what.find(" S["), std::string::npos) << *failure;
}

// GEMM 128x256x192 after vectorization, before warp specialization: two consumer warpgroups of 4
// warps of 32 threads, each thread owning a 2x64 accumulator fragment. The k loop loads A and B
// tiles into shared memory at block level and runs the mma per thread; 3 iterations, so a 2-deep
// pipeline reuses a buffer.
const std::string kGemm = R"(event_program gemm
sizes K = 192, M = 128, N = 256
leaf zero(C: write f32[2, 64]) {
  fill(C, 0.0)
}
leaf mma_leaf(C: rw f32[2, 64], A: read bf16[2, 64], B: read bf16[64, 64]) {
  mma(C, A, B)
}
alloc C : GLOBAL f32[128, 256] param write
alloc A : GLOBAL bf16[128, 192] param read
alloc B : GLOBAL bf16[192, 256] param read
part Ak = blocks(A, [128, 64])
part Bk = blocks(B, [64, 256])
%e0 = pfor (i, j) in [1, 1] @BLOCK warpspecialize pipeline = 2 {
  alloc acc : REGISTER f32[2, 64] over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32)
  %e1 = call zero(acc) @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32)
  %e2 = for k in [3] @BLOCK after [%e1[:, :, :]] {
    alloc As : SHARED bf16[128, 64]
    alloc Bs : SHARED bf16[64, 256]
    %e3 = copy Ak[0, k] -> As @BLOCK
    %e4 = copy Bk[k, 0] -> Bs @BLOCK
    part Ag = blocks(As, [64, 64])
    part Aw = mma(Ag[g, 0], lhs, WARP)
    part At = mma(Aw[w], lhs, THREAD)
    part Bw = mma(Bs, rhs, WARP)
    part Bt = mma(Bw[w], rhs, THREAD)
    %e5 = call mma_leaf(acc, At[t], Bt[t]) @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32) after [%e3, %e4]
    yield %e5[:, :, :]
  }
  part Cg = blocks(C, [64, 256])
  part Cw = mma(Cg[g, 0], acc, WARP)
  part Ct = mma(Cw[w], acc, THREAD)
  %e6 = copy acc -> Ct[t] @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32) after [%e2]
  yield %e6[:, :, :]
}
)";

const std::string kGemmWarA =
    "%e3 = copy Ak[0, k] -> As @BLOCK role dma after [cross %e1[:, :, :], "
    "cross %e5[:, :, :]@-2]";
const std::string kGemmMma = "role compute after [cross %e3, cross %e4, %e5[g, w, t]@-1]";

TEST(PipelineSim, GemmPipelinedByThePassesIsCorrectUnder100Seeds) {
    std::string text = pipelined(kGemm);
    EXPECT_NE(text.find("%e2 = for k in [3] @BLOCK pipeline = 2 after [%e1[:, :, :]] {"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("alloc As : SHARED bf16[128, 64] stages 2 on k offset 65536"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("alloc Bs : SHARED bf16[64, 256] stages 2 on k offset 0"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(kGemmWarA), std::string::npos) << text;
    EXPECT_NE(text.find(kGemmMma), std::string::npos) << text;
    const Params in = gemm_inputs(192);
    auto failure = first_failure(parse(text), in, "C", matmul(*in.at("A"), *in.at("B")), 100);
    EXPECT_FALSE(failure) << *failure << "\n" << text;
}

TEST(PipelineSim, GemmWithoutTheDerivedEdgesRaces) {
    const std::string text = pipelined(kGemm);
    const Params in = gemm_inputs(192);
    const HostTensor want = matmul(*in.at("A"), *in.at("B"));
    auto no_war =
        first_failure(parse(without(text, ", cross %e5[:, :, :]@-2")), in, "C", want, 200);
    ASSERT_TRUE(no_war);
    EXPECT_NE(no_war->what.find(" As["), std::string::npos) << *no_war;
    auto no_chain = first_failure(parse(without(text, ", %e5[g, w, t]@-1")), in, "C", want, 200);
    ASSERT_TRUE(no_chain);
    EXPECT_NE(no_chain->what.find(" acc["), std::string::npos) << *no_chain;
}

// Two 2 KiB tensors used one after the other in each of two blocks, under a 3 KiB limit:
// alloc-smem puts both at offset 0 and makes Y's writer wait for X's reader.
const std::string kPhases = R"(event_program phases
alloc G1 : GLOBAL f32[2, 16, 32] param read
alloc G2 : GLOBAL f32[2, 16, 32] param read
alloc O1 : GLOBAL f32[2, 16, 32] param write
alloc O2 : GLOBAL f32[2, 16, 32] param write
part G1p = blocks(G1, [1, 16, 32])
part G2p = blocks(G2, [1, 16, 32])
part O1p = blocks(O1, [1, 16, 32])
part O2p = blocks(O2, [1, 16, 32])
%e0 = pfor i in [2] @BLOCK smem_limit = 3072 {
  alloc X : SHARED f32[1, 16, 32]
  alloc Y : SHARED f32[1, 16, 32]
  %e1 = copy G1p[i, 0, 0] -> X @BLOCK
  %e2 = copy X -> O1p[i, 0, 0] @BLOCK after [%e1]
  %e3 = join @BLOCK after [%e2]
  %e4 = copy G2p[i, 0, 0] -> Y @BLOCK after [%e3]
  %e5 = copy Y -> O2p[i, 0, 0] @BLOCK after [%e4]
  yield %e5
}
)";

Params phases_inputs() {
    return {{"G1", integers(ir::DType::F32, {2, 16, 32}, 11)},
            {"G2", integers(ir::DType::F32, {2, 16, 32}, 12)},
            {"O1", poison(ir::DType::F32, {2, 16, 32})},
            {"O2", poison(ir::DType::F32, {2, 16, 32})}};
}

// `text`'s outputs O1 and O2 against G1 and G2: the first failure, if any.
std::optional<SimFailure> phases_failure(const std::string& text) {
    const Params in = phases_inputs();
    const auto p = parse(text);
    if (auto f = first_failure(p, in, "O1", *in.at("G1"), 200))
        return f;
    return first_failure(p, in, "O2", *in.at("G2"), 200);
}

std::string allocated(const std::string& text) {
    auto p = event::parse_event_program(text, "phases.ev");
    EXPECT_TRUE(p.ok()) << p.error_text();
    if (p)
        p = passes::alloc_smem(std::move(p).value(), passes::PassContext{});
    EXPECT_TRUE(p.ok()) << p.error_text();
    return p ? event::print_event_program(*p) : "";
}

TEST(AllocSmemSim, AliasedTensorsAreRaceFreeUnder200Seeds) {
    std::string text = allocated(kPhases);
    ASSERT_NE(text.find("alloc X : SHARED f32[1, 16, 32] offset 0"), std::string::npos) << text;
    ASSERT_NE(text.find("alloc Y : SHARED f32[1, 16, 32] offset 0"), std::string::npos) << text;
    auto failure = phases_failure(text);
    EXPECT_FALSE(failure) << *failure << "\n" << text;
}

TEST(AllocSmemSim, TheWarEventAloneOrdersTheReuse) {
    // Without the original path through the join, the event alloc-smem added still suffices;
    // without both, Y's copy overwrites X's bytes while X is in use.
    const std::string text = allocated(kPhases);
    const std::string both = "-> Y @BLOCK after [%e3, %e2]";
    ASSERT_NE(text.find(both), std::string::npos) << text;
    auto only_war = phases_failure(without(text, "%e3, "));
    EXPECT_FALSE(only_war) << *only_war;
    auto neither = phases_failure(without(text, " after [%e3, %e2]"));
    ASSERT_TRUE(neither);
    EXPECT_NE(neither->what.find("shared memory"), std::string::npos) << *neither;
}

// An example through the whole pipeline (depend ... alloc-smem), with K long enough that the
// pipeline reuses every stage, against the program interpreter (sim_test_util.h).
std::string compiled_example_failure(const std::string& name, const Sizes& sizes, uint64_t seeds) {
    return lowered_mismatch("examples/" + name + ".kiln", sizes, "", seeds, /*reject_none=*/true);
}

TEST(PipelineSim, CompiledGemmExamplesMatchTheInterpreter) {
    // gemm: 4 stages, 6 k tiles (the last one ragged); dual_gemm: 4 stages, 5 k tiles.
    EXPECT_EQ(compiled_example_failure("gemm", {{"M", 129}, {"N", 257}, {"K", 321}}, 5), "");
    EXPECT_EQ(compiled_example_failure("dual_gemm", {{"M", 130}, {"N", 129}, {"K", 257}}, 5), "");
    EXPECT_EQ(
        compiled_example_failure("batched_gemm", {{"Z", 2}, {"M", 64}, {"N", 64}, {"K", 320}}, 5),
        "");
}

} // namespace
} // namespace kiln::interp
