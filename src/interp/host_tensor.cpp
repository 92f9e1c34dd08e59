#include "interp/host_tensor.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace kiln::interp {
namespace {

// A binary floating-point format narrower than double.
struct Format {
    int mantissa_bits; // explicit fraction bits
    int min_exponent;  // exponent of the smallest normal number
    double max_finite;
    bool saturates; // no infinities: overflow clamps to ±max_finite
};

constexpr Format kF16{10, -14, 65504.0, false};
constexpr Format kBF16{7, -126, 3.3895313892515355e38, false};
constexpr Format kE4M3{3, -6, 448.0, true};
constexpr Format kE5M2{2, -14, 57344.0, false};

// 2^e for e in double's normal exponent range, built from the bits (exact, no libm call).
double pow2(int e) { return std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52); }

// Unbiased exponent of a finite double (double subnormals report -1023, below every format here).
int exponent_of(double x) {
    return static_cast<int>((std::bit_cast<uint64_t>(x) >> 52) & 0x7ff) - 1023;
}

double round_to_format(const Format& f, double x) {
    if (std::isnan(x))
        return x;
    if (std::isinf(x))
        return f.saturates ? std::copysign(f.max_finite, x) : x;
    // The spacing of representable numbers around x: fixed below the normal range (subnormals).
    int e = std::max(exponent_of(x), f.min_exponent);
    double quantum = pow2(e - f.mantissa_bits);
    // x / quantum and the product are exact (powers of two); nearbyint rounds ties to even.
    double r = std::nearbyint(x / quantum) * quantum;
    if (std::fabs(r) > f.max_finite)
        return f.saturates ? std::copysign(f.max_finite, x)
                           : std::copysign(std::numeric_limits<double>::infinity(), x);
    return r;
}

double round_to_i32(double x) {
    if (std::isnan(x))
        return x;
    double r = std::nearbyint(x);
    return std::clamp(r, double(std::numeric_limits<int32_t>::min()),
                      double(std::numeric_limits<int32_t>::max()));
}

} // namespace

double round_to(ir::DType t, double x) {
    switch (t) {
    case ir::DType::F32:
        return static_cast<double>(static_cast<float>(x));
    case ir::DType::F16:
        return round_to_format(kF16, x);
    case ir::DType::BF16:
        return round_to_format(kBF16, x);
    case ir::DType::F8E4M3:
        return round_to_format(kE4M3, x);
    case ir::DType::F8E5M2:
        return round_to_format(kE5M2, x);
    case ir::DType::I32:
        return round_to_i32(x);
    }
    return x;
}

int64_t element_count(const ir::Shape& s) {
    int64_t n = 1;
    for (int64_t d : s)
        n *= d;
    return n;
}

ir::Shape row_major_strides(const ir::Shape& s) {
    ir::Shape st(s.size(), 1);
    for (std::size_t d = s.size(); d-- > 1;)
        st[d - 1] = st[d] * s[d];
    return st;
}

HostTensor HostTensor::filled(ir::DType dtype, ir::Shape shape, double value) {
    HostTensor t{dtype, std::move(shape), {}};
    t.data.assign(element_count(t.shape), round_to(dtype, value));
    return t;
}

HostTensor HostTensor::poison(ir::DType dtype, ir::Shape shape) {
    return filled(dtype, std::move(shape), std::numeric_limits<double>::quiet_NaN());
}

} // namespace kiln::interp
