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

// set_store_pairs: which direct stores write two elements at once.
using kiln::gemm::OutView;
using kiln::gemm::set_store_pairs;

TEST(StorePairs, RowMajorColumnsPairWhenAlignedAndEven) {
    OutView v = OutView::matrix(4096, 0);
    set_store_pairs(v, 256, 2, true);
    EXPECT_TRUE(v.pair_ok);
    EXPECT_FALSE(v.row_pair_ok);  // rows are not adjacent
    v = OutView::matrix(4097, 0);  // an odd ldc: every other row starts misaligned
    set_store_pairs(v, 256, 2, true);
    EXPECT_FALSE(v.pair_ok);
    v = OutView::matrix(4096, 0);
    set_store_pairs(v, 258, 4, true);  // an fp32 D 2 bytes off an 8-byte boundary
    EXPECT_FALSE(v.pair_ok);
}

// A transposed product's D^T (few_rows.cuh's transposed_problem) is column-major.
TEST(StorePairs, ColumnMajorSixteenBitRowsPair) {
    OutView v = OutView::column_major(4096, 0);
    set_store_pairs(v, 256, 2, true);
    EXPECT_TRUE(v.row_pair_ok);
    EXPECT_FALSE(v.pair_ok);  // columns are ldc apart
    // N odd inside an even ldc: still pairs (the last row stored alone)
    v = OutView::column_major(4002, 2 * 4002);
    set_store_pairs(v, 256, 2, true);
    EXPECT_TRUE(v.row_pair_ok);
}

TEST(StorePairs, ColumnMajorRowsStayElementWiseOtherwise) {
    OutView v = OutView::column_major(4001, 0);  // an odd ldc: every other column starts misaligned
    set_store_pairs(v, 256, 2, true);
    EXPECT_FALSE(v.row_pair_ok);
    v = OutView::column_major(4096, 4096 * 3 + 1);  // an odd batch stride
    set_store_pairs(v, 256, 2, true);
    EXPECT_FALSE(v.row_pair_ok);
    v = OutView::column_major(4096, 0);
    set_store_pairs(v, 258, 2, true);  // D 2 bytes off a 4-byte boundary
    EXPECT_FALSE(v.row_pair_ok);
    set_store_pairs(v, 256, 4, true);  // fp32: the pair store packs 16-bit values only
    EXPECT_FALSE(v.row_pair_ok);
    set_store_pairs(v, 256, 2, false);  // KILN_GEMM_COLUMN_PAIRS=0
    EXPECT_FALSE(v.row_pair_ok);
    v = OutView::column_major(4096, 0);
    v.c0 = 64, v.cs1 = 64 * 4096;  // two column modes (a GETT view): one column stride only
    set_store_pairs(v, 256, 2, true);
    EXPECT_FALSE(v.row_pair_ok);
}

}  // namespace
