#pragma once
// The device library (device/kiln/*.cuh) as text compiled into the binary, so NVRTC gets the
// headers the generated kernels include without the source tree (an installed `kiln` works
// anywhere). The table is generated at build time by embed_headers.cmake.
//
// Guarantees: one entry per header, named as generated code includes it ("kiln/tma.cuh").
#include <string_view>
#include <vector>

namespace kiln::runtime {

struct EmbeddedHeader {
    std::string_view name; // include name, e.g. "kiln/tma.cuh"
    std::string_view text;
};

const std::vector<EmbeddedHeader>& device_headers();

} // namespace kiln::runtime
