// The dependence analysis (src/passes/depend.h): golden cases under tests/golden/depend/ (a
// program whose `# CHECK:` lines must match the printed event IR in order) and every example.
#include "check_lines.h"
#include "ir/event_printer.h"
#include "ir/event_verify.h"
#include "passes/depend.h"
#include "test_util.h"

#include <filesystem>

namespace kiln::passes::testing {
namespace {

Result<event::EventProgram> lower(const ir::Program& p, const Sizes& sizes = {}) {
    auto tree = instantiate(p, sizes);
    if (!tree)
        return tree.errors();
    return depend(*tree, p, PassContext{});
}

TEST(Depend, EveryExampleLowers) {
    int count = 0;
    for (const auto& f : std::filesystem::directory_iterator(source_path("examples"))) {
        if (f.path().extension() != ".kiln")
            continue;
        ++count;
        auto p = parse(read_text(f.path()), f.path().filename());
        auto e = lower(p);
        ASSERT_TRUE(e.ok()) << f.path() << ": " << e.error_text();
        EXPECT_EQ(format_diagnostics(event::verify_event_program(*e)), "") << f.path();
    }
    EXPECT_GE(count, 8);
}

// KILN_DUMP=file.kiln prints the lowered program (a debugging aid; skipped otherwise).
TEST(Depend, Dump) {
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
