// vectorize (src/passes/vectorize.h): golden cases under tests/golden/vectorize/ (event IR text
// whose `# CHECK:` lines must match the printed result in order) and every example lowered by
// depend then vectorize: verified, and no implicit pfor left.
#include "check_lines.h"
#include "ir/event_parser.h"
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
// its CHECK lines in order.
TEST(Vectorize, GoldenCases) {
    int count = 0;
    for (const auto& f :
         std::filesystem::directory_iterator(source_path("tests/golden/vectorize"))) {
        if (f.path().extension() != ".ev")
            continue;
        ++count;
        std::string text = read_text(f.path());
        auto in = event::parse_event_program(text, f.path().filename());
        ASSERT_TRUE(in.ok()) << in.error_text();
        auto out = vectorize(std::move(*in), PassContext{});
        ASSERT_TRUE(out.ok()) << f.path() << ": " << out.error_text();
        EXPECT_EQ(format_diagnostics(event::verify_event_program(*out)), "") << f.path();
        std::string printed = event::print_event_program(*out);
        EXPECT_FALSE(kiln::testing::check_patterns(text).empty()) << f.path();
        EXPECT_EQ(kiln::testing::check_lines(text, printed), "") << f.path() << "\n" << printed;
    }
    EXPECT_GE(count, 3);
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
