// Rules that need more than a bad .kiln file: IR shapes the parser never produces (the C++
// builder can), programs that must be accepted, and the machine-fit arithmetic.
#include "passes/diagnostics.h"
#include "passes/processor_fit.h"
#include "test_util.h"

namespace kiln::passes::testing {
namespace {

ir::Variant &variant(ir::Program &p, const std::string &name) {
    for (auto &v : p.variants)
        if (v.name == name)
            return v;
    throw std::runtime_error("no variant " + name);
}

Loc at(int line) {
    return Loc{"gemm.kiln", line, 3};
}

ir::Operand tensor(const std::string &name, int line) {
    return ir::Operand{ir::TensorRef{name, {}, at(line)}};
}

TEST(BuilderOnlyRules, LeafOperationInInnerVariant) {
    auto p = gemm_example();
    variant(p, "gemm_rows")
        .body.push_back(ir::Stmt{
            ir::LeafOp{"fill", "", {tensor("C", 900), ir::Operand{ir::float_lit(0.0)}}, at(900)}});
    EXPECT_EQ(errors_of(p), "gemm.kiln:900:3: error: leaf operation fill in inner variant "
                            "gemm_rows: only leaf variants access tensor data\n");
}

TEST(BuilderOnlyRules, LaunchInLeafVariant) {
    auto p = gemm_example();
    variant(p, "gemm_leaf")
        .body.push_back(ir::Stmt{ir::Launch{
            "", "gemm", {tensor("C", 901), tensor("A", 901), tensor("B", 901)}, at(901)}});
    EXPECT_EQ(errors_of(p), "gemm.kiln:901:3: error: launch of gemm in leaf variant gemm_leaf: "
                            "only inner variants launch tasks\n");
}

TEST(BuilderOnlyRules, ScalarLetInLeafVariant) {
    auto p = gemm_example();
    variant(p, "gemm_leaf").body.push_back(ir::Stmt{ir::LetScalar{"x", ir::int_lit(1), at(902)}});
    EXPECT_EQ(errors_of(p), "gemm.kiln:902:3: error: scalar x in leaf variant gemm_leaf: only "
                            "inner variants compute scalars\n");
}

TEST(BuilderOnlyRules, VariantOfUndefinedTask) {
    auto p = gemm_example();
    ir::Variant &leaf = variant(p, "clear_leaf");
    leaf.task = "zero";
    // Locations come from the example as parsed, so edits to it do not break the test.
    const auto &dispatch = p.mapping.find_instance("clear_warp")->dispatch.at(0);
    const auto &loop = std::get<ir::Loop>(variant(p, "clear_lanes").body.back().node);
    EXPECT_EQ(errors_of(p), loc_text(leaf.loc) +
                                ": error: variant clear_leaf is of undefined task 'zero'\n" +
                                loc_text(dispatch.loc) +
                                ": error: instance clear_warp dispatches the prange launch of "
                                "clear at " +
                                loc_text(loop.body.at(0).loc()) +
                                " to instance clear_thread, whose variant clear_leaf implements "
                                "task zero, not clear\n");
}

Result<TaskTree> instantiate_text(const std::string &text, const Sizes &sizes = {}) {
    return instantiate(parse(text, "ok.kiln"), sizes);
}

// Reductions commute, so parallel iterations may combine into the same tensor.
TEST(AcceptedPrograms, ParallelReductionsIntoOneTensor) {
    auto tree = instantiate_text(R"(
program colsums
sizes M = 256, N = 64
task colsums(r: reduce(+) f32[N], S: read f32[M, N])
variant host of colsums inner {
  let Sp = blocks(S, [64, N])
  prange i in [Sp.grid[0]] {
    launch colsums(r, Sp[i, 0])
  }
}
variant leaf of colsums leaf {
  colsum(r, S)
}
mapping {
  instance h : host @ HOST {
    mem r = GLOBAL, S = GLOBAL
    dispatch colsums -> b
  }
  instance b : leaf @ BLOCK {
    mem r = GLOBAL, S = GLOBAL
  }
  entry h
}
)");
    ASSERT_TRUE(tree.ok()) << tree.error_text();
    EXPECT_EQ(tree->root.children.at(0).find_tensor("r")->shape, (ir::Shape{64}));
}

// A tensor created inside a prange body is a fresh tensor in every iteration: writing all of it
// does not alias.
TEST(AcceptedPrograms, TensorsCreatedInAPrangeBodyArePerIteration) {
    auto tree = instantiate_text(R"(
program staged
sizes M = 256, N = 64
task rows(D: write f32[M, N], S: read f32[M, N])
variant host of rows inner {
  let Dp = blocks(D, [64, N])
  let Sp = blocks(S, [64, N])
  prange i in [Dp.grid[0]] {
    let T = tensor f32[64, N]
    launch rows(T, Sp[i, 0])
    launch rows(Dp[i, 0], T)
  }
}
variant leaf of rows leaf {
  copy(D, S)
}
mapping {
  instance h : host @ HOST {
    mem D = GLOBAL, S = GLOBAL, T = GLOBAL
    dispatch rows -> b
  }
  instance b : leaf @ BLOCK {
    mem D = GLOBAL, S = GLOBAL
  }
  entry h
}
)");
    ASSERT_TRUE(tree.ok()) << tree.error_text();
    EXPECT_EQ(tree->root.find_created("T")->shape, (ir::Shape{64, 64}));
    EXPECT_EQ(tree->root.children.size(), 2u);
}

// A write-only parameter may be read back once the leaf has written it.
TEST(AcceptedPrograms, LeafReadsWhatItWrote) {
    auto tree = instantiate_text(R"(
program twice
sizes M = 64, N = 64
task twice(D: write f32[M, N], S: read f32[M, N], s: f32)
variant leaf of twice leaf {
  copy(D, S)
  add(D, D, S)
  scale(D, D, s)
}
mapping {
  instance h : leaf @ HOST {
    mem D = GLOBAL, S = GLOBAL
  }
  entry h
}
)");
    EXPECT_TRUE(tree.ok()) << tree.error_text();
}

// Scalar arguments known statically flow into the child, where they may size tiles.
TEST(AcceptedPrograms, StaticScalarArgumentsSizeTiles) {
    auto tree = instantiate_text(R"(
program tiles
sizes M = 256, N = 64
task part(D: write f32[M, N], S: read f32[M, N], rows: i32)
variant host of part inner {
  launch part(D, S, M / 4)
}
variant split of part inner {
  let Dp = blocks(D, [rows, N])
  let Sp = blocks(S, [rows, N])
  prange i in [Dp.grid[0]] {
    launch part(Dp[i, 0], Sp[i, 0], rows)
  }
}
variant leaf of part leaf {
  copy(D, S)
}
mapping {
  instance h : host @ HOST {
    mem D = GLOBAL, S = GLOBAL
    dispatch part -> s
  }
  instance s : split @ HOST {
    mem D = GLOBAL, S = GLOBAL
    dispatch part -> b
  }
  instance b : leaf @ BLOCK {
    mem D = GLOBAL, S = GLOBAL
  }
  entry h
}
)");
    ASSERT_TRUE(tree.ok()) << tree.error_text();
    const TaskNode &split = tree->root.children.at(0);
    EXPECT_EQ(split.scalars.at(0).value->i, 64);
    EXPECT_EQ(split.find_partition("Dp")->shape.grid, (ir::Shape{4, 1}));
    EXPECT_EQ(split.children.at(0).find_tensor("D")->shape, (ir::Shape{64, 64}));
}

TEST(ProcessorFit, ExactLevelsNeedExactCounts) {
    const auto &m = mapping::hopper();
    using ir::Level;
    EXPECT_EQ(prange_misfit(m, Level::Warpgroup, Level::Warp, 4), std::nullopt);
    EXPECT_EQ(prange_misfit(m, Level::Warpgroup, Level::Warp, 2),
              "a WARPGROUP holds exactly 4 WARP processors");
    EXPECT_EQ(prange_misfit(m, Level::Warp, Level::Thread, 32), std::nullopt);
    // Skipping a level multiplies the exact counts.
    EXPECT_EQ(prange_misfit(m, Level::Warpgroup, Level::Thread, 128), std::nullopt);
    EXPECT_EQ(prange_misfit(m, Level::Warpgroup, Level::Thread, 32),
              "a WARPGROUP holds exactly 128 THREAD processors");
}

TEST(ProcessorFit, BoundedLevelsTakeWholeGroups) {
    const auto &m = mapping::hopper();
    using ir::Level;
    EXPECT_EQ(prange_misfit(m, Level::Block, Level::Warpgroup, 3), std::nullopt);
    EXPECT_EQ(prange_misfit(m, Level::Block, Level::Warpgroup, 5),
              "a BLOCK holds at most 4 WARPGROUP processors");
    EXPECT_EQ(prange_misfit(m, Level::Block, Level::Warp, 8), std::nullopt);
    EXPECT_EQ(prange_misfit(m, Level::Block, Level::Warp, 6),
              "a BLOCK holds WARP processors in groups of 4");
    EXPECT_EQ(prange_misfit(m, Level::Block, Level::Warp, 20),
              "a BLOCK holds at most 16 WARP processors");
    EXPECT_EQ(prange_misfit(m, Level::Host, Level::Block, 100000), std::nullopt);
}

} // namespace
} // namespace kiln::passes::testing
