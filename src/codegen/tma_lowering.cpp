#include "codegen/tma_lowering.h"

#include "ir/event_printer.h"

namespace kiln::codegen {
namespace {

void check_buffer(const event::Op& copy, const event::TensorDecl& buf) {
    if (!buf.layout || *buf.layout != mapping::Layout::Swizzle128)
        unsupported(copy, "staged buffer " + buf.name +
                              " needs `layout swizzle128` (the only "
                              "TMA/wgmma layout generated so far)");
    if (ir::dtype_bytes(buf.dtype) != 2 || buf.shape.size() != 2)
        unsupported(copy, "staged buffer " + buf.name + " must be a 2-D tile of 16-bit elements");
    if (buf.shape[1] % kPanelElems != 0 || buf.shape[0] > 256)
        unsupported(copy, "staged buffer " + buf.name + " " + ir::shape_string(buf.shape) +
                              ": columns must be a multiple of 64 and rows at most 256 (TMA box)");
}

} // namespace

std::string stage_pointer(const event::TensorDecl& buffer, const std::string& stage) {
    return "(" + buffer.name + "_smem + " + stage + " * " +
           std::to_string(buffer.bytes() / buffer.stages) + ")";
}

TmaLoad lower_tma_load(const KernelPlan& plan, const event::Op& copy) {
    auto dst = plan.scope.tensors.find(copy.dst.name);
    if (!copy.dst.whole() || dst == plan.scope.tensors.end() ||
        dst->second.memory != ir::Memory::Shared)
        unsupported(copy, "a DMA copy must write a whole staged SHARED buffer");
    auto src = resolve_piece(plan.scope, copy.src);
    if (!src)
        unsupported(copy, src.errors()[0].message);
    const event::TensorDecl& g = *src->tensor;
    if (!g.param || g.memory != ir::Memory::Global)
        unsupported(copy, "the source " + event::print_view(copy.src) +
                              " is not a piece of a GLOBAL entry tensor");
    const event::TensorDecl& buf = dst->second;
    check_buffer(copy, buf);
    const int rank = static_cast<int>(g.shape.size());
    if (g.dtype != buf.dtype || rank > 3 || src->dims != std::vector<int>{rank - 2, rank - 1} ||
        src->extent[rank - 2] != buf.shape[0] || src->extent[rank - 1] != buf.shape[1])
        unsupported(copy, "the source " + event::print_view(copy.src) +
                              " must be a 2-D tile of the last two dimensions of " + g.name +
                              " (rank <= 3) with the buffer's shape and type");
    TmaLoad t;
    t.copy = &copy;
    t.global = &g;
    t.buffer = &buf;
    t.panels = buf.shape[1] / kPanelElems;
    t.panel_bytes = buf.shape[0] * kPanelRowBytes;
    t.vars = src->vars;
    for (int d = rank - 1; d >= 0; --d) {
        t.box.push_back(d == rank - 1 ? kPanelElems : static_cast<uint32_t>(src->extent[d]));
        t.coords.push_back(src->origin[d]);
    }
    return t;
}

} // namespace kiln::codegen
