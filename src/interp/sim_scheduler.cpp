#include "interp/sim_scheduler.h"

#include <algorithm>

namespace kiln::interp::sim {

Scheduler::Scheduler(const SimOptions& o, std::function<bool(NodeId, NodeId)> textual_before)
    : sequential_(o.sequential), textual_before_(std::move(textual_before)),
      max_delay_(std::max(0, o.max_delay)), rng_(o.seed) {}

NodeId Scheduler::take_ready() {
    std::size_t i =
        sequential_
            ? std::min_element(ready_.begin(), ready_.end(), textual_before_) - ready_.begin()
            : static_cast<std::size_t>(rng_.integer(0, int64_t(ready_.size()) - 1));
    const NodeId id = ready_[i];
    ready_[i] = ready_.back();
    ready_.pop_back();
    return id;
}

void Scheduler::started(NodeId id) {
    ++starts_;
    const int64_t delay = sequential_ ? 0 : rng_.integer(0, max_delay_);
    flights_.push_back({starts_ + delay, id});
}

std::optional<NodeId> Scheduler::take_completion(bool force) {
    if (flights_.empty())
        return std::nullopt;
    std::vector<std::size_t> due;
    for (std::size_t i = 0; i < flights_.size(); ++i)
        if (flights_[i].due <= starts_)
            due.push_back(i);
    if (due.empty() && force) {
        const int64_t first =
            std::min_element(flights_.begin(), flights_.end(), [](auto& a, auto& b) {
                return a.due < b.due;
            })->due;
        for (std::size_t i = 0; i < flights_.size(); ++i)
            if (flights_[i].due == first)
                due.push_back(i);
    }
    if (due.empty())
        return std::nullopt;
    const std::size_t i =
        due[sequential_ ? 0 : static_cast<std::size_t>(rng_.integer(0, int64_t(due.size()) - 1))];
    const NodeId id = flights_[i].id;
    flights_.erase(flights_.begin() + static_cast<std::ptrdiff_t>(i));
    return id;
}

} // namespace kiln::interp::sim
