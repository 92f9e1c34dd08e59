// plan_contraction: how contract() views a GETT contraction as one GEMM, and which operand it
// copies first where the tensors' own layout cannot be read or would scatter D's stores.
#include "kiln/gemm/contract_plan.h"

#include <gtest/gtest.h>

#include <climits>
#include <map>
#include <string>

namespace {

using kiln::gemm::gett::gemm_order;
using kiln::gemm::gett::pair_tiles;
using kiln::gemm::gett::plan_contraction;
using kiln::gemm::gett::view_as_gemm;

constexpr int kBf16 = 2;

/// Extents indexed by mode letter, as contract() takes them.
struct Extents {
    int e[26];
    Extents(std::map<char, int> m) {
        for (int& x : e) x = 1;
        for (auto [c, n] : m) e[c - 'a'] = n;
    }
};

TEST(ContractPlan, PaperCaseRunsOnTheTensorsAsTheyAre) {
    // abc = bda * dc (TCCG 1): A's free modes a, b fold into one MN-major row mode pair, D's
    // contiguous c indexes columns.
    const Extents x({{'a', 64}, {'b', 32}, {'c', 2048}, {'d', 2048}});
    const auto p = plan_contraction("abc", "bda", "dc", x.e, kBf16);
    ASSERT_TRUE(p.ok());
    EXPECT_FALSE(p.copy_a);
    EXPECT_FALSE(p.copy_b);
    EXPECT_EQ(p.view.M, 64 * 32);
    EXPECT_EQ(p.view.N, 2048);
    EXPECT_EQ(p.view.K, 2048);
    EXPECT_TRUE(p.view.va.mn_major);
    EXPECT_TRUE(p.view.contiguous_columns());
    EXPECT_FALSE(pair_tiles(p.view));  // B (d x c) is one MN-major mode
}

TEST(ContractPlan, TransposedTwoModeBPairsItsTiles) {
    // abc = ad * bdc: B's free modes (c, b) are two MN-major row modes, read in 64-row chunks.
    const Extents x({{'a', 2048}, {'b', 32}, {'c', 64}, {'d', 2048}});
    const auto p = plan_contraction("abc", "ad", "bdc", x.e, kBf16);
    ASSERT_TRUE(p.ok());
    EXPECT_TRUE(p.view.vb.mn_major);
    EXPECT_EQ(p.view.vb.rows[0], 64);
    EXPECT_EQ(p.view.vb.rows[1], 32);
    EXPECT_TRUE(pair_tiles(p.view));
}

TEST(ContractPlan, OperandsThatDisagreeOnKCopyTheSmallerOne) {
    // ab = acd * dbc: A runs k as (c, d) with d contiguous, B as (d, c) with c contiguous, so no
    // view reads both; B (d x b x c) is copied to b x c x d, K-major with A's k order.
    const Extents x({{'a', 2048}, {'b', 2048}, {'c', 32}, {'d', 64}});
    EXPECT_FALSE(view_as_gemm("ab", "acd", "dbc", x.e, kBf16).ok);
    const auto p = plan_contraction("ab", "acd", "dbc", x.e, kBf16);
    ASSERT_TRUE(p.ok());
    EXPECT_FALSE(p.copy_a);
    EXPECT_TRUE(p.copy_b);
    EXPECT_EQ(p.b, "bcd");
    EXPECT_FALSE(p.view.vb.mn_major);
    EXPECT_EQ(p.view.vb.ks[0], 32 * 64);  // one K mode: the copy's k runs as A's
    EXPECT_EQ(p.view.K, 2048);
}

TEST(ContractPlan, ScatteredOutputColumnsCopyTheOperandOwningThem) {
    // abc = dca * bd: D's contiguous c comes from A, whose contiguous mode is a; viewed as it
    // is, neighbouring columns of D are 131072 elements apart. A copied to a x c x d puts c
    // inner among the columns.
    const Extents x({{'a', 32}, {'b', 2048}, {'c', 64}, {'d', 2048}});
    const auto direct = view_as_gemm("abc", "dca", "bd", x.e, kBf16);
    ASSERT_TRUE(direct.ok);
    EXPECT_FALSE(direct.contiguous_columns());
    const auto p = plan_contraction("abc", "dca", "bd", x.e, kBf16);
    ASSERT_TRUE(p.ok());
    EXPECT_TRUE(p.copy_a);
    EXPECT_FALSE(p.copy_b);
    EXPECT_EQ(p.a, "acd");
    EXPECT_TRUE(p.view.swapped);  // D's contiguous mode is in the contraction's A
    EXPECT_TRUE(p.view.contiguous_columns());
    EXPECT_EQ(p.view.vd.c0, 64);  // columns (c, a): c contiguous, a outer
    EXPECT_EQ(p.view.vd.cs1, 2048 * 64);
}

TEST(ContractPlan, PlainMatricesNeedNoCopy) {
    const Extents x({{'m', 300}, {'n', 200}, {'k', 136}});
    const auto p = plan_contraction("mn", "mk", "kn", x.e, kBf16);
    ASSERT_TRUE(p.ok());
    EXPECT_FALSE(p.copy_a || p.copy_b);
    EXPECT_TRUE(p.view.vb.mn_major);  // B stored K x N
}

TEST(ContractPlan, UnviewableEvenAfterACopyIsLeftToTheGenericKernel) {
    // K = 5 * 3: no copy makes a K-major row a multiple of 16 bytes.
    const Extents x({{'a', 40}, {'b', 24}, {'c', 5}, {'d', 3}});
    EXPECT_FALSE(plan_contraction("ab", "acd", "dbc", x.e, kBf16).ok());
}

TEST(ContractPlan, InvalidSpecsHaveNoView) {
    const Extents x({{'a', 64}, {'b', 64}, {'c', 64}});
    EXPECT_FALSE(view_as_gemm("ab", "ac", "cab", x.e, kBf16).ok);  // a in both operands and D
    EXPECT_FALSE(view_as_gemm("ab", "aac", "cb", x.e, kBf16).ok);  // a twice in A
    EXPECT_FALSE(view_as_gemm("ab", "ac", "b", x.e, kBf16).ok);    // c reduced in A alone
}

TEST(ContractPlan, CopyOrderFollowsDThenThePartner) {
    EXPECT_EQ(gemm_order("dca", "abc", "bd"), "acd");
    EXPECT_EQ(gemm_order("dbc", "ab", "acd"), "bcd");
    EXPECT_EQ(gemm_order("dbc", "ab", "adc"), "bdc");
}

}  // namespace
