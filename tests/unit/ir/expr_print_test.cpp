// Expression text: precedence, associativity, literals, and exact round trips through the parser.
#include "ir/parser.h"
#include "ir/printer.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

namespace kiln::ir {
namespace {

// Parses `expr` as the value of a scalar let in a one-statement variant.
ExprPtr parse_expr_text(const std::string& expr) {
    std::string text =
        "task t(A: read f32[4])\nvariant v of t inner {\n  let x = " + expr + "\n}\n";
    auto p = parse_program(text, "e.kiln");
    EXPECT_TRUE(p.ok()) << p.error_text();
    if (!p.ok())
        return nullptr;
    return std::get<LetScalar>(p->variants[0].body[0].node).value;
}

std::string reprint(const std::string& expr) {
    return print_expr(parse_expr_text(expr));
}

TEST(ExprPrint, PrecedenceAndAssociativity) {
    EXPECT_EQ(reprint("1 + 2 * 3"), "1 + 2 * 3");
    EXPECT_EQ(reprint("(1 + 2) * 3"), "(1 + 2) * 3");
    EXPECT_EQ(reprint("(a - b) - c"), "a - b - c");
    EXPECT_EQ(reprint("a - (b - c)"), "a - (b - c)");
    EXPECT_EQ(reprint("a - (b + c)"), "a - (b + c)");
    EXPECT_EQ(reprint("(a * b) / c"), "a * b / c");
    EXPECT_EQ(reprint("a / (b * c)"), "a / (b * c)");
    EXPECT_EQ(reprint("a % b % c"), "a % b % c");
    EXPECT_EQ(reprint("a * (b % c)"), "a * (b % c)");
    EXPECT_EQ(reprint("-(a + b)"), "-(a + b)");
    EXPECT_EQ(reprint("-a * b"), "-a * b");
    EXPECT_EQ(reprint("-(a * b)"), "-(a * b)");
    EXPECT_EQ(reprint("a - -b"), "a - -b");
    EXPECT_EQ(reprint("((x))"), "x");
    EXPECT_EQ(reprint("ceildiv(K, W)+max(a,min(b, 1))"), "ceildiv(K, W) + max(a, min(b, 1))");
    EXPECT_EQ(reprint("Ap.grid[1] * 2"), "Ap.grid[1] * 2");
}

TEST(ExprPrint, TreeShapeSurvivesTheRoundTrip) {
    auto a = name_ref("a"), b = name_ref("b"), c = name_ref("c");
    auto right_nested = binary(ExprKind::Sub, a, binary(ExprKind::Sub, b, c));
    EXPECT_EQ(print_expr(right_nested), "a - (b - c)");
    EXPECT_TRUE(equal(parse_expr_text(print_expr(right_nested)), right_nested));
    auto neg_product = neg(binary(ExprKind::Mul, a, b));
    EXPECT_EQ(print_expr(neg_product), "-(a * b)");
    EXPECT_TRUE(equal(parse_expr_text(print_expr(neg_product)), neg_product));
}

TEST(ExprPrint, NegatedLiteralsFoldIntoLiterals) {
    auto minus_three = parse_expr_text("-3");
    ASSERT_EQ(minus_three->kind, ExprKind::Int);
    EXPECT_EQ(minus_three->int_value, -3);
    auto minus_inf = parse_expr_text("-inf");
    ASSERT_EQ(minus_inf->kind, ExprKind::Float);
    EXPECT_TRUE(std::isinf(minus_inf->float_value) && minus_inf->float_value < 0);
    EXPECT_EQ(print_expr(minus_inf), "-inf");
    EXPECT_EQ(reprint("- -3"), "3");
    EXPECT_EQ(reprint("2 * -3"), "2 * -3");
}

TEST(ExprPrint, FloatLiteralsKeepAPointOrExponent) {
    EXPECT_EQ(reprint("1.0"), "1.0");
    EXPECT_EQ(reprint("0.125"), "0.125");
    EXPECT_EQ(reprint("2e-3"), "0.002");
    EXPECT_EQ(reprint("1e300"), "1e+300");
    EXPECT_EQ(reprint("1E+5"), "1e+05");
    EXPECT_EQ(reprint("inf"), "inf");
    EXPECT_EQ(parse_expr_text("1e+05")->kind, ExprKind::Float);
}

// Every double (subnormals and -0.0 included) prints to text that parses to the same bits.
TEST(ExprPrint, FloatsRoundTripExactly) {
    std::vector<double> values = {0.1,  0.1 + 0.2, 1.0 / 3, DBL_MAX,     DBL_MIN, 5e-324,
                                  -0.0, -1e-310,   1e21,    123456789.0, -2.5,    3e-5};
    std::mt19937_64 rng(42);
    for (int i = 0; i < 500; ++i) {
        uint64_t bits = rng();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        if (std::isfinite(d))
            values.push_back(d);
    }
    for (double v : values) {
        std::string text = print_expr(float_lit(v));
        ExprPtr back = parse_expr_text(text);
        ASSERT_TRUE(back && back->kind == ExprKind::Float) << text;
        EXPECT_EQ(std::memcmp(&back->float_value, &v, sizeof v), 0) << text;
    }
}

// Random trees (without negated literals, which the parser folds) survive print -> parse.
ExprPtr random_tree(std::mt19937& rng, int depth) {
    static const ExprKind kOps[] = {ExprKind::Add, ExprKind::Sub,     ExprKind::Mul, ExprKind::Div,
                                    ExprKind::Mod, ExprKind::CeilDiv, ExprKind::Min, ExprKind::Max};
    int pick = std::uniform_int_distribution<int>(0, depth <= 0 ? 2 : 11)(rng);
    if (pick == 0)
        return int_lit(rng() % 100);
    if (pick == 1)
        return name_ref(std::string(1, char('a' + rng() % 26)));
    if (pick == 2)
        return grid_ref("P", rng() % 3);
    if (pick == 3)
        return neg(name_ref("n"));
    if (pick == 4)
        return neg(random_tree(rng, depth - 1)->kind == ExprKind::Int
                       ? name_ref("m")
                       : binary(ExprKind::Add, name_ref("x"), random_tree(rng, depth - 1)));
    return binary(kOps[rng() % 8], random_tree(rng, depth - 1), random_tree(rng, depth - 1));
}

TEST(ExprPrint, RandomTreesRoundTrip) {
    std::mt19937 rng(7);
    for (int i = 0; i < 300; ++i) {
        ExprPtr e = random_tree(rng, 5);
        std::string text = print_expr(e);
        ExprPtr back = parse_expr_text(text);
        ASSERT_TRUE(back) << text;
        EXPECT_TRUE(equal(back, e)) << text << " reparsed as " << print_expr(back);
    }
}

} // namespace
} // namespace kiln::ir
