#include "codegen/deferred_scale.h"

#include "codegen/leaf_lowering.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace kiln::codegen {
namespace {

// The register fragment `o` names (operand i of `stmt`), if it is a whole register tensor.
std::optional<std::string> register_operand(const KernelPlan& plan, const event::Op& call,
                                            const std::map<std::string, event::View>& b,
                                            const ir::LeafOp& stmt, size_t i) {
    if (i >= stmt.operands.size() || !stmt.operands[i].is_tensor())
        return std::nullopt;
    const auto it = b.find(stmt.operands[i].tensor().name);
    if (it == b.end() || !it->second.whole())
        return std::nullopt;
    const auto t = plan.scope.tensors.find(it->second.name);
    if (t == plan.scope.tensors.end() || t->second.memory != ir::Memory::Register)
        return std::nullopt;
    return t->second.name;
}

// The register a (whole-row) operand stands for: itself, or the fragment whose quad holds the
// rows it aliases (plan.quad_rows).
std::string register_behind(const KernelPlan& plan, const std::string& name) {
    const auto q = plan.quad_rows.find(name);
    return q == plan.quad_rows.end() ? name : q->second;
}

// The deferred registers each operand of `stmt` stands for, by operand index.
std::map<size_t, std::string> deferred_operands(const KernelPlan& plan, const event::Op& call,
                                                const std::map<std::string, event::View>& b,
                                                const ir::LeafOp& stmt,
                                                const DeferredScales& deferred) {
    std::map<size_t, std::string> out;
    for (size_t i = 0; i < stmt.operands.size(); ++i) {
        if (!stmt.operands[i].is_tensor())
            continue;
        const auto it = b.find(stmt.operands[i].tensor().name);
        if (it == b.end())
            continue;
        const std::string reg = register_behind(plan, it->second.name);
        if (deferred.count(reg))
            out[i] = reg;
    }
    return out;
}

} // namespace

bool defer_scale(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                 const std::map<std::string, event::View>& b, const ir::LeafOp& stmt,
                 DeferredScales& deferred) {
    if (stmt.op != "scale" || stmt.operands.size() != 3)
        return false;
    const auto d = register_operand(plan, call, b, stmt, 0);
    const auto x = register_operand(plan, call, b, stmt, 1);
    const auto c = literal_value(stmt.operands[2]);
    if (!d || !x || *d != *x || !c || !(*c > 0) || std::isinf(*c))
        return false;
    const std::string f = float_literal(call, stmt.operands[2]);
    deferred[*d] = deferred.count(*d) ? "(" + deferred[*d] + " * " + f + ")" : f;
    w.line("// scale(" + *d + ", " + *d + ", " + f + "): deferred, " + *d +
           " stays unscaled and its readers take the factor");
    return true;
}

std::string settle_deferred_scales(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                                   const std::map<std::string, event::View>& b,
                                   const ir::LeafOp& stmt, const ir::LeafOp* next,
                                   DeferredScales& deferred) {
    const auto ops = deferred_operands(plan, call, b, stmt, deferred);
    if (ops.empty())
        return "";
    if (stmt.op == "fill" && ops.count(0)) { // overwritten: the factor no longer applies
        deferred.erase(ops.at(0));
        return "";
    }
    // The reader shapes that take the factor, by the operand index of the deferred register: a
    // mask writes -inf into elements of X, whose scaled value is -inf too.
    std::optional<size_t> taker;
    if (stmt.op == "mask")
        taker = 0;
    else if (stmt.op == "rowmax" || (stmt.op == "sub" && next && next->op == "exp"))
        taker = 1;
    std::string factor;
    std::set<std::string> out;
    for (const auto& [i, reg] : ops) {
        const bool alone = std::count_if(ops.begin(), ops.end(), [&](const auto& o) {
                               return o.second == reg;
                           }) == 1;
        if (taker && i == *taker && alone && (i == 0 || !ops.count(0)))
            factor = stmt.op == "mask" ? "" : deferred.at(reg);
        else
            out.insert(reg);
    }
    multiply_out(w, plan, deferred, out);
    return factor;
}

void multiply_out(CodeWriter& w, const KernelPlan& plan, DeferredScales& deferred,
                  const std::set<std::string>& regs) {
    for (auto it = deferred.begin(); it != deferred.end();) {
        if (!regs.count(it->first)) {
            ++it;
            continue;
        }
        const auto& t = plan.scope.tensors.at(it->first);
        w.line("// the deferred scale of " + it->first + ", multiplied out");
        w.line("#pragma unroll");
        w.line("for (int e = 0; e < " + std::to_string(elements(t.shape)) + "; ++e) " +
               it->first + "[e] *= " + it->second + ";");
        it = deferred.erase(it);
    }
}

void end_iteration_scales(CodeWriter& w, const event::EventProgram& program,
                          const KernelPlan& plan, DeferredScales& deferred) {
    std::set<std::string> keep;
    for (const auto& [reg, f] : deferred) {
        // the first statement of the loop body that names reg
        std::optional<bool> filled;
        for (const auto* op : plan.loop_body) {
            if (filled)
                break;
            if (op->kind != event::OpKind::Call) {
                if (register_behind(plan, op->src.name) == reg ||
                    register_behind(plan, op->dst.name) == reg)
                    filled = false;
                continue;
            }
            const auto& leaf = leaf_of(program, *op);
            const auto b = bind_tensors(leaf, *op);
            for (const auto& st : leaf.body) {
                bool names = false;
                for (size_t i = 0; i < st.operands.size(); ++i)
                    names |= register_operand(plan, *op, b, st, i) == reg;
                if (names) {
                    filled = st.op == "fill" && register_operand(plan, *op, b, st, 0) == reg &&
                             !(st.operands.size() > 1 && st.operands[1].is_tensor());
                    break;
                }
            }
        }
        if (filled.value_or(false))
            w.line("// " + reg + "'s deferred scale dropped: the next iteration fills it first");
        else
            keep.insert(reg);
    }
    for (auto it = deferred.begin(); it != deferred.end();)
        it = keep.count(it->first) ? std::next(it) : deferred.erase(it);
    multiply_out(w, plan, deferred, keep);
}

} // namespace kiln::codegen
