// The late passes (warp-specialize, pipeline-loops, alloc-smem) on every event-IR golden input of
// every pass: each pass, alone and chained in pipeline order, returns a program or diagnostics
// (never crashes), and turns a program the event-IR verifier accepts into one it accepts.
#include "ir/event_parser.h"
#include "ir/event_verify.h"
#include "passes/alloc_smem.h"
#include "passes/pipeline_loops.h"
#include "passes/warp_specialize.h"
#include "test_util.h"

#include <algorithm>
#include <filesystem>

namespace kiln::passes::testing {
namespace {

using Pass = Result<event::EventProgram> (*)(event::EventProgram, const PassContext&);

std::vector<std::filesystem::path> every_event_golden() {
    std::vector<std::filesystem::path> out;
    for (const auto& f : std::filesystem::recursive_directory_iterator(source_path("tests/golden")))
        if (f.path().extension() == ".ev")
            out.push_back(f.path());
    std::sort(out.begin(), out.end());
    return out;
}

// "" when `passes`, run in order on a verified `program`, end in diagnostics or in a program
// the verifier accepts.
std::string check_chain(event::EventProgram program, const std::vector<Pass>& passes) {
    for (Pass pass : passes) {
        auto out = pass(std::move(program), PassContext{});
        if (!out)
            return "";
        if (auto broken = event::verify_event_program(*out); !broken.empty())
            return format_diagnostics(broken);
        program = std::move(out).value();
    }
    return "";
}

TEST(LatePasses, KeepEveryVerifiedGoldenInputVerified) {
    int verified = 0;
    for (const auto& path : every_event_golden()) {
        auto program = event::parse_event_file(path.string());
        if (!program || !event::verify_event_program(*program).empty())
            continue;
        ++verified;
        for (Pass pass : {warp_specialize, pipeline_loops, alloc_smem})
            EXPECT_EQ(check_chain(*program, {pass}), "") << path;
        EXPECT_EQ(check_chain(*program, {warp_specialize, pipeline_loops, alloc_smem}), "") << path;
    }
    EXPECT_GE(verified, 20);
}

} // namespace
} // namespace kiln::passes::testing
