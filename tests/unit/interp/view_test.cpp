#include "interp/view.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace kiln::interp {
namespace {

ir::PartitionSpec blocks(std::vector<std::optional<int64_t>> tile, ir::Remainder r) {
    ir::PartitionSpec s;
    s.blocks.tile = std::move(tile);
    s.blocks.remainder = r;
    return s;
}

View piece_of(const View& v, const ir::PartitionSpec& spec, const ir::Shape& index) {
    auto shape = ir::partition_shape(spec, v.shape(), "T", {});
    EXPECT_TRUE(shape.ok()) << shape.error_text();
    auto p = v.piece(spec, *shape, index, {});
    EXPECT_TRUE(p.ok()) << p.error_text();
    return *p;
}

std::shared_ptr<HostTensor> iota(ir::Shape shape) {
    auto t = std::make_shared<HostTensor>(HostTensor::poison(ir::DType::F32, std::move(shape)));
    for (int64_t i = 0; i < t->size(); ++i)
        t->data[i] = double(i);
    return t;
}

TEST(View, PaddedPieceReadsZeroAndDropsWrites) {
    auto t = iota({5, 3});
    View v = View::whole(t);
    View p = piece_of(v, blocks({4, 3}, ir::Remainder::Pad), {1, 0});
    ASSERT_EQ(p.shape(), (ir::Shape{4, 3}));
    EXPECT_EQ(read_all(p), (std::vector<double>{12, 13, 14, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    write_all(p, std::vector<double>(12, -1.0));
    EXPECT_EQ(t->data[12], -1.0);
    EXPECT_EQ(t->data[11], 11.0); // the row before the piece is untouched
    EXPECT_EQ(t->size(), 15);     // nothing written past the end
}

TEST(View, SqueezedBlocksPinTheBatch) {
    auto t = iota({3, 2, 4});
    View p = piece_of(View::whole(t), blocks({std::nullopt, 2, 2}, ir::Remainder::Exact), {2, 0, 1});
    ASSERT_EQ(p.shape(), (ir::Shape{2, 2}));
    EXPECT_EQ(read_all(p), (std::vector<double>{18, 19, 22, 23}));
}

TEST(View, ChainsComposeDownToTheThreadFragment) {
    // A 16x16 accumulator: lane 5 holds rows 1 and 9, columns 8j + 2 + {0, 1}.
    auto t = iota({16, 16});
    ir::PartitionSpec lanes;
    lanes.is_mma = true;
    lanes.mma = {ir::MmaRole::Acc, ir::Level::Thread, 0};
    View p = piece_of(View::whole(t), lanes, {5});
    ASSERT_EQ(p.shape(), (ir::Shape{2, 4}));
    EXPECT_EQ(read_all(p), (std::vector<double>{18, 19, 26, 27, 146, 147, 154, 155}));
    EXPECT_EQ(p.root_coord(0, 1), 9);
    EXPECT_EQ(p.root_coord(1, 2), 10);
}

TEST(View, IndexOutsideTheGridIsADiagnostic) {
    View v = View::whole(iota({4, 4}));
    auto spec = blocks({2, 2}, ir::Remainder::Exact);
    auto shape = ir::partition_shape(spec, v.shape(), "T", {});
    ASSERT_TRUE(shape.ok());
    auto p = v.piece(spec, *shape, {2, 0}, {});
    ASSERT_FALSE(p.ok());
    EXPECT_NE(p.error_text().find("outside the partition grid [2, 2]"), std::string::npos);
}

} // namespace
} // namespace kiln::interp
