// kiln::dev — the fixed-width integer types (uint8_t .. uint64_t, uintptr_t) for device code,
// under nvcc and under NVRTC alike.
//
// NVRTC has no C++ standard library, so `<cstdint>` does not exist there; CCCL's
// `<cuda/std/cstdint>` does (the kiln runtime compiles generated kernels with NVRTC and the CCCL
// include directory, docs/runtime.md). Guarantees: the global-namespace names either way.
#pragma once
#if defined(__CUDACC_RTC__)
#include <cuda/std/cstdint>
#else
#include <cstdint>
#endif
