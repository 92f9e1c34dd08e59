#include "passes/mapping_check.h"

#include "passes/leaf_rules.h"

#include <algorithm>
#include <map>
#include <set>

namespace kiln::passes {
namespace {

struct Site {
    const ir::Launch *launch;
    bool parallel; // inside a prange
};

void collect_sites(const std::vector<ir::Stmt> &body, bool parallel, std::vector<Site> &out) {
    for (const auto &s : body) {
        if (const auto *l = std::get_if<ir::Launch>(&s.node))
            out.push_back({l, parallel});
        if (const auto *loop = std::get_if<ir::Loop>(&s.node))
            collect_sites(loop->body, parallel || loop->parallel, out);
    }
}

// Tensor parameters, then created tensors in program order.
void collect_created(const std::vector<ir::Stmt> &body, std::vector<std::string> &out) {
    for (const auto &s : body) {
        if (const auto *t = std::get_if<ir::LetTensor>(&s.node))
            out.push_back(t->name);
        if (const auto *loop = std::get_if<ir::Loop>(&s.node))
            collect_created(loop->body, out);
    }
}

std::vector<std::string> variant_tensors(const ir::Task &task, const ir::Variant &variant) {
    std::vector<std::string> out;
    for (const auto &p : task.params)
        if (p.is_tensor)
            out.push_back(p.name);
    collect_created(variant.body, out);
    return out;
}

template <class B>
void report_twice(const std::vector<B> &bindings, auto key, auto message, Diagnostics &d) {
    std::set<std::string> seen;
    for (const auto &b : bindings)
        if (!seen.insert(b.*key).second)
            d.error(b.loc, message(b.*key));
}

class InstanceCheck {
public:
    InstanceCheck(const ir::Program &program, const mapping::Instance &inst,
                  const ir::Variant &variant, const ir::Task &task, const mapping::Machine &machine,
                  Diagnostics &d)
        : program_(program), inst_(inst), variant_(variant), task_(task), machine_(machine), d_(d),
          head_("instance " + inst.name) {}

    void run() {
        tunables();
        memories();
        if (variant_.is_leaf)
            leaf_tensors_materialized();
        dispatches();
    }

private:
    void tunables() {
        auto declared = variant_.tunables();
        for (const auto &t : declared)
            if (!inst_.find_tunable(t))
                d_.error(inst_.loc,
                         head_ + " does not bind tunable " + t + " of variant " + variant_.name);
        for (const auto &b : inst_.tunables)
            if (std::find(declared.begin(), declared.end(), b.name) == declared.end())
                d_.error(b.loc, head_ + " binds tunable " + b.name + ", which variant " +
                                    variant_.name + " does not declare");
        report_twice(
            inst_.tunables, &mapping::TunableBinding::name,
            [&](const std::string &n) { return head_ + " binds tunable " + n + " twice"; }, d_);
    }

    void memories() {
        auto tensors = variant_tensors(task_, variant_);
        auto is_tensor = [&](const std::string &n) {
            return std::find(tensors.begin(), tensors.end(), n) != tensors.end();
        };
        for (const auto &t : tensors)
            if (!inst_.find_mem(t))
                d_.error(inst_.loc, head_ + " has no memory for tensor " + t + " of variant " +
                                        variant_.name + " (add `mem " + t + " = ...`)");
        for (const auto &m : inst_.mems) {
            std::string memory(ir::spelling(m.memory));
            if (!is_tensor(m.tensor))
                d_.error(m.loc, head_ + " maps " + m.tensor + " to " + memory + ", but variant " +
                                    variant_.name + " has no tensor named " + m.tensor);
            else if (!machine_.can_see(inst_.level, m.memory))
                d_.error(m.loc, head_ + " maps " + m.tensor + " to " + memory + ", which " +
                                    std::string(ir::spelling(inst_.level)) +
                                    " processors cannot see");
        }
        report_twice(
            inst_.mems, &mapping::MemBinding::tensor,
            [&](const std::string &n) { return head_ + " maps tensor " + n + " twice"; }, d_);
        for (const auto &l : inst_.layouts)
            if (!is_tensor(l.tensor))
                d_.error(l.loc, head_ + " sets the layout of " + l.tensor + ", but variant " +
                                    variant_.name + " has no tensor named " + l.tensor);
    }

    // NONE promises the tensor is only materialized in pieces below; a leaf has no below.
    void leaf_tensors_materialized() {
        auto tensors = variant_tensors(task_, variant_);
        auto names_tensor = [&](const std::string &n) {
            return std::find(tensors.begin(), tensors.end(), n) != tensors.end();
        };
        std::set<std::string> reported;
        for (const auto &s : variant_.body) {
            const auto *op = std::get_if<ir::LeafOp>(&s.node);
            if (!op)
                continue;
            for (const auto &t : leaf_tensor_operands(*op, names_tensor)) {
                const auto *m = inst_.find_mem(t);
                if (m && m->memory == ir::Memory::None && reported.insert(t).second)
                    d_.error(m->loc, "tensor " + t + " mapped to NONE at " + inst_.name +
                                         " is accessed by " + op->op + " at line " +
                                         std::to_string(op->loc.line));
            }
        }
    }

    void dispatches() {
        std::vector<Site> sites;
        if (!variant_.is_leaf) // a launch in a leaf variant is reported with the variant
            collect_sites(variant_.body, false, sites);
        std::set<const mapping::DispatchBinding *> used;
        for (const auto &site : sites) {
            const auto *b = find_dispatch(inst_, *site.launch);
            if (!b) {
                const auto &l = *site.launch;
                d_.error(inst_.loc, head_ + " has no dispatch for the launch of " + l.task +
                                        " at " + loc_text(l.loc) + " (add `dispatch " +
                                        (l.label.empty() ? l.task : l.label) + " -> INSTANCE`)");
                continue;
            }
            used.insert(b);
            target(site, *b);
        }
        for (const auto &b : inst_.dispatch)
            if (!used.count(&b))
                d_.error(b.loc, head_ + " dispatches " + b.site + ", which names no launch " +
                                    "site of variant " + variant_.name);
        report_twice(
            inst_.dispatch, &mapping::DispatchBinding::site,
            [&](const std::string &n) { return head_ + " dispatches " + n + " twice"; }, d_);
    }

    void target(const Site &site, const mapping::DispatchBinding &b) {
        const ir::Launch &l = *site.launch;
        const auto *callee = program_.mapping.find_instance(b.instance);
        if (!callee) {
            d_.error(b.loc, head_ + " dispatches " + b.site + " to undefined instance '" +
                                b.instance + "'");
            return;
        }
        std::string launch = "the " + std::string(site.parallel ? "prange " : "") + "launch of " +
                             l.task + " at " + loc_text(l.loc);
        const ir::Variant *v = program_.find_variant(callee->variant);
        if (v && v->task != l.task && program_.find_task(l.task))
            d_.error(b.loc, head_ + " dispatches " + launch + " to instance " + callee->name +
                                ", whose variant " + v->name + " implements task " + v->task +
                                ", not " + l.task);
        std::string parent_level(ir::spelling(inst_.level));
        std::string child_level(ir::spelling(callee->level));
        if (site.parallel && callee->level <= inst_.level)
            d_.error(b.loc, head_ + " dispatches " + launch + " to instance " + callee->name +
                                " at " + child_level + "; the tasks of a prange must run below " +
                                parent_level);
        else if (callee->level < inst_.level)
            d_.error(b.loc, head_ + " dispatches " + launch + " to instance " + callee->name +
                                " at " + child_level + ", above " + parent_level +
                                "; a launched task runs at its parent's level or below");
    }

    const ir::Program &program_;
    const mapping::Instance &inst_;
    const ir::Variant &variant_;
    const ir::Task &task_;
    const mapping::Machine &machine_;
    Diagnostics &d_;
    std::string head_;
};

} // namespace

const mapping::DispatchBinding *find_dispatch(const mapping::Instance &instance,
                                              const ir::Launch &launch) {
    if (!launch.label.empty())
        if (const auto *b = instance.find_dispatch(launch.label))
            return b;
    return instance.find_dispatch(launch.task);
}

void check_instance(const ir::Program &program, const mapping::Instance &instance,
                    const mapping::Machine &machine, Diagnostics &d) {
    const ir::Variant *variant = program.find_variant(instance.variant);
    if (!variant) {
        d.error(instance.loc,
                "instance " + instance.name + " uses undefined variant '" + instance.variant + "'");
        return;
    }
    const ir::Task *task = program.find_task(variant->task);
    if (!task)
        return; // reported with the variant
    InstanceCheck(program, instance, *variant, *task, machine, d).run();
}

} // namespace kiln::passes
