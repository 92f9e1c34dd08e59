// vectorize (src/passes/vectorize.h): golden cases under tests/golden/vectorize/ (event IR text
// whose `# CHECK:` lines must match the printed result in order) and every example lowered by
// depend then vectorize: verified, and no implicit pfor left.
#include "event_golden.h"
#include "ir/event_printer.h"
#include "ir/event_verify.h"
#include "passes/depend.h"
#include "passes/vectorize.h"
#include "test_util.h"

#include <filesystem>

namespace kiln::passes::testing {
namespace {

Result<event::EventProgram> lower(const ir::Program& p) {
    auto tree = instantiate(p);
    if (!tree)
        return tree.errors();
    auto e = depend(*tree, p, PassContext{});
    if (!e)
        return e;
    return vectorize(std::move(*e), PassContext{});
}

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

TEST(Vectorize, EveryExampleFlattensAndVerifies) {
    int count = 0;
    for (const auto& f : std::filesystem::directory_iterator(source_path("examples"))) {
        if (f.path().extension() != ".kiln")
            continue;
        ++count;
        auto p = parse(read_text(f.path()), f.path().filename());
        auto e = lower(p);
        ASSERT_TRUE(e.ok()) << f.path() << ": " << e.error_text();
        EXPECT_EQ(format_diagnostics(event::verify_event_program(*e)), "") << f.path();
        EXPECT_FALSE(implicit_pfor_left(*e)) << f.path();
    }
    EXPECT_GE(count, 8);
}

// KILN_DUMP=file.kiln prints the program after depend and vectorize (skipped otherwise).
TEST(Vectorize, Dump) {
    const char* f = std::getenv("KILN_DUMP");
    if (!f)
        GTEST_SKIP();
    auto p = parse(read_text(f), f);
    auto e = lower(p);
    ASSERT_TRUE(e.ok()) << e.error_text();
    std::cout << event::print_event_program(*e);
}

} // namespace
} // namespace kiln::passes::testing
