#include "passes/add_ref.h"

#include <algorithm>
#include <map>

namespace kiln::passes {

namespace {

bool runs_over(const event::Op& op, const event::ProcDim& dim) {
    return std::any_of(op.over.begin(), op.over.end(), [&](const event::ProcDim& d) {
        return d.var == dim.var && d.level == dim.level && d.extent == dim.extent;
    });
}

// Does `op` wait for an event its own block defines (distance 0)?
bool waits_in_block(const event::Op& op, const event::Block& block) {
    return std::any_of(op.after.begin(), op.after.end(), [&](const event::EventRef& r) {
        return r.distance == 0 && std::any_of(block.ops.begin(), block.ops.end(),
                                              [&](const event::Op& o) { return o.result == r.id; });
    });
}

} // namespace

event::Role signal_role(const event::Op& op) {
    const auto& yield = op.loop.body.yield;
    if (!is_loop(op) || op.role != event::Role::Any || !yield)
        return op.role;
    for (const auto& inner : op.loop.body.ops)
        if (inner.result == yield->id)
            return signal_role(inner);
    return op.role;
}

bool crosses(event::Role consumer, event::Role producer) {
    return consumer != event::Role::Any && producer != event::Role::Any && consumer != producer;
}

void add_wait(event::Op& consumer, event::EventRef ref, event::Role producer) {
    auto present = std::find_if(consumer.after.begin(), consumer.after.end(), [&](const auto& r) {
        return r.id == ref.id && r.distance == ref.distance;
    });
    // A point-wise wait already there does not cover a broadcast one (a lane reading what the
    // other lanes of its quad write): the wait becomes the broadcast where either is one.
    if (present != consumer.after.end() && present->index.size() == ref.index.size())
        for (std::size_t i = 0; i < ref.index.size(); ++i)
            if (!ref.index[i])
                present->index[i] = nullptr;
    if (present == consumer.after.end()) {
        event::EventRef own = ref;
        own.cross = crosses(consumer.role, producer);
        consumer.after.push_back(std::move(own));
    }
    if (!is_loop(consumer) || consumer.role != event::Role::Any || producer == event::Role::Any)
        return;
    auto& body = consumer.loop.body;
    for (auto& first : body.ops)
        if (!first.result.empty() && first.role != producer && !waits_in_block(first, body))
            add_wait(first, ref, producer);
}

void add_ref(event::Op& consumer, const event::Op& producer, int64_t distance,
             const std::set<std::string>& pointwise) {
    event::EventRef ref;
    ref.id = producer.result;
    ref.distance = distance;
    for (const auto& dim : event::event_dims(producer))
        ref.index.push_back(
            pointwise.count(dim.var) && runs_over(consumer, dim) ? ir::name_ref(dim.var) : nullptr);
    add_wait(consumer, std::move(ref), signal_role(producer));
}

void add_refs(event::Block& block, const std::vector<PendingRef>& refs) {
    std::multimap<const event::Op*, const PendingRef*> by_consumer;
    for (const auto& r : refs)
        by_consumer.insert({r.consumer, &r});
    event::walk(block, [&](event::Op& op) {
        auto [from, to] = by_consumer.equal_range(&op);
        for (auto it = from; it != to; ++it)
            add_ref(op, *it->second->producer, it->second->distance, it->second->pointwise);
    });
}

} // namespace kiln::passes
