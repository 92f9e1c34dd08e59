#include "passes/verify.h"

#include "passes/diagnostics.h"
#include "passes/mapping_check.h"
#include "passes/scope.h"
#include "passes/variant_check.h"

#include <algorithm>
#include <map>

namespace kiln::passes {
namespace {

template <class T>
void report_redefinitions(const std::vector<T> &items, const std::string &what, Diagnostics &d) {
    std::map<std::string, Loc> first;
    for (const auto &x : items)
        if (auto [it, fresh] = first.emplace(x.name, x.loc); !fresh)
            d.error(x.loc, what + " " + x.name + " is defined twice (first at " +
                               loc_text(it->second) + ")");
}

void check_signature(const ir::Task &task, Diagnostics &d) {
    std::map<std::string, Loc> seen;
    for (const auto &p : task.params) {
        if (auto [it, fresh] = seen.emplace(p.name, p.loc); !fresh)
            d.error(p.loc, "parameter " + p.name + " of task " + task.name +
                               " is declared twice (first at " + loc_text(it->second) + ")");
        if (!p.is_tensor && p.dtype != ir::DType::I32 && p.dtype != ir::DType::F32)
            d.error(p.loc, "scalar parameter " + p.name + " of task " + task.name + " is " +
                               std::string(ir::spelling(p.dtype)) + "; scalars are i32 or f32");
    }
    for (const auto &s : shape_symbols(task))
        if (const ir::Param *p = task.find_param(s))
            d.error(p->loc,
                    "shape symbol " + s + " of task " + task.name + " has the name of a parameter");
}

void check_entry(const ir::Program &program, Diagnostics &d) {
    const auto &m = program.mapping;
    if (m.entry.empty()) {
        d.error(m.loc, "the mapping has no entry instance (add `entry NAME`)");
        return;
    }
    const auto *entry = m.find_instance(m.entry);
    if (!entry) {
        d.error(m.entry_loc, "entry instance '" + m.entry + "' is not defined");
        return;
    }
    if (entry->level != ir::Level::Host)
        d.error(m.entry_loc, "entry instance " + entry->name + " runs at " +
                                 std::string(ir::spelling(entry->level)) +
                                 "; the entry instance must run at HOST");
    const ir::Variant *v = program.find_variant(entry->variant);
    const ir::Task *task = v ? program.find_task(v->task) : nullptr;
    if (!task || !program.reference)
        return;
    for (const auto &arg : program.reference->args) {
        const ir::Param *p = task->find_param(arg.name);
        if (!arg.value && (!p || !p->is_tensor))
            d.error(program.reference->loc, "reference " + program.reference->name + " names " +
                                                arg.name + ", which is not a tensor parameter " +
                                                "of entry task " + task->name);
    }
}

} // namespace

std::vector<Diagnostic> verify(const ir::Program &program, const mapping::Machine &machine) {
    Diagnostics d;
    report_redefinitions(program.tasks, "task", d);
    report_redefinitions(program.variants, "variant", d);
    report_redefinitions(program.mapping.instances, "instance", d);
    for (const auto &t : program.tasks)
        check_signature(t, d);
    for (const auto &v : program.variants) {
        if (program.find_task(v.task))
            check_variant(program, v, d);
        else
            d.error(v.loc, "variant " + v.name + " is of undefined task '" + v.task + "'");
    }
    for (const auto &inst : program.mapping.instances)
        check_instance(program, inst, machine, d);
    check_entry(program, d);
    return d.take();
}

} // namespace kiln::passes
