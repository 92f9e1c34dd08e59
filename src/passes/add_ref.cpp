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

} // namespace

void add_ref(event::Op& consumer, const event::Op& producer, int64_t distance,
             const std::set<std::string>& pointwise) {
    bool present = std::any_of(consumer.after.begin(), consumer.after.end(), [&](const auto& r) {
        return r.id == producer.result && r.distance == distance;
    });
    if (present)
        return;
    event::EventRef ref;
    ref.id = producer.result;
    ref.distance = distance;
    ref.cross = consumer.role != producer.role;
    for (const auto& dim : event::event_dims(producer))
        ref.index.push_back(
            pointwise.count(dim.var) && runs_over(consumer, dim) ? ir::name_ref(dim.var) : nullptr);
    consumer.after.push_back(std::move(ref));
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
