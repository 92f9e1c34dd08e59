#include "passes/event_rewrite.h"

#include <algorithm>
#include <map>
#include <memory>

namespace kiln::passes {

using event::Block;
using event::EventRef;
using event::Op;
using event::OpKind;
using event::View;

namespace {

// `e` with each name in `to` replaced (the nodes are immutable, so changed paths are copied).
ir::ExprPtr substitute_names(const ir::ExprPtr& e, const std::map<std::string, ir::ExprPtr>& to) {
    if (e->kind == ir::ExprKind::Name) {
        auto it = to.find(e->name);
        return it == to.end() ? e : it->second;
    }
    if (e->args.empty())
        return e;
    auto copy = std::make_shared<ir::Expr>(*e);
    for (auto& a : copy->args)
        a = substitute_names(a, to);
    return copy;
}

bool mentions_any(const ir::ExprPtr& e, const std::vector<std::string>& names) {
    std::vector<std::string> seen;
    ir::collect_names(*e, seen);
    return std::any_of(seen.begin(), seen.end(), [&](const std::string& n) {
        return std::find(names.begin(), names.end(), n) != names.end();
    });
}

// Waiting for `b` includes waiting for `a`: the same event, and along every dimension `b`
// broadcasts or names the same instance.
bool covered_by(const EventRef& a, const EventRef& b) {
    if (a.id != b.id || a.distance != b.distance || a.cross != b.cross ||
        a.index.size() != b.index.size())
        return false;
    for (std::size_t i = 0; i < a.index.size(); ++i)
        if (b.index[i] && (!a.index[i] || !ir::equal(a.index[i], b.index[i])))
            return false;
    return true;
}

void rename_view(View& v, const std::string& from, const View& to) {
    if (v.name == from && v.whole())
        v = to;
}

} // namespace

EventRef ref_to(const Op& producer, const std::vector<event::ProcDim>& consumer_dims) {
    EventRef r;
    r.id = producer.result;
    for (const auto& d : event::event_dims(producer)) {
        bool shared = std::any_of(consumer_dims.begin(), consumer_dims.end(), [&](const auto& c) {
            return c.var == d.var && c.level == d.level && c.extent == d.extent;
        });
        r.index.push_back(shared ? ir::name_ref(d.var) : nullptr);
    }
    return r;
}

EventRef substitute_ref(const EventRef& consumer_ref, const Op& join, const EventRef& target) {
    const auto dims = event::event_dims(join);
    std::map<std::string, ir::ExprPtr> point;
    std::vector<std::string> broadcast;
    for (std::size_t i = 0; i < dims.size() && i < consumer_ref.index.size(); ++i) {
        if (consumer_ref.index[i])
            point[dims[i].var] = consumer_ref.index[i];
        else
            broadcast.push_back(dims[i].var);
    }
    EventRef out = target;
    out.cross = target.cross || consumer_ref.cross;
    for (auto& e : out.index)
        if (e)
            e = mentions_any(e, broadcast) ? nullptr : substitute_names(e, point);
    return out;
}

void replace_refs(Block& b, const std::string& id,
                  const std::function<std::vector<EventRef>(const EventRef&)>& replace) {
    auto rewrite_list = [&](std::vector<EventRef>& refs) {
        std::vector<EventRef> out;
        for (const auto& r : refs) {
            if (r.id != id) {
                out.push_back(r);
                continue;
            }
            for (auto& n : replace(r))
                out.push_back(n);
        }
        dedupe_refs(out);
        refs = std::move(out);
    };
    std::function<void(Block&)> visit = [&](Block& block) {
        for (auto& op : block.ops) {
            rewrite_list(op.after);
            if (op.kind == OpKind::For || op.kind == OpKind::PFor)
                visit(op.loop.body);
        }
        if (block.yield && block.yield->id == id) {
            auto n = replace(*block.yield);
            if (!n.empty())
                block.yield = n.front();
        }
    };
    visit(b);
}

void dedupe_refs(std::vector<EventRef>& refs) {
    std::vector<EventRef> out;
    for (std::size_t i = 0; i < refs.size(); ++i) {
        auto covers = [&](std::size_t j) {
            return j != i && covered_by(refs[i], refs[j]) &&
                   (!covered_by(refs[j], refs[i]) || j < i); // of two equal ones keep the first
        };
        bool redundant = false;
        for (std::size_t j = 0; j < refs.size() && !redundant; ++j)
            redundant = covers(j);
        if (!redundant)
            out.push_back(refs[i]);
    }
    refs = std::move(out);
}

void retire_as_join(Op& op, const std::string& why) {
    op.kind = OpKind::Join;
    op.src = op.dst = View{};
    op.mode = event::CopyMode::Assign;
    op.callee.clear();
    op.args.clear();
    op.scalars.clear();
    op.note = why;
}

void rename_tensor(Block& b, const std::string& from, const View& to) {
    for (auto& op : b.ops) {
        rename_view(op.src, from, to);
        rename_view(op.dst, from, to);
        for (auto& a : op.args)
            rename_view(a, from, to);
        rename_view(op.part.source, from, to);
        if (op.alloc.mirrors)
            rename_view(*op.alloc.mirrors, from, to);
        if (op.kind == OpKind::For || op.kind == OpKind::PFor)
            rename_tensor(op.loop.body, from, to);
    }
}

void erase_op(Block& block, const Op& op) {
    auto it =
        std::find_if(block.ops.begin(), block.ops.end(), [&](const Op& o) { return &o == &op; });
    if (it != block.ops.end())
        block.ops.erase(it);
}

} // namespace kiln::passes
