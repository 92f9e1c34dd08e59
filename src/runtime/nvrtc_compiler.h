#pragma once
// Compiles generated CUDA C++ to a cubin for sm_90a with NVRTC (loaded at run time). The source
// sees the device library from the headers compiled into kiln (device_headers.h) and the CUDA
// toolkit's own headers (cuda_bf16.h, CCCL's cuda/ptx) from the toolkit found at run time.
//
// Requires: libnvrtc (CUDA 12.8+, for sm_90a and CCCL under NVRTC) and the toolkit's include
// directory: $KILN_CUDA_INCLUDE, $CUDA_HOME/include, $CUDA_PATH/include, the toolkit kiln was
// built with, or /usr/local/cuda/include (the first holding cuda_bf16.h).
// Guarantees: the cubin bytes, or a Diagnostic carrying NVRTC's log (never a crash).
#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace kiln::runtime {

inline constexpr const char* kTargetArch = "sm_90a";

// NVRTC's version, "13.0"; a Diagnostic when libnvrtc cannot be loaded.
Result<std::string> nvrtc_version();

// The include directories NVRTC gets for the toolkit's headers (the CCCL subdirectory first
// when the toolkit has one); a Diagnostic naming the places looked at when none holds them.
Result<std::vector<std::string>> cuda_include_dirs();

// `name` is the file name NVRTC's messages use ("gemm.cu").
Result<std::vector<char>> compile_to_cubin(const std::string& source, const std::string& name);

} // namespace kiln::runtime
