// Host tensors to device bytes and back are exact for every value of the dtype, NaN included.
#include "runtime/tensor_bytes.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kiln::runtime {
namespace {

void expect_round_trip(ir::DType t, const std::vector<double>& values) {
    interp::HostTensor h = interp::HostTensor::filled(t, {static_cast<int64_t>(values.size())}, 0);
    for (std::size_t i = 0; i < values.size(); ++i)
        h.store(static_cast<int64_t>(i), values[i]);
    auto bytes = to_bytes(h);
    ASSERT_TRUE(bytes.ok()) << bytes.error_text();
    EXPECT_EQ(bytes->size(), values.size() * ir::dtype_bytes(t));
    auto back = from_bytes(t, h.shape, *bytes);
    ASSERT_TRUE(back.ok()) << back.error_text();
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (std::isnan(h.data[i]))
            EXPECT_TRUE(std::isnan(back->data[i])) << ir::spelling(t) << " element " << i;
        else
            EXPECT_EQ(back->data[i], h.data[i]) << ir::spelling(t) << " element " << i;
    }
}

TEST(TensorBytes, ExactRoundTripPerDtype) {
    const std::vector<double> values = {0.0,     -0.0,  1.0,     -1.5,    0.333333, 3.0e-5,
                                        6.0e-8,  -7e4,  65504.0, 1.0e30,  NAN,      -2.75e-3,
                                        0.99951, 123.0, 1.0e-40, -1.0e-7, INFINITY};
    for (auto t : {ir::DType::BF16, ir::DType::F16, ir::DType::F32})
        expect_round_trip(t, values);
    expect_round_trip(ir::DType::I32, {0, 1, -7, 2147483647, NAN});
}

TEST(TensorBytes, KnownBitPatterns) {
    interp::HostTensor h = interp::HostTensor::filled(ir::DType::BF16, {1}, 1.0);
    EXPECT_EQ(*to_bytes(h), (std::vector<char>{char(0x80), char(0x3f)}));
    h = interp::HostTensor::filled(ir::DType::F16, {1}, -2.0);
    EXPECT_EQ(*to_bytes(h), (std::vector<char>{char(0x00), char(0xc0)}));
}

TEST(TensorBytes, RefusesFp8AndWrongSizes) {
    auto f8 = to_bytes(interp::HostTensor::filled(ir::DType::F8E4M3, {2}, 1.0));
    EXPECT_NE(f8.error_text().find("does not move f8e4m3"), std::string::npos) << f8.error_text();
    auto short_bytes = from_bytes(ir::DType::F32, {4}, std::vector<char>(8));
    EXPECT_NE(short_bytes.error_text().find("does not match its shape [4]"), std::string::npos)
        << short_bytes.error_text();
}

} // namespace
} // namespace kiln::runtime
