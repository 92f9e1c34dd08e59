#include "program_diff.h"

namespace kiln::ir::testing {
namespace {

// Each compare() returns false after recording the path of the first difference.
class Differ {
public:
    std::string where;

    bool same(bool equal, const std::string& what) {
        if (!equal && where.empty())
            where = what;
        return equal;
    }

    bool exprs(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b,
               const std::string& what) {
        if (!same(a.size() == b.size(), what + ": length"))
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same(equal(a[i], b[i]), what + "[" + std::to_string(i) + "]: " + to_string(a[i]) +
                                             " vs " + to_string(b[i])))
                return false;
        return true;
    }

    bool operands(const std::vector<Operand>& a, const std::vector<Operand>& b,
                  const std::string& what) {
        if (!same(a.size() == b.size(), what + ": operand count"))
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            std::string at = what + " operand " + std::to_string(i);
            if (!same(a[i].is_tensor() == b[i].is_tensor(), at + ": tensor vs scalar"))
                return false;
            if (!a[i].is_tensor()) {
                if (!same(equal(a[i].scalar(), b[i].scalar()), at))
                    return false;
                continue;
            }
            const TensorRef &x = a[i].tensor(), &y = b[i].tensor();
            if (!same(x.name == y.name, at + ": name") || !exprs(x.indices, y.indices, at))
                return false;
        }
        return true;
    }

    bool stmts(const std::vector<Stmt>& a, const std::vector<Stmt>& b, const std::string& what) {
        if (!same(a.size() == b.size(), what + ": statement count"))
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            std::string at = what + " statement " + std::to_string(i);
            if (!same(a[i].node.index() == b[i].node.index(), at + ": kind") ||
                !std::visit([&](const auto& x) { return stmt(x, b[i].node, at); }, a[i].node))
                return false;
        }
        return true;
    }

    bool stmt(const TunableDecl& x, const auto& other, const std::string& at) {
        return same(x.names == std::get<TunableDecl>(other).names, at);
    }
    bool stmt(const LetTensor& x, const auto& other, const std::string& at) {
        const auto& y = std::get<LetTensor>(other);
        return same(x.name == y.name && x.dtype == y.dtype, at) && exprs(x.shape, y.shape, at);
    }
    bool stmt(const LetBlocks& x, const auto& other, const std::string& at) {
        const auto& y = std::get<LetBlocks>(other);
        return same(x.name == y.name && x.source == y.source && x.remainder == y.remainder, at) &&
               exprs(x.tile, y.tile, at);
    }
    bool stmt(const LetMma& x, const auto& other, const std::string& at) {
        const auto& y = std::get<LetMma>(other);
        return same(x.name == y.name && x.source == y.source && x.role == y.role &&
                        x.level == y.level && equal(x.n, y.n),
                    at);
    }
    bool stmt(const LetScalar& x, const auto& other, const std::string& at) {
        const auto& y = std::get<LetScalar>(other);
        return same(x.name == y.name && equal(x.value, y.value), at);
    }
    bool stmt(const Launch& x, const auto& other, const std::string& at) {
        const auto& y = std::get<Launch>(other);
        return same(x.label == y.label && x.task == y.task, at) && operands(x.args, y.args, at);
    }
    bool stmt(const Loop& x, const auto& other, const std::string& at) {
        const auto& y = std::get<Loop>(other);
        return same(x.parallel == y.parallel && x.vars == y.vars && x.grid_of == y.grid_of, at) &&
               exprs(x.extents, y.extents, at) && exprs({x.limit}, {y.limit}, at + " limit") &&
               stmts(x.body, y.body, at + " body");
    }
    bool stmt(const LeafOp& x, const auto& other, const std::string& at) {
        const auto& y = std::get<LeafOp>(other);
        return same(x.op == y.op && x.external == y.external, at) &&
               operands(x.operands, y.operands, at);
    }

    bool tasks(const std::vector<Task>& a, const std::vector<Task>& b) {
        if (!same(a.size() == b.size(), "task count"))
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            std::string at = "task " + a[i].name;
            if (!same(a[i].name == b[i].name && a[i].params.size() == b[i].params.size(), at))
                return false;
            for (std::size_t j = 0; j < a[i].params.size(); ++j) {
                const Param &x = a[i].params[j], &y = b[i].params[j];
                std::string pat = at + " param " + x.name;
                if (!same(x.name == y.name && x.is_tensor == y.is_tensor &&
                              x.privilege == y.privilege && x.dtype == y.dtype,
                          pat) ||
                    !exprs(x.shape, y.shape, pat))
                    return false;
            }
        }
        return true;
    }

    bool instances(const std::vector<mapping::Instance>& a,
                   const std::vector<mapping::Instance>& b) {
        if (!same(a.size() == b.size(), "instance count"))
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const auto &x = a[i], &y = b[i];
            bool mems = x.mems.size() == y.mems.size();
            for (std::size_t j = 0; mems && j < x.mems.size(); ++j)
                mems = x.mems[j].tensor == y.mems[j].tensor && x.mems[j].memory == y.mems[j].memory;
            bool tun = x.tunables.size() == y.tunables.size();
            for (std::size_t j = 0; tun && j < x.tunables.size(); ++j)
                tun = x.tunables[j].name == y.tunables[j].name &&
                      x.tunables[j].value == y.tunables[j].value;
            bool dis = x.dispatch.size() == y.dispatch.size();
            for (std::size_t j = 0; dis && j < x.dispatch.size(); ++j)
                dis = x.dispatch[j].site == y.dispatch[j].site &&
                      x.dispatch[j].instance == y.dispatch[j].instance;
            bool lay = x.layouts.size() == y.layouts.size();
            for (std::size_t j = 0; lay && j < x.layouts.size(); ++j)
                lay = x.layouts[j].tensor == y.layouts[j].tensor &&
                      x.layouts[j].layout == y.layouts[j].layout;
            if (!same(x.name == y.name && x.variant == y.variant && x.level == y.level && mems &&
                          tun && dis && lay && x.warpspecialize == y.warpspecialize &&
                          x.pipeline == y.pipeline && x.smem_limit == y.smem_limit &&
                          x.schedule == y.schedule && x.persistent == y.persistent,
                      "instance " + x.name))
                return false;
        }
        return true;
    }

    bool programs(const Program& a, const Program& b) {
        bool sizes = a.sizes.size() == b.sizes.size();
        for (std::size_t i = 0; sizes && i < a.sizes.size(); ++i)
            sizes = a.sizes[i].name == b.sizes[i].name && a.sizes[i].value == b.sizes[i].value;
        bool ref = a.reference.has_value() == b.reference.has_value();
        if (ref && a.reference) {
            const auto &x = *a.reference, &y = *b.reference;
            ref = x.name == y.name && x.args.size() == y.args.size();
            for (std::size_t i = 0; ref && i < x.args.size(); ++i)
                ref = x.args[i].name == y.args[i].name && x.args[i].value == y.args[i].value;
        }
        if (!same(a.name == b.name, "program name") || !same(sizes, "sizes") ||
            !same(ref, "reference") || !tasks(a.tasks, b.tasks) ||
            !same(a.variants.size() == b.variants.size(), "variant count"))
            return false;
        for (std::size_t i = 0; i < a.variants.size(); ++i) {
            const Variant &x = a.variants[i], &y = b.variants[i];
            std::string at = "variant " + x.name;
            if (!same(x.name == y.name && x.task == y.task && x.is_leaf == y.is_leaf, at) ||
                !stmts(x.body, y.body, at))
                return false;
        }
        return instances(a.mapping.instances, b.mapping.instances) &&
               same(a.mapping.entry == b.mapping.entry, "mapping entry");
    }
};

} // namespace

std::string first_difference(const Program& a, const Program& b) {
    Differ d;
    d.programs(a, b);
    return d.where;
}

} // namespace kiln::ir::testing
