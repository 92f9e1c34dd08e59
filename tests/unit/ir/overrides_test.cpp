// Command-line overrides of a parsed program (src/ir/overrides.h) on examples/gemm.kiln, whose
// mapping declares U, V (gemm_host), W (gemm_block) and G in three instances.
#include "ir/overrides.h"
#include "ir/parser.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

Program gemm() {
    auto p = parse_file(KILN_SOURCE_DIR "/examples/gemm.kiln");
    EXPECT_TRUE(p.ok()) << p.error_text();
    return std::move(p).value();
}

std::optional<int64_t> tunable(const Program& p, const std::string& instance,
                               const std::string& name) {
    const auto* inst = p.mapping.find_instance(instance);
    const auto* t = inst ? inst->find_tunable(name) : nullptr;
    return t ? std::optional<int64_t>(t->value) : std::nullopt;
}

Result<Program> with(const Overrides& o) {
    return apply_overrides(gemm(), o);
}

TEST(Overrides, TunableByNameSetsEveryInstanceThatDeclaresIt) {
    auto p = with({.tunables = {{std::nullopt, "G", 1}}});
    ASSERT_TRUE(p.ok()) << p.error_text();
    for (const char* inst : {"gemm_tile", "clear_block", "store_block"})
        EXPECT_EQ(tunable(*p, inst, "G"), 1) << inst;
    EXPECT_EQ(tunable(*p, "gemm_host", "U"), 128);
}

TEST(Overrides, QualifiedTunableSetsOneInstance) {
    auto p = with({.tunables = {{"gemm_tile", "G", 1}, {"gemm_host", "V", 64}}});
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(tunable(*p, "gemm_tile", "G"), 1);
    EXPECT_EQ(tunable(*p, "clear_block", "G"), 2);
    EXPECT_EQ(tunable(*p, "gemm_host", "V"), 64);
}

TEST(Overrides, UnknownTunableNamesWhatExists) {
    auto p = with({.tunables = {{std::nullopt, "X", 3}}});
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.errors()[0].message, "--tunable X=3: no instance's variant declares a tunable 'X' "
                                     "(tunables: U, V, W, G)");
}

TEST(Overrides, TunableTheInstanceDoesNotDeclareIsAnErrorAtTheInstance) {
    auto p = with({.tunables = {{"gemm_host", "G", 3}}});
    ASSERT_FALSE(p.ok());
    EXPECT_TRUE(p.errors()[0].loc.known());
    EXPECT_EQ(p.errors()[0].message, "--tunable gemm_host.G=3: variant 'matmul_host' of instance "
                                     "'gemm_host' declares no tunable 'G' (it declares: U, V)");
    auto q = with({.tunables = {{"nope", "G", 3}}});
    ASSERT_FALSE(q.ok());
    EXPECT_NE(q.errors()[0].message.find("no mapping instance 'nope' (instances: gemm_host,"),
              std::string::npos);
}

TEST(Overrides, PipelineDepth) {
    auto p = with({.pipelines = {{"gemm_block", 6}}});
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(p->mapping.find_instance("gemm_block")->pipeline, 6);
    EXPECT_FALSE(with({.pipelines = {{"gemm_blok", 6}}}).ok());
}

TEST(Overrides, DTypeRetypesParametersAndLocalTensorsOfThatTypeOnly) {
    auto p = with({.dtypes = {{DType::BF16, DType::F16}}});
    ASSERT_TRUE(p.ok()) << p.error_text();
    for (const auto& task : p->tasks)
        for (const auto& param : task.params)
            EXPECT_NE(param.dtype, DType::BF16) << task.name << "." << param.name;
    const auto* clear = p->find_task("clear"); // the f32 accumulator stays f32
    ASSERT_NE(clear, nullptr);
    EXPECT_EQ(clear->params[0].dtype, DType::F32);
    const auto* matmul = p->find_task("matmul");
    EXPECT_EQ(matmul->params[1].dtype, DType::F16);
}

TEST(Overrides, DTypeTheProgramDoesNotUseIsAnError) {
    auto p = with({.dtypes = {{DType::F8E4M3, DType::F16}}});
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.errors()[0].message, "--dtype f8e4m3=f16: program 'gemm' has no f8e4m3 tensor");
}

TEST(Overrides, ClusterGoesThroughTheMappingsClusterRule) {
    auto p = with({.cluster = 2});
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(p->mapping.find_instance("gemm_block")->cluster, 2);
    auto q = with({.cluster = 3});
    ASSERT_FALSE(q.ok());
    EXPECT_EQ(q.errors()[0].message.rfind("--cluster: ", 0), 0u) << q.errors()[0].message;
}

TEST(Overrides, EveryErrorIsReportedAndTheInputIsUnchanged) {
    Program original = gemm();
    auto p =
        apply_overrides(original, {.tunables = {{std::nullopt, "X", 1}, {std::nullopt, "G", 1}},
                                   .pipelines = {{"nope", 2}}});
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.errors().size(), 2u);
    EXPECT_EQ(tunable(original, "gemm_tile", "G"), 2);
}

TEST(Overrides, ParsesTheCommandLineSpellings) {
    auto t = parse_tunable_override("gemm_tile.G=1");
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->instance, "gemm_tile");
    EXPECT_EQ(t->name, "G");
    EXPECT_EQ(t->value, 1);
    EXPECT_FALSE(parse_tunable_override("V=0").ok());
    EXPECT_FALSE(parse_tunable_override("V=12x").ok());
    EXPECT_FALSE(parse_tunable_override(".V=2").ok());
    EXPECT_FALSE(parse_tunable_override("V").ok());
    auto p = parse_pipeline_override("gemm_block=6");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->depth, 6);
    EXPECT_FALSE(parse_pipeline_override("gemm_block=").ok());
    auto d = parse_dtype_override("bf16=f16");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->to, DType::F16);
    EXPECT_EQ(parse_dtype_override("bf16=half").errors()[0].message,
              "--dtype expects FROM=TO with element types (f32, f16, bf16, f8e4m3, f8e5m2, i32), "
              "got 'bf16=half'");
}

} // namespace
} // namespace kiln::ir
