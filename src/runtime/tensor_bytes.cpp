#include "runtime/tensor_bytes.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace kiln::runtime {
namespace {

// IEEE binary16 bits of a value f16 holds exactly (round-to-nearest-even otherwise).
uint16_t half_bits(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
    if (std::isnan(f))
        return sign | 0x7e00;
    const float a = std::fabs(f);
    if (a >= 65520.0f)
        return sign | 0x7c00;
    if (a < 6.103515625e-05f) { // subnormal: multiples of 2^-24
        return sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0f));
    }
    const uint32_t e = ((x >> 23) & 0xff) - 127 + 15;
    uint32_t m = x & 0x7fffff;
    uint32_t h = (e << 10) | (m >> 13);
    const uint32_t rest = m & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        ++h;
    return sign | static_cast<uint16_t>(h);
}

float half_value(uint16_t h) {
    const float sign = (h & 0x8000) ? -1.0f : 1.0f;
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0x1f)
        return m ? NAN : sign * INFINITY;
    if (e == 0)
        return sign * std::ldexp(static_cast<float>(m), -24);
    return sign * std::ldexp(static_cast<float>(m | 0x400), e - 25);
}

// bf16 is the upper half of an f32; the interpreter's bf16 values have a zero lower half.
uint16_t bf16_bits(float f) {
    if (std::isnan(f))
        return 0x7fc0;
    return static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16);
}

float bf16_value(uint16_t b) {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

template <class T> void put(std::vector<char>& out, int64_t i, T v) {
    std::memcpy(out.data() + i * sizeof(T), &v, sizeof(T));
}
template <class T> T get(const std::vector<char>& in, int64_t i) {
    T v;
    std::memcpy(&v, in.data() + i * sizeof(T), sizeof(T));
    return v;
}

Diagnostic unsupported(ir::DType t) {
    return Diagnostic{{},
                      "the GPU runtime does not move " + std::string(ir::spelling(t)) +
                          " tensors yet (bf16, f16, f32, i32)"};
}

} // namespace

Result<std::vector<char>> to_bytes(const interp::HostTensor& t) {
    std::vector<char> out(t.size() * ir::dtype_bytes(t.dtype));
    for (int64_t i = 0; i < t.size(); ++i) {
        const double v = t.data[i];
        switch (t.dtype) {
        case ir::DType::BF16:
            put(out, i, bf16_bits(static_cast<float>(v)));
            break;
        case ir::DType::F16:
            put(out, i, half_bits(static_cast<float>(v)));
            break;
        case ir::DType::F32:
            put(out, i, static_cast<float>(v));
            break;
        case ir::DType::I32:
            put(out, i, std::isnan(v) ? INT32_MIN : static_cast<int32_t>(v));
            break;
        default:
            return unsupported(t.dtype);
        }
    }
    return out;
}

Result<interp::HostTensor> from_bytes(ir::DType dtype, const ir::Shape& shape,
                                      const std::vector<char>& bytes) {
    interp::HostTensor t = interp::HostTensor::filled(dtype, shape, 0.0);
    if (bytes.size() != static_cast<std::size_t>(t.size() * ir::dtype_bytes(dtype)))
        return Diagnostic{{},
                          "tensor of " + std::to_string(bytes.size()) +
                              " bytes does not match its shape " + ir::shape_string(shape)};
    for (int64_t i = 0; i < t.size(); ++i) {
        switch (dtype) {
        case ir::DType::BF16:
            t.data[i] = bf16_value(get<uint16_t>(bytes, i));
            break;
        case ir::DType::F16:
            t.data[i] = half_value(get<uint16_t>(bytes, i));
            break;
        case ir::DType::F32:
            t.data[i] = get<float>(bytes, i);
            break;
        case ir::DType::I32: {
            const int32_t v = get<int32_t>(bytes, i);
            t.data[i] = v == INT32_MIN ? std::nan("") : static_cast<double>(v);
            break;
        }
        default:
            return unsupported(dtype);
        }
    }
    return t;
}

} // namespace kiln::runtime
