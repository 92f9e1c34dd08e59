// The generated CUDA of the attention examples: a loop of several calls (scores, softmax, P.V),
// K and V through their own barrier pairs, Q loaded once per tile, per-thread fragment statements,
// the row max as quad shuffles, barriers narrowed to what the ops share; and the diagnostics.
#include "lowered_example.h"

#include <gtest/gtest.h>

#include <string>

namespace kiln::codegen {
namespace {

using testing::emit;
using testing::lower;
using testing::Lowered;

TEST(Attention, KAndVHaveTheirOwnBarriersFreedByTheCallThatReadsThem) {
    std::string cuda = emit(lower("attention_d64"));
    EXPECT_HAS(cuda, "// full_K2[s]: the TMA copies %e25 of stage s landed; empty_K2[s]: every "
                     "compute warp released stage s (after %e35).");
    EXPECT_HAS(cuda, "// full_V2[s]: the TMA copies %e85 of stage s landed; empty_V2[s]: every "
                     "compute warp released stage s (after %e98).");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::wait(&empty_K2[st.stage], st.phase ^ 1u);");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::arrive_expect_tx(&full_V2[st.stage], 16384);");
    // K's stage is released right after the draining wait of the scores call
    EXPECT_HAS(cuda, "if (t == 0) kiln::dev::mbarrier::arrive(&empty_K2[st.stage]);  // release "
                     "K2's stage");
}

// Kernels that feed a wgmma from registers keep the per-lane warpgroup index: the broadcast that
// keeps the GEMM family's descriptors uniform made d64 attention 5-6% slower (bench/NOTES.md v27).
TEST(Attention, ComputeWarpgroupIndexIsNotBroadcast) {
    std::string cuda = emit(lower("attention_d64"));
    EXPECT_HAS(cuda, "= threadIdx.x / 128 - 1;  // WARPGROUP");
    EXPECT_EQ(cuda.find("warpgroup_index"), std::string::npos);
}

// FlashAttention-3's overlap inside a warpgroup: P.V of iteration k - 1 is issued behind the
// scores of iteration k, which alone are waited for (wait<1>), so P.V runs under the softmax; the
// softmax's first statement touching O retires it. The first iteration owes nothing and is
// peeled off, so no wgmma is issued under a branch.
TEST(Attention, ThePvBatchIsIssuedBehindTheNextScoresAndRunsUnderTheSoftmax) {
    std::string cuda = emit(lower("attention_d64"));
    EXPECT_HAS(cuda, "int deferred_stage = -1;  // the stage call %e98 (pv_thread) reads while its "
                     "issue is deferred or it is in flight");
    EXPECT_HAS(cuda, "// for %e23 (srange in attn_block), its first iteration peeled");
    EXPECT_HAS(cuda, "const int k = 0;");
    EXPECT_HAS(cuda, "for (int k = 1; k < 2; ++k) {");
    // packed where the call ends, issued in the next iteration
    EXPECT_HAS(cuda, "e1_packed[ks][i] = kiln::dev::wgmma::pack<");
    EXPECT_HAS(cuda, "// issued in the next iteration, behind its first wgmma batch (or after the "
                     "loop)");
    EXPECT_HAS(cuda, "deferred_stage = st.stage;");
    const auto behind = cuda.find("// the deferred batch, issued behind this one");
    ASSERT_NE(behind, std::string::npos);
    const auto rs = cuda.find("kiln::dev::wgmma::mma_rs<64, kiln::dev::wgmma::DType::BF16, 1>(O5, "
                              "e1_packed[ks], kiln::dev::wgmma::advance(db0, ks * 2048), 1);",
                              behind);
    const auto wait1 = cuda.find("kiln::dev::wgmma::wait<1>();  // this batch only", behind);
    EXPECT_LT(rs, wait1);
    EXPECT_NE(cuda.find("(V2_smem + deferred_stage * 16384)", behind), std::string::npos);
    // retired right before O is rescaled, V's stage released then
    const auto retire = cuda.find("kiln::dev::wgmma::wait<0>();  // retires the deferred wgmma "
                                  "batch first",
                                  wait1);
    ASSERT_NE(retire, std::string::npos);
    const auto rescale = cuda.find("O5[4 * ((c) / 2) + 2 * h + (c) % 2] = (O5[", wait1);
    EXPECT_LT(retire, rescale);
    EXPECT_HAS(cuda, "kiln::dev::wgmma::fence_operand(e1_packed);");
    EXPECT_HAS(cuda, "if (t == 0) kiln::dev::mbarrier::arrive(&empty_V2[deferred_stage]);  // "
                     "release V2's stage");
    // and the last one after the loop, before the finish reads O
    EXPECT_HAS(cuda, "// for %e23 (srange in attn_block) complete: the last iteration's call %e98 "
                     "(pv_thread)");
    EXPECT_HAS(cuda, "kiln::dev::wgmma::wait<0>();  // retired before the loop's results are read");
}

TEST(Attention, QIsLoadedOncePerTileWithItsOwnParity) {
    std::string cuda = emit(lower("attention_d64"));
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::wait(empty_Q1, tile_phase ^ 1u);");
    EXPECT_HAS(cuda, "kiln::dev::tma::load(Q1_smem, &tm_Q, full_Q1, 0, i * 128, z);");
    EXPECT_HAS(cuda, "// after cross %e1: the TMA completed the tile's copy");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::wait(full_Q1, tile_phase);");
    EXPECT_HAS(cuda, "if (t == 0) kiln::dev::mbarrier::arrive(empty_Q1);");
}

TEST(Attention, ScoresAreAKMajorWgmmaThenScaledAndMaskedPerThread) {
    std::string cuda = emit(lower("attention_d64_causal"));
    EXPECT_HAS(cuda, "// mma_bt(S5, Q1, K2): 4 x wgmma m64n128k16, Q1 K-major, K2 K-major");
    // fill(S, 0) is the first wgmma's scale-d = 0, not a move per element
    EXPECT_HAS(cuda, "// fill(S5, 0): the next wgmma's scale-d");
    EXPECT_EQ(cuda.find("S5[e] = 0.0f"), std::string::npos);
    EXPECT_HAS(cuda, "kiln::dev::wgmma::mma<128, kiln::dev::wgmma::DType::BF16, 0, 0>(S5, "
                     "kiln::dev::wgmma::advance(da0, ks * 32), kiln::dev::wgmma::advance(db0, "
                     "ks * 32), ks > 0);");
    EXPECT_HAS(cuda, "kiln::dev::wgmma::wait<0>();");
    // the scale is deferred to S's readers (DeferredScalesFoldIntoTheRowMaxAndTheExp2)
    EXPECT_HAS(cuda, "// scale(S5, S5, 0.125f): deferred, S5 stays unscaled and its readers take "
                     "the factor");
    // coordinates through S5's mirror (the accumulator fragment of S), skipped for inner tiles
    EXPECT_HAS(cuda, "const int row = ((i * 128)) + g * 64 + 16 * w + t / 4 + 8 * h;");
    EXPECT_HAS(cuda, "const int col = ((k * 128)) + 2 * (t % 4) + 8 * (c / 2) + c % 2;");
    EXPECT_HAS(cuda, "if (((k * 128)) + 0 + 127 >= (256) || (1 != 0 && ((k * 128)) + 0 + 127 > "
                     "((i * 128)) + g * 64)) {");
}

TEST(Attention, TheRowMaxIsAQuadButterflyAndTheScoresStayInRegisters) {
    std::string cuda = emit(lower("attention_d64"));
    EXPECT_HAS(cuda, "// copy %e36 (copy-out S for scores_thread): elided (its rows are read as "
                     "quad shuffles of the registers it stores; nothing else reads them)");
    EXPECT_HAS(cuda, "v3 = fmaxf(v3, S5[4 * ((c + 3) / 2) + 2 * h + (c + 3) % 2]);");
    EXPECT_HAS(cuda, "v0 = fmaxf(fmaxf(v0, v1), fmaxf(v2, v3));");
    EXPECT_HAS(cuda, "v0 = fmaxf(v0, __shfl_xor_sync(0xffffffffu, v0, 1));");
    EXPECT_HAS(cuda, "v0 = fmaxf(v0, __shfl_xor_sync(0xffffffffu, v0, 2));");
    // alloc-smem left it unplaced (codegen::shared_kept_in_registers)
    EXPECT_HAS(cuda, "// alloc S1: unused (what it would hold stays in registers)");
    EXPECT_EQ(cuda.find("float Sr4["), std::string::npos) << "whole rows are never materialized";
}

TEST(Attention, PStaysInRegistersAsTheSecondWgmmasAOperand) {
    std::string cuda = emit(lower("attention_d64"));
    EXPECT_HAS(cuda, "// copy into Pp2: elided, the wgmma reading it takes the registers (RS form)");
    EXPECT_HAS(cuda, "// mma(O5, P1, V2): 8 x wgmma m64n64k16, P1 from the registers of e1 (the "
                     "accumulator layout is wgmma's A layout), V2 MN-major");
    // packed before the batch's fence (else ptxas injects a warpgroup.arrive per wgmma), in an
    // array that lives as long as the wgmma may read it
    EXPECT_HAS(cuda, "uint32_t e1_packed[8][4];");
    EXPECT_HAS(cuda, "for (int i = 0; i < 4; ++i) e1_packed[ks][i] = kiln::dev::wgmma::pack<"
                     "kiln::dev::wgmma::DType::BF16>(e1[8 * ks + 2 * i], e1[8 * ks + 2 * i + 1]);");
    EXPECT_LT(cuda.find("e1_packed[ks][i] = "), cuda.find("mma_rs<"));
    EXPECT_HAS(cuda, "kiln::dev::wgmma::mma_rs<64, kiln::dev::wgmma::DType::BF16, 1>(O5, "
                     "e1_packed[ks], kiln::dev::wgmma::advance(db0, ks * 2048), 1);");
    EXPECT_HAS(cuda, "kiln::dev::wgmma::fence_operand(e1_packed);");
    EXPECT_HAS(cuda, "// alloc P1: unused (what it would hold stays in registers)");
    // nothing is shared between the softmax and P.V any more: no barrier between them
    EXPECT_HAS(cuda, "// after %e63[:, :, :]: broadcast over compute processors; only per-thread "
                     "registers are shared");
}

TEST(Attention, SubtractThenExpIsOneFmaAndExp2) {
    std::string cuda = emit(lower("attention_d64"));
    EXPECT_HAS(cuda, "// sub(e1, S5, mx1), exp(e1): exp2 of one FMA per element");
    EXPECT_HAS(cuda, "e1[4 * ((c) / 2) + 2 * h + (c) % 2] = kiln::dev::math::fast_exp2(fmaf(S5[4 * "
                     "((c) / 2) + 2 * h + (c) % 2], 0.125f * 1.44269504f, -mx1[h] * "
                     "1.44269504f));");
    // a row vector's exp stays as it is
    EXPECT_HAS(cuda, "a1[h] = __expf(a1[h]);");
}

TEST(Attention, BarriersNarrowToWhatTheOpsShare) {
    std::string cuda = emit(lower("attention_d64"));
    // init writes only per-thread registers: no barrier before the softmax needs them
    EXPECT_HAS(cuda, "// after %e7[:, :, :]: an op before the loop, broadcast over compute "
                     "processors; only per-thread registers are shared");
    EXPECT_EQ(cuda.find("if (k == 0) kiln::dev::named_barrier::sync"), std::string::npos);
    // l's per-warp instance: the warp's lanes exchange it
    EXPECT_HAS(cuda, "// after %e67[:, :, :]: broadcast over compute processors; the warp's own "
                     "instance is shared");
}

// s·QKᵀ: the scores stay unscaled; the row max scales its reduced value, the exp2 FMA takes the
// factor in its multiplier, the mask needs none, and the next iteration's fill voids it.
TEST(Attention, DeferredScalesFoldIntoTheRowMaxAndTheExp2) {
    std::string cuda = emit(lower("attention_d64_causal"));
    EXPECT_HAS(cuda, "mx1[h] = fmaxf(mx1[h], v0 * 0.125f);");
    EXPECT_HAS(cuda, "// sub(e1, S5, mx1), exp(e1): exp2 of one FMA per element, S5's deferred "
                     "scale in its multiplier");
    EXPECT_HAS(cuda, "// S5's deferred scale dropped: the next iteration fills it first");
    EXPECT_EQ(cuda.find("multiplied out"), std::string::npos);
    // a reader that cannot take the factor gets S multiplied out first
    Lowered l = lower("attention_d64");
    for (auto& leaf : l.program.leaves)
        for (auto& st : leaf.body)
            if (leaf.name == "softmax_leaf" && st.op == "sub" && st.operands[0].tensor().name == "e")
                st.op = "add";
    cuda = emit(l);
    const auto out = cuda.find("// the deferred scale of S5, multiplied out");
    ASSERT_NE(out, std::string::npos);
    EXPECT_LT(out, cuda.find("e1[4 * ((c) / 2) + 2 * h + (c) % 2] = (S5[", out));
    EXPECT_HAS(cuda, "for (int e = 0; e < 64; ++e) S5[e] *= 0.125f;");
}

TEST(Attention, TheOutputIsTheAccumulatorDividedByTheRowSum) {
    std::string cuda = emit(lower("attention_d128"));
    EXPECT_HAS(cuda, "// div(O, O5, lt1): accumulator coordinates of wgmma, predicated on O's "
                     "256 x 128 bounds");
    EXPECT_HAS(cuda, "(O5[4 * n8 + 2 * h] / lt1[(4 * n8 + 2 * h) / 2 % 2])");
}

// Causal: the key loop stops after the tile holding the block's last row, in both roles; Q's
// barrier is waited after the loop too, so a loop that ran no iteration leaves no phase behind.
TEST(Attention, TheCausalKeyLoopStopsAtTheDiagonal) {
    std::string cuda = emit(lower("attention_d64_causal", {{"N", 512}}));
    const std::string trips = "min(4, ((((i * 128) + 128) + 128 - 1) / 128))";
    EXPECT_HAS(cuda, "for (int k = 0; k < " + trips + "; ++k)");  // the DMA role
    EXPECT_HAS(cuda, "if (" + trips + " > 0) {");                  // the compute role's first
    EXPECT_HAS(cuda, "for (int k = 1; k < " + trips + "; ++k)");
    EXPECT_HAS(cuda, "if (deferred_stage >= 0) {");  // the last P.V, owed if the loop ran
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::wait(full_Q1, tile_phase);  // landed, even where the "
                     "limited loop ran no iteration");
    EXPECT_EQ(emit(lower("attention_d64")).find("k < min("), std::string::npos);
}

Lowered with_limit(const std::string& example, ir::ExprPtr limit, int64_t cluster = 1) {
    Lowered l = lower(example, {}, cluster);
    event::walk(l.program.body, [&](event::Op& op) {
        if (op.kind == event::OpKind::For)
            op.loop.limit = limit;
    });
    return l;
}

TEST(Attention, ALimitOnlyTheTileIndicesDecideIsADiagnostic) {
    Lowered l = with_limit("attention_d64_causal", ir::name_ref("N"));
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error_text().find("its limit N reads 'N', not an index of the block's tile"),
              std::string::npos)
        << cuda.error_text();
}

TEST(Attention, ALimitedLoopInAClusterIsADiagnostic) {
    Lowered l = with_limit("gemm", ir::int_lit(1), 2);
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error_text().find("a limited loop in a cluster: the CTAs of a pair share every "
                                     "multicast stage"),
              std::string::npos)
        << cuda.error_text();
}

// What alloc-smem is told to leave unplaced: S (its rows are quad shuffles) and P (the RS
// wgmma's registers) for attention; nothing for a GEMM. A SHARED buffer left unplaced that the
// kernel does need is a diagnostic, not a kernel reading offset -1.
TEST(Attention, SharedTensorsKeptInRegistersAreTheElidedOnes) {
    auto before_allocation = [](const std::string& example) {
        auto program = ir::parse_file(std::string(KILN_SOURCE_DIR) + "/examples/" + example +
                                      ".kiln");
        EXPECT_TRUE(program.ok()) << program.error_text();
        passes::CompileOptions options;
        options.stop_after = "pipeline-loops";
        auto compiled = passes::compile(*program, options);
        EXPECT_TRUE(compiled.ok()) << compiled.error_text();
        return compiled.ok() ? shared_kept_in_registers(compiled->program)
                             : std::set<std::string>{"?"};
    };
    EXPECT_EQ(before_allocation("attention_d128_causal"), (std::set<std::string>{"P1", "S1"}));
    EXPECT_EQ(before_allocation("gemm"), std::set<std::string>{});

    Lowered l = lower("attention_d64");
    event::walk(l.program.body, [](event::Op& op) {
        if (op.kind == event::OpKind::Alloc && op.alloc.name == "l4")
            op.alloc.offset = -1;
    });
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error_text().find("SHARED buffer l4 has no offset: run alloc-smem"),
              std::string::npos)
        << cuda.error_text();
}

TEST(Attention, MaskWithoutCoordinatesIsADiagnostic) {
    Lowered l = lower("attention_d64");
    event::walk(l.program.body, [](event::Op& op) {
        if (op.kind == event::OpKind::Alloc && op.alloc.name == "S5")
            op.alloc.mirrors.reset();
    });
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error_text().find("cannot lower call %e35 (scores_thread): mask needs a "
                                     "register accumulator fragment that mirrors an accumulator "
                                     "fragment"),
              std::string::npos)
        << cuda.error_text();
}

TEST(Attention, UnknownUnaryStatementNamesTheCall) {
    Lowered l = lower("attention_d64");
    for (auto& leaf : l.program.leaves)
        for (auto& st : leaf.body)
            if (leaf.name == "softmax_leaf" && st.op == "exp")
                st.op = "sigmoid";
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error_text().find("cannot lower call %e63 (softmax_thread): leaf statement "
                                     "'sigmoid' of softmax_leaf has no per-thread lowering yet"),
              std::string::npos)
        << cuda.error_text();
}

} // namespace
} // namespace kiln::codegen
