// The late passes (warp-specialize, pipeline-loops, alloc-smem) proven on the event-IR simulator
// (src/interp/event_sim.h): a sequential copy -> compute loop, pipelined by the passes, computes
// the same result with no race under 200 seeded schedules; without the backward WAR edge that
// pipeline-loops derived, some schedule overwrites a stage that is still being read.
#include "interp/event_sim.h"
#include "interp/random.h"
#include "ir/event_parser.h"
#include "ir/event_printer.h"
#include "passes/alloc_smem.h"
#include "passes/pipeline_loops.h"
#include "passes/warp_specialize.h"

#include <gtest/gtest.h>

namespace kiln::interp {
namespace {

using Params = std::map<std::string, std::shared_ptr<HostTensor>>;

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

// The text of kStream after the three late passes.
std::string pipelined() {
    auto p = event::parse_event_program(kStream, "stream.ev");
    EXPECT_TRUE(p.ok()) << p.error_text();
    passes::PassContext ctx;
    for (auto* pass : {passes::warp_specialize, passes::pipeline_loops, passes::alloc_smem}) {
        if (!p)
            return "";
        p = pass(std::move(p).value(), ctx);
        EXPECT_TRUE(p.ok()) << p.error_text();
    }
    return p ? event::print_event_program(*p) : "";
}

Params inputs() {
    auto a = std::make_shared<HostTensor>(HostTensor::poison(ir::DType::F32, {8, 16}));
    fill_integers(*a, 7, -3, 3);
    return {{"A", a},
            {"O", std::make_shared<HostTensor>(HostTensor::poison(ir::DType::F32, {16}))}};
}

HostTensor column_sums(const HostTensor& a) {
    HostTensor o = HostTensor::filled(ir::DType::F32, {a.shape[1]}, 0.0);
    for (int64_t r = 0; r < a.shape[0]; ++r)
        for (int64_t c = 0; c < a.shape[1]; ++c)
            o.data[c] += a.data[r * a.shape[1] + c];
    return o;
}

// The first seed below `seeds` that races or gives a wrong O, with what went wrong.
std::optional<std::string> first_failure(const std::string& text, uint64_t seeds) {
    auto p = event::parse_event_program(text, "pipelined.ev");
    if (!p)
        return "does not parse: " + p.error_text();
    const Params in = inputs();
    const HostTensor want = column_sums(*in.at("A"));
    for (uint64_t s = 0; s < seeds; ++s) {
        Params run;
        for (const auto& [name, t] : in)
            run[name] = std::make_shared<HostTensor>(*t);
        SimOptions o;
        o.seed = s;
        auto report = simulate(*p, run, o);
        if (!report)
            return report.error_text();
        if (!report->races.empty())
            return "seed " + std::to_string(s) + ": " + report->races.front().what;
        if (run.at("O")->data != want.data)
            return "seed " + std::to_string(s) + ": wrong result";
    }
    return std::nullopt;
}

const std::string kWar = " after [cross %e2@-3]";

TEST(PipelineSim, PassesDeriveTheStagesAndTheLoopCarriedEdges) {
    std::string text = pipelined();
    EXPECT_NE(text.find("%e0 = for k in [8] @BLOCK pipeline = 3 after [cross %z] {"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("alloc S : SHARED f32[16] stages 3 on k offset 0"), std::string::npos)
        << text;
    EXPECT_NE(text.find("%e1 = copy Ar[k, 0] -> S @BLOCK role dma" + kWar), std::string::npos)
        << text;
    EXPECT_NE(text.find("%e2 = copy add S -> acc @BLOCK role compute after [cross %e1, %e2@-1]"),
              std::string::npos)
        << text;
}

TEST(PipelineSim, PipelinedLoopIsCorrectUnder200Seeds) {
    std::string text = pipelined();
    ASSERT_FALSE(text.empty());
    auto failure = first_failure(text, 200);
    EXPECT_FALSE(failure) << *failure << "\n" << text;
}

TEST(PipelineSim, WithoutTheBackwardWarEdgeSomeScheduleRaces) {
    std::string text = pipelined();
    auto at = text.find(kWar);
    ASSERT_NE(at, std::string::npos) << text;
    text.erase(at, kWar.size());
    auto failure = first_failure(text, 200);
    ASSERT_TRUE(failure) << text;
    EXPECT_NE(failure->find(" S["), std::string::npos) << *failure;
}

} // namespace
} // namespace kiln::interp
