#include "ir/printer.h"

#include <cmath>

namespace kiln::ir {
namespace {

std::string exprs(const std::vector<ExprPtr>& es) {
    return join(es, [](const ExprPtr& e) { return to_string(e); });
}

std::string operand(const Operand& o) {
    if (!o.is_tensor())
        return to_string(o.scalar());
    const TensorRef& r = o.tensor();
    return r.indices.empty() ? r.name : r.name + "[" + exprs(r.indices) + "]";
}

std::string operands(const std::vector<Operand>& os) {
    return join(os, operand);
}

// Reference attributes hold doubles; whole numbers print as integers (`causal = 1`).
std::string number(double v) {
    if (std::trunc(v) == v && std::fabs(v) < 1e15)
        return std::to_string(static_cast<int64_t>(v));
    return to_string(float_lit(v));
}

std::string param(const Param& p) {
    if (!p.is_tensor)
        return p.name + ": " + std::string(spelling(p.dtype));
    return p.name + ": " + std::string(spelling(p.privilege)) + " " +
           std::string(spelling(p.dtype)) + "[" + exprs(p.shape) + "]";
}

class BodyPrinter {
public:
    std::string out;

    void block(const std::vector<Stmt>& body, int indent) {
        for (const auto& s : body)
            std::visit([&](const auto& node) { stmt(node, indent); }, s.node);
    }

private:
    void line(int indent, const std::string& text) {
        out += std::string(2 * indent, ' ') + text + "\n";
    }

    void stmt(const TunableDecl& d, int indent) {
        line(indent, "tunable " + join(d.names, [](const std::string& n) { return n; }));
    }
    void stmt(const LetTensor& t, int indent) {
        line(indent, "let " + t.name + " = tensor " + std::string(spelling(t.dtype)) + "[" +
                         exprs(t.shape) + "]");
    }
    void stmt(const LetBlocks& b, int indent) {
        std::string tile =
            join(b.tile, [](const ExprPtr& e) { return e ? to_string(e) : std::string("_"); });
        line(indent, "let " + b.name + " = blocks(" + b.source + ", [" + tile + "]" +
                         (b.remainder == Remainder::Pad ? ", pad" : "") + ")");
    }
    void stmt(const LetMma& m, int indent) {
        line(indent, "let " + m.name + " = mma(" + m.source + ", " + std::string(spelling(m.role)) +
                         ", " + std::string(spelling(m.level)) +
                         (m.n ? ", " + to_string(m.n) : "") + ")");
    }
    void stmt(const LetScalar& s, int indent) {
        line(indent, "let " + s.name + " = " + to_string(s.value));
    }
    void stmt(const Launch& l, int indent) {
        std::string label = l.label.empty() ? "" : "[" + l.label + "] ";
        line(indent, "launch " + label + l.task + "(" + operands(l.args) + ")");
    }
    void stmt(const Loop& l, int indent) {
        std::string vars = join(l.vars, [](const std::string& v) { return v; });
        if (l.vars.size() != 1)
            vars = "(" + vars + ")";
        std::string domain = l.grid_of.empty() ? "[" + exprs(l.extents) + "]" : l.grid_of + ".grid";
        std::string limit = l.limit ? " limit " + to_string(l.limit) : "";
        line(indent, std::string(l.parallel ? "prange " : "srange ") + vars + " in " + domain +
                         limit + " {");
        block(l.body, indent + 1);
        line(indent, "}");
    }
    void stmt(const LeafOp& op, int indent) { line(indent, print_leaf_op(op)); }
};

std::string variant(const Variant& v) {
    BodyPrinter body;
    body.block(v.body, 1);
    return "variant " + v.name + " of " + v.task + (v.is_leaf ? " leaf" : " inner") + " {\n" +
           body.out + "}\n";
}

std::string smem_bytes(int64_t bytes) {
    return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + "KiB" : std::to_string(bytes);
}

// Attributes in the documented order, defaults omitted.
std::string instance(const mapping::Instance& in) {
    std::string out = "  instance " + in.name + " : " + in.variant + " @ " +
                      std::string(spelling(in.level)) + " {\n";
    auto attr = [&](const std::string& text) { out += "    " + text + "\n"; };
    if (!in.mems.empty())
        attr("mem " + join(in.mems, [](const mapping::MemBinding& m) {
                 return m.tensor + " = " + std::string(spelling(m.memory));
             }));
    if (!in.tunables.empty())
        attr("tunable " + join(in.tunables, [](const mapping::TunableBinding& t) {
                 return t.name + " = " + std::to_string(t.value);
             }));
    if (!in.dispatch.empty())
        attr("dispatch " + join(in.dispatch, [](const mapping::DispatchBinding& d) {
                 return d.site + " -> " + d.instance;
             }));
    if (!in.layouts.empty())
        attr("layout " + join(in.layouts, [](const mapping::LayoutBinding& l) {
                 return l.tensor + " = " + std::string(mapping::spelling(l.layout));
             }));
    if (in.warpspecialize)
        attr("warpspecialize");
    if (in.pipeline)
        attr("pipeline = " + std::to_string(*in.pipeline));
    if (in.smem_limit)
        attr("smem_limit = " + smem_bytes(*in.smem_limit));
    if (in.schedule == mapping::SchedulePolicy::Optimal)
        attr("schedule = optimal");
    if (in.persistent)
        attr("persistent");
    if (in.cluster != 1)
        attr("cluster = " + std::to_string(in.cluster));
    return out + "  }\n";
}

std::string mapping_block(const mapping::Mapping& m) {
    if (m.instances.empty() && m.entry.empty())
        return "";
    std::string out = "mapping {\n";
    for (const auto& in : m.instances)
        out += instance(in);
    if (!m.entry.empty())
        out += "  entry " + m.entry + "\n";
    return out + "}\n";
}

std::string header(const Program& p) {
    std::string out;
    if (!p.sizes.empty())
        out += "sizes " +
               join(p.sizes,
                    [](const SizeBinding& s) { return s.name + " = " + std::to_string(s.value); }) +
               "\n";
    if (p.reference)
        out += "reference " + p.reference->name + "(" +
               join(p.reference->args,
                    [](const ReferenceArg& a) {
                        return a.value ? a.name + " = " + number(*a.value) : a.name;
                    }) +
               ")\n";
    return out;
}

} // namespace

std::string print_program(const Program& p) {
    // Sections are separated by one blank line; empty sections disappear.
    std::vector<std::string> sections;
    sections.push_back(p.name.empty() ? "" : "program " + p.name + "\n");
    sections.push_back(header(p));
    std::string tasks;
    for (const auto& t : p.tasks)
        tasks += "task " + t.name + "(" + join(t.params, param) + ")\n";
    sections.push_back(tasks);
    for (const auto& v : p.variants)
        sections.push_back(variant(v));
    sections.push_back(mapping_block(p.mapping));
    std::string out;
    for (const auto& s : sections) {
        if (s.empty())
            continue;
        if (!out.empty())
            out += "\n";
        out += s;
    }
    return out;
}

std::string print_leaf_op(const LeafOp& op) {
    std::string args = operands(op.operands);
    if (op.op == "call_external")
        args = "\"" + op.external + "\"" + (args.empty() ? "" : ", " + args);
    return op.op + "(" + args + ")";
}

std::string print_expr(const ExprPtr& e) {
    return to_string(e);
}

} // namespace kiln::ir
