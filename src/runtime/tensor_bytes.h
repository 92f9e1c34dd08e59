#pragma once
// Host tensors (the interpreter's dtype-faithful doubles) to and from the bytes a kernel reads
// and writes: bf16, f16, f32 and i32, row-major. NaN (the interpreter's "never written" poison)
// maps to the dtype's NaN both ways, so an output element the GPU never wrote still compares as
// unwritten.
//
// Guarantees: exact for every value the dtype holds (the interpreter's tensors hold only such
// values); a Diagnostic for dtypes the runtime does not move (fp8).
#include "interp/host_tensor.h"
#include "ir/diagnostic.h"

#include <vector>

namespace kiln::runtime {

Result<std::vector<char>> to_bytes(const interp::HostTensor& t);
Result<interp::HostTensor> from_bytes(ir::DType dtype, const ir::Shape& shape,
                                      const std::vector<char>& bytes);

} // namespace kiln::runtime
