#pragma once
// The C++ launcher of generated kernels, written from their LaunchSpec: `extern "C" int
// kiln_launch_<program>(entry params..., int sizes..., cudaStream_t)` checks the sizes against
// the compiled ones, encodes each kernel's TMA tensor maps, sets its dynamic shared memory and
// launches the kernels in the spec's order. For nvcc users; the runtime launches from the spec
// itself, so the text is guarded by `#if !defined(__CUDACC_RTC__)` (NVRTC has no host side).
//
// Returns (in the generated code) 0, or 1: sizes other than the compiled ones, 2: a tensor map
// was refused (alignment), 3: a launch failed.
#include "codegen/launch_spec.h"

#include <string>

namespace kiln::codegen {

// The CUDA C++ type of an element of `t` ("__nv_bfloat16", "float", ...); "" when none.
std::string cuda_type(ir::DType t);

std::string launcher_source(const LaunchSpec& spec);

} // namespace kiln::codegen
