#include "codegen/fragment_ops.h"

#include "codegen/leaf_lowering.h"
#include "codegen/tma_lowering.h"
#include "ir/event_printer.h"
#include "ir/leaf_ops.h"

#include <algorithm>
#include <set>

namespace kiln::codegen {
namespace {

// Where a thread's mma fragment of a 2-D tensor lies: the tensor, the fragment's role, and C
// expressions of its first row (h = 0; the second is 8 rows down) and first column (an
// accumulator's columns then step by 8 per pair, a whole row's by 1).
struct FragmentPlace {
    const event::TensorDecl* tensor = nullptr;
    ir::MmaRole role = ir::MmaRole::Acc;
    std::string row, col;
    std::string instance = "0"; // index of the tensor's instance when replicated over (g, w)
    Piece piece;                // the warpgroup's (or the warp's) piece the fragment splits
    bool through_warps = false; // split by a WARP mma partition first (a 64-row piece)
    bool same_piece(const FragmentPlace& o) const {
        return tensor == o.tensor && piece.origin == o.piece.origin &&
               piece.extent == o.piece.extent && instance == o.instance &&
               through_warps == o.through_warps;
    }
};

bool is_var(const ir::ExprPtr& e, const std::string& name) {
    return e && e->kind == ir::ExprKind::Name && e->name == name;
}

// `v` = F[t] of F = mma(X, role, THREAD), X either W[w] of W = mma(V, role, WARP) (a warpgroup
// piece V of 64 rows) or a tensor replicated per warp (16 rows each).
std::optional<FragmentPlace> fragment_place(const KernelPlan& plan, const event::View& v) {
    const auto& d = plan.compute_dims;
    auto lane = plan.scope.parts.find(v.name);
    if (lane == plan.scope.parts.end() || !lane->second.spec.is_mma ||
        lane->second.spec.mma.level != ir::Level::Thread || v.index.size() != 1 ||
        !is_var(v.index[0], d[2].var))
        return std::nullopt;
    FragmentPlace f;
    f.role = lane->second.spec.mma.role;
    event::View wg_view = lane->second.source;
    std::string warp_rows;
    auto warp = plan.scope.parts.find(wg_view.name);
    if (warp != plan.scope.parts.end() && warp->second.spec.is_mma) {
        if (warp->second.spec.mma.level != ir::Level::Warp || wg_view.index.size() != 1 ||
            !is_var(wg_view.index[0], d[1].var) || warp->second.spec.mma.role != f.role)
            return std::nullopt;
        wg_view = warp->second.source;
        warp_rows = "16 * " + d[1].var + " + ";
        f.through_warps = true;
    }
    auto piece = resolve_piece(plan.scope, wg_view);
    if (!piece || piece->dims.size() != 2)
        return std::nullopt;
    f.tensor = piece->tensor;
    f.piece = *piece;
    const int rank = static_cast<int>(f.tensor->shape.size());
    const std::string& r0 = piece->origin[rank - 2];
    const std::string& c0 = piece->origin[rank - 1];
    f.row = (r0 == "0" ? "" : r0 + " + ") + warp_rows + d[2].var + " / 4";
    const bool acc = f.role == ir::MmaRole::Acc;
    f.col = acc ? (c0 == "0" ? "" : c0 + " + ") + "2 * (" + d[2].var + " % 4)" : c0;
    if (auto over = plan.shared_over.find(f.tensor->name); over != plan.shared_over.end()) {
        std::string idx;
        for (const auto& p : over->second)
            idx = idx.empty() ? p.var : "(" + idx + ") * " + std::to_string(p.extent) + " + " + p.var;
        if (!idx.empty())
            f.instance = idx;
    }
    return f;
}

// Byte address of element (row, col) of a SHARED tensor's instance: row-major without a layout;
// 64-column panels of 128-byte swizzled rows with swizzle128 (the wgmma operand layout).
std::string shared_address(const event::Op& op, const FragmentPlace& f, const std::string& row,
                           const std::string& col) {
    const auto& t = *f.tensor;
    const std::string base = "(" + t.name + "_smem + (" + f.instance + ") * " +
                             std::to_string(t.bytes()) + ")";
    const int64_t eb = ir::dtype_bytes(t.dtype);
    if (!t.layout)
        return base + " + ((" + row + ") * " + std::to_string(t.shape[1]) + " + (" + col +
               ")) * " + std::to_string(eb);
    if (*t.layout != mapping::Layout::Swizzle128 || eb != 2)
        unsupported(op, "shared tensor " + t.name + ": only row-major or 16-bit swizzle128 "
                                                    "layouts are addressed per thread");
    return base + " + (" + col + ") / 64 * " + std::to_string(t.shape[0] * kPanelRowBytes) +
           " + kiln::dev::swizzle::offset<kiln::dev::swizzle::Mode::B128>(" + row + ", ((" +
           col + ") % 64) * 2)";
}

// How a leaf operand's elements are read or written by one thread.
struct Access {
    enum class Kind { Scalar, Rows, Fragment, SharedRows } kind = Kind::Scalar;
    std::string name; // the register array; the scalar's C expression
    int64_t cols = 1;
    std::string row_ptr; // SharedRows: `const float*` of row h = 0; row 1 is 8 rows on
    int64_t row_stride = 0;
    std::string at(const std::string& h, const std::string& c) const {
        switch (kind) {
        case Kind::Scalar:
            return name;
        case Kind::Rows:
            return name + "[" + h + "]";
        case Kind::Fragment:
            return name + "[4 * ((" + c + ") / 2) + 2 * " + h + " + (" + c + ") % 2]";
        case Kind::SharedRows:
            return row_ptr + "[8 * " + std::to_string(row_stride) + " * " + h + " + " + c + "]";
        }
        return name;
    }
};

// Whole rows of an f32 row-major SHARED tensor: what a thread's lhs fragment of it reads, which
// a register tensor may alias (plan_row_aliases) or copy (emit_fragment_copy).
bool is_shared_rows(const FragmentPlace& f) {
    return f.role == ir::MmaRole::Lhs && f.tensor->memory == ir::Memory::Shared &&
           f.tensor->dtype == ir::DType::F32 && !f.tensor->layout;
}

// The thread's two rows of such a fragment, read in place.
Access shared_rows_access(const event::Op& op, const FragmentPlace& f, const std::string& name) {
    const int64_t width = f.tensor->shape[1];
    Access a{Access::Kind::SharedRows, name, width, {}, width};
    a.row_ptr = "reinterpret_cast<const float*>(" + shared_address(op, f, f.row, f.col) + ")";
    return a;
}

// A register tensor, or one that aliases rows of shared memory, as an Access.
Access register_access(const KernelPlan& plan, const event::Op& op, const event::View& v) {
    if (auto alias = plan.row_aliases.find(v.name); alias != plan.row_aliases.end() && v.whole())
        return shared_rows_access(op, *fragment_place(plan, alias->second), v.name);
    const auto& r = register_tensor(plan, op, v);
    if (r.shape.size() == 1 && r.shape[0] == 2)
        return {Access::Kind::Rows, r.name, 1, {}, 0};
    if (r.shape.size() == 2 && r.shape[0] == 2 && r.shape[1] % 2 == 0)
        return {Access::Kind::Fragment, r.name, r.shape[1], {}, 0};
    unsupported(op, "register tensor " + r.name + " " + ir::shape_string(r.shape) +
                        " is not a thread's [2] or [2, n] fragment");
}

// A scalar operand of a leaf statement in C: float literals as C floats, the leaf's scalar
// parameters replaced by the call's arguments, the rest as index arithmetic.
std::string scalar_expr(const event::EventProgram& program, const event::Op& call,
                        const ir::ExprPtr& e) {
    const auto& leaf = leaf_of(program, call);
    return c_expr(e, [&](const ir::Expr& x) -> std::optional<std::string> {
        const bool negated_float = x.kind == ir::ExprKind::Neg &&
                                   x.args[0]->kind == ir::ExprKind::Float;
        if (x.kind == ir::ExprKind::Float || negated_float)
            return float_literal(call, ir::Operand{std::make_shared<ir::Expr>(x)});
        if (x.kind != ir::ExprKind::Name)
            return std::nullopt;
        size_t j = 0;
        for (const auto& p : leaf.params) {
            if (p.is_tensor)
                continue;
            if (p.name == x.name && j < call.scalars.size())
                return "(" + c_expr(call.scalars[j]) + ")";
            ++j;
        }
        unsupported(call, "scalar '" + x.name + "' is not a scalar parameter of " + leaf.name);
    });
}

Access operand_access(const event::EventProgram& program, const KernelPlan& plan,
                      const event::Op& call, const std::map<std::string, event::View>& b,
                      const ir::LeafOp& stmt, size_t i) {
    if (i >= stmt.operands.size())
        unsupported(call, "'" + stmt.op + "' lacks operand " + std::to_string(i + 1));
    if (!stmt.operands[i].is_tensor())
        return {Access::Kind::Scalar, scalar_operand(program, call, stmt.operands[i]), 1, {}, 0};
    return register_access(plan, call, operand_view(call, b, stmt, i));
}

// `for h, for c` over the destination's elements (c only for a [2, n] destination).
void open_loops(CodeWriter& w, const Access& dst) {
    w.line("#pragma unroll");
    w.open("for (int h = 0; h < 2; ++h)");
    if (dst.kind != Access::Kind::Rows) {
        w.line("#pragma unroll");
        w.open("for (int c = 0; c < " + std::to_string(dst.cols) + "; ++c)");
    }
}
void close_loops(CodeWriter& w, const Access& dst) {
    if (dst.kind != Access::Kind::Rows)
        w.close();
    w.close();
}

// An operand read at the destination's element: a [2] operand broadcasts along the row.
std::string read_at(const event::Op& call, const Access& dst, const Access& x) {
    if (x.kind == Access::Kind::Scalar || x.kind == Access::Kind::Rows)
        return x.at("h", "c");
    if (dst.kind == Access::Kind::Rows || x.cols != dst.cols)
        unsupported(call, "operand " + x.name + " does not match the destination " + dst.name);
    return x.at("h", "c");
}

std::optional<std::string> unary_fn(const std::string& op, const std::string& x) {
    if (op == "exp")
        return "__expf(" + x + ")";
    if (op == "exp2")
        return "kiln::dev::math::fast_exp2(" + x + ")";
    if (op == "log")
        return "__logf(" + x + ")";
    if (op == "neg")
        return "(-" + x + ")";
    if (op == "abs")
        return "fabsf(" + x + ")";
    if (op == "sqrt")
        return "sqrtf(" + x + ")";
    if (op == "recip")
        return "(1.0f / " + x + ")";
    if (op == "relu")
        return "fmaxf(" + x + ", 0.0f)";
    if (op == "tanh")
        return "tanhf(" + x + ")";
    return std::nullopt;
}

std::string binary_fn(const std::string& op, const std::string& x, const std::string& y) {
    if (op == "max")
        return "fmaxf(" + x + ", " + y + ")";
    if (op == "min")
        return "fminf(" + x + ", " + y + ")";
    const char* sym = op == "add" ? " + " : op == "sub" ? " - " : op == "mul" ? " * " : " / ";
    return "(" + x + sym + y + ")";
}

void emit_elementwise(CodeWriter& w, const event::Op& call, const Access& dst,
                      const std::string& value_at) {
    if (dst.kind != Access::Kind::Rows && dst.kind != Access::Kind::Fragment)
        unsupported(call, "the destination " + dst.name + " must be a register fragment");
    open_loops(w, dst);
    w.line(dst.at("h", "c") + " = " + value_at + ";");
    close_loops(w, dst);
}

// `scale` (or ""): the source's values are to be multiplied by it (a deferred scale); a positive
// factor commutes with max and distributes over the sum, so it multiplies the reduced value.
void emit_row_reduce(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                     const std::string& op, const Access& r, const Access& s,
                     const std::string& scale) {
    if (r.kind != Access::Kind::Rows || s.kind == Access::Kind::Rows ||
        s.kind == Access::Kind::Scalar)
        unsupported(call, op + " needs a [2] destination and a [2, n] source");
    const bool mx = op == "rowmax";
    const auto q = plan.quad_rows.find(s.name);
    const bool quad = q != plan.quad_rows.end();
    Access src = s;
    if (quad) {
        const auto& frag = plan.scope.tensors.at(q->second);
        src = {Access::Kind::Fragment, frag.name, frag.shape[1], {}, 0};
        w.line("// " + op + "(" + r.name + ", " + s.name + "): the rows are the quad's fragments " +
               "of " + frag.name + ": this lane's part, then a butterfly over the quad");
    } else {
        w.line("// " + op + "(" + r.name + ", " + s.name + "): this thread's values of its two rows");
    }
    w.line("#pragma unroll");
    w.open("for (int h = 0; h < 2; ++h)");
    emit_partial_reduction(w, mx, src.cols, [&](const std::string& c) { return src.at("h", c); });
    if (quad)
        for (const char* lane : {"1", "2"})
            w.line(mx ? "v0 = fmaxf(v0, __shfl_xor_sync(0xffffffffu, v0, " + std::string(lane) + "));"
                      : "v0 += __shfl_xor_sync(0xffffffffu, v0, " + std::string(lane) + ");");
    const std::string v = scale.empty() ? "v0" : "v0 * " + scale;
    w.line(r.at("h", "0") + " = " +
           (mx ? "fmaxf(" + r.at("h", "0") + ", " + v + ")" : r.at("h", "0") + " + " + v) + ";");
    w.close();
}

// mask(S, row0, col0, ncols, causal): -inf where col >= ncols (or col > row), coordinates those
// of S's root tensor (through the accumulator fragment S mirrors) plus row0 / col0.
void emit_mask(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
               const event::Op& call, const std::map<std::string, event::View>& b,
               const ir::LeafOp& stmt) {
    const event::View& sv = operand_view(call, b, stmt, 0);
    const Access s = register_access(plan, call, sv);
    const auto& decl = plan.scope.tensors.at(sv.name);
    auto f = decl.mirrors ? fragment_place(plan, *decl.mirrors) : std::nullopt;
    if (s.kind != Access::Kind::Fragment || !f || f->role != ir::MmaRole::Acc)
        unsupported(call, "mask needs a register accumulator fragment that mirrors an "
                          "accumulator fragment (its coordinates)");
    std::string a[4];
    for (size_t i = 1; i < 5; ++i)
        a[i - 1] = operand_access(program, plan, call, b, stmt, i).name;
    w.line("// mask(" + s.name + "): -inf past column " + a[2] +
           (a[3] == "0" ? "" : " or above the diagonal") +
           "; only a tile that crosses them has elements to mask");
    const int rank = static_cast<int>(f->tensor->shape.size());
    const std::string first_col = a[1] + " + " + f->piece.origin[rank - 1];
    const std::string last_col =
        first_col + " + " + std::to_string(f->piece.extent[rank - 1] - 1);
    w.open("if (" + last_col + " >= " + a[2] + " || (" + a[3] + " != 0 && " + last_col + " > " +
           a[0] + " + " + f->piece.origin[rank - 2] + "))");
    w.line("#pragma unroll");
    w.open("for (int h = 0; h < 2; ++h)");
    w.line("const int row = " + a[0] + " + " + f->row + " + 8 * h;");
    w.line("#pragma unroll");
    w.open("for (int c = 0; c < " + std::to_string(s.cols) + "; ++c)");
    w.line("const int col = " + a[1] + " + " + f->col + " + 8 * (c / 2) + c % 2;");
    w.line("if (col >= " + a[2] + " || (" + a[3] + " != 0 && col > row)) " + s.at("h", "c") +
           " = __int_as_float(0xff800000);");
    w.close();
    w.close();
    w.close();
}

// Stores a thread's [2, n] values into its accumulator fragment of a SHARED tensor, converted to
// the tensor's type, two columns at a time.
void emit_shared_store(CodeWriter& w, const event::Op& op, const FragmentPlace& f,
                       const Access& src) {
    if (src.kind != Access::Kind::Fragment || f.role != ir::MmaRole::Acc)
        unsupported(op, "a store into shared memory needs a [2, n] fragment and an accumulator "
                        "fragment of " + f.tensor->name);
    const auto t = f.tensor->dtype;
    w.line("// " + src.name + " -> " + f.tensor->name + " (" + std::string(ir::spelling(t)) +
           (f.tensor->layout ? ", swizzle128" : "") + "): the accumulator fragment's pairs");
    w.line("#pragma unroll");
    w.open("for (int h = 0; h < 2; ++h)");
    w.line("#pragma unroll");
    w.open("for (int j = 0; j < " + std::to_string(src.cols / 2) + "; ++j)");
    const std::string addr =
        shared_address(op, f, f.row + " + 8 * h", f.col + " + 8 * j");
    const std::string v0 = src.at("h", "2 * j"), v1 = src.at("h", "2 * j + 1");
    if (t == ir::DType::F32)
        w.line("*reinterpret_cast<float2*>(" + addr + ") = make_float2(" + v0 + ", " + v1 + ");");
    else if (t == ir::DType::BF16)
        w.line("*reinterpret_cast<__nv_bfloat162*>(" + addr + ") = __floats2bfloat162_rn(" + v0 +
               ", " + v1 + ");");
    else if (t == ir::DType::F16)
        w.line("*reinterpret_cast<__half2*>(" + addr + ") = __floats2half2_rn(" + v0 + ", " + v1 +
               ");");
    else
        unsupported(op, "stores into " + std::string(ir::spelling(t)) + " shared tensors");
    w.close();
    w.close();
    w.line("kiln::dev::fence::proxy_async_shared();  // a wgmma or TMA may read it next");
}

} // namespace

std::string scalar_operand(const event::EventProgram& program, const event::Op& call,
                           const ir::Operand& o) {
    if (o.is_tensor())
        unsupported(call, "expected a scalar operand");
    return scalar_expr(program, call, o.scalar());
}

std::map<std::string, event::View> plan_row_aliases(const KernelPlan& plan) {
    std::map<std::string, event::View> out;
    for (const auto* op : plan.loop_body) {
        if (op->kind != event::OpKind::Copy || !op->dst.whole())
            continue;
        auto r = plan.scope.tensors.find(op->dst.name);
        auto f = fragment_place(plan, op->src);
        if (r == plan.scope.tensors.end() || r->second.memory != ir::Memory::Register || !f ||
            !is_shared_rows(*f) || elements(r->second.shape) <= kRowAliasLimit)
            continue;
        out.emplace(op->dst.name, op->src);
    }
    return out;
}

namespace {

// The tensor a view of an op reads or writes (through blocks and mma partitions).
const event::TensorDecl* tensor_of(const KernelPlan& plan, const event::View& v) {
    if (auto f = fragment_place(plan, v))
        return f->tensor;
    if (auto p = resolve_piece(plan.scope, v))
        return p->tensor;
    return nullptr;
}

std::vector<event::View> views_of(const event::Op& op) {
    if (op.kind == event::OpKind::Copy)
        return {op.src, op.dst};
    return op.args;
}

// Whether `op` may write the register tensor `reg`.
bool writes(const event::EventProgram* program, const event::Op& op, const std::string& reg) {
    if (op.kind == event::OpKind::Copy)
        return op.dst.name == reg;
    const event::LeafDef* leaf = program ? program->find_leaf(op.callee) : nullptr;
    if (!leaf)
        return true;
    size_t a = 0;
    for (const auto& p : leaf->params) {
        if (!p.is_tensor)
            continue;
        if (a < op.args.size() && op.args[a].name == reg && p.privilege != ir::Privilege::Read)
            return true;
        ++a;
    }
    return false;
}

// Whether every statement of `op` that names `alias` is a row reduction of it.
bool only_row_reduced(const event::EventProgram* program, const event::Op& op,
                      const std::string& alias) {
    const event::LeafDef* leaf = program ? program->find_leaf(op.callee) : nullptr;
    if (op.kind != event::OpKind::Call || !leaf)
        return false;
    std::set<std::string> params; // the leaf's names for the alias
    size_t a = 0;
    for (const auto& p : leaf->params) {
        if (!p.is_tensor)
            continue;
        if (a < op.args.size() && op.args[a].name == alias)
            params.insert(p.name);
        ++a;
    }
    for (const auto& st : leaf->body)
        for (size_t i = 0; i < st.operands.size(); ++i)
            if (st.operands[i].is_tensor() && params.count(st.operands[i].tensor().name) &&
                !(i == 1 && (st.op == "rowmax" || st.op == "rowsum")))
                return false;
    return true;
}

} // namespace

void plan_quad_rows(KernelPlan& plan) {
    const auto& body = plan.loop_body;
    for (const auto& [alias, src] : plan.row_aliases) {
        auto at = [&](auto pred) {
            return std::find_if(body.begin(), body.end(), pred) - body.begin();
        };
        const size_t ia = at([&](const event::Op* o) {
            return o->kind == event::OpKind::Copy && o->dst.name == alias;
        });
        auto fa = fragment_place(plan, src);
        if (ia >= body.size() || !fa)
            continue;
        // The latest earlier copy of a register fragment into the same piece of the tensor.
        size_t iw = ia;
        for (size_t i = ia; i-- > 0;) {
            const event::Op& o = *body[i];
            auto fw = o.kind == event::OpKind::Copy ? fragment_place(plan, o.dst) : std::nullopt;
            if (fw && fw->role == ir::MmaRole::Acc && fw->same_piece(*fa)) {
                iw = i;
                break;
            }
            if (fw && fw->tensor == fa->tensor)
                break; // another piece of it written in between
        }
        if (iw == ia)
            continue;
        const std::string reg = body[iw]->src.name;
        auto r = plan.scope.tensors.find(reg);
        if (r == plan.scope.tensors.end() || r->second.memory != ir::Memory::Register ||
            r->second.shape.size() != 2 || r->second.shape[0] != 2)
            continue;
        bool ok = true;
        for (size_t i = iw + 1; i < body.size() && ok; ++i) {
            const event::Op& o = *body[i];
            const bool uses = std::any_of(o.args.begin(), o.args.end(),
                                          [&](const event::View& v) { return v.name == alias; });
            if (i > ia && !uses)
                continue;
            ok = !writes(plan.program, o, reg) && (!uses || only_row_reduced(plan.program, o, alias));
        }
        if (!ok)
            continue;
        plan.quad_rows[alias] = reg;
    }
    // A tensor whose every reader is a quad alias: its stores and the aliases' copies are dead.
    std::set<const event::TensorDecl*> candidates;
    for (const auto& [alias, reg] : plan.quad_rows)
        candidates.insert(fragment_place(plan, plan.row_aliases.at(alias))->tensor);
    std::vector<const event::Op*> all = plan.before_loop;
    all.insert(all.end(), body.begin(), body.end());
    all.insert(all.end(), plan.after_loop.begin(), plan.after_loop.end());
    for (const auto* t : candidates) {
        std::vector<std::string> dead;
        bool ok = true;
        for (const auto* o : all)
            for (const auto& v : views_of(*o)) {
                if (tensor_of(plan, v) != t)
                    continue;
                const bool alias_copy =
                    o->kind == event::OpKind::Copy && plan.quad_rows.count(o->dst.name);
                const bool store = o->kind == event::OpKind::Copy && v.name == o->dst.name &&
                                   !plan.row_aliases.count(o->dst.name);
                if (alias_copy || store)
                    dead.push_back(o->result);
                else
                    ok = false;
            }
        if (ok) {
            plan.elided.insert(dead.begin(), dead.end());
            plan.dead_buffers.insert(t->name);
        }
    }
}

namespace {

// How a view of an op places its data for sharing_scope: the tensor, its piece, and the
// replicated instance.
struct Placed {
    const event::TensorDecl* tensor = nullptr;
    std::vector<std::string> origin;
    ir::Shape extent;
    std::string instance = "0";
};

std::optional<Placed> placed(const KernelPlan& plan, const event::View& v) {
    if (auto f = fragment_place(plan, v))
        return Placed{f->tensor, f->piece.origin, f->piece.extent, f->instance};
    if (auto p = resolve_piece(plan.scope, v))
        return Placed{p->tensor, p->origin, p->extent, "0"};
    return std::nullopt;
}

// "... g * 64": rows [64 g, 64 g + 64) of the warpgroup `g`.
bool warpgroup_rows(const Placed& p, const std::string& g) {
    const int rank = static_cast<int>(p.tensor->shape.size());
    if (rank < 2 || p.extent[rank - 2] != 64)
        return false;
    const std::string& o = p.origin[rank - 2];
    const std::string tail = g + " * 64";
    return o.size() >= tail.size() && o.compare(o.size() - tail.size(), tail.size(), tail) == 0 &&
           (o.size() == tail.size() || o[o.size() - tail.size() - 1] == ' ');
}

} // namespace

SharingScope sharing_scope(const KernelPlan& plan, const event::Op& a, const event::Op& b) {
    const std::string& g = plan.compute_dims[0].var;
    const std::string& wv = plan.compute_dims[1].var;
    SharingScope out = SharingScope::None;
    for (const auto& va : views_of(a))
        for (const auto& vb : views_of(b)) {
            auto pa = placed(plan, va), pb = placed(plan, vb);
            if (!pa || !pb) // unknown: assume the worst
                return SharingScope::All;
            if (pa->tensor != pb->tensor || pa->tensor->memory == ir::Memory::Register ||
                plan.dead_buffers.count(pa->tensor->name))
                continue;
            SharingScope s = SharingScope::All;
            if (pa->origin == pb->origin && pa->extent == pb->extent &&
                pa->instance == pb->instance) {
                if (pa->instance.find(g) != std::string::npos &&
                    pa->instance.find(wv) != std::string::npos)
                    s = SharingScope::Warp;
                else if (warpgroup_rows(*pa, g))
                    s = SharingScope::Warpgroup;
            }
            out = std::max(out, s);
        }
    return out;
}

namespace {

// The leaf statements of a call, with the call's view bound to each tensor operand.
struct BoundStatement {
    const ir::LeafOp* stmt;
    size_t index;
    std::vector<std::optional<event::View>> views;
};

std::vector<BoundStatement> bound_statements(const event::EventProgram& program,
                                             const event::Op& call) {
    std::vector<BoundStatement> out;
    const event::LeafDef* leaf = program.find_leaf(call.callee);
    if (call.kind != event::OpKind::Call || !leaf)
        return out;
    std::map<std::string, event::View> b;
    size_t a = 0;
    for (const auto& p : leaf->params)
        if (p.is_tensor && a < call.args.size())
            b[p.name] = call.args[a++];
    for (size_t i = 0; i < leaf->body.size(); ++i) {
        BoundStatement bs{&leaf->body[i], i, {}};
        for (const auto& o : leaf->body[i].operands) {
            auto it = o.is_tensor() ? b.find(o.tensor().name) : b.end();
            bs.views.push_back(it == b.end() ? std::nullopt : std::optional(it->second));
        }
        out.push_back(bs);
    }
    return out;
}

bool is_mma_statement(const ir::LeafOp& s) { return s.op == "mma" || s.op == "mma_bt"; }

} // namespace

void plan_register_operands(KernelPlan& plan) {
    if (!plan.program)
        return;
    const auto& body = plan.loop_body;
    for (size_t ix = 0; ix < body.size(); ++ix)
        for (const auto& st : bound_statements(*plan.program, *body[ix])) {
            if (st.stmt->op != "copy" || st.views.size() != 2 || !st.views[0] || !st.views[1])
                continue;
            auto fp = fragment_place(plan, *st.views[0]);
            auto e = plan.scope.tensors.find(st.views[1]->name);
            if (!fp || fp->role != ir::MmaRole::Acc || fp->tensor->memory != ir::Memory::Shared ||
                ir::dtype_bytes(fp->tensor->dtype) != 2 || e == plan.scope.tensors.end() ||
                e->second.memory != ir::Memory::Register || e->second.shape.size() != 2 ||
                plan.register_operands.count(fp->tensor->name))
                continue;
            const std::string reg = e->second.name;
            // Every other touch of the tensor: exactly one wgmma A operand on the same piece,
            // later in the iteration; e unchanged from the store to it.
            int readers = 0;
            bool ok = true;
            bool after_store = false;
            std::vector<const event::Op*> all = plan.before_loop;
            all.insert(all.end(), body.begin(), body.end());
            all.insert(all.end(), plan.after_loop.begin(), plan.after_loop.end());
            for (const auto* o : all) {
                const bool in_loop = std::find(body.begin(), body.end(), o) != body.end();
                for (const auto& bs : bound_statements(*plan.program, *o)) {
                    const bool the_store = o == body[ix] && bs.index == st.index;
                    if (the_store) {
                        after_store = true;
                        continue;
                    }
                    for (size_t i = 0; i < bs.views.size(); ++i) {
                        if (!bs.views[i])
                            continue;
                        if (after_store && readers == 0 && i == 0 && bs.views[i]->name == reg)
                            ok = false; // e written before the wgmma reads it
                        if (tensor_of(plan, *bs.views[i]) != fp->tensor)
                            continue;
                        auto fr = fragment_place(plan, *bs.views[i]);
                        if (in_loop && after_store && is_mma_statement(*bs.stmt) && i == 1 && fr &&
                            fr->role == ir::MmaRole::Lhs && fr->same_piece(*fp))
                            ++readers;
                        else
                            ok = false;
                    }
                }
                if (o->kind == event::OpKind::Copy &&
                    (tensor_of(plan, o->src) == fp->tensor ||
                     tensor_of(plan, o->dst) == fp->tensor ||
                     (after_store && readers == 0 && o->dst.name == reg)))
                    ok = false;
            }
            if (!ok || readers != 1)
                continue;
            plan.register_operands[fp->tensor->name] = reg;
            plan.forwarded_stores.insert(body[ix]->result + "/" + std::to_string(st.index));
            plan.dead_buffers.insert(fp->tensor->name);
        }
}

bool is_shared_fragment(const KernelPlan& plan, const event::View& v) {
    auto f = fragment_place(plan, v);
    return f && f->tensor->memory == ir::Memory::Shared;
}

bool emit_fragment_statement(CodeWriter& w, const event::EventProgram& program,
                             const KernelPlan& plan, const event::Op& call,
                             const std::map<std::string, event::View>& b, const ir::LeafOp& stmt,
                             const std::string& source_scale) {
    const ir::LeafOpInfo* info = ir::find_leaf_op(stmt.op);
    if (!info)
        return false;
    auto acc = [&](size_t i) { return operand_access(program, plan, call, b, stmt, i); };
    switch (info->kind) {
    case ir::LeafKind::Fill: {
        const Access d = acc(0);
        emit_elementwise(w, call, d, acc(1).name);
        return true;
    }
    case ir::LeafKind::Copy: {
        const event::View& dv = operand_view(call, b, stmt, 0);
        if (auto f = fragment_place(plan, dv); f && f->tensor->memory == ir::Memory::Shared) {
            emit_shared_store(w, call, *f, acc(1));
            return true;
        }
        const Access d = acc(0);
        emit_elementwise(w, call, d, read_at(call, d, acc(1)));
        return true;
    }
    case ir::LeafKind::Scale: {
        const Access d = acc(0);
        emit_elementwise(w, call, d, "(" + read_at(call, d, acc(1)) + " * " + acc(2).name + ")");
        return true;
    }
    case ir::LeafKind::Unary: {
        const Access d = acc(0);
        auto v = unary_fn(stmt.op, read_at(call, d, acc(1)));
        if (!v)
            return false;
        emit_elementwise(w, call, d, *v);
        return true;
    }
    case ir::LeafKind::Binary: {
        const Access d = acc(0);
        emit_elementwise(w, call, d,
                         binary_fn(stmt.op, read_at(call, d, acc(1)), read_at(call, d, acc(2))));
        return true;
    }
    case ir::LeafKind::RowReduce:
        emit_row_reduce(w, plan, call, stmt.op, acc(0), acc(1), source_scale);
        return true;
    case ir::LeafKind::Mask:
        emit_mask(w, program, plan, call, b, stmt);
        return true;
    default:
        return false;
    }
}

bool emit_fused_sub_exp(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                        const event::Op& call, const std::map<std::string, event::View>& b,
                        const ir::LeafOp& sub, const ir::LeafOp& exp,
                        const std::string& x_scale) {
    auto same_tensor = [&](const ir::LeafOp& st, size_t i, const std::string& name) {
        return i < st.operands.size() && st.operands[i].is_tensor() &&
               st.operands[i].tensor().name == name && st.operands[i].tensor().indices.empty();
    };
    if (sub.op != "sub" || exp.op != "exp" || sub.operands.size() != 3 ||
        !sub.operands[0].is_tensor() || !same_tensor(exp, 0, sub.operands[0].tensor().name) ||
        !same_tensor(exp, 1, sub.operands[0].tensor().name))
        return false;
    auto access = [&](size_t i) { return operand_access(program, plan, call, b, sub, i); };
    const Access d = access(0), x = access(1), y = access(2);
    if (d.kind != Access::Kind::Fragment || y.kind == Access::Kind::Fragment ||
        x.kind == Access::Kind::SharedRows || (x.kind == Access::Kind::Fragment && x.cols != d.cols))
        return false;
    const std::string x_log2e = x_scale.empty() ? "1.44269504f" : x_scale + " * 1.44269504f";
    w.line("// sub(" + d.name + ", " + x.name + ", " + y.name + "), exp(" + d.name +
           "): exp2 of one FMA per element" +
           (x_scale.empty() ? "" : ", " + x.name + "'s deferred scale in its multiplier"));
    open_loops(w, d);
    w.line(d.at("h", "c") + " = kiln::dev::math::fast_exp2(fmaf(" + x.at("h", "c") + ", " +
           x_log2e + ", -" + y.at("h", "c") + " * 1.44269504f));");
    close_loops(w, d);
    return true;
}

void emit_fragment_copy(CodeWriter& w, const KernelPlan& plan, const event::Op& copy) {
    if (auto dst = fragment_place(plan, copy.dst)) {
        if (dst->tensor->memory != ir::Memory::Shared)
            unsupported(copy, "a per-thread copy writes register or shared fragments only");
        emit_shared_store(w, copy, *dst, register_access(plan, copy, copy.src));
        return;
    }
    if (plan.row_aliases.count(copy.dst.name)) {
        w.line("// " + copy.dst.name + " aliases the rows of " + event::print_view(copy.src) +
               " in shared memory: read where it is used");
        return;
    }
    auto src = fragment_place(plan, copy.src);
    const Access d = register_access(plan, copy, copy.dst);
    if (!src || !is_shared_rows(*src) || d.kind != Access::Kind::Fragment)
        unsupported(copy, "a per-thread copy into registers reads whole rows of an f32 SHARED "
                          "tensor (an lhs fragment) into a [2, n] register fragment");
    w.line("// " + event::print_view(copy.src) + " -> " + d.name + ": this thread's two rows");
    emit_elementwise(w, copy, d, shared_rows_access(copy, *src, copy.src.name).at("h", "c"));
}

void emit_partial_reduction(CodeWriter& w, bool max, int64_t count,
                            const std::function<std::string(const std::string&)>& term) {
    auto op = [&](const std::string& a, const std::string& b) {
        return max ? "fmaxf(" + a + ", " + b + ")" : "(" + a + " + " + b + ")";
    };
    if (count < 8 || count % 4 != 0) {
        w.line("float v0 = " + term("0") + ";");
        w.line("#pragma unroll");
        w.line("for (int c = 1; c < " + std::to_string(count) + "; ++c) v0 = " + op("v0", term("c")) +
               ";");
        return;
    }
    w.line("// four independent partial chains: one chain would wait the FP latency at every term");
    w.line("float v0 = " + term("0") + ", v1 = " + term("1") + ", v2 = " + term("2") +
           ", v3 = " + term("3") + ";");
    w.line("#pragma unroll");
    w.open("for (int c = 4; c < " + std::to_string(count) + "; c += 4)");
    for (int k = 0; k < 4; ++k) {
        const std::string v = "v" + std::to_string(k);
        w.line(v + " = " + op(v, term(k ? "c + " + std::to_string(k) : "c")) + ";");
    }
    w.close();
    w.line("v0 = " + op(op("v0", "v1"), op("v2", "v3")) + ";");
}

} // namespace kiln::codegen
