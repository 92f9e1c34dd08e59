#include "ir/event_printer.h"

#include "ir/printer.h"

namespace kiln::event {
namespace {

using ir::join;

std::string exprs(const std::vector<ir::ExprPtr>& es) {
    return join(es, [](const ir::ExprPtr& e) { return ir::print_expr(e); });
}

std::string ints(const Shape& s) {
    return join(s, [](int64_t v) { return std::to_string(v); });
}

std::string str(std::string_view s) {
    return std::string(s);
}

std::string tensor_type(ir::DType dtype, const Shape& shape) {
    return str(ir::spelling(dtype)) + "[" + ints(shape) + "]";
}

// ` over (g: WARPGROUP 2, w: WARP 4)`, or nothing.
std::string over(const std::vector<ProcDim>& dims) {
    if (dims.empty())
        return "";
    return " over (" +
           join(dims,
                [](const ProcDim& d) {
                    return d.var + ": " + str(ir::spelling(d.level)) + " " +
                           std::to_string(d.extent);
                }) +
           ")";
}

// One comment line; the parser drops the blanks around a comment, so they are not printed.
std::string note(const std::string& text) {
    std::string one_line = text;
    for (char& c : one_line)
        if (c == '\n' || c == '\r')
            c = ' ';
    std::size_t b = one_line.find_first_not_of(" \t");
    if (b == std::string::npos)
        return "";
    return "  # " + one_line.substr(b, one_line.find_last_not_of(" \t") + 1 - b);
}

std::string after(const std::vector<EventRef>& refs) {
    return refs.empty() ? "" : " after [" + join(refs, print_ref) + "]";
}

std::string role(Role r) {
    return r == Role::Any ? "" : " role " + str(spelling(r));
}

std::string controls(const LoopControls& c) {
    std::string out;
    if (c.warpspecialize)
        out += " warpspecialize";
    if (c.pipeline)
        out += " pipeline = " + std::to_string(c.pipeline);
    if (c.smem_limit)
        out += " smem_limit = " + std::to_string(c.smem_limit);
    if (c.persistent)
        out += " persistent";
    if (c.cluster != 1)
        out += " cluster = " + std::to_string(c.cluster);
    if (c.dma_registers)
        out += " dma_registers = " + std::to_string(c.dma_registers);
    if (c.compute_registers)
        out += " compute_registers = " + std::to_string(c.compute_registers);
    return out;
}

std::string alloc(const TensorDecl& t, const Op& op) {
    std::string out = "alloc " + t.name + " : " + str(ir::spelling(t.memory)) + " " +
                      tensor_type(t.dtype, t.shape) + over(op.over);
    if (t.param)
        out += " param " + str(ir::spelling(t.privilege));
    if (t.stages != 1)
        out += " stages " + std::to_string(t.stages) + " on " + t.stage_var;
    if (t.layout)
        out += " layout " + str(mapping::spelling(*t.layout));
    if (t.offset >= 0)
        out += " offset " + std::to_string(t.offset);
    if (t.mirrors)
        out += " mirrors " + print_view(*t.mirrors);
    if (!t.origin.empty())
        out += " origin " + t.origin;
    return out;
}

std::string part(const Partition& p) {
    const ir::PartitionSpec& s = p.spec;
    std::string out = "part " + p.name + " = ";
    if (s.is_mma) {
        out += "mma(" + print_view(p.source) + ", " + str(ir::spelling(s.mma.role)) + ", " +
               str(ir::spelling(s.mma.level));
        if (s.mma.n)
            out += ", " + std::to_string(s.mma.n);
        return out + ")";
    }
    std::string tile = join(s.blocks.tile, [](const std::optional<int64_t>& t) {
        return t ? std::to_string(*t) : std::string("_");
    });
    return out + "blocks(" + print_view(p.source) + ", [" + tile + "]" +
           (s.blocks.remainder == ir::Remainder::Pad ? ", pad" : "") + ")";
}

std::string copy_mode(CopyMode m) {
    switch (m) {
    case CopyMode::Assign:
        return "";
    case CopyMode::Add:
        return "add ";
    case CopyMode::Max:
        return "max ";
    }
    return "";
}

// The call's arguments in the leaf's parameter order: views for tensor parameters, expressions
// for scalar ones. Without a matching leaf (an invalid program) views come first.
std::string call_args(const Op& op, const LeafDef* leaf) {
    std::vector<std::string> out;
    std::size_t tensors = 0, scalars = 0;
    if (leaf)
        for (const auto& p : leaf->params)
            (p.is_tensor ? tensors : scalars) += 1;
    if (leaf && tensors == op.args.size() && scalars == op.scalars.size()) {
        std::size_t t = 0, s = 0;
        for (const auto& p : leaf->params)
            out.push_back(p.is_tensor ? print_view(op.args[t++]) : ir::print_expr(op.scalars[s++]));
    } else {
        for (const auto& v : op.args)
            out.push_back(print_view(v));
        for (const auto& e : op.scalars)
            out.push_back(ir::print_expr(e));
    }
    return join(out, [](const std::string& s) { return s; });
}

std::string loop_head(const Op& op) {
    const Loop& l = op.loop;
    std::string vars = join(l.vars, [](const std::string& v) { return v; });
    if (op.kind == OpKind::PFor && l.vars.size() != 1)
        vars = "(" + vars + ")";
    std::string limit = l.limit ? " limit " + ir::print_expr(l.limit) : "";
    return str(spelling(op.kind)) + " " + vars + " in [" + ints(l.extents) + "]" + limit;
}

class OpPrinter {
public:
    explicit OpPrinter(const EventProgram& p) : prog_(p) {}

    std::string out;

    void block(const Block& b, int indent) {
        for (const auto& op : b.ops)
            this->op(op, indent);
        if (b.yield)
            line(indent, "yield " + print_ref(*b.yield));
    }

private:
    const EventProgram& prog_;

    void line(int indent, const std::string& text) {
        out += std::string(2 * indent, ' ') + text + "\n";
    }

    // `@LEVEL over (...)`: a pfor names the level of its iterations (its own Op::level, the
    // level that issues it, follows from where it is nested).
    std::string tail(const Op& op) const {
        ir::Level level = op.kind == OpKind::PFor ? op.loop.level : op.level;
        return " @" + str(ir::spelling(level)) + over(op.over);
    }

    std::string body(const Op& op) const {
        switch (op.kind) {
        case OpKind::Copy:
            return "copy " + copy_mode(op.mode) + print_view(op.src) + " -> " + print_view(op.dst);
        case OpKind::Call:
            return "call " + op.callee + "(" + call_args(op, prog_.find_leaf(op.callee)) + ")";
        default:
            return "join";
        }
    }

    void op(const Op& op, int indent) {
        switch (op.kind) {
        case OpKind::Alloc:
            line(indent, alloc(op.alloc, op) + note(op.note));
            return;
        case OpKind::Part:
            line(indent, part(op.part) + note(op.note));
            return;
        case OpKind::For:
        case OpKind::PFor:
            line(indent, "%" + op.result + " = " + loop_head(op) + tail(op) +
                             controls(op.loop.controls) + role(op.role) + after(op.after) + " {" +
                             note(op.note));
            block(op.loop.body, indent + 1);
            line(indent, "}");
            return;
        default:
            line(indent, "%" + op.result + " = " + body(op) + tail(op) + role(op.role) +
                             after(op.after) + note(op.note));
        }
    }
};

std::string leaf(const LeafDef& l) {
    std::string params = join(l.params, [](const LeafParam& p) {
        if (!p.is_tensor)
            return p.name + ": " + str(ir::spelling(p.dtype));
        return p.name + ": " + str(ir::spelling(p.privilege)) + " " + tensor_type(p.dtype, p.shape);
    });
    std::string out = "leaf " + l.name + "(" + params + ") {\n";
    for (const auto& s : l.body)
        out += "  " + ir::print_leaf_op(s) + "\n";
    return out + "}\n";
}

std::string header(const EventProgram& p) {
    std::string out = "event_program " + p.name + "\n";
    if (!p.sizes.empty())
        out += "sizes " +
               join(std::vector<std::pair<std::string, int64_t>>(p.sizes.begin(), p.sizes.end()),
                    [](const auto& s) { return s.first + " = " + std::to_string(s.second); }) +
               "\n";
    return out;
}

} // namespace

std::string print_view(const View& v) {
    return v.whole() ? v.name : v.name + "[" + exprs(v.index) + "]";
}

std::string print_ref(const EventRef& r) {
    std::string out = (r.cross ? "cross %" : "%") + r.id;
    if (!r.index.empty())
        out += "[" +
               join(r.index,
                    [](const ir::ExprPtr& e) { return e ? ir::print_expr(e) : std::string(":"); }) +
               "]";
    if (r.distance)
        out += "@-" + std::to_string(r.distance);
    return out;
}

std::string print_event_program(const EventProgram& p) {
    // Sections are separated by one blank line; an empty body disappears.
    std::string out = header(p);
    for (const auto& l : p.leaves) {
        out += "\n";
        out += leaf(l);
    }
    OpPrinter ops(p);
    ops.block(p.body, 0);
    if (!ops.out.empty()) {
        out += "\n";
        out += ops.out;
    }
    return out;
}

} // namespace kiln::event
