// The interpreter on small hand-written programs: leaf-op semantics, poison, and diagnostics for
// programs it cannot run (it never crashes, verified or not).
#include "interp/compare.h"
#include "interp/externals.h"
#include "interp/interpreter.h"
#include "interp/reference.h"
#include "ir/parser.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kiln::interp {
namespace {

ir::Program parse(const std::string& text) {
    auto p = ir::parse_program(text, "test.kiln");
    EXPECT_TRUE(p.ok()) << p.error_text();
    return p.ok() ? *p : ir::Program{};
}

// A one-task program whose leaf at HOST runs `body` on Y (write f32[M, N]) and X (read f32[M, N]).
std::string leaf_program(const std::string& body) {
    return "program t\nsizes M = 2, N = 8\n"
           "task t(Y: write f32[M, N], X: read f32[M, N])\n"
           "variant t_leaf of t leaf {\n" +
           body +
           "\n}\n"
           "mapping {\n  instance h : t_leaf @ HOST {\n    mem Y = GLOBAL, X = GLOBAL\n  }\n"
           "  entry h\n}\n";
}

Result<TensorMap> run_leaf(const std::string& body, TensorMap* inputs = nullptr) {
    const ir::Program p = parse(leaf_program(body));
    auto sizes = resolve_sizes(p, {});
    EXPECT_TRUE(sizes.ok()) << sizes.error_text();
    auto in = make_inputs(p, *sizes, 5);
    EXPECT_TRUE(in.ok()) << in.error_text();
    if (inputs)
        *inputs = *in;
    return run(p, *sizes, *in);
}

TEST(Interpreter, WriteParametersStartAsPoison) {
    TensorMap in;
    auto out = run_leaf("fill(Y, 0.0)", &in);
    ASSERT_TRUE(out.ok()) << out.error_text();
    EXPECT_TRUE(std::isnan(in.at("Y").data[0]));
    EXPECT_EQ(out->at("Y").data[3], 0.0);
    EXPECT_EQ(out->at("X").data, in.at("X").data); // read parameters are not touched
}

TEST(Interpreter, RowReductionsPropagatePoison) {
    auto out = run_leaf("let r = tensor f32[M]\nrowmax(r, X)\nsub(Y, X, r)");
    ASSERT_TRUE(out.ok()) << out.error_text();
    for (double v : out->at("Y").data)
        EXPECT_TRUE(std::isnan(v)); // r was never filled
}

TEST(Interpreter, BroadcastsOneValuePerRow) {
    TensorMap in;
    auto out = run_leaf("let r = tensor f32[M]\nfill(r, -inf)\nrowmax(r, X)\nsub(Y, X, r)", &in);
    ASSERT_TRUE(out.ok()) << out.error_text();
    const auto& x = in.at("X").data;
    const auto& y = out->at("Y").data;
    for (int i = 0; i < 2; ++i) {
        double mx = *std::max_element(x.begin() + 8 * i, x.begin() + 8 * i + 8);
        for (int j = 0; j < 8; ++j)
            EXPECT_EQ(y[8 * i + j], double(float(x[8 * i + j] - mx)));
    }
}

TEST(Interpreter, MaskUsesRootCoordinates) {
    auto out = run_leaf("fill(Y, 1.0)\nmask(Y, 4, 2, 9, 1)");
    ASSERT_TRUE(out.ok()) << out.error_text();
    const auto& y = out->at("Y").data;
    // col0 + j > row0 + i masks j > 2 + i; col0 + j >= 9 masks j >= 7.
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 8; ++j)
            EXPECT_EQ(y[8 * i + j], (j > 2 + i || j >= 7) ? -INFINITY : 1.0) << i << "," << j;
}

TEST(Interpreter, MmaRoundsTheRunningSumToTheAccumulatorType) {
    // 1 + 2^-11 + 2^-11 in f16: each addition ties back to 1, so the sum stays 1 (a float64 sum
    // rounded once would give 1 + 2^-10).
    const std::string text =
        "program t\nsizes K = 3\n"
        "task t(C: write f16[1, 1], A: read f16[1, K], B: read f16[K, 1])\n"
        "variant t_leaf of t leaf {\n  fill(C, 0.0)\n  mma(C, A, B)\n}\n"
        "mapping {\n  instance h : t_leaf @ HOST {\n    mem C = GLOBAL, A = GLOBAL, B = GLOBAL\n"
        "  }\n  entry h\n}\n";
    const ir::Program p = parse(text);
    TensorMap in;
    in["C"] = HostTensor::poison(ir::DType::F16, {1, 1});
    in["A"] = HostTensor{ir::DType::F16, {1, 3}, {1.0, std::ldexp(1.0, -11), std::ldexp(1.0, -11)}};
    in["B"] = HostTensor::filled(ir::DType::F16, {3, 1}, 1.0);
    auto out = run(p, {{"K", 3}}, in);
    ASSERT_TRUE(out.ok()) << out.error_text();
    EXPECT_EQ(out->at("C").data[0], 1.0);
}

TEST(Interpreter, UnknownExternalIsADiagnostic) {
    auto out = run_leaf("call_external(\"no_such_fn\", Y, X)");
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error_text().find("test.kiln:5:1"), std::string::npos) << out.error_text();
    EXPECT_NE(out.error_text().find("no CPU version of 'no_such_fn' (known: kiln_swiglu)"),
              std::string::npos)
        << out.error_text();
}

TEST(Interpreter, SwigluExternal) {
    TensorMap in;
    auto out = run_leaf("call_external(\"kiln_swiglu\", Y, X, X)", &in);
    ASSERT_TRUE(out.ok()) << out.error_text();
    const double x = in.at("X").data[0];
    EXPECT_EQ(out->at("Y").data[0], double(float(x / (1 + std::exp(-x)) * x)));
}

TEST(Interpreter, OperandShapeMismatchIsADiagnostic) {
    auto out = run_leaf("let r = tensor f32[N]\nrowsum(r, X)");
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error_text().find("rowsum: destination [8] needs one element per row of [2, 8]"),
              std::string::npos)
        << out.error_text();
}

// srange k in [4] limit L runs min(4, max(L, 0)) iterations: the rows of the skipped blocks
// keep their poison.
TEST(Interpreter, LoopLimitStopsTheLoopEarly) {
    for (const auto& [limit, filled] : std::vector<std::pair<std::string, int>>{
             {"M / 2 - 1", 3}, {"9", 4}, {"0 - 2", 0}}) {
        SCOPED_TRACE(limit);
        const ir::Program p = parse(
            "program t\nsizes M = 8\ntask t(Y: write f32[M])\ntask f(Y: write f32[R])\n"
            "variant t_loop of t inner {\n  let Yp = blocks(Y, [2])\n"
            "  srange k in [Yp.grid[0]] limit " +
            limit +
            " {\n    launch f(Yp[k])\n  }\n}\n"
            "variant f_leaf of f leaf {\n  fill(Y, 1.0)\n}\n"
            "mapping {\n  instance h : t_loop @ HOST {\n    mem Y = GLOBAL\n"
            "    dispatch f -> l\n  }\n  instance l : f_leaf @ HOST {\n    mem Y = GLOBAL\n"
            "  }\n  entry h\n}\n");
        auto sizes = resolve_sizes(p, {});
        ASSERT_TRUE(sizes.ok()) << sizes.error_text();
        auto in = make_inputs(p, *sizes, 5);
        ASSERT_TRUE(in.ok()) << in.error_text();
        auto out = run(p, *sizes, *in);
        ASSERT_TRUE(out.ok()) << out.error_text();
        const auto& y = out->at("Y").data;
        for (int r = 0; r < 8; ++r)
            EXPECT_EQ(std::isnan(y[r]), r >= 2 * filled) << "row " << r;
    }
}

TEST(Interpreter, DispatchCycleIsADiagnostic) {
    const ir::Program p = parse("program t\nsizes M = 4\ntask t(Y: write f32[M])\n"
                                "variant t_loop of t inner {\n  launch t(Y)\n}\n"
                                "mapping {\n  instance h : t_loop @ HOST {\n    mem Y = GLOBAL\n"
                                "    dispatch t -> h\n  }\n  entry h\n}\n");
    auto in = make_inputs(p, {{"M", 4}}, 1);
    ASSERT_TRUE(in.ok());
    auto out = run(p, {{"M", 4}}, *in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error_text().find("dispatch in a cycle"), std::string::npos) << out.error_text();
}

TEST(Interpreter, MissingDispatchAndShapeConflictsAreDiagnostics) {
    const std::string head = "program t\nsizes M = 4\ntask t(Y: write f32[M])\n"
                             "task u(Y: write f32[8])\n"
                             "variant t_inner of t inner {\n  launch u(Y)\n}\n"
                             "variant u_leaf of u leaf {\n  fill(Y, 1.0)\n}\n";
    const ir::Program missing = parse(head + "mapping {\n  instance h : t_inner @ HOST {\n"
                                             "    mem Y = GLOBAL\n  }\n  entry h\n}\n");
    auto in = make_inputs(missing, {{"M", 4}}, 1);
    auto out = run(missing, {{"M", 4}}, *in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error_text().find("instance h has no dispatch for the launch of u"),
              std::string::npos)
        << out.error_text();
    const ir::Program wrong = parse(head + "mapping {\n  instance h : t_inner @ HOST {\n"
                                           "    mem Y = GLOBAL\n    dispatch u -> v\n  }\n"
                                           "  instance v : u_leaf @ BLOCK {\n    mem Y = GLOBAL\n"
                                           "  }\n  entry h\n}\n");
    out = run(wrong, {{"M", 4}}, *in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error_text().find("task u parameter Y: dimension 0 (8 = 8) does not match the "
                                    "argument's shape [4]"),
              std::string::npos)
        << out.error_text();
}

TEST(Interpreter, EntryTensorsMustMatchTheSizes) {
    const ir::Program p = parse(leaf_program("fill(Y, 0.0)"));
    auto in = make_inputs(p, {{"M", 2}, {"N", 8}}, 1);
    ASSERT_TRUE(in.ok());
    auto out = run(p, {{"M", 3}, {"N", 8}}, *in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error_text().find("expects f32[3, 8], the tensor given is f32[2, 8]"),
              std::string::npos)
        << out.error_text();
}

TEST(Reference, UnknownReferenceAndBadShapesAreDiagnostics) {
    ir::Program p = parse(leaf_program("fill(Y, 0.0)"));
    auto in = make_inputs(p, {{"M", 2}, {"N", 8}}, 1);
    p.reference = ir::Reference{"gemm", {{"Y", {}}, {"X", {}}, {"X", {}}}, {}};
    auto ref = run_reference(p, {}, *in);
    ASSERT_FALSE(ref.ok());
    EXPECT_NE(ref.error_text().find("do not agree"), std::string::npos) << ref.error_text();
    p.reference->name = "fft";
    EXPECT_NE(run_reference(p, {}, *in).error_text().find("unknown reference 'fft'"),
              std::string::npos);
}

TEST(Compare, CountsNaNAndMeasuresRelativeError) {
    TensorMap out, ref;
    out["C"] = HostTensor{ir::DType::F32, {3}, {1.0, 2.0, NAN}};
    ref["C"] = HostTensor{ir::DType::F32, {3}, {1.0, 2.5, 3.0}};
    const auto cs = compare(out, ref);
    ASSERT_EQ(cs.size(), 1u);
    EXPECT_EQ(cs[0].nan_count, 1);
    EXPECT_DOUBLE_EQ(cs[0].max_abs_error, 0.5);
    EXPECT_DOUBLE_EQ(cs[0].rel_error, 0.5 / std::sqrt(1.0 + 6.25));
    EXPECT_FALSE(cs[0].passed(1.0));
    EXPECT_EQ(compare({}, ref)[0].nan_count, 3); // a missing output fails too
}

} // namespace
} // namespace kiln::interp
