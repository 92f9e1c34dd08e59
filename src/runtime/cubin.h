#pragma once
// What a cubin says about itself, read from its ELF image without the driver: that it is a CUDA
// ELF (EM_CUDA), the SM it was built for (e_flags), and the exact target NVRTC/ptxas was given
// ("sm_90a", from the toolkit-info note). The kernel cache checks entries with it before the
// driver sees them, so a truncated or foreign file is reported and recompiled, never loaded.
//
// Guarantees: never reads past `bytes`; any malformed image is a Diagnostic saying what is wrong.
#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace kiln::runtime {

inline constexpr int kEmCuda = 190;

struct CubinInfo {
    int sm = 0;       // 90 for sm_90 and sm_90a
    std::string arch; // "sm_90a": the -arch in the .note.nv.tkinfo note; "" when absent
};

Result<CubinInfo> inspect_cubin(const std::vector<char>& bytes);

} // namespace kiln::runtime
