#pragma once
// Host storage for one tensor, faithful to its element type: values are kept as doubles but every
// store rounds them to the dtype (round-to-nearest-even, with the format's subnormals, overflow
// and NaN rules), so a bf16 tensor only ever holds bf16 values. NaN marks "never written".
#include "ir/partition.h"
#include "ir/types.h"

#include <cstdint>
#include <vector>

namespace kiln::interp {

// Rounds `x` to the nearest value of `t`:
//   f32, f16, bf16, f8e5m2: IEEE round-to-nearest-even; overflow goes to ±inf.
//   f8e4m3 (OCP E4M3FN, no infinities): finite overflow and ±inf saturate to ±448 (the
//     `satfinite` conversion the GPU uses); NaN stays NaN.
//   i32: nearest integer (ties to even), clamped to the int32 range; NaN stays NaN (poison).
double round_to(ir::DType t, double x);

// Elements of a tensor of shape `s` (1 for rank 0).
int64_t element_count(const ir::Shape& s);
// Row-major strides of shape `s`.
ir::Shape row_major_strides(const ir::Shape& s);

struct HostTensor {
    ir::DType dtype = ir::DType::F32;
    ir::Shape shape;
    std::vector<double> data; // row-major

    // A tensor whose every element is `value` rounded to `dtype`.
    static HostTensor filled(ir::DType dtype, ir::Shape shape, double value);
    // A tensor of NaN: the poison that marks elements nobody wrote.
    static HostTensor poison(ir::DType dtype, ir::Shape shape);

    void store(int64_t i, double v) { data[i] = round_to(dtype, v); }
    int64_t size() const { return static_cast<int64_t>(data.size()); }
};

} // namespace kiln::interp
