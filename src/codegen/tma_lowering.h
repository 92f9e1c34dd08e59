#pragma once
// Lowers a DMA copy `copy P[...] -> S` (a piece of a GLOBAL entry tensor into a staged SHARED
// buffer with the 128B swizzle layout) onto TMA tiled loads. A swizzle128 buffer of 16-bit
// elements is stored as panels 64 elements (128 B) wide: the buffer's rows in order, panel after
// panel, which is the canonical wgmma layout for both K-major and MN-major operands. Each panel
// is one TMA box; out-of-bounds elements of ragged edge pieces are zero-filled by the TMA.
#include "codegen/kernel_plan.h"

#include <set>
#include <string>
#include <vector>

namespace kiln::codegen {

struct TmaLoad {
    const event::Op* copy = nullptr;
    const event::TensorDecl* global = nullptr; // the entry parameter read
    const event::TensorDecl* buffer = nullptr; // the staged buffer written
    std::vector<uint32_t> box;                 // innermost first (the tensor map's order)
    std::vector<std::string> coords;           // of panel 0, innermost first
    int64_t panels = 1;                        // boxes along the innermost dimension
    int64_t panel_bytes = 0;
    std::set<std::string> vars; // the loop variables the coordinates read
    int64_t bytes() const { return panels * panel_bytes; }
};

// Panel width of a swizzle128 buffer, in elements of 16 bits.
inline constexpr int64_t kPanelElems = 64;
inline constexpr int64_t kPanelRowBytes = 128;

// C expression of stage `stage` of a staged buffer (declared by the kernel as `<name>_smem`).
std::string stage_pointer(const event::TensorDecl& buffer, const std::string& stage);

TmaLoad lower_tma_load(const KernelPlan& plan, const event::Op& copy);

} // namespace kiln::codegen
