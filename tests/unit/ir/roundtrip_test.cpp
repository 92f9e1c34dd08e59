// print(parse(text)) is canonical: printing it again gives the same text and the same IR.
#include "ir/parser.h"
#include "ir/printer.h"
#include "program_diff.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

using testing::example_files;
using testing::first_difference;
using testing::read_text;

// The checks every parsed program must pass: its print re-parses to the same IR and prints the
// same text again.
void expect_round_trip(const Program& p, const std::string& what) {
    std::string text = print_program(p);
    auto again = parse_program(text, what + " (printed)");
    ASSERT_TRUE(again.ok()) << again.error_text() << text;
    EXPECT_EQ(first_difference(p, *again), "");
    EXPECT_EQ(print_program(*again), text);
}

TEST(RoundTrip, EveryExample) {
    auto files = example_files();
    ASSERT_FALSE(files.empty());
    for (const auto& f : files) {
        SCOPED_TRACE(f.string());
        auto p = parse_file(f.string());
        ASSERT_TRUE(p.ok()) << p.error_text();
        expect_round_trip(*p, f.string());
    }
}

// examples/gemm.kiln is written in canonical form; only its comment lines are not printed.
TEST(RoundTrip, GemmExampleIsCanonical) {
    std::string path = KILN_SOURCE_DIR "/examples/gemm.kiln";
    std::istringstream in(read_text(path));
    std::string without_comments, line;
    while (std::getline(in, line))
        if (line.rfind("#", 0) != 0)
            without_comments += line + "\n";
    auto p = parse_file(path);
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(print_program(*p), without_comments);
}

// Declarations in any order, ';' separators, comments, redundant parentheses, `N KiB`, attributes
// split over several lines: all normalized.
TEST(RoundTrip, NonCanonicalInputPrintsCanonically) {
    const char* input = R"(# comment
mapping {
  entry h   # entry first is fine
  instance h : v @ HOST { mem C = GLOBAL; mem X = SHARED
    persistent; smem_limit = 100 KiB; pipeline = 2; schedule = optimal; warpspecialize
    layout C = swizzle64
    dispatch t -> h
    tunable U = 4 }
}
variant v of t inner { tunable U; let n = ((U) + (1)) * 2; launch [site] t(C, n) ; srange k in [n] { launch t(C, k) } }
task t(C: reduce(+) f16[4, N], s: i32)
reference attention(C, causal = 1.0, scale = -0.5)
sizes N = 8
program p
)";
    const char* canonical = R"(program p

sizes N = 8
reference attention(C, causal = 1, scale = -0.5)

task t(C: reduce(+) f16[4, N], s: i32)

variant v of t inner {
  tunable U
  let n = (U + 1) * 2
  launch [site] t(C, n)
  srange k in [n] {
    launch t(C, k)
  }
}

mapping {
  instance h : v @ HOST {
    mem C = GLOBAL, X = SHARED
    tunable U = 4
    dispatch t -> h
    layout C = swizzle64
    warpspecialize
    pipeline = 2
    smem_limit = 100KiB
    schedule = optimal
    persistent
  }
  entry h
}
)";
    auto p = parse_program(input, "in.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(print_program(*p), canonical);
    expect_round_trip(*p, "in.kiln");
}

TEST(RoundTrip, SmemLimitNotAMultipleOfKiBPrintsBytes) {
    auto p = parse_program("mapping {\n  instance h : v @ HOST {\n    smem_limit = 1000\n  }\n}\n",
                           "m.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(*p->mapping.instances[0].smem_limit, 1000);
    EXPECT_EQ(print_program(*p),
              "mapping {\n  instance h : v @ HOST {\n    smem_limit = 1000\n  }\n}\n");
}

TEST(RoundTrip, LeafVariantsAndPartitionsOfEveryForm) {
    const char* text = R"(task t(O: write f32[B, M, N], X: read bf16[B, M, K], a: f32)

variant t_host of t inner {
  let Xb = blocks(X, [_, 64, K], pad)
  let Ob = blocks(O, [_, 64, N])
  let Og = mma(O, acc, WARPGROUP, 256)
  let r = mma(O, row, THREAD)
  prange (b, i) in Xb.grid {
    launch t(Ob[b, i, 0], Xb[b, i, 0], a * 2.5)
  }
}

variant t_leaf of t leaf {
  let tmp = tensor f32[M, N]
  fill(tmp, -inf)
  mask(tmp, 0, 64, N, 1)
  max(O, tmp, a)
  call_external("my_fn", O, X, 1e-05)
  call_external("noargs")
}
)";
    auto p = parse_program(text, "t.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(print_program(*p), text);
    expect_round_trip(*p, "t.kiln");
}

// `_` in a tile is a squeezed dimension however it is written, so the printed `_` means it too.
TEST(Parse, UnderscoreTileDimensionIsSqueezed) {
    auto p = parse_program("task t(X: read f32[1, 8])\nvariant v of t inner {\n"
                           "  let P = blocks(X, [(_), _ + 1])\n}\n",
                           "u.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    const auto& b = std::get<LetBlocks>(p->variants[0].body[0].node);
    ASSERT_EQ(b.tile.size(), 2u);
    EXPECT_EQ(b.tile[0], nullptr);
    EXPECT_EQ(to_string(b.tile[1]), "_ + 1");
    expect_round_trip(*p, "u.kiln");
}

TEST(Parse, OperandsNamingTensorsInScopeAreTensorRefs) {
    const char* text = R"(task t(A: rw f32[M], s: i32)
variant v of t inner {
  let T = tensor f32[M]
  let P = blocks(A, [4])
  let x = s + 1
  prange A in [2] {
    launch t(T, P[A], A, s, x, M, Q)
  }
  launch t(A, P[0], T)
}
)";
    auto p = parse_program(text, "r.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    const auto& body = p->variants[0].body;
    const auto& inner = std::get<Launch>(std::get<Loop>(body[3].node).body[0].node);
    // T and P[A] are tensors; the loop variable A shadows the parameter A; s, x, M and the
    // undeclared Q are scalars (the verifier reports Q).
    std::vector<bool> expect_tensor = {true, true, false, false, false, false, false};
    ASSERT_EQ(inner.args.size(), expect_tensor.size());
    for (std::size_t i = 0; i < expect_tensor.size(); ++i)
        EXPECT_EQ(inner.args[i].is_tensor(), expect_tensor[i]) << "argument " << i;
    const auto& outer = std::get<Launch>(body[4].node);
    for (const auto& a : outer.args)
        EXPECT_TRUE(a.is_tensor());
    EXPECT_EQ(outer.args[1].tensor().name, "P");
    EXPECT_EQ(to_string(outer.args[1].tensor().indices[0]), "0");
}

TEST(Parse, TaskDeclaredAfterItsVariantStillResolves) {
    auto p = parse_program("variant v of t leaf {\n  copy(D, S)\n}\n"
                           "task t(D: write f32[4], S: read f32[4])\n",
                           "o.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    const auto& op = std::get<LeafOp>(p->variants[0].body[0].node);
    EXPECT_TRUE(op.operands[0].is_tensor());
    EXPECT_TRUE(op.operands[1].is_tensor());
}

// Every node carries the file, line and column of its first token.
TEST(Parse, LocationsOfGemmNodes) {
    std::string path = KILN_SOURCE_DIR "/examples/gemm.kiln";
    auto p = parse_file(path);
    ASSERT_TRUE(p.ok()) << p.error_text();
    auto at = [](const Loc& l) { return std::to_string(l.line) + ":" + std::to_string(l.col); };
    EXPECT_EQ(p->loc.file, path);
    EXPECT_EQ(at(p->loc), "6:1");
    EXPECT_EQ(at(p->sizes[1].loc), "8:16");
    EXPECT_EQ(at(p->reference->loc), "9:1");
    EXPECT_EQ(at(p->tasks[0].loc), "11:1");
    EXPECT_EQ(at(p->tasks[0].params[1].loc), "11:34");
    EXPECT_EQ(at(p->tasks[0].params[1].shape[1]->loc), "11:50");
    const Variant& host = p->variants[0];
    EXPECT_EQ(at(host.loc), "17:1");
    EXPECT_EQ(at(host.body[0].loc()), "18:3");
    const Loop& loop = std::get<Loop>(host.body[4].node);
    EXPECT_EQ(at(loop.loc), "22:3");
    const Launch& launch = std::get<Launch>(loop.body[0].node);
    EXPECT_EQ(at(launch.loc), "23:5");
    EXPECT_EQ(at(launch.args[1].tensor().loc), "23:29");
    EXPECT_EQ(at(launch.args[1].tensor().indices[0]->loc), "23:32");
    const auto& block = p->mapping.instances[1];
    EXPECT_EQ(at(p->mapping.loc), "129:1");
    EXPECT_EQ(at(block.loc), "135:3");
    EXPECT_EQ(at(block.mems[3].loc), "136:45");
    EXPECT_EQ(at(block.dispatch[1].loc), "138:36");
    EXPECT_EQ(at(p->mapping.entry_loc), "193:3");
}

TEST(Parse, MissingFileIsADiagnosticNamingIt) {
    auto p = parse_file("/nonexistent/dir/x.kiln");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error_text(), "error: cannot read file '/nonexistent/dir/x.kiln'\n");
}

} // namespace
} // namespace kiln::ir
