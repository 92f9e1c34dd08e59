#include "codegen/fill_kernel.h"

#include "codegen/launcher.h"
#include "codegen/leaf_lowering.h"
#include "codegen/piece.h"
#include "ir/event_printer.h"

#include <algorithm>
#include <set>

namespace kiln::codegen {
namespace {

constexpr int kFillThreads = 256;

struct Fill {
    const event::Op* call = nullptr;
    Piece piece;
    std::string value; // C float literal
};

Fill lower_fill(const event::EventProgram& program, const KernelPlan& plan, const event::Op& call) {
    const event::LeafDef* leaf = program.find_leaf(call.callee);
    if (!leaf || leaf->body.size() != 1 || leaf->body[0].op != "fill" || call.args.size() != 1 ||
        leaf->body[0].operands.size() != 2)
        unsupported(call, "a fill kernel's call must be a leaf of one fill statement");
    auto piece = resolve_piece(plan.scope, call.args[0]);
    if (!piece)
        unsupported(call, piece.errors()[0].message);
    if (piece->tensor->memory != ir::Memory::Global || !piece->tensor->param)
        unsupported(call, "a fill kernel fills pieces of GLOBAL entry parameters only");
    return {&call, *piece, float_literal(call, leaf->body[0].operands[1])};
}

// Block-strided loop over the piece's elements: coordinates per tensor dimension (innermost
// fastest), each checked against the tensor's extent.
void emit_fill(CodeWriter& w, const Fill& f) {
    const auto& t = *f.piece.tensor;
    const size_t rank = t.shape.size();
    const int64_t count = elements(f.piece.extent);
    w.line("// " + op_name(*f.call) + ": fill(" + event::print_view(f.call->args[0]) + ", " +
           f.value + "), " + std::to_string(count) + " elements, predicated on " + t.name + "'s " +
           ir::shape_string(t.shape) + " bounds");
    w.open("for (int kiln_e = threadIdx.x; kiln_e < " + std::to_string(count) +
           "; kiln_e += blockDim.x)");
    std::vector<std::string> in_bounds;
    std::string offset;
    int64_t inner = 1, stride = 1;
    for (size_t d = rank; d-- > 0;) {
        const std::string c = "kiln_c" + std::to_string(d);
        const std::string step = inner == 1 ? "kiln_e" : "kiln_e / " + std::to_string(inner);
        w.line("const int " + c + " = " + f.piece.origin[d] + " + " + step + " % " +
               std::to_string(f.piece.extent[d]) + ";");
        in_bounds.push_back(c + " < " + std::to_string(t.shape[d]));
        const std::string term =
            stride == 1 ? c : "static_cast<size_t>(" + c + ") * " + std::to_string(stride);
        offset = offset.empty() ? term : term + " + " + offset;
        inner *= f.piece.extent[d];
        stride *= t.shape[d];
    }
    w.line("if (" + join(in_bounds, " && ") + ") " + t.name + "[" + offset +
           "] = " + store_value(*f.call, t.dtype, f.value) + ";");
    w.close();
}

} // namespace

KernelLaunch emit_fill_kernel(CodeWriter& w, const event::EventProgram& program,
                              const KernelPlan& plan, const event::Op& pfor) {
    std::vector<Fill> fills;
    std::set<std::string> written;
    for (const auto& op : pfor.loop.body.ops)
        if (op.kind == event::OpKind::Call) {
            fills.push_back(lower_fill(program, plan, op));
            written.insert(fills.back().piece.tensor->name);
        }
    KernelLaunch k{program.name + "_fill_" + pfor.result,
                   elements(pfor.loop.extents),
                   false,
                   kFillThreads,
                   0,
                   {}};
    std::vector<std::string> params;
    for (size_t i = 0; i < plan.params.size(); ++i) {
        const auto* p = plan.params[i];
        if (!written.count(p->name))
            continue;
        params.push_back(cuda_type(p->dtype) + "* __restrict__ " + p->name);
        k.args.push_back({SpecArg::Kind::Pointer, static_cast<int>(i), {}});
    }
    w.line("// " + op_name(pfor) + ": one CTA per iteration; the kernel " + plan.name +
           " is launched after this one on the same stream.");
    w.line("extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kFillThreads) + ")");
    w.open(k.symbol + "(" + join(params, ", ") + ")");
    for (const auto& decl : grid_index_decls(pfor.loop, "blockIdx.x"))
        w.line(decl);
    for (const auto& f : fills)
        emit_fill(w, f);
    w.close();
    w.line("");
    return k;
}

} // namespace kiln::codegen
