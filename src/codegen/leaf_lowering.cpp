#include "codegen/leaf_lowering.h"

#include "codegen/deferred_scale.h"
#include "codegen/fragment_ops.h"
#include "codegen/tma_lowering.h"
#include "codegen/tma_store.h"
#include "ir/event_printer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

namespace kiln::codegen {
const event::TensorDecl& register_tensor(const KernelPlan& plan, const event::Op& call,
                                         const event::View& v) {
    auto it = plan.scope.tensors.find(v.name);
    if (!v.whole() || it == plan.scope.tensors.end() || it->second.memory != ir::Memory::Register ||
        it->second.dtype != ir::DType::F32)
        unsupported(call,
                    "'" + event::print_view(v) + "' is not a per-thread f32 register fragment");
    return it->second;
}

std::optional<double> literal_value(const ir::Operand& o) {
    if (o.is_tensor())
        return std::nullopt;
    const auto& e = o.scalar();
    if (e->kind == ir::ExprKind::Float)
        return e->float_value;
    if (e->kind == ir::ExprKind::Int)
        return static_cast<double>(e->int_value);
    if (e->kind == ir::ExprKind::Neg && e->args[0]->kind == ir::ExprKind::Float)
        return -e->args[0]->float_value;
    return std::nullopt;
}

std::string float_literal(const event::Op& call, const ir::Operand& o) {
    if (o.is_tensor())
        unsupported(call, "fill value must be a scalar literal");
    const auto lit = literal_value(o);
    if (!lit)
        unsupported(call, "fill value '" + ir::to_string(o.scalar()) + "' is not a literal");
    const double v = *lit;
    if (std::isnan(v))
        unsupported(call, "fill value NaN has no use as a literal");
    if (std::isinf(v)) // INFINITY is not defined under NVRTC; the bit pattern always is
        return v > 0 ? "__int_as_float(0x7f800000)" : "__int_as_float(0xff800000)";
    std::ostringstream s;
    s.precision(9);
    s << v;
    std::string text = s.str();
    if (text.find_first_of(".en") == std::string::npos)
        text += ".0";
    return text + "f";
}

std::string store_value(const event::Op& call, ir::DType t, const std::string& v) {
    switch (t) {
    case ir::DType::F32:
        return v;
    case ir::DType::BF16:
        return "__float2bfloat16_rn(" + v + ")";
    case ir::DType::F16:
        return "__float2half_rn(" + v + ")";
    default:
        unsupported(call, "stores to " + std::string(ir::spelling(t)) + " are not generated");
    }
}

std::string AccumulatorStore::value(const std::string& idx) const {
    std::string args;
    for (const auto* t : sources)
        args += (args.empty() ? "" : ", ") + t->name + "[" + idx + "]";
    const std::string v = fn.empty() ? args : fn + "(" + args + ")";
    // register `idx` of the accumulator order holds row h = idx / 2 % 2
    return divisor.empty() ? v : "(" + v + " / " + divisor + "[(" + idx + ") / 2 % 2])";
}

std::string AccumulatorStore::describe() const {
    std::string names;
    for (const auto* t : sources)
        names += ", " + t->name;
    if (!divisor.empty())
        return "div(" + global->name + names + ", " + divisor + ")";
    return (fn.empty() ? std::string("copy") : fn) + "(" + global->name + names + ")";
}

int64_t AccumulatorStore::columns() const {
    return piece.extent[global->shape.size() - 1];
}

AccumulatorStore resolve_accumulator_store(const KernelPlan& plan, const event::Op& call,
                                           const event::View& dv,
                                           std::vector<const event::TensorDecl*> sources,
                                           const std::string& fn) {
    if (sources.empty() || (fn.empty() && sources.size() != 1))
        unsupported(call, "a store needs a destination and register sources");
    const auto& src = *sources[0];
    for (const auto* s : sources)
        if (s->shape != src.shape)
            unsupported(call, "sources " + src.name + " and " + s->name + " differ in shape");
    const auto& dims = plan.compute_dims;
    auto frag = peel_fragment(plan.scope, dv, dims[1].var, dims[2].var);
    if (!frag || frag->role != ir::MmaRole::Acc)
        unsupported(call,
                    "the destination " + event::print_view(dv) + " is not an accumulator fragment");
    auto piece = resolve_piece(plan.scope, frag->warpgroup_view);
    if (!piece)
        unsupported(call, piece.errors()[0].message);
    const auto& g = *piece->tensor;
    const int rank = static_cast<int>(g.shape.size());
    const int64_t n = elements(src.shape);
    if (g.memory != ir::Memory::Global || rank < 2 ||
        piece->dims != std::vector<int>{rank - 2, rank - 1} || piece->extent[rank - 2] != 64 ||
        piece->extent[rank - 1] != 2 * n)
        unsupported(call, "the destination must be a 64 x N accumulator tile of a GLOBAL tensor "
                          "matching " +
                              src.name);
    return {&call, &plan.scope.tensors.at(g.name), *piece, std::move(sources),
            fn,    plan.compute_dims[0].var, ""};
}

const event::LeafDef& leaf_of(const event::EventProgram& program, const event::Op& call) {
    const event::LeafDef* leaf = program.find_leaf(call.callee);
    if (!leaf)
        unsupported(call, "leaf '" + call.callee + "' is not defined");
    return *leaf;
}

std::map<std::string, event::View> bind_tensors(const event::LeafDef& leaf, const event::Op& call) {
    std::map<std::string, event::View> out;
    size_t a = 0;
    for (const auto& p : leaf.params) {
        if (!p.is_tensor)
            continue;
        if (a >= call.args.size())
            unsupported(call, "fewer tensor arguments than leaf '" + leaf.name + "' takes");
        out[p.name] = call.args[a++];
    }
    return out;
}

const event::View& operand_view(const event::Op& call, const std::map<std::string, event::View>& b,
                                const ir::LeafOp& stmt, size_t i) {
    if (i >= stmt.operands.size() || !stmt.operands[i].is_tensor())
        unsupported(call, "operand " + std::to_string(i) + " of '" + stmt.op + "' is not a tensor");
    const auto& ref = stmt.operands[i].tensor();
    auto it = b.find(ref.name);
    if (!ref.indices.empty() || it == b.end())
        unsupported(call, "operand '" + ref.name + "' of '" + stmt.op +
                              "' is not a whole tensor parameter of the leaf");
    return it->second;
}

namespace {

// A wgmma operand: the warpgroup piece of a staged buffer behind a fragment view.
Piece smem_operand(const KernelPlan& plan, const event::Op& call, const event::View& v,
                   ir::MmaRole role) {
    const auto& dims = plan.compute_dims;
    auto frag = peel_fragment(plan.scope, v, dims[1].var, dims[2].var);
    if (!frag)
        unsupported(call, frag.errors()[0].message);
    if (frag->role != role)
        unsupported(call, "'" + event::print_view(v) + "' has mma role " +
                              std::string(ir::spelling(frag->role)) + ", expected " +
                              std::string(ir::spelling(role)));
    auto piece = resolve_piece(plan.scope, frag->warpgroup_view);
    if (!piece)
        unsupported(call, piece.errors()[0].message);
    const auto& t = *piece->tensor;
    if (t.memory != ir::Memory::Shared || !t.layout || *t.layout != mapping::Layout::Swizzle128 ||
        ir::dtype_bytes(t.dtype) != 2 || t.shape.size() != 2)
        unsupported(call, "wgmma operand " + t.name +
                              " must be a 2-D 16-bit SHARED buffer with layout swizzle128");
    return *piece;
}

std::string wgmma_dtype(const event::Op& call, ir::DType t) {
    if (t == ir::DType::BF16)
        return "kiln::dev::wgmma::DType::BF16";
    if (t == ir::DType::F16)
        return "kiln::dev::wgmma::DType::F16";
    unsupported(call, "wgmma operands must be bf16 or f16");
}

// A wgmma operand buffer's address: stage `stage` of a staged buffer, the buffer itself otherwise.
std::string operand_pointer(const event::TensorDecl& t, const std::string& stage) {
    return t.stages > 1 ? stage_pointer(t, stage) : t.name + "_smem";
}

// The 16-bit pairs of the register fragment `reg` that stands for A (plan.register_operands),
// packed before the batch's wgmma.fence: registers written between the fence and the wgmmas that
// read them would make ptxas inject a warpgroup.arrive per wgmma (C7519).
void emit_register_operand_packing(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                                   const std::string& reg, ir::DType t) {
    const auto& r = plan.scope.tensors.at(reg);
    if (r.shape.size() != 2 || r.shape[0] != 2 || r.shape[1] % 4 != 0)
        unsupported(call, "register operand " + reg + " is not a [2, 4k] fragment");
    const int64_t steps = r.shape[1] / 4;
    const std::string dt = wgmma_dtype(call, t);
    w.line("// " + reg + "_packed (declared with the registers): " + reg +
           " as wgmma A registers, k-step ks from registers 8ks .. 8ks + 7");
    w.line("#pragma unroll");
    w.open("for (int ks = 0; ks < " + std::to_string(steps) + "; ++ks)");
    w.line("#pragma unroll");
    w.line("for (int i = 0; i < 4; ++i) " + reg + "_packed[ks][i] = kiln::dev::wgmma::pack<" + dt +
           ">(" + reg + "[8 * ks + 2 * i], " + reg + "[8 * ks + 2 * i + 1]);");
    w.close();
}

// mma(C, A, B) (B an rhs fragment: [K, N], MN-major) or mma_bt(C, A, B) (B an rhs_t fragment:
// [N, K], K-major). A is K-major: 64 rows of a swizzle128 buffer, its K in 64-wide panels; or,
// where plan.register_operands keeps A's buffer in registers, the packed register fragment
// (wgmma's RS form: k-step ks takes registers 8ks .. 8ks + 7 of the fragment).
void emit_mma(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
              const std::map<std::string, event::View>& b, const ir::LeafOp& stmt, int n,
              const std::string& stage, bool zero_start) {
    const bool bt_form = stmt.op == "mma_bt";
    const auto& acc = register_tensor(plan, call, operand_view(call, b, stmt, 0));
    Piece a = smem_operand(plan, call, operand_view(call, b, stmt, 1), ir::MmaRole::Lhs);
    Piece bb = smem_operand(plan, call, operand_view(call, b, stmt, 2),
                            bt_form ? ir::MmaRole::RhsT : ir::MmaRole::Rhs);
    const auto& at = *a.tensor;
    const auto& bt = *bb.tensor;
    if (a.extent[0] != 64 || at.shape[1] % kPanelElems != 0 || a.extent[1] != at.shape[1] ||
        a.origin[1] != "0")
        unsupported(call, "the lhs operand must be 64 full rows of a buffer whose width is a "
                          "multiple of 64 elements");
    if (bb.origin[0] != "0" || bb.origin[1] != "0" || bb.extent != bt.shape)
        unsupported(call, "the rhs operand must be a whole buffer");
    const int64_t k = a.extent[1];
    const int64_t nn = bt_form ? bt.shape[0] : bt.shape[1];
    const int64_t bk = bt_form ? bt.shape[1] : bt.shape[0];
    if (bk != k || nn % (bt_form ? 8 : kPanelElems) != 0 || nn > 256 || at.dtype != bt.dtype)
        unsupported(call, "operand shapes " + ir::shape_string(a.extent) + " x " +
                              ir::shape_string(bt.shape) + " are not one wgmma m64nNk16 chain");
    if (elements(acc.shape) * 2 != nn)
        unsupported(call, "accumulator " + acc.name + " holds " +
                              std::to_string(elements(acc.shape)) + " values per thread, wgmma N=" +
                              std::to_string(nn) + " needs " + std::to_string(nn / 2));
    const std::string sw = "kiln::dev::swizzle::Mode::B128";
    const std::string da = "da" + std::to_string(n), db = "db" + std::to_string(n);
    const auto reg = plan.register_operands.find(at.name);
    const bool rs = reg != plan.register_operands.end();
    if (rs && plan.scope.tensors.at(reg->second).shape != ir::Shape{2, k / 4})
        unsupported(call, "register operand " + reg->second +
                              " does not hold the thread's part of " + at.name);
    w.line("// " + stmt.op + "(" + acc.name + ", " + at.name + ", " + bt.name + "): " +
           std::to_string(k / 16) + " x wgmma m64n" + std::to_string(nn) + "k16, " + at.name +
           (rs ? " from the registers of " + reg->second +
                     " (the accumulator layout is wgmma's A layout)"
               : std::string(" K-major")) +
           ", " + bt.name + (bt_form ? " K-major" : " MN-major"));
    if (!rs)
        w.line("const uint64_t " + da + " = kiln::dev::wgmma::make_desc<" + sw + ">(" +
               operand_pointer(at, stage) + " + (" + a.origin[0] + ") * " +
               std::to_string(kPanelRowBytes) + ", 16, 1024);");
    w.line("const uint64_t " + db + " = kiln::dev::wgmma::make_desc<" + sw + ">(" +
           operand_pointer(bt, stage) + ", " +
           (bt_form ? std::string("16") : std::to_string(bt.shape[0] * kPanelRowBytes)) +
           ", 1024);");
    // A K-major operand's k16 steps advance 32 bytes inside a 128-byte row, then a whole panel
    // (the buffer's rows x 128 bytes) every 4 steps.
    auto kmajor_step = [](int64_t rows) {
        return "ks / 4 * " + std::to_string(rows * kPanelRowBytes) + " + ks % 4 * 32";
    };
    const std::string a_step = at.shape[1] == kPanelElems ? "ks * 32" : kmajor_step(at.shape[0]);
    const std::string b_step =
        bt_form ? (bt.shape[1] == kPanelElems ? "ks * 32" : kmajor_step(bt.shape[0]))
                : "ks * " + std::to_string(16 * kPanelRowBytes);
    const std::string b_arg = "kiln::dev::wgmma::advance(" + db + ", " + b_step + ")";
    const std::string dt = wgmma_dtype(call, at.dtype), trans_b = bt_form ? "0" : "1";
    // scale-d 0: the first k-step ignores the accumulator's old values (it starts from zero)
    const std::string scale_d = zero_start ? "ks > 0" : "1";
    if (zero_start)
        w.line("// " + acc.name + " starts from zero: the first k-step's scale-d is 0");
    w.line("#pragma unroll");
    w.open("for (int ks = 0; ks < " + std::to_string(k / 16) + "; ++ks)");
    if (rs)
        w.line("kiln::dev::wgmma::mma_rs<" + std::to_string(nn) + ", " + dt + ", " + trans_b +
               ">(" + acc.name + ", " + reg->second + "_packed[ks], " + b_arg + ", " + scale_d +
               ");");
    else
        w.line("kiln::dev::wgmma::mma<" + std::to_string(nn) + ", " + dt + ", 0, " + trans_b +
               ">(" + acc.name + ", kiln::dev::wgmma::advance(" + da + ", " + a_step + "), " +
               b_arg + ", " + scale_d + ");");
    w.close();
}

void emit_fill(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
               const std::map<std::string, event::View>& b, const ir::LeafOp& stmt) {
    const auto& r = register_tensor(plan, call, operand_view(call, b, stmt, 0));
    if (stmt.operands.size() != 2)
        unsupported(call, "fill takes a tensor and a value");
    w.line("#pragma unroll");
    w.line("for (int e = 0; e < " + std::to_string(elements(r.shape)) + "; ++e) " + r.name +
           "[e] = " + float_literal(call, stmt.operands[1]) + ";");
}

std::string pair_store(ir::DType t, const std::string& p, const std::string& v0,
                       const std::string& v1) {
    if (t == ir::DType::BF16)
        return "*reinterpret_cast<__nv_bfloat162*>(" + p + ") = __floats2bfloat162_rn(" + v0 +
               ", " + v1 + ");";
    if (t == ir::DType::F16)
        return "*reinterpret_cast<__half2*>(" + p + ") = __floats2half2_rn(" + v0 + ", " + v1 +
               ");";
    return "*reinterpret_cast<float2*>(" + p + ") = make_float2(" + v0 + ", " + v1 + ");";
}

// Per-element epilogue functions of `call_external` leaf statements: name -> device definition.
// Their meaning is src/interp/externals.cpp's, which the simulator checks against.
const std::map<std::string, std::string>& epilogue_functions() {
    static const std::map<std::string, std::string> fns = {
        // __fdividef, not `/`: the IEEE division's slow path cost the dual GEMM 6-7% (1.04 ->
        // 1.10-1.12x the best unfused sequence, H100); for a large negative gate the divisor
        // overflows to inf and the quotient is 0, silu's limit.
        {"kiln_swiglu", "__device__ __forceinline__ float kiln_swiglu(float gate, float up) {  // "
                        "silu(gate) * up\n"
                        "    return __fdividef(gate, 1.0f + __expf(-gate)) * up;\n"
                        "}"},
    };
    return fns;
}

// How a direct store combines with the destination: converting stores, or fp32 reductions
// (red.global.add) for a reducing copy whose blocks all add into the same tile.
enum class StoreMode { Assign, Add };

std::string single_store(const AccumulatorStore& st, StoreMode mode, const std::string& at,
                         const std::string& v) {
    if (mode == StoreMode::Add)
        return "kiln::dev::atomic::red_add(out + " + at + ", " + v + ");";
    return "out[" + at + "] = " + store_value(*st.call, st.global->dtype, v) + ";";
}

// Direct stores from the accumulator registers: each thread writes (or adds) its pairs of
// columns of its two rows (4/8-byte accesses scattered over 8 rows per warp instruction).
void emit_direct_store(CodeWriter& w, const AccumulatorStore& st, StoreMode mode) {
    const auto& g = *st.global;
    if (mode == StoreMode::Add && g.dtype != ir::DType::F32)
        unsupported(*st.call, "a reducing copy adds into f32 tensors only, not " +
                                  std::string(ir::spelling(g.dtype)) + " " + g.name);
    const int rank = static_cast<int>(g.shape.size());
    const int64_t rows = g.shape[rank - 2], cols = g.shape[rank - 1];
    std::string base = g.name;
    int64_t stride = rows * cols;
    for (int d = rank - 3; d >= 0; --d) {
        base += " + static_cast<size_t>(" + st.piece.origin[d] + ") * " + std::to_string(stride);
        stride *= g.shape[d];
    }
    w.line(std::string("// ") + (mode == StoreMode::Add ? "red.global.add " : "") + st.describe() +
           ": accumulator coordinates of wgmma, predicated on " + g.name + "'s " +
           std::to_string(rows) + " x " + std::to_string(cols) + " bounds");
    w.line("const int row0 = " + st.piece.origin[rank - 2] +
           " + kiln::dev::wgmma::accumulator_row(wg_thread, 0);");
    w.line("const int col0 = " + st.piece.origin[rank - 1] +
           " + kiln::dev::wgmma::accumulator_col(wg_thread, 0);");
    w.line("#pragma unroll");
    w.open("for (int h = 0; h < 2; ++h)");
    w.line("const int row = row0 + 8 * h;");
    w.line("if (row >= " + std::to_string(rows) + ") continue;");
    w.line("auto* out = " + base + " + static_cast<size_t>(row) * " + std::to_string(cols) + ";");
    w.line("#pragma unroll");
    w.open("for (int n8 = 0; n8 < " + std::to_string(st.columns() / 8) + "; ++n8)");
    w.line("const int col = col0 + 8 * n8;");
    w.line("const float v0 = " + st.value("4 * n8 + 2 * h") +
           ", v1 = " + st.value("4 * n8 + 2 * h + 1") + ";");
    // Pairs are 4/8-byte aligned only when rows have an even number of elements.
    if (cols % 2 == 0) {
        w.line("if (col + 1 < " + std::to_string(cols) + ") " +
               (mode == StoreMode::Add
                    ? "kiln::dev::atomic::red_add_pair(out + col, v0, v1);"
                    : pair_store(g.dtype, "out + col", "v0", "v1")));
        w.line("else if (col < " + std::to_string(cols) + ") " +
               single_store(st, mode, "col", "v0"));
    } else {
        w.line("if (col < " + std::to_string(cols) + ") " + single_store(st, mode, "col", "v0"));
        w.line("if (col + 1 < " + std::to_string(cols) + ") " +
               single_store(st, mode, "col + 1", "v1"));
    }
    w.close();
    w.close();
}

// The per-element function a store statement applies: "" for copy(D, S), F for
// call_external(F, D, S...) of a known epilogue function; nothing for other statements.
std::optional<std::string> store_function(const ir::LeafOp& stmt) {
    if (stmt.op == "copy")
        return "";
    if (stmt.op == "call_external" && epilogue_functions().count(stmt.external))
        return stmt.external;
    return std::nullopt;
}

// The store statement `stmt` of `call` makes: D its first operand, the register sources after.
AccumulatorStore statement_store(const KernelPlan& plan, const event::Op& call,
                                 const std::map<std::string, event::View>& b,
                                 const ir::LeafOp& stmt, const std::string& fn) {
    std::vector<const event::TensorDecl*> sources;
    for (size_t i = 1; i < stmt.operands.size(); ++i)
        sources.push_back(&register_tensor(plan, call, operand_view(call, b, stmt, i)));
    return resolve_accumulator_store(plan, call, operand_view(call, b, stmt, 0), std::move(sources),
                                     fn);
}

// copy(D, S) or call_external(F, D, S...): the sources are accumulators in registers, D the
// accumulator fragment of a global piece; each element stores S[e] or F(S1[e], S2[e], ...),
// through shared memory and the TMA when `tma_stores` has a map for D's tensor.
void emit_store(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                const std::map<std::string, event::View>& b, const ir::LeafOp& stmt,
                const std::string& fn, const TmaStores& tma_stores) {
    const auto st = statement_store(plan, call, b, stmt, fn);
    auto map = tma_stores.find(st.global->name);
    if (map != tma_stores.end())
        emit_tma_store(w, st);
    else
        emit_direct_store(w, st, StoreMode::Assign);
}

// accumulate(D, S) on register fragments of one shape: D[e] += S[e].
void emit_accumulate(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                     const std::map<std::string, event::View>& b, const ir::LeafOp& stmt) {
    const auto& d = register_tensor(plan, call, operand_view(call, b, stmt, 0));
    const auto& s = register_tensor(plan, call, operand_view(call, b, stmt, 1));
    if (d.shape != s.shape)
        unsupported(call, "accumulate(" + d.name + ", " + s.name + ") of fragments " +
                              ir::shape_string(d.shape) + " and " + ir::shape_string(s.shape));
    w.line("#pragma unroll");
    w.line("for (int e = 0; e < " + std::to_string(elements(d.shape)) + "; ++e) " + d.name +
           "[e] += " + s.name + "[e];");
}

// rowsum(r, S): S the wgmma accumulator in registers ([2, N/2] per thread: rows h = 0, 1 at
// registers 4 * n8 + 2 * h + {0, 1}), r the thread's two row partials: r[h] += its columns.
// Padded columns of an edge tile hold exact zeros (TMA zero-fills A and B), so no predicate.
void emit_rowsum(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                 const std::map<std::string, event::View>& b, const ir::LeafOp& stmt) {
    const auto& r = register_tensor(plan, call, operand_view(call, b, stmt, 0));
    const auto& acc = register_tensor(plan, call, operand_view(call, b, stmt, 1));
    if (r.shape != ir::Shape{2} || acc.shape.size() != 2 || acc.shape[0] != 2)
        unsupported(call,
                    "rowsum needs a [2] row fragment and a [2, n] accumulator fragment, not " +
                        ir::shape_string(r.shape) + " and " + ir::shape_string(acc.shape));
    w.line("// rowsum(" + r.name + ", " + acc.name + "): this thread's columns of its two rows");
    w.line("#pragma unroll");
    w.open("for (int h = 0; h < 2; ++h)");
    // term n8: the row's pair of columns 8 n8 + 2 (t % 4) + {0, 1}
    emit_partial_reduction(w, false, acc.shape[1] / 2, [&](const std::string& n8) {
        const std::string at = "4 * (" + n8 + ") + 2 * h";
        return "(" + acc.name + "[" + at + "] + " + acc.name + "[" + at + " + 1])";
    });
    w.line(r.name + "[h] += v0;");
    w.close();
}

// copy add R -> P[t], R a thread's two row partials, P[t] its `mma(.., row, THREAD)` fragment of
// a GLOBAL f32 vector: the four lanes of a quad hold partials of the same two rows, so a
// butterfly over the quad sums them and one lane adds the total (red.global.add.f32).
// With P[t] an accumulator fragment of a GLOBAL f32 tile instead (a split-K partial product),
// each thread adds its own elements (no two lanes share one): red.global.add.v2.f32 per pair.
void emit_reduce_copy(CodeWriter& w, const KernelPlan& plan, const event::Op& copy) {
    const auto& r = register_tensor(plan, copy, copy.src);
    const auto& dims = plan.compute_dims;
    if (copy.mode != event::CopyMode::Add)
        unsupported(copy, "only `copy add` reduces on the GPU (float atomics have no max)");
    auto frag = peel_fragment(plan.scope, copy.dst, dims[1].var, dims[2].var);
    if (frag && frag->role == ir::MmaRole::Acc)
        return emit_direct_store(w, resolve_accumulator_store(plan, copy, copy.dst, {&r}, ""),
                                 StoreMode::Add);
    if (!frag || frag->role != ir::MmaRole::Row || r.shape != ir::Shape{2})
        unsupported(copy, "a reducing copy must add a [2] register fragment into its mma row "
                          "fragment of a global vector, or an accumulator fragment into its "
                          "accumulator fragment of a global tile");
    auto piece = resolve_piece(plan.scope, frag->warpgroup_view);
    if (!piece)
        unsupported(copy, piece.errors()[0].message);
    const auto& g = *piece->tensor;
    if (g.memory != ir::Memory::Global || g.dtype != ir::DType::F32 || g.shape.size() != 1 ||
        piece->extent[0] != 64)
        unsupported(copy, "the destination must be 64 rows of a GLOBAL f32 vector");
    const std::string rows = std::to_string(g.shape[0]);
    w.line("// " + r.name + " -> " + g.name + ": quad butterfly, then lane 0 of the quad adds");
    w.line("#pragma unroll");
    w.open("for (int h = 0; h < 2; ++h)");
    w.line("float v0 = " + r.name + "[h];");
    w.line("v0 += __shfl_xor_sync(0xffffffffu, v0, 1);");
    w.line("v0 += __shfl_xor_sync(0xffffffffu, v0, 2);");
    w.line("const int row = " + piece->origin[0] +
           " + kiln::dev::wgmma::accumulator_row(wg_thread, 2 * h);");
    w.line("if (threadIdx.x % 4 == 0 && row < " + rows + ") atomicAdd(" + g.name + " + row, v0);");
    w.close();
}

} // namespace

namespace {

// The accumulators a batch of mma statements [i, j) writes.
std::set<std::string> batch_accumulators(const KernelPlan& plan, const event::Op& call,
                                         const std::map<std::string, event::View>& b,
                                         const std::vector<ir::LeafOp>& body, size_t i, size_t j) {
    std::set<std::string> accs;
    for (; i < j; ++i)
        accs.insert(register_tensor(plan, call, operand_view(call, b, body[i], 0)).name);
    return accs;
}

// The issue of a packed batch up to its commit: the accumulators pinned, the fence, the wgmmas
// reading `stage`.
// `zeroed`: accumulators whose first wgmma of the batch starts from zero (their fill elided).
void emit_batch_issue(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                      const std::map<std::string, event::View>& b,
                      const std::vector<ir::LeafOp>& body, size_t i, size_t j,
                      const std::string& stage, std::set<std::string> zeroed = {}) {
    for (const auto& a : batch_accumulators(plan, call, b, body, i, j))
        w.line("kiln::dev::wgmma::fence_operand(" + a + ");");
    w.line("kiln::dev::wgmma::fence();");
    for (int n = 0; i < j; ++i) {
        const auto acc = register_tensor(plan, call, operand_view(call, b, body[i], 0)).name;
        emit_mma(w, plan, call, b, body[i], n++, stage, zeroed.erase(acc) > 0);
    }
}

} // namespace

bool is_wgmma_call(const event::EventProgram& program, const event::Op& call) {
    const event::LeafDef* leaf = program.find_leaf(call.callee);
    if (!leaf || leaf->body.empty())
        return false;
    for (const auto& s : leaf->body)
        if (s.op != "mma")
            return false;
    return true;
}

void emit_wgmma_call(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                     const event::Op& call, const std::string& stage) {
    const auto& leaf = leaf_of(program, call);
    if (!is_wgmma_call(program, call))
        unsupported(call, "a loop call must be made of mma statements (wgmma)");
    auto b = bind_tensors(leaf, call);
    emit_batch_issue(w, plan, call, b, leaf.body, 0, leaf.body.size(), stage);
    w.line("kiln::dev::wgmma::commit();");
    w.line("// At most this batch in flight: the previous iteration's wgmmas have retired.");
    w.line("kiln::dev::wgmma::wait<1>();");
    for (const auto& a : batch_accumulators(plan, call, b, leaf.body, 0, leaf.body.size()))
        w.line("kiln::dev::wgmma::fence_operand(" + a + ");");
}

namespace {

// True when `v` is an accumulator fragment of a GLOBAL tensor (a store's destination).
bool is_global_fragment(const KernelPlan& plan, const event::View& v) {
    const auto& dims = plan.compute_dims;
    auto frag = peel_fragment(plan.scope, v, dims[1].var, dims[2].var);
    if (!frag)
        return false;
    auto piece = resolve_piece(plan.scope, frag->warpgroup_view);
    return piece && piece->tensor->memory == ir::Memory::Global;
}

bool is_register(const KernelPlan& plan, const event::View& v) {
    auto it = plan.scope.tensors.find(v.name);
    return v.whole() && it != plan.scope.tensors.end() &&
           it->second.memory == ir::Memory::Register && !plan.row_aliases.count(v.name);
}

// div(D, S, r) into a GLOBAL accumulator fragment: the store of S with each row divided by r.
void emit_div_store(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                    const std::map<std::string, event::View>& b, const ir::LeafOp& stmt,
                    const TmaStores& tma_stores) {
    const auto& src = register_tensor(plan, call, operand_view(call, b, stmt, 1));
    const auto& r = register_tensor(plan, call, operand_view(call, b, stmt, 2));
    if (r.shape != ir::Shape{2})
        unsupported(call, "div into a global tile divides by a [2] row fragment, not " + r.name +
                              " " + ir::shape_string(r.shape));
    auto st = resolve_accumulator_store(plan, call, operand_view(call, b, stmt, 0), {&src}, "");
    st.divisor = r.name;
    if (tma_stores.count(st.global->name))
        emit_tma_store(w, st);
    else
        emit_direct_store(w, st, StoreMode::Assign);
}

// One per-thread leaf statement (not mma).
// `source_scale`: a deferred scale its row max takes (deferred_scale.h), or "".
void emit_statement(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                    const event::Op& call, const std::map<std::string, event::View>& b,
                    const ir::LeafOp& s, size_t index, const TmaStores& tma_stores,
                    const std::string& source_scale = "") {
    if (plan.forwarded_stores.count(call.result + "/" + std::to_string(index))) {
        w.line("// " + s.op + " into " + operand_view(call, b, s, 0).name +
               ": elided, the wgmma reading it takes the registers (RS form)");
        return;
    }
    const auto first = [&] { return operand_view(call, b, s, 0); };
    const auto second_is_register = [&] {
        return s.operands.size() > 1 && s.operands[1].is_tensor() &&
               is_register(plan, operand_view(call, b, s, 1));
    };
    if (s.op == "fill" && is_register(plan, first()))
        emit_fill(w, plan, call, b, s);
    else if (s.op == "rowsum" && second_is_register())
        emit_rowsum(w, plan, call, b, s);
    else if (s.op == "accumulate")
        emit_accumulate(w, plan, call, b, s);
    else if (s.op == "div" && is_global_fragment(plan, first()))
        emit_div_store(w, plan, call, b, s, tma_stores);
    else if (auto fn = store_function(s); fn && is_global_fragment(plan, first()))
        emit_store(w, plan, call, b, s, *fn, tma_stores);
    else if (!emit_fragment_statement(w, program, plan, call, b, s, source_scale))
        unsupported(call, "leaf statement '" + s.op +
                              (s.external.empty() ? "" : "(\"" + s.external + "\")") + "' of " +
                              call.callee + " has no per-thread lowering yet");
}

bool is_mma(const ir::LeafOp& s) { return s.op == "mma" || s.op == "mma_bt"; }

// The registers a batch of mma statements [i, j) of the call uses: its accumulators and the
// register fragments standing for A operands (plan.register_operands).
std::set<std::string> batch_registers(const KernelPlan& plan, const event::Op& call,
                                      const std::map<std::string, event::View>& b,
                                      const std::vector<ir::LeafOp>& body, size_t i, size_t j) {
    std::set<std::string> out;
    const auto& dims = plan.compute_dims;
    for (; i < j; ++i) {
        out.insert(operand_view(call, b, body[i], 0).name);
        auto frag = peel_fragment(plan.scope, operand_view(call, b, body[i], 1), dims[1].var,
                                  dims[2].var);
        if (!frag)
            continue;
        auto piece = resolve_piece(plan.scope, frag->warpgroup_view);
        if (!piece)
            continue;
        if (auto reg = plan.register_operands.find(piece->tensor->name);
            reg != plan.register_operands.end())
            out.insert(reg->second);
    }
    return out;
}

bool touches(const event::Op& call, const std::map<std::string, event::View>& b,
             const ir::LeafOp& s, const std::set<std::string>& regs) {
    for (size_t i = 0; i < s.operands.size(); ++i)
        if (s.operands[i].is_tensor() && regs.count(operand_view(call, b, s, i).name))
            return true;
    return false;
}

// The register A operands of a batch of mma statements [i, j), packed into their wgmma pairs.
void emit_batch_packing(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                        const std::map<std::string, event::View>& b,
                        const std::vector<ir::LeafOp>& body, size_t i, size_t j) {
    const auto accs = batch_accumulators(plan, call, b, body, i, j);
    const auto regs = batch_registers(plan, call, b, body, i, j);
    for (const auto& [tensor, reg] : plan.register_operands)
        if (regs.count(reg) && !accs.count(reg))
            emit_register_operand_packing(w, plan, call, reg, plan.scope.tensors.at(tensor).dtype);
}

// fill(X, 0) right before a batch whose first wgmma into register accumulator X: the wgmma's
// scale-d = 0 does it without a move per element.
bool zero_fill_before_batch(const KernelPlan& plan, const event::Op& call,
                            const std::map<std::string, event::View>& b,
                            const std::vector<ir::LeafOp>& body, size_t i) {
    const ir::LeafOp& s = body[i];
    if (s.op != "fill" || s.operands.size() != 2 || i + 1 >= body.size() || !is_mma(body[i + 1]) ||
        !is_register(plan, operand_view(call, b, s, 0)))
        return false;
    return literal_value(s.operands[1]) == 0.0 &&
           operand_view(call, b, s, 0).name == operand_view(call, b, body[i + 1], 0).name;
}

// In its own block: its descriptors may share names with the batch it follows.
void issue_pending(CodeWriter& w, const PendingBatch& pending) {
    w.open("");
    for (const auto& l : pending.issue)
        w.line(l);
    w.close();
}

} // namespace

std::optional<PendingBatch> final_batch(const event::EventProgram& program, const KernelPlan& plan,
                                        const event::Op& call, const std::string& stage) {
    if (call.kind != event::OpKind::Call)
        return std::nullopt;
    const auto& leaf = leaf_of(program, call);
    if (leaf.body.empty() || !is_mma(leaf.body.back()))
        return std::nullopt;
    size_t i = leaf.body.size();
    while (i > 0 && is_mma(leaf.body[i - 1]))
        --i;
    const auto b = bind_tensors(leaf, call);
    PendingBatch p;
    p.active = true;
    p.accumulators = batch_accumulators(plan, call, b, leaf.body, i, leaf.body.size());
    for (const auto& r : batch_registers(plan, call, b, leaf.body, i, leaf.body.size()))
        if (!p.accumulators.count(r))
            p.packed.insert(r + "_packed");
    CodeWriter issue;
    emit_batch_issue(issue, plan, call, b, leaf.body, i, leaf.body.size(), stage);
    std::istringstream lines(issue.text());
    for (std::string l; std::getline(lines, l);)
        p.issue.push_back(l);
    return p;
}

void retire_pending(CodeWriter& w, PendingBatch& pending, const std::string& why) {
    if (!pending.active)
        return;
    if (!pending.issued) {
        issue_pending(w, pending);
        w.line("kiln::dev::wgmma::commit();");
    }
    w.line("kiln::dev::wgmma::wait<0>();  // " + why);
    for (const auto& l : pending.retire)
        w.line(l);
    pending = {};
}

bool emit_loop_call(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                    const event::Op& call, const std::string& stage, const TmaStores& tma_stores,
                    PendingBatch& pending, const PendingBatch* deferral, DeferredScales& scales) {
    const std::string why = "retires the deferred wgmma batch first";
    if (call.kind == event::OpKind::Copy) {
        if (pending.active && (pending.accumulators.count(call.src.name) ||
                               pending.accumulators.count(call.dst.name)))
            retire_pending(w, pending, why);
        multiply_out(w, plan, scales, {call.src.name, call.dst.name});
        emit_fragment_copy(w, plan, call);
        return false;
    }
    const auto& leaf = leaf_of(program, call);
    auto b = bind_tensors(leaf, call);
    std::set<std::string> zeroed;
    for (size_t i = 0; i < leaf.body.size();) {
        if (!is_mma(leaf.body[i])) {
            if (pending.active && touches(call, b, leaf.body[i], pending.accumulators))
                retire_pending(w, pending, why);
            if (defer_scale(w, plan, call, b, leaf.body[i], scales)) {
                ++i;
                continue;
            }
            const ir::LeafOp* next = i + 1 < leaf.body.size() ? &leaf.body[i + 1] : nullptr;
            const std::string factor =
                settle_deferred_scales(w, plan, call, b, leaf.body[i], next, scales);
            if (zero_fill_before_batch(plan, call, b, leaf.body, i)) {
                zeroed.insert(register_tensor(plan, call, operand_view(call, b, leaf.body[i], 0)).name);
                w.line("// " + leaf.body[i].op + "(" + operand_view(call, b, leaf.body[i], 0).name +
                       ", 0): the next wgmma's scale-d");
                ++i;
                continue;
            }
            if (next && emit_fused_sub_exp(w, program, plan, call, b, leaf.body[i], *next, factor)) {
                i += 2;
                continue;
            }
            if (!factor.empty() && leaf.body[i].op != "rowmax") // a sub that did not fuse
                multiply_out(w, plan, scales, {operand_view(call, b, leaf.body[i], 1).name});
            emit_statement(w, program, plan, call, b, leaf.body[i], i, tma_stores,
                           leaf.body[i].op == "rowmax" ? factor : "");
            ++i;
            continue;
        }
        // A batch of consecutive mma statements: issued together, then drained (the statements
        // after it, and the next call, read the accumulators or refill the stages), unless it
        // ends the iteration's last call.
        size_t j = i;
        while (j < leaf.body.size() && is_mma(leaf.body[j]))
            ++j;
        const auto regs = batch_registers(plan, call, b, leaf.body, i, j);
        // a deferred scale of an accumulator it starts from zero is void; any other is
        // multiplied out before the wgmmas read the registers
        for (const auto& z : zeroed)
            scales.erase(z);
        multiply_out(w, plan, scales, regs);
        // it writes the pending batch's accumulators, or repacks the A registers it reads
        if (pending.active && std::any_of(regs.begin(), regs.end(), [&](const std::string& r) {
                return pending.accumulators.count(r) != 0 || pending.packed.count(r + "_packed");
            }))
            retire_pending(w, pending, why);
        // packed now, so the fragments they come from are free for the statements that follow
        emit_batch_packing(w, plan, call, b, leaf.body, i, j);
        if (deferral && j == leaf.body.size()) {
            w.line("// issued in the next iteration, behind its first wgmma batch (or after the "
                   "loop)");
            pending = *deferral;
            return true;
        }
        const auto accs = batch_accumulators(plan, call, b, leaf.body, i, j);
        emit_batch_issue(w, plan, call, b, leaf.body, i, j, stage, std::exchange(zeroed, {}));
        i = j;
        w.line("kiln::dev::wgmma::commit();");
        const auto pin = [&] {
            for (const auto& a : accs)
                w.line("kiln::dev::wgmma::fence_operand(" + a + ");");
        };
        if (pending.active && !pending.issued) {
            w.line("// the deferred batch, issued behind this one: it runs on the tensor cores "
                   "under the statements that follow");
            issue_pending(w, pending);
            w.line("kiln::dev::wgmma::commit();");
            w.line("kiln::dev::wgmma::wait<1>();  // this batch only");
            pending.issued = true;
            pin();
            continue;
        }
        w.line("kiln::dev::wgmma::wait<0>();");
        pin();
        if (pending.active) {
            w.line("// the deferred batch retired with this one");
            for (const auto& l : pending.retire)
                w.line(l);
            pending = {};
        }
    }
    return false;
}

void emit_thread_call(CodeWriter& w, const event::EventProgram& program, const KernelPlan& plan,
                      const event::Op& call, const TmaStores& tma_stores) {
    if (call.kind == event::OpKind::Copy) {
        if (call.mode == event::CopyMode::Add)
            return emit_reduce_copy(w, plan, call);
        return emit_fragment_copy(w, plan, call);
    }
    const auto& leaf = leaf_of(program, call);
    auto b = bind_tensors(leaf, call);
    for (size_t i = 0; i < leaf.body.size(); ++i)
        emit_statement(w, program, plan, call, b, leaf.body[i], i, tma_stores);
}

TmaStores plan_tma_stores(const event::EventProgram& program, const KernelPlan& plan,
                          const std::set<std::string>& loaded, bool enabled) {
    TmaStores out;
    if (!enabled)
        return out;
    for (const auto* call : plan.after_loop) {
        if (call->kind != event::OpKind::Call)
            continue;
        const auto& leaf = leaf_of(program, *call);
        auto b = bind_tensors(leaf, *call);
        for (const auto& s : leaf.body) {
            const auto fn = store_function(s);
            if (!fn)
                continue;
            const auto st = statement_store(plan, *call, b, s, *fn);
            if (tma_storable(st) && !loaded.count(st.global->name))
                out.emplace(st.global->name, tma_store_map(st));
        }
    }
    return out;
}

std::vector<std::string> epilogue_definitions(const event::EventProgram& program) {
    std::vector<std::string> out;
    for (const auto& [name, def] : epilogue_functions()) {
        bool used = false;
        for (const auto& leaf : program.leaves)
            for (const auto& st : leaf.body)
                used = used || (st.op == "call_external" && st.external == name);
        if (used)
            out.push_back(def);
    }
    return out;
}

} // namespace kiln::codegen
