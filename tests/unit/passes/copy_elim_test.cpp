// copy-elim (src/passes/copy_elim.h): golden cases under tests/golden/copy-elim/ (event IR text
// whose `# CHECK:` and `# CHECK-NOT:` lines must hold on the printed result), and the examples
// lowered by depend + vectorize + copy-elim: verified, and for GEMM the shape issue 4 asks for.
#include "check_lines.h"
#include "ir/event_parser.h"
#include "ir/event_printer.h"
#include "ir/event_verify.h"
#include "passes/copy_elim.h"
#include "passes/depend.h"
#include "passes/vectorize.h"
#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace kiln::passes::testing {
namespace {

Result<event::EventProgram> lower(const ir::Program& p) {
    auto tree = instantiate(p);
    if (!tree)
        return tree.errors();
    auto e = depend(*tree, p, PassContext{});
    if (!e)
        return e;
    auto v = vectorize(std::move(*e), PassContext{});
    if (!v)
        return v;
    return copy_elim(std::move(*v), PassContext{});
}

// Every `# CHECK-NOT: text` line of `golden`: "" when no output line contains its text.
std::string check_absent(const std::string& golden, const std::string& output) {
    std::istringstream in(golden);
    const std::string tag = "# CHECK-NOT: ";
    for (std::string line; std::getline(in, line);)
        if (line.rfind(tag, 0) == 0) {
            const std::string text = line.substr(tag.size());
            std::istringstream out(output);
            for (std::string o; std::getline(out, o);)
                if (o.find(text) != std::string::npos)
                    return "CHECK-NOT '" + text + "' found in: " + o;
        }
    return "";
}

TEST(CopyElim, GoldenCases) {
    int count = 0;
    for (const auto& f :
         std::filesystem::directory_iterator(source_path("tests/golden/copy-elim"))) {
        if (f.path().extension() != ".ev")
            continue;
        ++count;
        const std::string text = read_text(f.path());
        auto in = event::parse_event_program(text, f.path().filename());
        ASSERT_TRUE(in.ok()) << f.path() << ": " << in.error_text();
        ASSERT_EQ(format_diagnostics(event::verify_event_program(*in)), "") << f.path();
        auto out = copy_elim(std::move(*in), PassContext{});
        ASSERT_TRUE(out.ok()) << f.path() << ": " << out.error_text();
        EXPECT_EQ(format_diagnostics(event::verify_event_program(*out)), "") << f.path();
        const std::string printed = event::print_event_program(*out);
        EXPECT_FALSE(kiln::testing::check_patterns(text).empty()) << f.path();
        EXPECT_EQ(kiln::testing::check_lines(text, printed), "") << f.path() << "\n" << printed;
        EXPECT_EQ(check_absent(text, printed), "") << f.path() << "\n" << printed;
    }
    EXPECT_GE(count, 10);
}

TEST(CopyElim, DuplicateNamesAreAnError) {
    auto p = event::parse_event_program("event_program dup\n"
                                        "alloc T : SHARED f32[4]\n"
                                        "alloc T : SHARED f32[4]\n",
                                        "dup.ev");
    ASSERT_TRUE(p.ok()) << p.error_text();
    auto out = copy_elim(std::move(*p), PassContext{});
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.error_text(), "dup.ev:3:1: error: copy-elim: tensor 'T' is declared twice "
                                "(already a tensor); the pass needs unique names\n");
}

std::vector<const event::Op*> ops_of(const event::EventProgram& p, event::OpKind kind) {
    std::vector<const event::Op*> out;
    event::walk(p.body, [&](const event::Op& op) {
        if (op.kind == kind)
            out.push_back(&op);
    });
    return out;
}

// Issue 4's target for GEMM: no NONE tensor; the accumulator is one REGISTER tensor over the
// warpgroups, warps and lanes, cleared, accumulated in the k loop and stored (converted) to the
// global C piece once; A and B tiles are copied global -> shared once per k iteration and read
// by the lanes' calls through partitions.
TEST(CopyElim, GemmKeepsOnlyTheEssentialCopies) {
    auto p = lower(gemm_example());
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(format_diagnostics(event::verify_event_program(*p)), "");
    const std::string text = event::print_event_program(*p);
    std::vector<const event::Op*> registers;
    for (const auto* a : ops_of(*p, event::OpKind::Alloc)) {
        EXPECT_NE(a->alloc.memory, ir::Memory::None) << a->alloc.name;
        if (a->alloc.memory == ir::Memory::Register)
            registers.push_back(a);
    }
    ASSERT_EQ(registers.size(), 1u) << text;
    const std::string acc = registers[0]->alloc.name;
    EXPECT_EQ(registers[0]->over.size(), 3u);
    auto calls = ops_of(*p, event::OpKind::Call);
    ASSERT_EQ(calls.size(), 3u) << text;
    EXPECT_EQ(calls[0]->callee, "clear_leaf");
    EXPECT_EQ(calls[0]->args[0].name, acc);
    EXPECT_EQ(calls[1]->callee, "gemm_leaf");
    EXPECT_EQ(calls[1]->args[0].name, acc);
    // Each lane's first accumulation waits on its own clear only: the broadcasts of the
    // copy-out/copy-in chains between them are gone.
    auto waits_on_clear = std::find_if(calls[1]->after.begin(), calls[1]->after.end(),
                                       [&](const auto& r) { return r.id == calls[0]->result; });
    ASSERT_NE(waits_on_clear, calls[1]->after.end()) << text;
    for (const auto& index : waits_on_clear->index)
        EXPECT_TRUE(index != nullptr) << text;
    EXPECT_FALSE(calls[1]->args[1].whole()); // A through the lanes' partition
    EXPECT_FALSE(calls[1]->args[2].whole());
    EXPECT_EQ(calls[2]->callee, "store_leaf");
    EXPECT_EQ(calls[2]->args[1].name, acc);
    auto copies = ops_of(*p, event::OpKind::Copy);
    ASSERT_EQ(copies.size(), 2u) << text; // A and B tiles into shared memory
    auto loops = ops_of(*p, event::OpKind::For);
    ASSERT_EQ(loops.size(), 1u);
    int in_loop = 0;
    event::walk(loops[0]->loop.body, [&](const event::Op& op) {
        in_loop += op.kind == event::OpKind::Copy || op.kind == event::OpKind::Call;
    });
    EXPECT_EQ(in_loop, 3); // the two tile copies and the accumulation
}

TEST(CopyElim, EveryExampleVerifiesAfterwards) {
    int count = 0;
    for (const auto& f : std::filesystem::directory_iterator(source_path("examples"))) {
        if (f.path().extension() != ".kiln")
            continue;
        ++count;
        auto e = lower(parse(read_text(f.path()), f.path().filename()));
        ASSERT_TRUE(e.ok()) << f.path() << ": " << e.error_text();
        EXPECT_EQ(format_diagnostics(event::verify_event_program(*e)), "") << f.path();
    }
    EXPECT_GE(count, 8);
}

} // namespace
} // namespace kiln::passes::testing
