#include "passes/happens_before.h"

namespace kiln::passes {

using event::Op;
using event::OpKind;

namespace {
} // namespace

HappensBefore::HappensBefore(const event::Block& body) {
    std::vector<const Op*> loops;
    index(body, loops);
    succ_.resize(2 * nodes_.size());
    connect(body);
}

void HappensBefore::index(const event::Block& block, std::vector<const Op*>& loops) {
    for (const Op& op : block.ops) {
        int n = static_cast<int>(nodes_.size());
        nodes_[&op] = n;
        loops_[&op] = loops;
        if (!op.result.empty())
            defs_[op.result] = &op;
        if (is_loop(op)) {
            loops.push_back(&op);
            index(op.loop.body, loops);
            loops.pop_back();
        }
    }
}

void HappensBefore::connect(const event::Block& block) {
    for (const Op& op : block.ops) {
        for (const auto& ref : op.after)
            if (ref.distance == 0)
                if (const Op* producer = definition(ref.id))
                    succ_[end(*producer)].push_back(start(op));
        if (!is_loop(op)) {
            succ_[start(op)].push_back(end(op));
            continue;
        }
        for (const Op& inner : op.loop.body.ops)
            succ_[start(op)].push_back(start(inner));
        const auto& yield = op.loop.body.yield;
        const Op* last = yield && yield->distance == 0 ? definition(yield->id) : nullptr;
        if (last)
            succ_[end(*last)].push_back(end(op));
        else if (op.loop.body.ops.empty() || !yield)
            succ_[start(op)].push_back(end(op));
        connect(op.loop.body);
    }
}

const std::vector<char>& HappensBefore::reachable_from(int node) const {
    auto it = reach_.find(node);
    if (it != reach_.end())
        return it->second;
    std::vector<char> seen(succ_.size(), 0);
    std::vector<int> stack{node};
    while (!stack.empty()) {
        int n = stack.back();
        stack.pop_back();
        for (int s : succ_[n])
            if (!seen[s]) {
                seen[s] = 1;
                stack.push_back(s);
            }
    }
    return reach_.emplace(node, std::move(seen)).first->second;
}

bool HappensBefore::before(const Op& a, const Op& b) const {
    return &a != &b && reachable_from(end(a))[start(b)];
}

bool HappensBefore::ends_iteration(const Op& a, const Op& loop) const {
    return reachable_from(end(a))[end(loop)];
}

const std::vector<const Op*>& HappensBefore::loops_around(const Op& op) const {
    return loops_.at(&op);
}

const Op* HappensBefore::common_loop(const Op& a, const Op& b) const {
    const auto& la = loops_around(a);
    const auto& lb = loops_around(b);
    const Op* common = nullptr;
    for (std::size_t i = 0; i < la.size() && i < lb.size() && la[i] == lb[i]; ++i)
        common = la[i];
    return common;
}

const Op& HappensBefore::visible_event(const Op& a, const Op& b) const {
    const auto& la = loops_around(a);
    const auto& lb = loops_around(b);
    for (std::size_t i = 0; i < la.size(); ++i)
        if (i >= lb.size() || la[i] != lb[i])
            return *la[i];
    return a;
}

const Op* HappensBefore::definition(const std::string& id) const {
    auto it = defs_.find(id);
    return it == defs_.end() ? nullptr : it->second;
}

} // namespace kiln::passes
