#include "codegen/elementwise_kernel.h"

#include "codegen/launcher.h"
#include "codegen/leaf_lowering.h"
#include "codegen/piece.h"
#include "ir/event_printer.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace kiln::codegen {
namespace {

constexpr int kThreads = 256;
// Vectors per thread: a CTA per iteration striding over a 128 x 256 tile keeps 32 loads per
// thread in sequence (18 us for 16 such tiles on an H100); several CTAs per iteration, each with
// at most this many vectors per thread, keep the whole GPU loading.
constexpr int64_t kVectorsPerThread = 4;

// One statement of a call: dst = value (fill) or dst = convert(src) (copy), over dst's piece.
struct Elementwise {
    const event::Op* call = nullptr;
    std::string text; // the statement as the IR spells it, for the comment
    Piece dst;
    std::optional<Piece> src; // copy only
    std::string value;        // fill only: a C float literal
};

Piece global_piece(const KernelPlan& plan, const event::Op& call, const event::View& v) {
    auto piece = resolve_piece(plan.scope, v);
    if (!piece)
        unsupported(call, piece.errors()[0].message);
    if (piece->tensor->memory != ir::Memory::Global)
        unsupported(call, "an element-wise kernel reads and writes pieces of GLOBAL tensors only");
    return *piece;
}

std::vector<Elementwise> lower_call(const event::EventProgram& program, const KernelPlan& plan,
                                    const event::Op& call) {
    const event::LeafDef& leaf = leaf_of(program, call);
    const auto bound = bind_tensors(leaf, call);
    std::vector<Elementwise> out;
    for (const auto& s : leaf.body) {
        if (s.op == "fill" && s.operands.size() == 2) {
            out.push_back({&call, "fill", global_piece(plan, call, operand_view(call, bound, s, 0)),
                           std::nullopt, float_literal(call, s.operands[1])});
        } else if (s.op == "copy" && s.operands.size() == 2) {
            Piece dst = global_piece(plan, call, operand_view(call, bound, s, 0));
            Piece src = global_piece(plan, call, operand_view(call, bound, s, 1));
            if (dst.extent != src.extent)
                unsupported(call, "copy between pieces of different extents " +
                                      ir::shape_string(dst.extent) + " and " +
                                      ir::shape_string(src.extent));
            out.push_back({&call, "copy", dst, src, ""});
        } else {
            unsupported(call, "an element-wise kernel's leaf statements are fill(D, v) and "
                              "copy(D, S); '" +
                                  s.op + "' of " + leaf.name + " is neither");
        }
        out.back().text =
            s.op + "(" + event::print_view(operand_view(call, bound, s, 0)) +
            (out.back().src ? ", " + event::print_view(operand_view(call, bound, s, 1)) : "") + ")";
    }
    return out;
}

// The element at the piece coordinates `rel` (one name per dimension) of `p`, plus `extra` in
// the innermost dimension: its flat offset in the tensor, and the bounds checks that keep it
// inside the tensor.
struct Element {
    std::string offset;
    std::vector<std::string> in_bounds;
};
Element element(const Piece& p, const std::vector<std::string>& rel, const std::string& extra) {
    const auto& t = *p.tensor;
    Element e;
    int64_t stride = 1;
    for (size_t d = t.shape.size(); d-- > 0;) {
        const std::string c = "(" + p.origin[d] + " + " + rel[d] + ")";
        const std::string last = d + 1 == t.shape.size() && !extra.empty() ? " + " + extra : "";
        e.in_bounds.push_back(c + last + " < " + std::to_string(t.shape[d]));
        const std::string term =
            stride == 1 ? c : "static_cast<size_t>" + c + " * " + std::to_string(stride);
        e.offset = e.offset.empty() ? term : term + " + " + e.offset;
        stride *= t.shape[d];
    }
    return e;
}

// Four consecutive elements per access when a piece row holds whole vectors and the source (if
// any) is f32 (vec::load4); ragged or unaligned vectors take the scalar path at run time.
int vector_width(const Elementwise& s) {
    const bool rows_whole = s.dst.extent.back() % 4 == 0;
    const bool loadable = !s.src || s.src->tensor->dtype == ir::DType::F32;
    const auto dt = s.dst.tensor->dtype;
    const bool storable = dt == ir::DType::F32 || dt == ir::DType::BF16 || dt == ir::DType::F16;
    return rows_whole && loadable && storable ? 4 : 1;
}

std::string unique_and(std::vector<std::string> a, const std::vector<std::string>& b) {
    for (const auto& x : b)
        if (std::find(a.begin(), a.end(), x) == a.end())
            a.push_back(x);
    return join(a, " && ");
}

// The statement's accesses at element offset `+ u` (scalar path).
std::string scalar_access(const Elementwise& s, const std::string& u) {
    const std::string value =
        s.src ? "static_cast<float>(" + s.src->tensor->name + "[kiln_s" + u + "])" : s.value;
    return s.dst.tensor->name + "[kiln_d" + u +
           "] = " + store_value(*s.call, s.dst.tensor->dtype, value) + ";";
}

int64_t vectors_of(const Elementwise& s) {
    return elements(s.dst.extent) / vector_width(s);
}

// CTAs per pfor iteration, so that no thread handles more than kVectorsPerThread vectors.
int64_t parts_of(const std::vector<Elementwise>& stmts) {
    int64_t parts = 1;
    for (const auto& s : stmts)
        parts = std::max(parts, (vectors_of(s) + kThreads * kVectorsPerThread - 1) /
                                    (kThreads * kVectorsPerThread));
    return parts;
}

// The `parts` CTAs of an iteration take contiguous chunks of the destination piece, whose
// threads stride over it in vectors of `width` elements, innermost dimension fastest (a warp's
// accesses are contiguous); the loop has a compile-time trip count and is unrolled, so each
// thread keeps all its loads in flight. Every access is predicated on the tensors' bounds.
void emit_statement(CodeWriter& w, const Elementwise& s, int64_t parts) {
    const auto& dt = *s.dst.tensor;
    const int width = vector_width(s);
    const int64_t count = elements(s.dst.extent), vectors = count / width;
    const int64_t chunk = (vectors + parts - 1) / parts;
    const int64_t iters = (chunk + kThreads - 1) / kThreads;
    w.line("// " + op_name(*s.call) + ": " + s.text + ", " + std::to_string(count) + " elements" +
           (width > 1 ? " in vectors of " + std::to_string(width) : "") + ", predicated on " +
           dt.name + "'s " + ir::shape_string(dt.shape) + " bounds" +
           (s.src ? " and " + s.src->tensor->name + "'s" : ""));
    w.line("#pragma unroll");
    w.open("for (int kiln_it = 0; kiln_it < " + std::to_string(iters) + "; ++kiln_it)");
    const std::string start = parts == 1 ? "" : "kiln_part * " + std::to_string(chunk) + " + ";
    w.line("const int kiln_v = " + start + "threadIdx.x + kiln_it * " + std::to_string(kThreads) +
           ";");
    if (parts > 1 && vectors % parts != 0)
        w.line("if (kiln_v >= " + std::to_string(vectors) + ") break;");
    if (chunk % kThreads != 0)
        w.line("if (kiln_v >= " + start + std::to_string(chunk) + ") break;");
    std::vector<std::string> rel(s.dst.extent.size());
    int64_t inner = 1;
    const std::string first = width == 1 ? "kiln_v" : "kiln_v * " + std::to_string(width);
    for (size_t d = rel.size(); d-- > 0;) {
        rel[d] = "kiln_r" + std::to_string(d);
        const std::string step = inner == 1 ? first : first + " / " + std::to_string(inner);
        w.line("const int " + rel[d] + " = " + step + " % " + std::to_string(s.dst.extent[d]) +
               ";");
        inner *= s.dst.extent[d];
    }
    const Element d = element(s.dst, rel, "");
    w.line("const size_t kiln_d = " + d.offset + ";");
    std::vector<std::string> bounds = d.in_bounds;
    if (s.src) {
        const Element src = element(*s.src, rel, "");
        w.line("const size_t kiln_s = " + src.offset + ";");
        bounds = {unique_and(d.in_bounds, src.in_bounds)};
    }
    if (width == 1) {
        w.line("if (" + join(bounds, " && ") + ") " + scalar_access(s, ""));
        w.close();
        return;
    }
    const std::string last = std::to_string(width - 1);
    std::vector<std::string> whole = element(s.dst, rel, last).in_bounds;
    // Vector accesses need addresses aligned to the vector's bytes (a caller's pointer may not be).
    auto aligned = [&](const event::TensorDecl& t, const std::string& at) {
        return "reinterpret_cast<uintptr_t>(" + t.name + " + " + at + ") % " +
               std::to_string(width * ir::dtype_bytes(t.dtype)) + " == 0";
    };
    whole.push_back(aligned(dt, "kiln_d"));
    if (s.src) {
        auto sb = element(*s.src, rel, last).in_bounds;
        sb.push_back(aligned(*s.src->tensor, "kiln_s"));
        whole = {unique_and(whole, sb)};
    }
    const std::string vec =
        s.src ? "kiln::dev::vec::load4(" + s.src->tensor->name + " + kiln_s)"
              : "make_float4(" + s.value + ", " + s.value + ", " + s.value + ", " + s.value + ")";
    w.open("if (" + join(whole, " && ") + ")");
    w.line("kiln::dev::vec::store4(" + dt.name + " + kiln_d, " + vec + ");");
    w.close();
    w.open("else");
    w.line("#pragma unroll");
    w.open("for (int u = 0; u < " + std::to_string(width) + "; ++u)");
    // Bounds of element u: the innermost coordinate plus u.
    std::vector<std::string> each = element(s.dst, rel, "u").in_bounds;
    if (s.src)
        each = {unique_and(each, element(*s.src, rel, "u").in_bounds)};
    w.line("if (" + join(each, " && ") + ") " + scalar_access(s, " + u"));
    w.close();
    w.close();
    w.close();
}

} // namespace

KernelLaunch emit_elementwise_kernel(CodeWriter& w, const event::EventProgram& program,
                                     const KernelPlan& plan, const event::Op& pfor) {
    std::vector<Elementwise> stmts;
    std::set<std::string> written, used;
    for (const auto& op : pfor.loop.body.ops)
        if (op.kind == event::OpKind::Call)
            for (auto& s : lower_call(program, plan, op)) {
                written.insert(s.dst.tensor->name);
                used.insert(s.dst.tensor->name);
                if (s.src)
                    used.insert(s.src->tensor->name);
                stmts.push_back(std::move(s));
            }
    const bool after =
        std::find(plan.post_grids.begin(), plan.post_grids.end(), &pfor) != plan.post_grids.end();
    const int64_t parts = parts_of(stmts);
    const bool first = !after && plan.pre_grids.front() == &pfor;
    const bool last = after && plan.post_grids.back() == &pfor;
    KernelLaunch k{program.name + "_" + (after ? "post" : "pre") + "_" + pfor.result,
                   elements(pfor.loop.extents) * parts,
                   false,
                   kThreads,
                   0,
                   {},
                   1,
                   !first};
    std::vector<std::string> params;
    for (size_t i = 0; i < plan.params.size(); ++i) {
        const auto* p = plan.params[i];
        if (!used.count(p->name))
            continue;
        params.push_back(std::string(written.count(p->name) ? "" : "const ") + cuda_type(p->dtype) +
                         "* __restrict__ " + p->name);
        k.args.push_back({SpecArg::Kind::Pointer, static_cast<int>(i), {}});
    }
    w.line("// " + op_name(pfor) + ": " +
           (parts == 1 ? std::string("one CTA") : std::to_string(parts) + " CTAs") +
           " per iteration; launched " + (after ? "after" : "before") + " the kernel " + plan.name +
           " on the same stream.");
    w.line("extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kThreads) + ")");
    w.open(k.symbol + "(" + join(params, ", ") + ")");
    const std::string iteration =
        parts == 1 ? "blockIdx.x" : "(blockIdx.x / " + std::to_string(parts) + ")";
    if (!last)
        w.line("kiln::dev::grid::launch_dependents();  // the next kernel may be scheduled (it "
               "waits for this one to complete)");
    if (!first)
        w.line("kiln::dev::grid::wait_previous();  // the previous kernel's writes");
    if (parts > 1)
        w.line("const int kiln_part = blockIdx.x % " + std::to_string(parts) + ";");
    for (const auto& decl : grid_index_decls(pfor.loop, iteration))
        w.line(decl);
    for (const auto& s : stmts)
        emit_statement(w, s, parts);
    w.close();
    w.line("");
    return k;
}

} // namespace kiln::codegen
