// sm90_view_ok: the rules the sm90 kernel puts on an operand view, which contract's planner
// checks before choosing a layout and make_operand_map checks again at launch.
#include "kiln/gemm/views.h"

#include <gtest/gtest.h>

namespace {

using kiln::gemm::OperandView;
using kiln::gemm::sm90_view_ok;

TEST(Sm90View, PlainMatricesInEitherOrder) {
    EXPECT_TRUE(sm90_view_ok(OperandView::matrix(nullptr, 300, 136, 136, false, 0), 2));
    EXPECT_TRUE(sm90_view_ok(OperandView::matrix(nullptr, 300, 136, 304, true, 0), 2));
}

TEST(Sm90View, RowStridesMustBeWholeSixteenByteUnits) {
    // K = 100 bf16 elements: a 200-byte row stride
    EXPECT_FALSE(sm90_view_ok(OperandView::matrix(nullptr, 64, 100, 100, false, 0), 2));
    EXPECT_TRUE(sm90_view_ok(OperandView::matrix(nullptr, 64, 100, 104, false, 0), 2));
    // a batch stride too, when there is one
    EXPECT_FALSE(sm90_view_ok(OperandView::matrix(nullptr, 64, 64, 64, false, 64 * 64 + 4), 2));
}

TEST(Sm90View, TheContiguousModeComesFirst) {
    OperandView v = OperandView::matrix(nullptr, 64, 64, 64, false, 0);
    v.k_stride[0] = 2;  // no mode of stride 1
    EXPECT_FALSE(sm90_view_ok(v, 2));
}

TEST(Sm90View, TwoModeGroupsNeedWholeChunksInside) {
    OperandView v = OperandView::matrix(nullptr, 64, 128, 128, false, 0);
    v.rows[1] = 4, v.row_stride[1] = 64 * 128;  // 64-row inner mode: whole chunks
    EXPECT_TRUE(sm90_view_ok(v, 2));
    v.rows[0] = 48;  // a 64-row chunk would straddle the outer mode
    EXPECT_FALSE(sm90_view_ok(v, 2));
    OperandView k = OperandView::matrix(nullptr, 128, 32, 32, false, 0);
    k.ks[1] = 4, k.k_stride[1] = 128 * 32;  // k-block of 64 bf16 straddles a 32-wide inner K mode
    EXPECT_FALSE(sm90_view_ok(k, 2));
    k.ks[0] = 64, k.row_stride[0] = 64, k.k_stride[1] = 128 * 64;
    EXPECT_TRUE(sm90_view_ok(k, 2));
}

TEST(Sm90View, EightBitOperandsAreKMajor) {
    EXPECT_TRUE(sm90_view_ok(OperandView::matrix(nullptr, 128, 256, 256, false, 0), 1));
    EXPECT_FALSE(sm90_view_ok(OperandView::matrix(nullptr, 128, 256, 256, true, 0), 1));
}

}  // namespace
