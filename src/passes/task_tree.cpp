#include "passes/task_tree.h"

#include <algorithm>

namespace kiln::passes {
namespace {

template <class T> const T *find_named(const std::vector<T> &v, auto key, const std::string &n) {
    auto it = std::find_if(v.begin(), v.end(), [&](const T &x) { return x.*key == n; });
    return it == v.end() ? nullptr : &*it;
}

std::string join(const std::vector<std::string> &parts, const std::string &sep) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i ? sep : "") + parts[i];
    return out;
}

std::string tensor_text(const std::string &name, ir::Memory m, ir::DType t, const ir::Shape &s) {
    return name + ": " + std::string(ir::spelling(m)) + " " + std::string(ir::spelling(t)) +
           ir::shape_string(s);
}

std::string value_text(const ir::Value &v) {
    return v.is_int ? std::to_string(v.i) : ir::to_string(*ir::float_lit(v.f));
}

std::string scalar_text(const ScalarArg &s) {
    std::string out = s.param + ": " + std::string(ir::spelling(s.dtype));
    if (s.value)
        return out + " = " + value_text(*s.value);
    return s.expr ? out + " = " + ir::to_string(s.expr) : out;
}

std::string node_line(const TaskNode &n) {
    std::string out = n.instance + ": " + n.variant + " @ " + std::string(ir::spelling(n.level));
    std::vector<std::string> items;
    for (const auto &t : n.tensors)
        items.push_back(tensor_text(t.param, t.memory, t.dtype, t.shape) + " " +
                        std::string(ir::spelling(t.privilege)));
    for (const auto &s : n.scalars)
        items.push_back(scalar_text(s));
    for (const auto &c : n.created)
        items.push_back(tensor_text(c.name, c.memory, c.dtype, c.shape) + " (created)");
    if (!items.empty())
        out += "  " + join(items, ", ");
    std::vector<std::string> tunables;
    for (const auto &[name, value] : n.tunables)
        tunables.push_back(name + " = " + std::to_string(value));
    if (!tunables.empty())
        out += "  tunables " + join(tunables, ", ");
    return out;
}

std::string loop_line(const LoopFrame &f) {
    std::string vars = f.vars.size() == 1 ? f.vars[0] : "(" + join(f.vars, ", ") + ")";
    return std::string(f.parallel ? "prange " : "srange ") + vars + " in " +
           ir::shape_string(f.extents);
}

void print_node(const TaskNode &n, int depth, bool is_inline, std::string &out);

// Children are printed under their loop headers; consecutive children inside the same loop
// share one header.
void print_children(const TaskNode &n, int depth, std::string &out) {
    std::vector<int> open; // ids of the loop headers printed and still enclosing
    for (const auto &child : n.children) {
        std::size_t common = 0;
        while (common < open.size() && common < child.loops.size() &&
               open[common] == child.loops[common].id)
            ++common;
        open.resize(common);
        for (std::size_t l = common; l < child.loops.size(); ++l) {
            out += std::string(2 * (depth + l), ' ') + loop_line(child.loops[l]) + "\n";
            open.push_back(child.loops[l].id);
        }
        print_node(child, depth + int(child.loops.size()), child.loops.empty(), out);
    }
}

void print_node(const TaskNode &n, int depth, bool is_inline, std::string &out) {
    std::string indent(2 * depth, ' ');
    out += indent + (is_inline ? "inline " : "") + node_line(n) + "\n";
    for (const auto &p : n.partitions)
        out += indent + "  " + p.name + " = " + partition_text(p) + "  grid " +
               ir::shape_string(p.shape.grid) + "  piece " + ir::shape_string(p.shape.piece) + "\n";
    print_children(n, depth + 1, out);
}

} // namespace

const TensorArg *TaskNode::find_tensor(const std::string &param) const {
    return find_named(tensors, &TensorArg::param, param);
}

const CreatedTensor *TaskNode::find_created(const std::string &name) const {
    return find_named(created, &CreatedTensor::name, name);
}

const PartitionInfo *TaskNode::find_partition(const std::string &name) const {
    return find_named(partitions, &PartitionInfo::name, name);
}

std::vector<const TaskNode *> preorder(const TaskNode &root) {
    std::vector<const TaskNode *> out{&root};
    for (const auto &c : root.children) {
        auto sub = preorder(c);
        out.insert(out.end(), sub.begin(), sub.end());
    }
    return out;
}

std::string partition_text(const PartitionInfo &p) {
    if (p.spec.is_mma) {
        const auto &m = p.spec.mma;
        std::string out = "mma(" + p.source + ", " + std::string(ir::spelling(m.role)) + ", " +
                          std::string(ir::spelling(m.level));
        if (m.level == ir::Level::Warpgroup)
            out += ", " + std::to_string(m.n);
        return out + ")";
    }
    std::vector<std::string> tile;
    for (const auto &t : p.spec.blocks.tile)
        tile.push_back(t ? std::to_string(*t) : "_");
    std::string pad = p.spec.blocks.remainder == ir::Remainder::Pad ? ", pad" : "";
    return "blocks(" + p.source + ", [" + join(tile, ", ") + "]" + pad + ")";
}

std::string print_tree(const TaskTree &tree) {
    std::vector<std::string> sizes;
    for (const auto &[name, value] : tree.sizes)
        sizes.push_back(name + " = " + std::to_string(value));
    std::string out = "sizes " + join(sizes, ", ") + "\n";
    print_node(tree.root, 0, false, out);
    return out;
}

} // namespace kiln::passes
