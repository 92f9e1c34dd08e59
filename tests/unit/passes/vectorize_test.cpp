// vectorize (src/passes/vectorize.h): golden cases under tests/golden/vectorize/ (event IR text
// whose `# CHECK:` lines must match the printed result in order) and every example lowered by
// depend then vectorize: verified, and no implicit pfor left.
#include "event_golden.h"
#include "lowering_test_util.h"
#include "passes/vectorize.h"

namespace kiln::passes::testing {
namespace {

// Each case under tests/golden/vectorize/ is event IR text; the result must verify and match
// its CHECK lines in order (event_golden.h).
TEST(Vectorize, GoldenCases) {
    run_golden_folder("vectorize", vectorize, 3);
}

bool implicit_pfor_left(const event::EventProgram& p) {
    bool found = false;
    event::walk(p.body, [&](const event::Op& op) {
        found = found || (op.kind == event::OpKind::PFor && op.loop.level > ir::Level::Block);
    });
    return found;
}

// Every example lowered by depend then vectorize verifies (lowered_examples) and is flat.
TEST(Vectorize, EveryExampleFlattensAndVerifies) {
    const auto examples = lowered_examples("vectorize");
    for (const auto& [file, program] : examples)
        EXPECT_FALSE(implicit_pfor_left(program)) << file;
    EXPECT_GE(examples.size(), 8u);
}

} // namespace
} // namespace kiln::passes::testing
