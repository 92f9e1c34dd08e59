#include "passes/leaf_rules.h"

#include "ir/leaf_ops.h"
#include "passes/operand.h"

#include <optional>

namespace kiln::passes {
namespace {

using ir::OperandUse;
using ir::Privilege;

std::string op_label(const ir::LeafOp &op) {
    return op.op == "call_external" ? "call_external(\"" + op.external + "\")" : op.op;
}

// The reduce privilege whose operator an accumulating op combines with; nullopt for mask, which
// rewrites elements in place.
std::optional<Privilege> combining_privilege(const ir::LeafOpInfo &info) {
    switch (info.kind) {
    case ir::LeafKind::Mma:
    case ir::LeafKind::MmaBT:
    case ir::LeafKind::AddInto:
        return Privilege::ReduceAdd;
    case ir::LeafKind::RowReduce:
    case ir::LeafKind::ColReduce:
        return info.name.ends_with("max") ? Privilege::ReduceMax : Privilege::ReduceAdd;
    default:
        return std::nullopt;
    }
}

// call_external is opaque: its first tensor operand counts as written, the rest as read.
std::vector<OperandUse> operand_uses(const ir::LeafOp &op, const ir::LeafOpInfo &info,
                                     const Scope &scope) {
    if (info.kind != ir::LeafKind::External)
        return info.operands;
    std::vector<OperandUse> uses;
    bool first = true;
    for (const auto &operand : op.operands) {
        bool tensor = view_operand(operand, [&](const std::string &n) {
                          return scope.names_tensor(n);
                      }).is_tensor;
        uses.push_back(!tensor ? OperandUse::Scalar : first ? OperandUse::Write : OperandUse::Read);
        first = first && !tensor;
    }
    return uses;
}

bool takes_tensor(OperandUse u) {
    return u == OperandUse::Write || u == OperandUse::Read || u == OperandUse::Accumulate;
}

class AccessCheck {
public:
    AccessCheck(const ir::LeafOp &op, const ir::Variant &variant, const ir::Task &task,
                const Scope &scope, std::set<std::string> &written, Diagnostics &d)
        : op_(op), variant_(variant), task_(task), scope_(scope), written_(written), d_(d),
          label_(op_label(op)), where_("variant " + variant.name) {}

    void run() {
        const ir::LeafOpInfo *info = ir::find_leaf_op(op_.op);
        if (!info) {
            d_.error(op_.loc, "unknown leaf operation '" + op_.op + "' in " + where_);
            return;
        }
        auto uses = operand_uses(op_, *info, scope_);
        if (uses.size() != op_.operands.size()) {
            d_.error(op_.loc, label_ + " in " + where_ + " takes " + std::to_string(uses.size()) +
                                  " operands, got " + std::to_string(op_.operands.size()));
            return;
        }
        std::vector<const Declared *> tensors(uses.size(), nullptr);
        for (std::size_t i = 0; i < uses.size(); ++i)
            tensors[i] = operand(i, uses[i], combining_privilege(*info));
        if (info->kind == ir::LeafKind::Mma || info->kind == ir::LeafKind::MmaBT)
            check_mma_dtypes(tensors);
        // Writes land after the op has read its inputs.
        for (std::size_t i = 0; i < uses.size(); ++i)
            if (uses[i] == OperandUse::Write && tensors[i])
                written_.insert(name_of(i));
    }

private:
    OperandView view(std::size_t i) const {
        return view_operand(op_.operands[i],
                            [&](const std::string &n) { return scope_.names_tensor(n); });
    }
    std::string name_of(std::size_t i) const { return view(i).tensor.name; }

    std::string operand_text(std::size_t i, const OperandView &v) const {
        return "operand " + std::to_string(i + 1) + " (" +
               (v.is_tensor ? ref_text(v.tensor) : ir::to_string(v.scalar)) + ")";
    }

    // Checks operand i against its use; returns its declaration when it is a usable tensor.
    const Declared *operand(std::size_t i, OperandUse use, std::optional<Privilege> combine) {
        OperandView v = view(i);
        if (!v.is_tensor) {
            check_expr(*v.scalar, scope_, where_, d_);
            if (takes_tensor(use) &&
                (v.scalar->kind != ir::ExprKind::Name || scope_.find(v.scalar->name)))
                d_.error(v.scalar->loc, label_ + " in " + where_ + ": " + operand_text(i, v) +
                                            " must be a tensor");
            return nullptr;
        }
        if (use == OperandUse::Scalar) {
            d_.error(v.tensor.loc,
                     label_ + " in " + where_ + ": " + operand_text(i, v) + " must be a scalar");
            return nullptr;
        }
        const Declared *decl = scope_.find(v.tensor.name);
        if (!decl) {
            d_.error(v.tensor.loc, "unknown tensor '" + v.tensor.name + "' in " + where_);
            return nullptr;
        }
        if (!v.tensor.indices.empty() || decl->kind == NameKind::Partition) {
            d_.error(v.tensor.loc, label_ + " in " + where_ + ": " + operand_text(i, v) +
                                       " is a partition piece; leaf operations take whole tensors");
            return nullptr;
        }
        check_privilege(v.tensor, *decl, use, combine);
        return decl;
    }

    void check_privilege(const ir::TensorRef &ref, const Declared &decl, OperandUse use,
                         std::optional<Privilege> combine) {
        if (!decl.param)
            return; // a tensor the variant created: its own to use
        Privilege p = decl.param->privilege;
        bool wrote_before = written_.count(ref.name) > 0;
        bool ok = false;
        std::string verb, need;
        switch (use) {
        case OperandUse::Write:
            ok = ir::privilege_writes(p);
            verb = "writes";
            break;
        case OperandUse::Accumulate:
            ok = p == Privilege::ReadWrite || (combine && p == *combine) ||
                 (p == Privilege::Write && wrote_before);
            verb = "accumulates into";
            need = " (" + label_ + " needs rw" +
                   (combine ? " or " + std::string(ir::spelling(*combine)) : "") + ")";
            break;
        default:
            ok = ir::privilege_reads(p) || (p == Privilege::Write && wrote_before);
            verb = "reads";
            break;
        }
        if (ok)
            return;
        std::string not_written =
            p == Privilege::Write && use != OperandUse::Write
                ? " and nothing in " + variant_.name + " writes " + ref.name + " before it"
                : "";
        d_.error(ref.loc, label_ + " in " + where_ + " " + verb + " " + ref.name + ", but task " +
                              task_.name + " holds " + std::string(ir::spelling(p)) + " on " +
                              ref.name + not_written + need);
    }

    void check_mma_dtypes(const std::vector<const Declared *> &t) {
        if (!t[0] || !t[1] || !t[2])
            return;
        auto name = [&](int i) { return name_of(i); };
        auto dt = [&](int i) { return std::string(ir::spelling(t[i]->dtype)); };
        auto is_mma_input = [](ir::DType x) {
            return x == ir::DType::F16 || x == ir::DType::BF16 || x == ir::DType::F8E4M3 ||
                   x == ir::DType::F8E5M2;
        };
        std::string head = label_ + " in " + where_ + ": ";
        if (t[1]->dtype != t[2]->dtype)
            d_.error(op_.loc, head + name(1) + " is " + dt(1) + " but " + name(2) + " is " + dt(2) +
                                  "; both inputs must have the same dtype");
        else if (!is_mma_input(t[1]->dtype))
            d_.error(op_.loc, head + "inputs " + name(1) + " and " + name(2) + " are " + dt(1) +
                                  "; the Tensor Cores take f16, bf16, f8e4m3 or f8e5m2");
        if (t[0]->dtype != ir::DType::F32 && t[0]->dtype != ir::DType::F16)
            d_.error(op_.loc,
                     head + "accumulator " + name(0) + " is " + dt(0) + "; it must be f32 or f16");
    }

    const ir::LeafOp &op_;
    const ir::Variant &variant_;
    const ir::Task &task_;
    const Scope &scope_;
    std::set<std::string> &written_;
    Diagnostics &d_;
    std::string label_;
    std::string where_;
};

// Shape rules, one function per operation kind.
class ShapeCheck {
public:
    ShapeCheck(const ir::LeafOp &op, const ShapeOf &shape_of,
               const std::function<bool(const std::string &)> &names_tensor,
               const std::string &where, Diagnostics &d)
        : op_(op), shape_of_(shape_of), names_tensor_(names_tensor), d_(d),
          head_(op.op + " in " + where + ": ") {}

    void run() {
        const ir::LeafOpInfo *info = ir::find_leaf_op(op_.op);
        if (!info || info->kind == ir::LeafKind::External ||
            info->operands.size() != op_.operands.size())
            return;
        switch (info->kind) {
        case ir::LeafKind::Mma:
            return mma(false);
        case ir::LeafKind::MmaBT:
            return mma(true);
        case ir::LeafKind::Copy:
        case ir::LeafKind::AddInto:
        case ir::LeafKind::Unary:
        case ir::LeafKind::Scale:
            return same_as_destination(1);
        case ir::LeafKind::Binary:
            broadcastable(1);
            broadcastable(2);
            return;
        case ir::LeafKind::RowReduce:
            return reduction(0);
        case ir::LeafKind::ColReduce:
            return reduction(1);
        case ir::LeafKind::Mask:
            return mask();
        default:
            return;
        }
    }

private:
    // Operand i's name and concrete shape; false when it is a scalar or its shape is unknown.
    bool tensor(std::size_t i, std::string &name, ir::Shape &shape) const {
        OperandView v = view_operand(op_.operands[i], names_tensor_);
        if (!v.is_tensor)
            return false;
        const ir::Shape *s = shape_of_(v.tensor.name);
        if (!s)
            return false;
        name = v.tensor.name;
        shape = *s;
        return true;
    }

    static std::string text(const std::string &name, const ir::Shape &s) {
        return name + " " + ir::shape_string(s);
    }

    void mma(bool b_transposed) {
        std::string c, a, b;
        ir::Shape sc, sa, sb;
        if (!tensor(0, c, sc) || !tensor(1, a, sa) || !tensor(2, b, sb))
            return;
        bool ok = sc.size() == 2 && sa.size() == 2 && sb.size() == 2;
        if (ok) {
            int64_t k = b_transposed ? sb[1] : sb[0], n = b_transposed ? sb[0] : sb[1];
            ok = sa[0] == sc[0] && sa[1] == k && n == sc[1];
        }
        if (!ok)
            d_.error(op_.loc, head_ + "shapes " + text(c, sc) + ", " + text(a, sa) + ", " +
                                  text(b, sb) + " do not form " +
                                  (b_transposed ? "[R, N] += [R, K] x [N, K]^T"
                                                : "[R, N] += [R, K] x [K, N]"));
    }

    void same_as_destination(std::size_t i) {
        std::string d, s;
        ir::Shape sd, ss;
        if (tensor(0, d, sd) && tensor(i, s, ss) && sd != ss)
            d_.error(op_.loc,
                     head_ + text(s, ss) + " and " + text(d, sd) + " must have the same shape");
    }

    // A tensor of the destination's shape, or one value per row of a 2-d destination.
    void broadcastable(std::size_t i) {
        std::string d, x;
        ir::Shape sd, sx;
        if (!tensor(0, d, sd) || !tensor(i, x, sx) || sx == sd)
            return;
        bool per_row = sd.size() == 2 && sx == ir::Shape{sd[0]};
        if (per_row)
            return;
        std::string allowed = "must have " + d + "'s shape " + ir::shape_string(sd);
        if (sd.size() == 2)
            allowed += " or hold one value per row of " + d + " " + ir::shape_string({sd[0]});
        d_.error(op_.loc, head_ + text(x, sx) + " " + allowed);
    }

    // rowsum/rowmax keep dimension 0 of the source, colsum/colmax dimension 1.
    void reduction(std::size_t kept) {
        std::string r, s;
        ir::Shape sr, ss;
        if (!tensor(0, r, sr) || !tensor(1, s, ss))
            return;
        if (ss.size() != 2) {
            d_.error(op_.loc, head_ + "source " + text(s, ss) + " must be 2-d");
            return;
        }
        if (sr != ir::Shape{ss[kept]})
            d_.error(op_.loc, head_ + text(r, sr) + " must be " + ir::shape_string({ss[kept]}) +
                                  ", one value per " + (kept == 0 ? "row" : "column") + " of " +
                                  text(s, ss));
    }

    void mask() {
        std::string s;
        ir::Shape ss;
        if (tensor(0, s, ss) && ss.size() != 2)
            d_.error(op_.loc, head_ + text(s, ss) + " must be 2-d");
    }

    const ir::LeafOp &op_;
    const ShapeOf &shape_of_;
    const std::function<bool(const std::string &)> &names_tensor_;
    Diagnostics &d_;
    std::string head_;
};

} // namespace

void check_leaf_access(const ir::LeafOp &op, const ir::Variant &variant, const ir::Task &task,
                       const Scope &scope, std::set<std::string> &written, Diagnostics &d) {
    AccessCheck(op, variant, task, scope, written, d).run();
}

void check_leaf_shapes(const ir::LeafOp &op, const ShapeOf &shape_of,
                       const std::function<bool(const std::string &)> &names_tensor,
                       const std::string &where, Diagnostics &d) {
    ShapeCheck(op, shape_of, names_tensor, where, d).run();
}

std::vector<std::string>
leaf_tensor_operands(const ir::LeafOp &op,
                     const std::function<bool(const std::string &)> &names_tensor) {
    std::vector<std::string> out;
    for (const auto &operand : op.operands)
        if (auto v = view_operand(operand, names_tensor); v.is_tensor)
            out.push_back(v.tensor.name);
    return out;
}

} // namespace kiln::passes
